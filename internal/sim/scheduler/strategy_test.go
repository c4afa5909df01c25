package scheduler

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// fitProfile is the default profile with NodeResourcesFit built from args.
func fitProfile(t *testing.T, args *NodeResourcesFitArgs) Profile {
	t.Helper()
	p, err := InTree().NewProfile(ProfileSpec{Args: map[string]any{NodeResourcesFitName: args}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func fitScores(t *testing.T, p Profile, c *Cluster, pd *corev1.Pod) map[string]int64 {
	t.Helper()
	r := NewWithProfile(p).Schedule(pd, c, rng(1), nil)
	out := map[string]int64{}
	for n, ps := range scoresOf(r) {
		out[n] = ps[NodeResourcesFitName].Raw
	}
	return out
}

// MostAllocated on upstream's own cases (noderesources/most_allocated_test.go):
// per resource requested*100/allocatable, weighted mean, integer division.
func TestMostAllocatedUpstreamNumbers(t *testing.T) {
	most := func(res ...ResourceSpec) *NodeResourcesFitArgs {
		return &NodeResourcesFitArgs{ScoringStrategy: &ScoringStrategy{Type: MostAllocated, Resources: res}}
	}
	tests := []struct {
		name     string
		args     *NodeResourcesFitArgs
		nodes    []*corev1.Node
		existing []*corev1.Pod
		pod      *corev1.Pod
		want     map[string]int64
	}{
		{"differently sized nodes: cpu 75, mem 50 → 62; cpu 50, mem 50 → 50", most(),
			[]*corev1.Node{node("node1", "4000", "10000"), node("node2", "6000", "10000")}, nil,
			pod("p", "3000", "5000"), map[string]int64{"node1": 62, "node2": 50}},
		{"memory weight 2: (75·1 + 50·2)/3 = 58", most(ResourceSpec{"memory", 2}, ResourceSpec{"cpu", 1}),
			[]*corev1.Node{node("node1", "4000", "10000"), node("node2", "6000", "10000")}, nil,
			pod("p", "3000", "5000"), map[string]int64{"node1": 58, "node2": 50}},
		{"pods already there: (60+25)/2 = 42, (60+50)/2 = 55", most(),
			[]*corev1.Node{node("node1", "10000", "20000"), node("node2", "10000", "20000")},
			[]*corev1.Pod{bound(pod("a", "3000", "0"), "node1"), bound(pod("b", "3000", "5000"), "node2")},
			pod("p", "3000", "5000"), map[string]int64{"node1": 42, "node2": 55}},
		{"requests equal to capacity: (100+90)/2 = 95, (50+100)/2 = 75", most(),
			[]*corev1.Node{node("node1", "5000", "10000"), node("node2", "10000", "9000")}, nil,
			pod("p", "5000", "9000"), map[string]int64{"node1": 95, "node2": 75}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fitScores(t, fitProfile(t, tt.args), cluster(t, tt.nodes, tt.existing...), tt.pod)
			for n, w := range tt.want {
				if got[n] != w {
					t.Errorf("%s: MostAllocated = %d, want %d", n, got[n], w)
				}
			}
		})
	}
}

// RequestedToCapacityRatio on upstream's cases
// (noderesources/requested_to_capacity_ratio_test.go).
func TestRequestedToCapacityRatioUpstreamNumbers(t *testing.T) {
	// Shape {0, 10}, {100, 0}: least requested first. node1 cpu 75 % → 25,
	// memory 50 % → 50: round(75/2) = 38; node2 50, 50 → 50.
	spread := &NodeResourcesFitArgs{ScoringStrategy: &ScoringStrategy{Type: RequestedToCapacityRatio,
		RequestedToCapacityRatio: &RequestedToCapacityRatioParam{Shape: []UtilizationShapePoint{{0, 10}, {100, 0}}}}}
	c := cluster(t, []*corev1.Node{node("node1", "4000", "10000"), node("node2", "6000", "10000")})
	got := fitScores(t, fitProfile(t, spread), c, pod("p", "3000", "5000"))
	if got["node1"] != 38 || got["node2"] != 50 {
		t.Errorf("shape {0,10},{100,0}: got %v, want node1 38, node2 50", got)
	}

	// Bin packing one extended resource with shape {0, 0}, {100, 1}
	// (TestResourceBinPackingSingleExtended): 2 of 8 → 25 % → 10·25/100 = 2;
	// 2 of 4 → 5; with 2 already used on node2, 4 of 4 → 10.
	const foo = corev1.ResourceName("intel.com/foo")
	pack := &NodeResourcesFitArgs{ScoringStrategy: &ScoringStrategy{Type: RequestedToCapacityRatio,
		Resources:                []ResourceSpec{{string(foo), 1}},
		RequestedToCapacityRatio: &RequestedToCapacityRatioParam{Shape: []UtilizationShapePoint{{0, 0}, {100, 1}}}}}
	withFoo := func(n *corev1.Node, q string) *corev1.Node {
		n.Status.Allocatable[foo] = resource.MustParse(q)
		return n
	}
	fooPod := func(name string) *corev1.Pod {
		p := pod(name, "1", "1Gi")
		p.Spec.Containers[0].Resources.Requests[foo] = resource.MustParse("2")
		return p
	}
	nodes := func() []*corev1.Node {
		return []*corev1.Node{withFoo(node("node1", "4", "8Gi"), "8"), withFoo(node("node2", "4", "8Gi"), "4")}
	}
	got = fitScores(t, fitProfile(t, pack), cluster(t, nodes()), fooPod("p"))
	if got["node1"] != 2 || got["node2"] != 5 {
		t.Errorf("bin packing: got %v, want node1 2, node2 5", got)
	}
	got = fitScores(t, fitProfile(t, pack), cluster(t, nodes(), bound(fooPod("old"), "node2")), fooPod("p"))
	if got["node1"] != 2 || got["node2"] != 10 {
		t.Errorf("bin packing with a pod on node2: got %v, want node1 2, node2 10", got)
	}
	// A pod that does not ask for the extended resource scores 0 everywhere.
	got = fitScores(t, fitProfile(t, pack), cluster(t, nodes()), pod("p", "1", "1Gi"))
	if got["node1"] != 0 || got["node2"] != 0 {
		t.Errorf("no extended request: got %v, want 0, 0", got)
	}
}

// helper.BuildBrokenLinearFunction: flat outside the points, linear (integer
// arithmetic) between them.
func TestBrokenLinear(t *testing.T) {
	shape := []ShapePoint{{10, 1}, {15, 2}, {20, 3}, {25, 4}, {30, 6}, {50, 7}}
	for _, tt := range []struct{ p, want int64 }{
		{0, 1}, {10, 1}, {12, 1}, {15, 2}, {22, 3}, {27, 4}, {30, 6}, {40, 6}, {50, 7}, {100, 7},
	} {
		if got := brokenLinear(shape, tt.p); got != tt.want {
			t.Errorf("f(%d) = %d, want %d", tt.p, got, tt.want)
		}
	}
}

// Bad args give upstream's validation messages.
func TestNodeResourcesFitArgsValidation(t *testing.T) {
	for _, tt := range []struct {
		args *NodeResourcesFitArgs
		want string
	}{
		{&NodeResourcesFitArgs{ScoringStrategy: &ScoringStrategy{Type: "Random"}},
			`scoringStrategy.type: Unsupported value: "Random": supported values: "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"`},
		{&NodeResourcesFitArgs{ScoringStrategy: &ScoringStrategy{Type: MostAllocated, Resources: []ResourceSpec{{"cpu", 101}}}},
			`scoringStrategy.resources[0].weight: Invalid value: 101: resource weight of cpu not in valid range (0, 100]`},
		{&NodeResourcesFitArgs{ScoringStrategy: &ScoringStrategy{Type: RequestedToCapacityRatio}},
			`scoringStrategy.requestedToCapacityRatio: Required value: must be specified when type is RequestedToCapacityRatio`},
		{&NodeResourcesFitArgs{ScoringStrategy: &ScoringStrategy{Type: MostAllocated, RequestedToCapacityRatio: &RequestedToCapacityRatioParam{}}},
			`scoringStrategy.requestedToCapacityRatio: Forbidden: must be nil when type is not RequestedToCapacityRatio`},
		{&NodeResourcesFitArgs{ScoringStrategy: &ScoringStrategy{Type: RequestedToCapacityRatio, RequestedToCapacityRatio: &RequestedToCapacityRatioParam{
			Shape: []UtilizationShapePoint{{50, 1}, {40, 11}}}}},
			`scoringStrategy.requestedToCapacityRatio.shape[1].utilization: Invalid value: 40: values must be sorted in increasing order`},
	} {
		_, err := newNodeResourcesFit(tt.args)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("got %v\nwant %s", err, tt.want)
		}
	}
}
