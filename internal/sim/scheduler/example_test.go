package scheduler

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The simulator's default cluster: a tainted control plane and three 4-CPU
// workers. Three replicas of one ReplicaSet land on three different workers:
// the control plane is filtered out, and once a worker holds a replica both
// LeastAllocated and the default hostname spreading rank it lower.
func TestThreeReplicasSpread(t *testing.T) {
	cp := taint(node("control-plane", "4", "8Gi"), "node-role.kubernetes.io/control-plane", "", corev1.TaintEffectNoSchedule)
	c := cluster(t, []*corev1.Node{cp, node("node-a", "4", "8Gi"), node("node-b", "4", "8Gi"), node("node-c", "4", "8Gi")})
	lbl := map[string]string{"app": "web", "pod-template-hash": "7d4b9c"}
	rs := &metav1.LabelSelector{MatchLabels: lbl}
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"}, Spec: corev1.ServiceSpec{Selector: map[string]string{"app": "web"}}}
	s, r := New(), rng(42)
	seen := map[string]bool{}
	for i := 0; i < 3; i++ {
		p := owned(pod(fmt.Sprintf("web-%d", i), "100m", "128Mi"), "rs-web", lbl)
		res := s.Schedule(p, c, r, DefaultSpreadSelector(p, []*corev1.Service{svc}, rs))
		if res.Node == "" || res.Filtered[0].Plugin != TaintTolerationName {
			t.Fatalf("replica %d: %+v", i, res)
		}
		for _, ns := range res.Scores {
			var sum int64
			for _, ps := range ns.Plugins {
				if ps.Weighted != ps.Normalized*ps.Weight || ps.Normalized < 0 || ps.Normalized > MaxNodeScore {
					t.Errorf("%s %s: %+v", ns.Node, ps.Plugin, ps)
				}
				sum += ps.Weighted
			}
			if sum != ns.Total {
				t.Errorf("%s: total %d, Σ weighted %d", ns.Node, ns.Total, sum)
			}
		}
		seen[res.Node] = true
		p.Spec.NodeName = res.Node
		if err := c.AddPod(p); err != nil {
			t.Fatal(err)
		}
	}
	if len(seen) != 3 {
		t.Errorf("replicas landed on %v", seen)
	}
}
