package sim

import (
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/sim/simtest"
)

// POST pods/binding is answered with a Status, not the Pod
// (pkg/registry/core/pod/storage/storage.go BindingREST.Create, v1.37): the
// trace says so instead of "201 Created (Pod, …)" (issue 23).
func TestBindingAnswersStatus(t *testing.T) {
	tr := exampleCluster(t, "app.yaml", Config{Seed: 1, Workers: 3}).Run("t")
	if _, ok := simtest.FirstAt(tr, "apiserver.bound", "status", "201 Created"); !ok {
		t.Fatal("no binding answered with a Status")
	}
}

// NamespaceLifecycle and NodeRestriction implement only Admit
// (plugin/pkg/admission/namespace/lifecycle, noderestriction, v1.37): the
// trace does not list them among the validating plugins (issue 23).
func TestValidatingPluginsLeaveOutAdmitOnly(t *testing.T) {
	tr := exampleCluster(t, "app.yaml", Config{Seed: 1, Workers: 3}).Run("t")
	n := 0
	for _, s := range tr.Steps {
		if s.Kind != "apiserver.validated" {
			continue
		}
		n++
		if p := s.Get("plugins"); strings.Contains(p, "NamespaceLifecycle") || strings.Contains(p, "NodeRestriction") || !strings.HasSuffix(p, "ResourceQuota") {
			t.Errorf("%s: validating plugins %q", s.Object, p)
		}
	}
	if n == 0 {
		t.Fatal("no validation step")
	}
}
