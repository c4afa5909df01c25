package sim

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/golden"
	"github.com/k8sexplain/k8sexplain/internal/sim/simtest"
	appsv1 "k8s.io/api/apps/v1"
)

// With minReadySeconds a Ready pod counts as available only that long
// after it became Ready (podutil.IsPodAvailable), and the ReplicaSet
// controller looks again once that time has passed (syncReplicaSet's
// AddAfter): the ReplicaSet reports 3 ready and fewer available first, then
// all 3 available no sooner than 10 s after the last pod was Ready.
func TestMinReadySecondsDelaysAvailability(t *testing.T) {
	src, err := os.ReadFile(golden.Root() + "/examples/app.yaml")
	if err != nil {
		t.Fatal(err)
	}
	manifest := strings.Replace(string(src), "  replicas: 3\n", "  replicas: 3\n  minReadySeconds: 10\n", 1)
	if manifest == string(src) {
		t.Fatal("examples/app.yaml has no 'replicas: 3' line to add minReadySeconds after")
	}
	c, err := NewCluster(Config{Seed: 1, Workers: 3, LogWrites: true})
	if err != nil {
		t.Fatal(err)
	}
	c.Apply(simtest.Parse(t, manifest), []string{"app.yaml"})
	c.RunFor(time.Minute)
	var allReady, allAvailable time.Duration = -1, -1
	for _, w := range c.Writes() {
		rs, ok := w.Object.(*appsv1.ReplicaSet)
		if !ok || w.Subresource != "status" {
			continue
		}
		if rs.Status.ReadyReplicas == 3 && allReady < 0 {
			allReady = w.At
			if rs.Status.AvailableReplicas == 3 {
				t.Fatalf("at %s all 3 pods are Ready and already available, want minReadySeconds to hold them back", w.At)
			}
		}
		if rs.Status.AvailableReplicas == 3 && allAvailable < 0 {
			allAvailable = w.At
		}
	}
	if allReady < 0 || allAvailable < 0 {
		t.Fatalf("the ReplicaSet never reported 3 ready (%s) and 3 available (%s)", allReady, allAvailable)
	}
	if d := allAvailable - allReady; d < 10*time.Second || d > 11*time.Second {
		t.Fatalf("3 available %s after 3 ready, want 10 s (minReadySeconds) plus the sync", d)
	}
}
