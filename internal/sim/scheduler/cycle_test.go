package scheduler

import (
	"fmt"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// numFeasibleNodesToFind (schedule_one.go; kubernetes.io scheduler-perf-tuning):
// below 100 nodes all; else n*(50 − n/125)/100 with the percentage floored at
// 5 and the result at 100.
func TestNumFeasibleNodesToFind(t *testing.T) {
	for _, tt := range []struct {
		pct  int32
		n    int
		want int
	}{
		{0, 3, 3}, {0, 99, 99}, {0, 100, 100}, {0, 200, 100}, {0, 1000, 420},
		{0, 5000, 500}, {0, 6000, 300}, {0, 10000, 500}, {10, 5000, 500}, {1, 5000, 100},
	} {
		if got := numFeasibleNodesToFind(tt.pct, tt.n); got != tt.want {
			t.Errorf("numFeasibleNodesToFind(%d, %d) = %d, want %d", tt.pct, tt.n, got, tt.want)
		}
	}
}

// Filter stops after numFeasibleNodesToFind fits and the next cycle starts
// where this one stopped (nextStartNodeIndex).
func TestNextStartNodeIndex(t *testing.T) {
	var nodes []*corev1.Node
	for _, n := range names("n", 200) {
		nodes = append(nodes, node(n, "4", "8Gi"))
	}
	c := cluster(t, nodes)
	s := New()
	r := s.Schedule(pod("p1", "100m", "100Mi"), c, rng(1), nil)
	if r.NumFeasibleToFind != 100 || r.Evaluated != 100 || len(r.Scores) != 100 || r.Filtered[0].Node != "n0" {
		t.Fatalf("first cycle: find %d evaluated %d scored %d first %s", r.NumFeasibleToFind, r.Evaluated, len(r.Scores), r.Filtered[0].Node)
	}
	r = s.Schedule(pod("p2", "100m", "100Mi"), c, rng(1), nil)
	if r.Filtered[0].Node != "n100" || r.Filtered[99].Node != "n199" {
		t.Errorf("second cycle starts at %s, ends at %s", r.Filtered[0].Node, r.Filtered[99].Node)
	}
	r = s.Schedule(pod("p3", "100m", "100Mi"), c, rng(1), nil)
	if r.Filtered[0].Node != "n0" {
		t.Errorf("third cycle starts at %s", r.Filtered[0].Node)
	}
}

// One feasible node is chosen without scoring, as upstream does.
func TestSingleFeasibleNodeIsNotScored(t *testing.T) {
	c := cluster(t, []*corev1.Node{node("small", "1", "1Gi"), node("big", "8", "16Gi")})
	r := schedule(t, c, pod("p", "2", "1Gi"), nil)
	if r.Node != "big" || len(r.Scores) != 0 || r.Feasible != 1 || r.Message != "" {
		t.Errorf("%+v", r)
	}
}

// Ties are broken by reservoir sampling from the caller's RNG: the same seed
// gives the same node, different seeds reach every tied node.
func TestTieBreak(t *testing.T) {
	c := cluster(t, []*corev1.Node{node("a", "4", "8Gi"), node("b", "4", "8Gi"), node("c", "4", "8Gi")})
	seen := map[string]int{}
	for seed := uint64(0); seed < 30; seed++ {
		r1 := New().Schedule(pod("p", "100m", "100Mi"), c, rng(seed), nil).Clone()
		r2 := New().Schedule(pod("p", "100m", "100Mi"), c, rng(seed), nil)
		if r1.Node != r2.Node {
			t.Fatalf("seed %d: %s then %s", seed, r1.Node, r2.Node)
		}
		if fmt.Sprint(r1.Ties) != "[a b c]" {
			t.Fatalf("ties = %v", r1.Ties)
		}
		seen[r1.Node]++
	}
	if len(seen) != 3 {
		t.Errorf("30 seeds chose only %v", seen)
	}
	// A clear winner has no ties.
	c = cluster(t, []*corev1.Node{node("a", "4", "8Gi"), node("b", "8", "16Gi")})
	if r := schedule(t, c, pod("p", "100m", "100Mi"), nil); r.Node != "b" || r.Ties != nil {
		t.Errorf("winner %s ties %v", r.Node, r.Ties)
	}
}

// Nodes are walked with zones interleaved round-robin, zones in first-seen
// order (backend/cache/node_tree.go).
func TestNodeOrderInterleavesZones(t *testing.T) {
	z := corev1.LabelTopologyZone
	c := cluster(t, []*corev1.Node{
		node("a1", "1", "1Gi", z, "z1"), node("a2", "1", "1Gi", z, "z1"), node("b1", "1", "1Gi", z, "z2"),
		node("c1", "1", "1Gi", z, "z3"), node("b2", "1", "1Gi", z, "z2"), node("a3", "1", "1Gi", z, "z1"),
	})
	var got []string
	for _, n := range c.Nodes() {
		got = append(got, n.Name())
	}
	if fmt.Sprint(got) != "[a1 b1 c1 a2 b2 a3]" {
		t.Errorf("order = %v", got)
	}
	c.RemoveNode("b1")
	c.UpdateNode(node("c1", "1", "1Gi", z, "z1"))
	got = got[:0]
	for _, n := range c.Nodes() {
		got = append(got, n.Name())
	}
	if fmt.Sprint(got) != "[a1 b2 a2 a3 c1]" {
		t.Errorf("order after remove/update = %v", got)
	}
}

// Pod requests: max(Σ containers, each init container) + overhead, with
// sidecars (restartPolicy Always init containers) running alongside
// (component-helpers/resource PodRequests). Here: containers 100m+200m = 300m;
// sidecar 50m joins them → 350m; the plain init container 400m runs beside the
// sidecar → 450m; max = 450m; overhead 10m → 460m.
func TestPodRequests(t *testing.T) {
	p := pod("p", "100m", "")
	p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: "b", Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("200m")}}})
	always := corev1.ContainerRestartPolicyAlways
	p.Spec.InitContainers = []corev1.Container{
		{Name: "sidecar", RestartPolicy: &always, Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("50m")}}},
		{Name: "init", Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("400m")}}},
	}
	p.Spec.Overhead = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("10m")}
	if got := PodRequests(p, false); got.MilliCPU != 460 || got.Memory != 0 {
		t.Errorf("requests = %+v, want 460m and no memory", got)
	}
	// Non-zero: every container without a memory request counts 200Mi:
	// containers 2×200Mi = 400Mi, sidecar +200Mi = 600Mi, init 200Mi+200Mi.
	if got := PodRequests(p, true); got.MilliCPU != 460 || got.Memory != 600*1024*1024 {
		t.Errorf("non-zero requests = %+v", got)
	}
}

// NodeInfo keeps its sums incrementally; adding twice is a no-op and removing
// restores zero.
func TestNodeInfoAddRemove(t *testing.T) {
	n := NewNodeInfo(node("n", "4", "8Gi"))
	a, b := pod("a", "1", "1Gi"), pod("b", "", "")
	n.AddPod(a)
	n.AddPod(a)
	n.AddPod(b)
	if n.Requested.MilliCPU != 1000 || n.NonZeroRequested.MilliCPU != 1100 || len(n.Pods) != 2 {
		t.Fatalf("requested %+v non-zero %+v pods %d", n.Requested, n.NonZeroRequested, len(n.Pods))
	}
	n.RemovePod(a)
	n.RemovePod(a)
	if n.Requested.MilliCPU != 0 || n.NonZeroRequested.Memory != DefaultMemoryRequest || len(n.Pods) != 1 || n.Pods[0] != b {
		t.Fatalf("after remove: %+v %+v %d", n.Requested, n.NonZeroRequested, len(n.Pods))
	}
	n.RemovePod(b)
	if !n.Requested.isZero() || !n.NonZeroRequested.isZero() {
		t.Fatalf("not back to zero: %+v %+v", n.Requested, n.NonZeroRequested)
	}
}

// DefaultSpreadSelector mirrors helper.DefaultSelector: Services that select
// the pod, ANDed with the controller's selector.
func TestDefaultSpreadSelector(t *testing.T) {
	p := pod("p", "", "")
	p.Labels = map[string]string{"app": "web", "pod-template-hash": "abc"}
	svc := func(ns string, sel map[string]string) *corev1.Service {
		return &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "s", Namespace: ns}, Spec: corev1.ServiceSpec{Selector: sel}}
	}
	services := []*corev1.Service{svc("default", map[string]string{"app": "web"}), svc("other", map[string]string{"tier": "x"}), svc("default", map[string]string{"app": "db"}), svc("default", nil)}
	rs := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web", "pod-template-hash": "abc"}}
	if got := DefaultSpreadSelector(p, services, rs).String(); got != "app=web,app=web,pod-template-hash=abc" {
		t.Errorf("selector = %q", got)
	}
	if got := DefaultSpreadSelector(p, nil, nil); !got.Empty() {
		t.Errorf("nothing selects the pod, got %q", got)
	}
}

// A Scheduler and a Cluster reused across cycles (scratch state, indexes
// kept incrementally, nextStartNodeIndex) score exactly like a fresh
// Scheduler on a Cluster rebuilt from scratch, while pods come and go. Every
// other pod is pinned to one zone, so the controller spans more nodes than
// are feasible and the persistent per-slot counts are used too.
func TestSchedulerReuse(t *testing.T) {
	z := corev1.LabelTopologyZone
	lbl := map[string]string{"app": "web"}
	var nodes []*corev1.Node
	for i, n := range names("n", 7) {
		nodes = append(nodes, node(n, "4", "8Gi", z, fmt.Sprintf("z%d", i%3)))
	}
	c := cluster(t, nodes)
	reused := New()
	var placed []*corev1.Pod
	for i := 0; i < 40; i++ {
		p := owned(pod(fmt.Sprintf("p%d", i), "100m", "100Mi"), "rs", lbl)
		if i%2 == 1 {
			p.Spec.NodeSelector = map[string]string{z: "z0"}
		}
		sel := DefaultSpreadSelector(p, nil, &metav1.LabelSelector{MatchLabels: lbl})
		got := scoresOf(reused.Schedule(p, c, rng(uint64(i)), sel).Clone())
		fresh := New().Schedule(p, cluster(t, nodes, placed...), rng(uint64(i)), sel).Clone()
		if fmt.Sprint(got) != fmt.Sprint(scoresOf(fresh)) {
			t.Fatalf("cycle %d: reused %v\nfresh %v", i, got, scoresOf(fresh))
		}
		q := p.DeepCopy()
		q.Spec.NodeName = fresh.Node
		if err := c.AddPod(q); err != nil {
			t.Fatal(err)
		}
		placed = append(placed, q)
		if i%3 == 2 { // remove an earlier pod
			c.RemovePod(placed[0])
			placed = placed[1:]
		}
	}
}

// Summary mode decides exactly as the detailed mode does.
func TestSummaryDecidesTheSame(t *testing.T) {
	var nodes []*corev1.Node
	for i, n := range names("n", 150) {
		nodes = append(nodes, node(n, fmt.Sprint(2+i%3), "8Gi", corev1.LabelTopologyZone, fmt.Sprintf("z%d", i%4)))
	}
	c1, c2 := cluster(t, nodes), cluster(t, nodes)
	detail, summary := New(), New()
	summary.Summary = true
	lbl := map[string]string{"app": "web"}
	for i := 0; i < 300; i++ {
		p := owned(pod(fmt.Sprintf("p%d", i), "500m", "1Gi"), "rs", lbl)
		sel := DefaultSpreadSelector(p, nil, &metav1.LabelSelector{MatchLabels: lbl})
		a := detail.Schedule(p, c1, rng(uint64(i)), sel)
		b := summary.Schedule(p, c2, rng(uint64(i)), sel)
		if a.Node != b.Node || a.Message != b.Message || fmt.Sprint(a.Ties) != fmt.Sprint(b.Ties) || a.Evaluated != b.Evaluated {
			t.Fatalf("cycle %d: detail %s %q, summary %s %q", i, a.Node, a.Message, b.Node, b.Message)
		}
		if len(b.Filtered) != a.Evaluated-a.Feasible {
			t.Fatalf("cycle %d: summary kept %d verdicts, want the %d rejected", i, len(b.Filtered), a.Evaluated-a.Feasible)
		}
		if a.Node == "" {
			continue
		}
		q := *p
		q.Spec.NodeName = a.Node
		_ = c1.AddPod(&q)
		_ = c2.AddPod(&q)
	}
}

// The Cluster's indexes follow node updates and removals: image counts,
// per-zone controller counts, and a node moving to another zone.
func TestClusterIndexes(t *testing.T) {
	z := corev1.LabelTopologyZone
	img := []corev1.ContainerImage{{Names: []string{"nginx:1.25"}, SizeBytes: 100 << 20}}
	a, b := node("a", "4", "8Gi", z, "z1"), node("b", "4", "8Gi", z, "z2")
	a.Status.Images = img
	lbl := map[string]string{"app": "web"}
	c := cluster(t, []*corev1.Node{a, b},
		bound(owned(pod("w1", "", ""), "rs", lbl), "a"), bound(owned(pod("w2", "", ""), "rs", lbl), "b"))
	if c.imageNodes("nginx:1.25") != 1 || c.zonePods("rs", "z1") != 1 || c.zonePods("rs", "z2") != 1 {
		t.Fatalf("initial: images %d z1 %d z2 %d", c.imageNodes("nginx:1.25"), c.zonePods("rs", "z1"), c.zonePods("rs", "z2"))
	}
	sizes := func() string { return fmt.Sprint(c.imageSizes("nginx:1.25")) }
	if got := sizes(); got != "[104857600 0]" { // built on first use, by slot
		t.Errorf("image sizes by slot = %s", got)
	}
	b2 := node("b", "4", "8Gi", z, "z1")
	b2.Status.Images = img
	c.UpdateNode(b2)
	if got := sizes(); got != "[104857600 104857600]" { // kept current
		t.Errorf("after update, image sizes by slot = %s", got)
	}
	if c.imageNodes("nginx:1.25") != 2 || c.zonePods("rs", "z1") != 2 || c.zonePods("rs", "z2") != 0 {
		t.Errorf("after update: images %d z1 %d z2 %d", c.imageNodes("nginx:1.25"), c.zonePods("rs", "z1"), c.zonePods("rs", "z2"))
	}
	if len(c.Node("b").Pods) != 1 {
		t.Errorf("update lost the pods")
	}
	c.RemoveNode("a")
	if got := sizes(); got != "[0 104857600]" {
		t.Errorf("after remove, image sizes by slot = %s", got)
	}
	if c.imageNodes("nginx:1.25") != 1 || c.zonePods("rs", "z1") != 1 || len(c.Nodes()) != 1 || len(c.owners["rs"]) != 1 {
		t.Errorf("after remove: images %d z1 %d nodes %d", c.imageNodes("nginx:1.25"), c.zonePods("rs", "z1"), len(c.Nodes()))
	}
	// A terminating pod keeps its resources but stops counting for spreading.
	w2 := c.Node("b").Pods[0]
	term := w2.DeepCopy()
	term.DeletionTimestamp = &metav1.Time{}
	c.UpdatePod(w2, term)
	if c.zonePods("rs", "z1") != 0 || c.Node("b").Requested.MilliCPU != 0 || c.Node("b").NonZeroRequested.MilliCPU != DefaultMilliCPURequest {
		t.Errorf("terminating: z1 %d, non-zero cpu %d", c.zonePods("rs", "z1"), c.Node("b").NonZeroRequested.MilliCPU)
	}
	if err := c.AddPod(bound(pod("x", "", ""), "gone")); err == nil {
		t.Error("AddPod on an unknown node should fail")
	}
}

// Clone detaches a Result from the Scheduler's buffers.
func TestResultClone(t *testing.T) {
	c := cluster(t, []*corev1.Node{node("a", "4", "8Gi"), node("b", "8", "8Gi")})
	s := New()
	r := s.Schedule(pod("p", "1", "1Gi"), c, rng(1), nil)
	kept := r.Clone()
	want := fmt.Sprint(kept.Scores, kept.Filtered)
	s.Schedule(pod("q", "3", "7Gi"), c, rng(1), nil)
	if got := fmt.Sprint(kept.Scores, kept.Filtered); got != want {
		t.Errorf("clone changed:\n%s\n%s", got, want)
	}
}

func TestDefaultNormalizeScore(t *testing.T) {
	for _, tt := range []struct {
		in      []int64
		reverse bool
		want    string
	}{
		{[]int64{0, 0}, false, "[0 0]"},
		{[]int64{0, 0}, true, "[100 100]"},
		{[]int64{1, 2, 3}, false, "[33 66 100]"},
		{[]int64{1, 2, 3}, true, "[67 34 0]"},
	} {
		defaultNormalizeScore(MaxNodeScore, tt.reverse, tt.in)
		if got := fmt.Sprint(tt.in); got != tt.want {
			t.Errorf("reverse=%v: %s, want %s", tt.reverse, got, tt.want)
		}
	}
}

// UpdatePod keeps the newest version of a bound pod: a status-only version
// replaces the cached object without changing what the node counts; a
// terminating version stops counting for its owner (topology spreading)
// but keeps its requests.
func TestUpdatePodFollowsVersions(t *testing.T) {
	n := node("n1", "4", "8Gi")
	p := bound(owned(pod("p", "500m", "1Gi"), "rs-1", map[string]string{"app": "web"}), "n1")
	c := cluster(t, []*corev1.Node{n}, p)
	ni := c.Node("n1")
	req := ni.Requested.clone()

	status := new(corev1.Pod)
	*status = *p
	status.Status.Phase = corev1.PodRunning
	c.UpdatePod(p, status)
	if len(ni.Pods) != 1 || ni.Pods[0] != status {
		t.Fatalf("after a status update the cache holds %v, want the new version", ni.Pods)
	}
	if !reflect.DeepEqual(ni.Requested, req) || ni.OwnerPods("rs-1") != 1 {
		t.Fatalf("status update changed the counts: requested %+v (was %+v), owner pods %d", ni.Requested, req, ni.OwnerPods("rs-1"))
	}

	terminating := new(corev1.Pod)
	*terminating = *status
	terminating.DeletionTimestamp = &metav1.Time{}
	c.UpdatePod(status, terminating)
	if len(ni.Pods) != 1 || ni.Pods[0] != terminating {
		t.Fatalf("after termination the cache holds %v", ni.Pods)
	}
	if ni.OwnerPods("rs-1") != 0 || !reflect.DeepEqual(ni.Requested, req) {
		t.Fatalf("terminating pod: owner pods %d (want 0), requested %+v (want %+v)", ni.OwnerPods("rs-1"), ni.Requested, req)
	}
}
