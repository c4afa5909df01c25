package scheduler

import (
	"fmt"
	"strings"
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

// How the simulator drives the package: keep one Cluster current from the
// watches, call Schedule for each pending pod, and on success account for the
// pod on its node before the next cycle (the scheduler "assumes" it).
func ExampleScheduler_Schedule() {
	c := NewCluster()
	cp := taint(node("control-plane", "4", "8Gi"), "node-role.kubernetes.io/control-plane", "", corev1.TaintEffectNoSchedule)
	for _, n := range []*corev1.Node{cp, node("node-a", "4", "8Gi"), node("node-b", "4", "8Gi")} {
		c.AddNode(n)
	}
	_ = c.AddPod(bound(pod("busy", "3", "1Gi"), "node-a"))

	s := New()
	rng := rng(1) // the engine's seeded math/rand/v2 source
	p := pod("web-0", "500m", "256Mi")
	res := s.Schedule(p, c, rng, nil) // nil: nothing selects the pod, no default spreading
	for _, v := range res.Filtered {
		fmt.Println(strings.TrimSpace(fmt.Sprintf("%-13s %-16s %s", v.Node, v.Plugin, v.Detail)))
	}
	fmt.Println("chosen:", res.Node, "scored:", len(res.Scores))
	p.Spec.NodeName = res.Node
	_ = c.AddPod(p)

	big := pod("big", "3600m", "1Gi") // node-a has 1 CPU left, node-b 3.5

	fmt.Println(s.Schedule(big, c, rng, nil).Message)
	// Output:
	// control-plane TaintToleration  {node-role.kubernetes.io/control-plane: }
	// node-a
	// node-b
	// chosen: node-b scored: 2
	// 0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.
}
