package informer

import (
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
)

// A factory hands every component the same informer per resource, starts
// each once with one watch, and every component's handler hears each event;
// an index two components both ask for is filed once.
func TestFactoryShares(t *testing.T) {
	e := newEnv(t)
	kcm := e.api.NewClient("kube-controller-manager", apiserver.Identity{User: "system:kube-controller-manager"}, trace.PhaseController)
	f := NewFactory(kcm)
	a := For[*corev1.Pod](f, "pods").EnsureIndexer(ControllerIndex, ByController[*corev1.Pod])
	b := For[*corev1.Pod](f, "pods").EnsureIndexer(ControllerIndex, ByController[*corev1.Pod])
	if a != b {
		t.Fatal("two requests for pods gave two informers")
	}
	var heard []string
	a.AddEventHandlerFor("first-controller", func(ev Event[*corev1.Pod]) { heard = append(heard, "first "+ev.Obj.Name) })
	b.AddEventHandlerFor("second-controller", func(ev Event[*corev1.Pod]) { heard = append(heard, "second "+ev.Obj.Name) })
	f.Start()
	f.Start() // started informers are not started again
	e.create(pod("default", "web-1", "", "web"))
	e.run()
	if got := e.api.Requests["kube-controller-manager"]; got != 1 {
		t.Fatalf("%d watches for one shared informer, want 1", got)
	}
	if len(heard) != 2 || heard[0] != "first web-1" || heard[1] != "second web-1" {
		t.Fatalf("handlers heard %q, want each controller's once, in the order added", heard)
	}
	if got := a.ByIndex(ControllerIndex, "uid-web"); len(got) != 1 {
		t.Fatalf("ByIndex: %d pods, want 1", len(got))
	}
	// A component built alone gets a factory of its own, which it starts.
	use, own := Or(nil, e.admin)
	if use != own || !own.private {
		t.Fatal("Or(nil) should give the caller a private factory to start")
	}
	if use, own := Or(f, e.admin); use != f || own != nil {
		t.Fatal("Or(f) should use the shared factory and leave starting it to its owner")
	}
}
