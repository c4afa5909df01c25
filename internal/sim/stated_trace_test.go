package sim

import (
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/sim/simtest"
	"github.com/k8sexplain/k8sexplain/internal/trace"
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

// A new Namespace is acted on by kube-controller-manager (the default
// ServiceAccount, the kube-root-ca.crt ConfigMap): the trace no longer says
// no controller reconciles it (issue 23); the simulator does not run them.
func TestNamespaceNamesItsControllers(t *testing.T) {
	tr := exampleCluster(t, "quota.yaml", Config{Seed: 1, Workers: 3}).Run("t")
	s, ok := simtest.FirstAt(tr, "stored.namespace", "", "")
	if !ok || !strings.Contains(trace.Text("en", &s), "default ServiceAccount") || !strings.Contains(trace.Text("en", &s), "kube-root-ca.crt") {
		t.Fatalf("the Namespace step does not name the controllers that act on it: %+v", s)
	}
	if _, ok := simtest.FirstAt(tr, "stored.data", "kind", "Namespace"); ok {
		t.Fatal("a Namespace is still described as data no controller reconciles")
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
