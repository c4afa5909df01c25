package sim

import (
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
