package sim

import (
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/trace"
)

// The state log replayed to its end is the store at the end of the run:
// the same pods, each as kubectl get prints it, and every change is
// ordered against the steps.
func TestStateLogReplaysToTheStore(t *testing.T) {
	c := exampleCluster(t, "app.yaml", Config{Seed: 1, Workers: 3, RecordState: true})
	tr := c.Run("test")
	if tr.State == nil || len(tr.State.Changes) == 0 {
		t.Fatal("no state log")
	}
	for i := 1; i < len(tr.State.Changes); i++ {
		a, b := tr.State.Changes[i-1], tr.State.Changes[i]
		if b.Seq < a.Seq || b.At < a.At {
			t.Fatalf("change %d (seq %d, %v) before change %d (seq %d, %v)", i, b.Seq, b.At, i-1, a.Seq, a.At)
		}
	}
	rows := tr.State.Upto(len(tr.State.Changes), len(tr.State.Changes))
	pods := map[string]string{}
	for _, r := range rows {
		if r.Kind == "Pod" {
			pods[r.Name] = strings.Join(r.Cols[1:4], " ") + " " + r.Cols[6]
		}
	}
	store := c.Pods()
	if len(pods) != len(store) || len(store) != 3 {
		t.Fatalf("replayed %d pods, the store has %d", len(pods), len(store))
	}
	for _, p := range store {
		got := pods[p.Namespace+"/"+p.Name]
		if got != "1/1 Running 0 "+p.Spec.NodeName {
			t.Errorf("pod %s replayed as %q, want 1/1 Running 0 %s", p.Name, got, p.Spec.NodeName)
		}
	}
	// Before the first step only the bootstrap objects exist: nodes and
	// the kubernetes Service, no pods yet.
	first := tr.State.Upto(tr.State.UptoSeq(-1), 0)
	for _, r := range first {
		if r.Kind == "Pod" || r.Kind == "Deployment" {
			t.Errorf("%s %s exists before the first step", r.Kind, r.Name)
		}
	}
	// At the step where the scheduler sends its binding, the pod is still
	// Pending with no node: the API server has not committed the binding.
	// By the end it runs on the node the binding named.
	binds := 0
	for _, s := range tr.Steps {
		if s.Kind != "scheduler.bind" {
			continue
		}
		binds++
		name := s.Object[strings.Index(s.Object, "/")+1:]
		found := false
		for _, r := range tr.State.Upto(tr.State.UptoSeq(s.Seq), 0) {
			if r.Kind == "Pod" && r.Name == name {
				found = true
				if r.Cols[2] != "Pending" || r.Cols[6] != "<none>" {
					t.Errorf("at the bind step of %s the pod is %s on %s; want Pending on <none>", name, r.Cols[2], r.Cols[6])
				}
			}
		}
		if !found {
			t.Errorf("at the bind step the pod %s does not exist", name)
		}
	}
	if binds != 3 {
		t.Errorf("%d scheduler.bind steps, want 3", binds)
	}
}

func TestStateLogIsBounded(t *testing.T) {
	c := exampleCluster(t, "app.yaml", Config{Seed: 1, Workers: 3, RecordState: true, StateLimit: 10})
	tr := c.Run("test")
	if len(tr.State.Changes) != 10 || tr.State.Dropped == 0 {
		t.Errorf("limit 10: kept %d, dropped %d", len(tr.State.Changes), tr.State.Dropped)
	}
	_ = trace.DefaultStateLimit
}
