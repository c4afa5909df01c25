package oracle

import (
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/sim"
	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
)

// serverOnly are metadata fields the API server (not defaulting) sets, and
// kubectl apply's annotation: left out of the defaults comparison.
var serverOnly = []string{"uid", "creationTimestamp", "generation"}

const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// serverErr is the server's message in kubectl's error line.
var serverErr = regexp.MustCompile(`^Error from server \([A-Za-z]+\): error when (?:creating|applying patch|retrieving current configuration)[^:]*"[^"]*": (.*)$`)

var (
	kubectlInvalid = regexp.MustCompile(`^The ([A-Za-z]+) "([^"]*)" is invalid: ?(.*)$`)
	serverInvalid  = regexp.MustCompile(`^([A-Za-z]+)(?:\.[a-z0-9.]+)? "([^"]*)" is invalid: (.*)$`)
	causeStart     = regexp.MustCompile(`^[a-zA-Z][A-Za-z0-9.\[\]_-]*: `)
)

// invalidKey is one 422 answer: kind, name and its causes.
func invalidKey(kind, name string, causes []string) string {
	return kind + ` "` + name + `" is invalid: ` + strings.Join(causes, "; ")
}

// splitCauses splits the server's "[a, b]" list of field errors (a single
// error has no brackets); a ", " inside a cause's text stays.
func splitCauses(s string) []string {
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
		return []string{s}
	}
	var out []string
	for _, p := range strings.Split(s[1:len(s)-1], ", ") {
		if len(out) > 0 && !causeStart.MatchString(p) {
			out[len(out)-1] += ", " + p
			continue
		}
		out = append(out, p)
	}
	return out
}

// CompareDryRun lists the differences between the real API server's dry
// run of a corpus file and what the simulator's API server stores (or
// answers) when its kubectl applies the same file: defaults, admission,
// allocation, and the error messages. Every namespaced object goes to
// "default" (the recorder created the corpus's namespaces beforehand; the
// namespace itself is left out of the comparison).
func CompareDryRun(corpus, file string, real DryRun) []Diff {
	var out []Diff
	add := func(check, what, detail string) {
		out = append(out, Diff{Check: check, Scenario: file, What: what, Detail: detail})
	}
	simObjs, simErrs, loadErr := SimDryRun(corpus, file)
	if loadErr != nil {
		simErrs = append(simErrs, loadErr.Error())
	}
	var realObjs []any
	for _, o := range real.Objects {
		realObjs = append(realObjs, stripServerOnly(o))
	}
	out = append(out, compareObjects("default", file, realObjs, simObjs)...)
	var realMsgs []string
	for i := 0; i < len(real.Errors); i++ {
		l := real.Errors[i]
		if m := serverErr.FindStringSubmatch(l); m != nil {
			realMsgs = append(realMsgs, m[1])
		} else if m := kubectlInvalid.FindStringSubmatch(l); m != nil {
			// kubectl prints a 422 as `The Kind "name" is invalid: cause`,
			// or with one "* cause" line each when there are several
			causes := []string{m[3]}
			if m[3] == "" {
				causes = nil
				for i+1 < len(real.Errors) && strings.HasPrefix(real.Errors[i+1], "* ") {
					i++
					causes = append(causes, strings.TrimPrefix(real.Errors[i], "* "))
				}
			}
			realMsgs = append(realMsgs, invalidKey(m[1], m[2], causes))
		} else if strings.HasPrefix(l, "error:") || strings.HasPrefix(l, "Error") {
			realMsgs = append(realMsgs, l)
		}
	}
	sort.Strings(realMsgs)
	for i, m := range simErrs {
		// the server's message of a 422, `Kind.group "name" is invalid:
		// [cause, cause]`, in the shape of kubectl's
		if sm := serverInvalid.FindStringSubmatch(m); sm != nil {
			simErrs[i] = invalidKey(sm[1], sm[2], splitCauses(sm[3]))
		}
	}
	have := map[string]bool{}
	for _, m := range simErrs {
		have[m] = true
	}
	matched := map[string]bool{}
	for _, m := range realMsgs {
		if have[m] {
			matched[m] = true
			continue
		}
		add("validation", m, "the simulator did not answer with this message")
	}
	sort.Strings(simErrs)
	for _, m := range simErrs {
		if !matched[m] {
			add("validation", "simulated: "+m, "the real API server did not say this")
		}
	}
	return out
}

// SimDryRun applies a corpus file with the simulator's kubectl and returns
// the objects its API server stored on create (normalized, server-only
// metadata and namespace left out) and the messages of the creates it
// refused; loadErr is the simulator's kubectl failing to read the file.
func SimDryRun(corpus, file string) (objs []any, errs []string, loadErr error) {
	loaded, err := manifest.Load([]string{filepath.Join(corpus, file)}, nil)
	if err != nil {
		return nil, nil, err
	}
	var apply []manifest.Object
	for _, o := range loaded {
		obj := o.Obj.DeepCopyObject()
		if apiserver.ResourceOf(obj).Namespaced {
			apiserver.Meta(obj).SetNamespace("default")
			o.Namespace = "default"
		}
		o.Obj = obj
		apply = append(apply, o)
	}
	c, err := sim.NewCluster(sim.Config{Seed: 1, Workers: 3, LogWrites: true})
	if err != nil {
		return nil, nil, err
	}
	c.Settle()
	from := len(c.Writes())
	c.Apply(apply, []string{file})
	c.Settle()
	for _, e := range c.ClientErrors() {
		// The comparison keeps the first line of a kubectl error.
		first, _, _ := strings.Cut(e, "\n")
		errs = append(errs, first)
	}
	n := &normalizer{names: map[string]string{}}
	for _, w := range c.Writes()[from:] {
		if w.Actor != "kubectl" || w.Verb != "create" {
			continue
		}
		if w.Failure != "" {
			errs = append(errs, w.Failure)
			continue
		}
		if m := objectMap(w.Object); m != nil {
			objs = append(objs, stripServerOnly(n.walk(m)))
		}
	}
	return objs, errs, nil
}

func stripServerOnly(o any) any {
	m, ok := o.(map[string]any)
	if !ok {
		return o
	}
	cp := map[string]any{}
	for k, v := range m {
		cp[k] = v
	}
	md, _ := m["metadata"].(map[string]any)
	nm := map[string]any{}
	for k, v := range md {
		nm[k] = v
	}
	for _, k := range serverOnly {
		delete(nm, k)
	}
	if ann, ok := nm["annotations"].(map[string]any); ok {
		a := map[string]any{}
		for k, v := range ann {
			if k != lastApplied {
				a[k] = v
			}
		}
		if len(a) == 0 {
			delete(nm, "annotations")
		} else {
			nm["annotations"] = a
		}
	}
	delete(nm, "namespace")
	cp["metadata"] = nm
	return cp
}
