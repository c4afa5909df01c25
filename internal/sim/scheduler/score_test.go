package scheduler

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// LeastAllocated on upstream's own numbers
// (noderesources/least_allocated_test.go, "nothing scheduled, resources
// requested, differently sized nodes"): node1 4000m/10000, node2 6000m/10000,
// pod 3000m/5000 → node1 ((4000-3000)*100/4000=25 + (10000-5000)*100/10000=50)/2
// = 37, node2 (50+50)/2 = 50.
func TestLeastAllocatedUpstreamNumbers(t *testing.T) {
	c := cluster(t, []*corev1.Node{node("node1", "4000m", "10000Mi"), node("node2", "6000m", "10000Mi")})
	r := schedule(t, c, pod("p", "3000m", "5000Mi"), nil)
	got := scoresOf(r)
	for n, want := range map[string]int64{"node1": 37, "node2": 50} {
		if ps := got[n][NodeResourcesFitName]; ps.Raw != want || ps.Weighted != want {
			t.Errorf("%s: LeastAllocated = %+v, want %d", n, ps, want)
		}
	}
}

// Non-zero defaults (pkg/scheduler/util/pod_resources.go): a container with no
// request counts as 100m / 200Mi for scoring, for the new pod and for the pods
// already on the node; an explicit 0 stays 0. Node 4000m / 8Gi:
//
//	empty node, best-effort pod: cpu 3900*100/4000 = 97, mem 7992*100/8192 = 97 → 97
//	one best-effort pod there:   cpu 3800*100/4000 = 95, mem 7792*100/8192 = 95 → 95
//	explicit cpu "0":            cpu 100, mem 97 → (100+97)/2 = 98
func TestLeastAllocatedNonZeroDefaults(t *testing.T) {
	tests := []struct {
		name     string
		existing []*corev1.Pod
		pod      *corev1.Pod
		want     int64
	}{
		{"best effort on empty node", nil, pod("p", "", ""), 97},
		{"best effort next to best effort", []*corev1.Pod{bound(pod("old", "", ""), "n1")}, pod("p", "", ""), 95},
		{"explicit zero cpu stays zero", nil, pod("p", "0", ""), 98},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Two identical nodes so both are scored; the pods go on n1.
			c := cluster(t, []*corev1.Node{node("n1", "4000m", "8Gi"), node("n2", "4000m", "8Gi")}, tt.existing...)
			got := scoresOf(schedule(t, c, tt.pod, nil))
			if ps := got["n1"][NodeResourcesFitName]; ps.Raw != tt.want {
				t.Errorf("LeastAllocated(n1) = %d, want %d", ps.Raw, tt.want)
			}
		})
	}
}

// BalancedAllocation from the formula (noderesources/balanced_allocation.go):
// S = int64((1 − |f_cpu − f_mem|/2) * 100) with actual requests.
//
//	pod 1000m/4000Mi:
//	node1 4000m/10000Mi: f = 0.25, 0.4 → std 0.075 → S_with 92; empty node
//	  S_without 100 → v1.36+: 50 + (50+92−100)/2 = 71; legacy 92.
//	node2 6000m/10000Mi: f = 0.1667, 0.4 → std 0.1167 → 88 → 50 + 38/2 = 69; legacy 88.
//	node3 4000m/10000Mi holding 2000m/1000Mi: before 0.5, 0.1 → std 0.2 → 80;
//	  after 0.75, 0.5 → 87 → 50 + (50+87−80)/2 = 78; legacy 87.
//	pod 3000m/5000Mi on empty nodes (upstream's balanced_allocation_test
//	"differently sized nodes": legacy 87 and 100):
//	node1 f = 0.75, 0.5 → 87 → 50 + (50+87−100)/2 = 68; node2 100 → 75.
func TestBalancedAllocation(t *testing.T) {
	nodes := []*corev1.Node{node("node1", "4000m", "10000Mi"), node("node2", "6000m", "10000Mi"), node("node3", "4000m", "10000Mi")}
	existing := bound(pod("old", "2000m", "1000Mi"), "node3")
	for _, legacy := range []bool{false, true} {
		p := DefaultProfile()
		for i, ws := range p.Score {
			if ws.Plugin.Name() == BalancedAllocationName {
				p.Score[i].Plugin = &BalancedAllocation{Resources: []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory}, Legacy: legacy}
			}
		}
		c := cluster(t, nodes, existing)
		r := NewWithProfile(p).Schedule(pod("p", "1000m", "4000Mi"), c, rng(1), nil)
		want := map[string]int64{"node1": 71, "node2": 69, "node3": 78}
		if legacy {
			want = map[string]int64{"node1": 92, "node2": 88, "node3": 87}
		}
		got := scoresOf(r)
		for n, w := range want {
			if ps := got[n][BalancedAllocationName]; ps.Raw != w {
				t.Errorf("legacy=%v %s: BalancedAllocation = %d, want %d", legacy, n, ps.Raw, w)
			}
		}
	}
	// The 3000m/5000Mi pod of the upstream case.
	for legacy, want := range map[bool]map[string]int64{false: {"node1": 68, "node2": 75}, true: {"node1": 87, "node2": 100}} {
		b := &BalancedAllocation{Resources: []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory}, Legacy: legacy}
		p := Profile{Score: []WeightedScore{{b, 1}}, PreFilter: []PreFilterPlugin{&NodeResourcesFit{}}}
		r := NewWithProfile(p).Schedule(pod("p", "3000m", "5000Mi"), cluster(t, nodes[:2]), rng(1), nil)
		got := scoresOf(r)
		for n, w := range want {
			if ps := got[n][BalancedAllocationName]; ps.Raw != w {
				t.Errorf("legacy=%v %s: BalancedAllocation = %d, want %d", legacy, n, ps.Raw, w)
			}
		}
	}
}

// A best-effort pod skips BalancedAllocation at PreScore (kubernetes#129138);
// a pod without preferred terms skips NodeAffinity; a pod nothing selects
// skips PodTopologySpread.
func TestPreScoreSkips(t *testing.T) {
	c := cluster(t, []*corev1.Node{node("a", "4", "8Gi"), node("b", "4", "8Gi")})
	r := schedule(t, c, pod("p", "", ""), nil)
	want := []string{NodeAffinityName, PodTopologySpreadName, InterPodAffinityName, BalancedAllocationName}
	if len(r.Skipped) != len(want) {
		t.Fatalf("Skipped = %v, want %v", r.Skipped, want)
	}
	for i := range want {
		if r.Skipped[i] != want[i] {
			t.Errorf("Skipped = %v, want %v", r.Skipped, want)
		}
	}
	if len(r.Scores[0].Plugins) != 3 {
		t.Errorf("plugins scored = %+v, want TaintToleration, NodeResourcesFit, ImageLocality", r.Scores[0].Plugins)
	}
}

// TaintToleration counts untolerated PreferNoSchedule taints and reverses
// DefaultNormalizeScore: raw 2, 1, 0 → 100 − 100*s/2 = 0, 50, 100; weight 3.
func TestTaintTolerationScore(t *testing.T) {
	a := taint(taint(node("a", "4", "8Gi"), "k1", "v", corev1.TaintEffectPreferNoSchedule), "k2", "v", corev1.TaintEffectPreferNoSchedule)
	b := taint(taint(node("b", "4", "8Gi"), "k1", "v", corev1.TaintEffectPreferNoSchedule), "tolerated", "x", corev1.TaintEffectPreferNoSchedule)
	c := cluster(t, []*corev1.Node{a, b, node("c", "4", "8Gi")})
	p := pod("p", "100m", "100Mi")
	p.Spec.Tolerations = []corev1.Toleration{{Key: "tolerated", Operator: corev1.TolerationOpExists}}
	got := scoresOf(schedule(t, c, p, nil))
	for n, w := range map[string][2]int64{"a": {2, 0}, "b": {1, 50}, "c": {0, 100}} {
		ps := got[n][TaintTolerationName]
		if ps.Raw != w[0] || ps.Normalized != w[1] || ps.Weighted != 3*w[1] {
			t.Errorf("%s: %+v, want raw %d normalized %d weight 3", n, ps, w[0], w[1])
		}
	}
}

// NodeAffinity sums matching preferred weights and normalises to the max:
// 5, 2, 0 → 100, 40, 0; weight 2.
func TestNodeAffinityScore(t *testing.T) {
	c := cluster(t, []*corev1.Node{
		node("a", "4", "8Gi", "zone", "z1", "disk", "ssd"),
		node("b", "4", "8Gi", "zone", "z1"),
		node("c", "4", "8Gi"),
	})
	p := pod("p", "100m", "100Mi")
	term := func(w int32, k, v string) corev1.PreferredSchedulingTerm {
		return corev1.PreferredSchedulingTerm{Weight: w, Preference: corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: k, Operator: corev1.NodeSelectorOpIn, Values: []string{v}}}}}
	}
	p.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.PreferredSchedulingTerm{term(2, "zone", "z1"), term(3, "disk", "ssd")}}}
	got := scoresOf(schedule(t, c, p, nil))
	for n, w := range map[string][2]int64{"a": {5, 100}, "b": {2, 40}, "c": {0, 0}} {
		if ps := got[n][NodeAffinityName]; ps.Raw != w[0] || ps.Normalized != w[1] || ps.Weighted != 2*w[1] {
			t.Errorf("%s: %+v, want raw %d normalized %d", n, ps, w[0], w[1])
		}
	}
}

// ImageLocality (imagelocality/image_locality.go): 3 nodes, nginx:1.25 of
// 250MiB on two of them → spread 2/3 → sum = int64(262144000*2/3) = 174762666;
// score = 100*(174762666−23MiB)/(1000MiB−23MiB) = 15064541800/1024458752 = 14.
// The node without it is clamped to 23MiB → 0. "nginx" untagged means :latest.
func TestImageLocality(t *testing.T) {
	img := corev1.ContainerImage{Names: []string{"nginx:1.25", "busybox"}, SizeBytes: 250 * 1024 * 1024}
	a, b := node("a", "4", "8Gi"), node("b", "4", "8Gi")
	a.Status.Images = []corev1.ContainerImage{img}
	b.Status.Images = []corev1.ContainerImage{img}
	c := cluster(t, []*corev1.Node{a, b, node("c", "4", "8Gi")})
	got := scoresOf(schedule(t, c, pod("p", "100m", "100Mi"), nil))
	for n, w := range map[string]int64{"a": 14, "b": 14, "c": 0} {
		if ps := got[n][ImageLocalityName]; ps.Raw != w {
			t.Errorf("%s: ImageLocality = %d, want %d", n, ps.Raw, w)
		}
	}
	if _, ok := c.Node("a").HasImage("busybox:latest"); !ok {
		t.Error("untagged node image should be known as :latest")
	}
}

// PodTopologySpread with the system defaults (podtopologyspread/scoring.go):
// zone-1 = {A, B}, zone-2 = {C}; the ReplicaSet has 2 pods on A, 1 on C.
// hostname weight ln(3+2), zone weight ln(2+2); per node
// Σ cnt·w + maxSkew−1:
//
//	A: 2·ln5 + 2 + 2·ln4 + 4 = 11.99 → 12
//	B: 0 + 2 + 2·ln4 + 4     =  8.77 → 9
//	C: 1·ln5 + 2 + 1·ln4 + 4 =  9.00 → 9
//
// normalised 100*(max+min−s)/max: A 100*9/12 = 75, B and C 100; weight 2.
func TestPodTopologySpreadSystemDefaults(t *testing.T) {
	lbl := map[string]string{"app": "web", "pod-template-hash": "abc"}
	nodes := []*corev1.Node{
		node("A", "4", "8Gi", corev1.LabelTopologyZone, "zone-1"),
		node("B", "4", "8Gi", corev1.LabelTopologyZone, "zone-1"),
		node("C", "4", "8Gi", corev1.LabelTopologyZone, "zone-2"),
	}
	existing := []*corev1.Pod{
		bound(owned(pod("w1", "100m", "100Mi"), "rs1", lbl), "A"),
		bound(owned(pod("w2", "100m", "100Mi"), "rs1", lbl), "A"),
		bound(owned(pod("w3", "100m", "100Mi"), "rs1", lbl), "C"),
		bound(owned(pod("other", "100m", "100Mi"), "rs2", map[string]string{"app": "db"}), "B"),
	}
	sel := labels.SelectorFromSet(lbl)
	want := map[string][2]int64{"A": {12, 75}, "B": {9, 100}, "C": {9, 100}}
	check := func(name string, r Result) {
		t.Helper()
		got := scoresOf(r)
		for n, w := range want {
			if ps := got[n][PodTopologySpreadName]; ps.Raw != w[0] || ps.Normalized != w[1] || ps.Weight != 2 {
				t.Errorf("%s %s: %+v, want raw %d normalized %d", name, n, ps, w[0], w[1])
			}
		}
	}
	c := cluster(t, nodes, existing...)
	check("fast path", schedule(t, c, owned(pod("new", "100m", "100Mi"), "rs1", lbl), sel))

	// A nodeSelector every node matches takes the scanning path: same numbers.
	p := owned(pod("new", "100m", "100Mi"), "rs1", lbl)
	p.Spec.NodeSelector = map[string]string{corev1.LabelHostname + "-absent": ""}
	p.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
		NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: corev1.LabelTopologyZone, Operator: corev1.NodeSelectorOpExists}}}},
	}}}
	p.Spec.NodeSelector = nil
	check("scan path", schedule(t, c, p, sel))

	// The pod's own ScheduleAnyway constraints, counted by label selector.
	p = owned(pod("new", "100m", "100Mi"), "rs1", lbl)
	p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{
		{TopologyKey: corev1.LabelHostname, MaxSkew: 3, WhenUnsatisfiable: corev1.ScheduleAnyway, LabelSelector: &metav1.LabelSelector{MatchLabels: lbl}},
		{TopologyKey: corev1.LabelTopologyZone, MaxSkew: 5, WhenUnsatisfiable: corev1.ScheduleAnyway, LabelSelector: &metav1.LabelSelector{MatchLabels: lbl}},
	}
	check("own constraints", schedule(t, c, p, nil))

	// Removing a pod updates the zone index: with w3 gone, C scores
	// 0 + 2 + 0 + 4 = 6; A 2·ln5+2+2·ln4+4 = 12; B 8.77 → 9;
	// min 6, max 12 → A 100*6/12 = 50, B 100*9/12 = 75, C 100.
	c.RemovePod(existing[2])
	want = map[string][2]int64{"A": {12, 50}, "B": {9, 75}, "C": {6, 100}}
	check("after RemovePod", schedule(t, c, owned(pod("new", "100m", "100Mi"), "rs1", lbl), sel))
}
