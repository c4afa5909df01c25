package sim

import (
	"strings"
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

// The scheduler's loop does not wait for its bindings (upstream binds on a
// goroutine): with the scheduler's requests held, every pod of the
// Deployment has its binding asked for, one cycle apart, and none is bound
// until the test sends them.
func TestSchedulerBindsWithoutWaiting(t *testing.T) {
	const src = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - {name: web, image: nginx:1.27}
`
	c := appliedCluster(t, Config{Seed: 1, Workers: 3}, "web.yaml", src)
	ob := c.sched.c.Hold()
	c.eng.Run(c.eng.Now() + time.Minute)
	var bindings []string
	for _, r := range ob.Requests() {
		if strings.HasSuffix(r.Path, "/binding") {
			bindings = append(bindings, r.Path)
		}
	}
	if len(bindings) != 3 {
		t.Fatalf("held bindings %q, want one per pod", bindings)
	}
	for _, p := range c.Pods() {
		if p.Spec.NodeName != "" {
			t.Fatalf("pod %s bound to %s before its binding was sent", p.Name, p.Spec.NodeName)
		}
	}
	ob.Release()
	c.eng.Run(c.eng.Now() + time.Minute)
	for _, p := range c.Pods() {
		if p.Spec.NodeName == "" {
			t.Fatalf("pod %s still unbound after the bindings were sent", p.Name)
		}
	}
	if n := c.eng.Procs(); n != 0 {
		t.Fatalf("%d procs parked after the bindings were answered", n)
	}
}
