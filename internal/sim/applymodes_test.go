package sim

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/golden"
	"github.com/k8sexplain/k8sexplain/internal/sim/simtest"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
)

// applyModesRun plays the apply-modes story on examples/app.yaml's
// Deployment (replicas 3), kubectl scale to 5, and returns its steps of
// kubectl: what each command asked and what came back.
func applyModesRun(t *testing.T, mode string) []trace.Step {
	t.Helper()
	src, err := os.ReadFile(golden.Root() + "/examples/app.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var dep *appsv1.Deployment
	for _, o := range simtest.Parse(t, string(src)) {
		if d, ok := o.Obj.(*appsv1.Deployment); ok {
			dep = d
		}
	}
	c, err := NewCluster(Config{Seed: 1, Workers: 3, FieldManagement: true})
	if err != nil {
		t.Fatal(err)
	}
	c.Settle()
	c.ApplyModes(mode, dep, "app.yaml", 5)
	c.RunFor(4 * time.Minute)
	var out []trace.Step
	for _, s := range c.Story("t", "apply-modes").Steps {
		if s.Actor == "kubectl" && (s.Kind == "kubectl.managedfields" || s.Kind == "kubectl.error") {
			out = append(out, s)
		}
	}
	return out
}

// One answer per command: the server story's seven, with the conflict
// only where the applier's value differs from the live one another
// manager owns.
func TestServerSideApplyOwnership(t *testing.T) {
	got := applyModesRun(t, "server")
	if len(got) != 7 {
		t.Fatalf("want 7 answers (7 commands), got %d: %v", len(got), got)
	}
	want := []struct{ replicas, owners string }{
		{"3", "kubectl (Apply)"},
		{"5", "kubectl (Update, scale)"},
		{"", ""}, // apply of 3 over kubectl scale's 5: 409
		{"5", "kubectl (Apply), kubectl (Update, scale)"}, // the same value: shared, no conflict
		{"5", "kubectl (Update, scale)"},                  // released; the value stays, scale still owns it
		{"3", "kubectl (Apply)"},                          // --force-conflicts: ownership moves
		{"1", "—"},                                        // released by its only owner: removed, defaulted
	}
	for i, w := range want {
		s := got[i]
		if w.replicas == "" {
			msg := `error: Apply failed with 1 conflict: conflict with "kubectl" with subresource "scale" using apps/v1: .spec.replicas`
			if s.Kind != "kubectl.error" || s.Get("status") != "409 Conflict" || s.Get("message") != msg {
				t.Errorf("command %d: want 409 %q, got %s %v", i+1, msg, s.Kind, s.Fields)
			}
			continue
		}
		if s.Kind != "kubectl.managedfields" || s.Get("replicas") != w.replicas || s.Get("owners") != w.owners {
			t.Errorf("command %d: want replicas %s owned by %q, got %s %v", i+1, w.replicas, w.owners, s.Kind, s.Fields)
		}
	}
}

// Client-side apply without replicas after kubectl scale: the three-way
// merge deletes the field (back to 1), and keeps the label only kubectl
// label set.
func TestClientSideApplyDeletesReplicas(t *testing.T) {
	got := applyModesRun(t, "client")
	if len(got) != 4 {
		t.Fatalf("want 4 answers, got %d: %v", len(got), got)
	}
	if r := got[1].Get("replicas"); r != "5" {
		t.Errorf("after kubectl scale: replicas %s, want 5", r)
	}
	last := got[3]
	if last.Get("replicas") != "1" || !strings.Contains(last.Get("labels"), "tier=frontend") {
		t.Errorf("after the apply without replicas: want replicas 1 and the label kept, got %v", last.Fields)
	}
}

// Every other scenario stores no managedFields.
func TestFieldManagementIsOffByDefault(t *testing.T) {
	c := exampleCluster(t, "app.yaml", Config{Seed: 1, Workers: 3})
	c.Settle()
	d := c.Deployment("default", "web")
	if d == nil || len(d.ManagedFields) != 0 {
		t.Fatalf("want the Deployment without managedFields, got %v", d)
	}
}
