package oracle

import (
	"path/filepath"

	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// UpstreamDefaults is one corpus file of defaults.json: its objects as
// upstream's registered defaulters leave them (k8s.io/kubernetes
// legacyscheme, oracle/hashcheck -defaults), and the documents upstream
// could not decode.
type UpstreamDefaults struct {
	File    string   `json:"file"`
	Objects []any    `json:"objects"`
	Errors  []string `json:"errors"`
}

// LoadUpstreamDefaults reads defaults.json of the version the simulator
// models.
func LoadUpstreamDefaults(root string) ([]UpstreamDefaults, error) {
	var ds []UpstreamDefaults
	return ds, readJSON(filepath.Join(root, Dir(), "defaults.json"), &ds)
}

// CompareUpstreamDefaults lists each field where the simulator's
// defaulting (manifest.Default) of a corpus file differs from upstream's
// defaulters, as "Kind path" (check "upstream-default"). The namespace is
// left out: it comes from the request, not from defaulting. Custom
// resources are left out: upstream's scheme does not know them either.
func CompareUpstreamDefaults(corpus string, up UpstreamDefaults) []Diff {
	objs, err := manifest.Load([]string{filepath.Join(corpus, up.File)}, nil)
	if err != nil {
		if len(up.Objects) == 0 {
			return nil // neither side has objects: the file does not load
		}
		return []Diff{{Check: "upstream-default", Scenario: up.File, What: "(file)", Detail: "the simulator cannot load it: " + err.Error()}}
	}
	var sim []any
	for _, o := range objs {
		if _, cr := o.Obj.(*unstructured.Unstructured); cr {
			continue
		}
		obj := o.Obj.DeepCopyObject()
		manifest.Default(obj)
		if m := objectMap(obj); m != nil {
			sim = append(sim, withoutNamespace(m))
		}
	}
	var real []any
	for _, o := range up.Objects {
		if m, ok := o.(map[string]any); ok {
			real = append(real, withoutNamespace(m))
		}
	}
	return compareObjects("upstream-default", up.File, real, sim)
}

func withoutNamespace(m map[string]any) map[string]any {
	cp := map[string]any{}
	for k, v := range m {
		cp[k] = v
	}
	if md, ok := m["metadata"].(map[string]any); ok {
		nm := map[string]any{}
		for k, v := range md {
			if k != "namespace" {
				nm[k] = v
			}
		}
		cp["metadata"] = nm
	}
	return cp
}
