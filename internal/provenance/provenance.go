// Package provenance says where the trainer's explanations come from.
//
// Every explanation a trace prints paraphrases upstream: a Kubernetes file,
// a pull request, containerd's or runc's source. A Source names those
// references and the version at which someone read the sentence against
// them. The catalogues keep their sources in a file of their own beside the
// texts (so a change of wording and a change of source do not touch the same
// lines), each package's test fails on an explanation without a source, and
// docs/PROVENANCE.md lists them all, with the entries to read again when the
// modelled version (internal/k8sversion) moves.
//
// What it leaves out: a Source is a claim by whoever wrote it, not a proof;
// the listing makes the claim checkable, it does not check it.
package provenance

import (
	"fmt"
	"sort"
	"strings"
)

// Source is where one explanation comes from.
type Source struct {
	// Refs are the upstream files or pull requests the explanation
	// paraphrases: "kubernetes/kubernetes pkg/kubelet/kuberuntime/kuberuntime_container.go",
	// "kubernetes/kubernetes#134043", "containerd/containerd internal/cri/server/container_create_linux.go".
	Refs []string
	// Checked is the release the sentences were read against: a Kubernetes
	// minor ("v1.37") for Kubernetes sources, or the component and its
	// version ("containerd v2.2", "runc v1.3.3") for the others.
	Checked string
}

// K8s is a source in Kubernetes checked at minor: a bare path is a file of
// kubernetes/kubernetes (staging/… for client-go and apiserver), "#N" its
// pull request, "KEP-N" an enhancement; a ref with a space already names
// its repository ("kubernetes/website content/…").
func K8s(minor string, refs ...string) Source {
	out := make([]string, len(refs))
	for i, r := range refs {
		switch {
		case strings.HasPrefix(r, "#"):
			r = "kubernetes/kubernetes" + r
		case strings.HasPrefix(r, "KEP-") || namesRepo(r):
		default:
			r = "kubernetes/kubernetes " + r
		}
		out[i] = r
	}
	return Source{Refs: out, Checked: minor}
}

// owners are the GitHub owners whose repositories the sources cite.
var owners = []string{"kubernetes/", "containerd/", "opencontainers/", "golang/", "coredns/", "etcd-io/", "containernetworking/", "grpc/"}

// namesRepo reports whether ref starts with a repository of owners
// ("containerd/containerd internal/…", "opencontainers/runc#4785").
func namesRepo(ref string) bool {
	for _, o := range owners {
		if strings.HasPrefix(ref, o) {
			return true
		}
	}
	return false
}

// Of is a source outside Kubernetes checked at component's version
// ("containerd v2.2").
func Of(checked string, refs ...string) Source { return Source{Refs: refs, Checked: checked} }

// Plus adds the refs of o (another project's source for the same
// explanation) and its version to s.
func (s Source) Plus(o Source) Source {
	return Source{Refs: append(append([]string{}, s.Refs...), o.Refs...), Checked: s.Checked + ", " + o.Checked}
}

// IsKubernetes reports whether the source was checked against a Kubernetes
// release (its Checked names one, "v1.X").
func (s Source) IsKubernetes() bool {
	for _, c := range strings.Split(s.Checked, ", ") {
		if strings.HasPrefix(c, "v1.") {
			return true
		}
	}
	return false
}

// CheckedAt reports whether a Kubernetes source was read against minor.
func (s Source) CheckedAt(minor string) bool {
	for _, c := range strings.Split(s.Checked, ", ") {
		if c == minor {
			return true
		}
	}
	return false
}

// Problems lists what makes a catalogue's sources incomplete: an
// explanation (a key of texts) without a source, a source with no ref or no
// version, and a source for a key that has no explanation (left over after a
// text was removed).
func Problems(catalogue string, texts map[string]string, sources map[string]Source) []string {
	var out []string
	for _, k := range sortedKeys(texts) {
		s, ok := sources[k]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("%s: explanation %s has no source (add it to the catalogue's sources)", catalogue, k))
		case len(s.Refs) == 0 || s.Checked == "":
			out = append(out, fmt.Sprintf("%s: the source of %s names no upstream file or no version", catalogue, k))
		}
	}
	for _, k := range sortedKeys(sources) {
		if _, ok := texts[k]; !ok {
			out = append(out, fmt.Sprintf("%s: source for %s, which has no explanation", catalogue, k))
		}
	}
	return out
}

// BySection gives each text the source of its own key in all, else the
// source of the longest key of all that ends in "." and prefixes it (a
// section); a text with neither gets none, which Problems reports. It serves
// the catalogues whose sources are assigned by section.
func BySection(texts map[string]string, all map[string]Source) map[string]Source {
	out := make(map[string]Source, len(texts))
	for key := range texts {
		if s, ok := all[key]; ok {
			out[key] = s
			continue
		}
		best := ""
		for p := range all {
			if strings.HasSuffix(p, ".") && strings.HasPrefix(key, p) && len(p) > len(best) {
				best = p
			}
		}
		if best != "" {
			out[key] = all[best]
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
