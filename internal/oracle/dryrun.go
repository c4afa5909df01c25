package oracle

import (
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
)

// serverOnly are metadata fields the API server (not defaulting) sets, and
// kubectl apply's annotation: left out of the defaults comparison.
var serverOnly = []string{"uid", "creationTimestamp", "generation"}

const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// serverErr is the server's message in kubectl's error line.
var serverErr = regexp.MustCompile(`^Error from server \([A-Za-z]+\): error when (?:creating|applying patch|retrieving current configuration)[^:]*"[^"]*": (.*)$`)

// CompareDryRun lists the differences between the real API server's dry
// run of a corpus file and the simulator's defaulting and validation of it.
func CompareDryRun(corpus, file string, real DryRun) []Diff {
	var out []Diff
	add := func(check, what, detail string) {
		out = append(out, Diff{Check: check, Scenario: file, What: what, Detail: detail})
	}
	objs, loadErr := manifest.Load([]string{filepath.Join(corpus, file)}, nil)
	var simObjs []any
	simErrs := map[string]bool{}
	if loadErr != nil {
		simErrs[loadErr.Error()] = true
	}
	n := &normalizer{names: map[string]string{}}
	for _, o := range objs {
		obj := o.Obj.DeepCopyObject()
		manifest.Default(obj)
		if err := manifest.Validate(obj); err != nil {
			simErrs[apiserver.AsStatus(err).Message] = true
			continue
		}
		m := objectMap(obj)
		if m == nil {
			continue
		}
		if ns(m) == "" && o.Namespace == "" && apiserver.ResourceOf(obj).Namespaced {
			m["metadata"].(map[string]any)["namespace"] = "default"
		}
		simObjs = append(simObjs, n.walk(m))
	}
	var realObjs []any
	for _, o := range real.Objects {
		realObjs = append(realObjs, stripServerOnly(o))
	}
	for i := range simObjs {
		simObjs[i] = stripServerOnly(simObjs[i])
	}
	out = append(out, compareObjects("default", file, realObjs, simObjs)...)
	var realMsgs []string
	for _, l := range real.Errors {
		if m := serverErr.FindStringSubmatch(l); m != nil {
			realMsgs = append(realMsgs, m[1])
		} else if strings.HasPrefix(l, "error:") || strings.HasPrefix(l, "Error") {
			realMsgs = append(realMsgs, l)
		}
	}
	sort.Strings(realMsgs)
	matched := map[string]bool{}
	for _, m := range realMsgs {
		if simErrs[m] {
			matched[m] = true
			continue
		}
		add("validation", m, "the simulator did not reject it with this message")
	}
	for _, m := range sortedKeys(simErrs) {
		if !matched[m] {
			add("validation", "simulated: "+m, "the real API server did not say this")
		}
	}
	return out
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
	cp["metadata"] = nm
	return cp
}
