package manifest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	_ "github.com/k8sexplain/k8sexplain/internal/golden" // every test package takes -update
)

// realDir is ../shared/manifests/real seen from the repository root.
const realDir = "../../../shared/manifests/real"

// expectedLoadErrors records the real files that must not load, and why
// (a part of the one-line error each must give).
var expectedLoadErrors = map[string]string{
	// unrendered Helm templates
	"GoogleCloudPlatform__microservices-demo__helm-chart_templates_frontend.yaml":          ":15: not valid YAML: did not find expected node content (a Helm template? render it with helm template first)",
	"kubernetes__ingress-nginx__charts_ingress-nginx_templates_controller-deployment.yaml": ":1: not valid YAML: did not find expected node content (a Helm template?",
	// a kustomize input, not an object
	"GoogleCloudPlatform__microservices-demo__kubernetes-manifests_kustomization.yaml": `:15: resource mapping not found for name: "" namespace: "" from `,
	// policy/v1beta1 was removed in Kubernetes 1.25
	"kubernetes__examples___archived_cockroachdb_cockroachdb-statefulset.yaml": `:57: resource mapping not found for name: "cockroachdb-budget" namespace: "" from `,
}

// TestRealManifests loads every real-world manifest: each one either loads
// or fails with one specific line and exit code 1, never a panic.
func TestRealManifests(t *testing.T) {
	entries, err := os.ReadDir(realDir)
	if err != nil {
		t.Skipf("real manifests not available (%v); they live in ../shared/manifests/real next to the repository", err)
	}
	for _, e := range entries {
		if e.IsDir() || e.Name() == "SOURCES.md" {
			continue
		}
		path := filepath.Join(realDir, e.Name())
		objs, err := Load([]string{path}, nil)
		if err != nil {
			if exitcode.Code(err) != exitcode.Input {
				t.Errorf("%s: exit code %d, want %d: %v", e.Name(), exitcode.Code(err), exitcode.Input, err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: error is not one line: %q", e.Name(), err)
			}
			t.Logf("%-80s ERROR %v", e.Name(), strings.TrimPrefix(err.Error(), realDir+"/"))
			if want, ok := expectedLoadErrors[e.Name()]; ok && !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error %q, want it to contain %q", e.Name(), err, want)
			}
			continue
		}
		if want, ok := expectedLoadErrors[e.Name()]; ok {
			t.Errorf("%s: loaded, want an error containing %q", e.Name(), want)
		}
		var invalid []string
		for _, o := range objs {
			Default(o.Obj)
			if verr := Validate(o.Obj); verr != nil {
				invalid = append(invalid, verr.Error())
			}
		}
		t.Logf("%-80s ok %d objects; %d rejected by validation %q", e.Name(), len(objs), len(invalid), invalid)
	}
}
