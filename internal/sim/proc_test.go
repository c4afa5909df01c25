package sim

import (
	"testing"
	"time"
)

// Every proc a controller starts (a sync, a pod creation, a taint write)
// returns once its answers came: after a settled apply and a rollout none
// is left parked, so no goroutine outlives the run.
func TestNoProcLeftParked(t *testing.T) {
	cl := settled(t, recreate)
	if n := cl.eng.Procs(); n != 0 {
		t.Fatalf("%d procs parked after the apply settled", n)
	}
	if err := cl.SetImage(cl.Deployment("default", "api"), "api", "example/api:2.0"); err != nil {
		t.Fatal(err)
	}
	cl.RunFor(5 * time.Minute)
	if n := cl.eng.Procs(); n != 0 {
		t.Fatalf("%d procs parked after the rollout", n)
	}
}
