package scheduler

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Each Filter plugin's verdict, with upstream's reason text and code.
func TestFilterReasons(t *testing.T) {
	cordoned := node("n", "4", "8Gi")
	cordoned.Spec.Unschedulable = true
	tests := []struct {
		name   string
		node   *corev1.Node
		pod    func(*corev1.Pod)
		plugin string
		code   Code
		reason string
		detail string
	}{
		{"cordoned", cordoned, nil, NodeUnschedulableName, UnschedulableAndUnresolvable, ReasonUnschedulable, ""},
		{"cordoned but tolerated", cordoned, func(p *corev1.Pod) {
			p.Spec.Tolerations = []corev1.Toleration{{Key: corev1.TaintNodeUnschedulable, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}}
		}, "", Success, "", ""},
		{"other node name", node("n", "4", "8Gi"), func(p *corev1.Pod) { p.Spec.NodeName = "m" }, NodeNameName, UnschedulableAndUnresolvable, ReasonNodeName, ""},
		{"control-plane taint", taint(node("n", "4", "8Gi"), "node-role.kubernetes.io/control-plane", "", corev1.TaintEffectNoSchedule), nil,
			TaintTolerationName, UnschedulableAndUnresolvable, ReasonUntoleratedTaint, "{node-role.kubernetes.io/control-plane: }"},
		{"NoExecute taint with value", taint(node("n", "4", "8Gi"), "dedicated", "gpu", corev1.TaintEffectNoExecute), nil,
			TaintTolerationName, UnschedulableAndUnresolvable, ReasonUntoleratedTaint, "{dedicated: gpu}"},
		{"PreferNoSchedule does not filter", taint(node("n", "4", "8Gi"), "soft", "", corev1.TaintEffectPreferNoSchedule), nil, "", Success, "", ""},
		{"tolerated with Equal", taint(node("n", "4", "8Gi"), "dedicated", "gpu", corev1.TaintEffectNoSchedule), func(p *corev1.Pod) {
			p.Spec.Tolerations = []corev1.Toleration{{Key: "dedicated", Value: "gpu", Effect: corev1.TaintEffectNoSchedule}}
		}, "", Success, "", ""},
		{"wrong value not tolerated", taint(node("n", "4", "8Gi"), "dedicated", "gpu", corev1.TaintEffectNoSchedule), func(p *corev1.Pod) {
			p.Spec.Tolerations = []corev1.Toleration{{Key: "dedicated", Value: "cpu"}}
		}, TaintTolerationName, UnschedulableAndUnresolvable, ReasonUntoleratedTaint, "{dedicated: gpu}"},
		{"nodeSelector", node("n", "4", "8Gi"), func(p *corev1.Pod) { p.Spec.NodeSelector = map[string]string{"disk": "ssd"} },
			NodeAffinityName, UnschedulableAndUnresolvable, ReasonNodeAffinity, ""},
		{"required affinity NotIn on missing key matches", node("n", "4", "8Gi"), func(p *corev1.Pod) {
			p.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
				NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "disk", Operator: corev1.NodeSelectorOpNotIn, Values: []string{"hdd"}}}}},
			}}}
		}, "", Success, "", ""},
		{"required affinity Gt", node("n", "4", "8Gi", "cores", "8"), func(p *corev1.Pod) {
			p.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
				NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "cores", Operator: corev1.NodeSelectorOpGt, Values: []string{"16"}}}}},
			}}}
		}, NodeAffinityName, UnschedulableAndUnresolvable, ReasonNodeAffinity, ""},
		{"insufficient cpu", node("n", "4", "8Gi"), func(p *corev1.Pod) { setReq(p, corev1.ResourceCPU, "3500m") },
			NodeResourcesFitName, Unschedulable, "Insufficient cpu", ""},
		{"more memory than the node has", node("n", "4", "8Gi"), func(p *corev1.Pod) { setReq(p, corev1.ResourceMemory, "9Gi") },
			NodeResourcesFitName, UnschedulableAndUnresolvable, "Insufficient memory", ""},
		{"ephemeral storage", node("n", "4", "8Gi"), func(p *corev1.Pod) { setReq(p, corev1.ResourceEphemeralStorage, "1Gi") },
			NodeResourcesFitName, UnschedulableAndUnresolvable, "Insufficient ephemeral-storage", ""},
		{"extended resource", node("n", "4", "8Gi"), func(p *corev1.Pod) { setReq(p, "nvidia.com/gpu", "1") },
			NodeResourcesFitName, UnschedulableAndUnresolvable, "Insufficient nvidia.com/gpu", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// n carries a pod using 1 cpu; a second node keeps the cycle honest.
			c := cluster(t, []*corev1.Node{tt.node}, bound(pod("old", "1", "1Gi"), "n"))
			p := pod("p", "100m", "100Mi")
			if tt.pod != nil {
				tt.pod(p)
			}
			r := schedule(t, c, p, nil)
			v := r.Filtered[0]
			reason := strings.Join(v.Reasons, ", ")
			if v.Plugin != tt.plugin || v.Code != tt.code || reason != tt.reason || v.Detail != tt.detail {
				t.Errorf("verdict = %+v, want plugin %q code %v reason %q detail %q", v, tt.plugin, tt.code, tt.reason, tt.detail)
			}
			if (tt.plugin == "") != (r.Node == "n") {
				t.Errorf("chosen node = %q", r.Node)
			}
		})
	}
}

func setReq(p *corev1.Pod, name corev1.ResourceName, q string) {
	p.Spec.Containers[0].Resources.Requests[name] = resource.MustParse(q)
}

func TestTooManyPodsAndPorts(t *testing.T) {
	small := node("n", "4", "8Gi")
	small.Status.Allocatable[corev1.ResourcePods] = resource.MustParse("1")
	withPort := func(name string, port int32, ip string) *corev1.Pod {
		p := pod(name, "100m", "100Mi")
		p.Spec.Containers[0].Ports = []corev1.ContainerPort{{ContainerPort: 80, HostPort: port, HostIP: ip}}
		return p
	}
	c := cluster(t, []*corev1.Node{small}, bound(withPort("old", 8080, ""), "n"))
	r := schedule(t, c, withPort("p", 8080, "10.0.0.1"), nil)
	// NodePorts runs before NodeResourcesFit and stops the node there.
	if v := r.Filtered[0]; v.Plugin != NodePortsName || v.Code != Unschedulable || v.Reasons[0] != ReasonNodePorts {
		t.Errorf("ports verdict = %+v", v)
	}
	r = schedule(t, c, withPort("p", 9090, ""), nil)
	if v := r.Filtered[0]; v.Plugin != NodeResourcesFitName || v.Reasons[0] != ReasonTooManyPods || v.Code != Unschedulable {
		t.Errorf("pods verdict = %+v", v)
	}
	// Freeing the port: the same host port on another IP still conflicts
	// with a wildcard, but not once the old pod is gone.
	c.RemovePod(bound(withPort("old", 8080, ""), "n"))
	if r = schedule(t, c, withPort("p", 8080, "10.0.0.1"), nil); r.Node != "n" {
		t.Errorf("after RemovePod: %+v", r.Filtered)
	}
}

// The FailedScheduling message, shaped as FitError.Error with the
// PostFilter sentences of DynamicResources and DefaultPreemption; the
// expected text is the one real v1.36 clusters print for this situation
// (a tainted control plane, two full workers).
func TestFailureMessage(t *testing.T) {
	cp := taint(node("cp", "4", "8Gi"), "node-role.kubernetes.io/control-plane", "", corev1.TaintEffectNoSchedule)
	c := cluster(t, []*corev1.Node{cp, node("w1", "4", "8Gi"), node("w2", "4", "8Gi")},
		bound(pod("a", "3", "1Gi"), "w1"), bound(pod("b", "3", "1Gi"), "w2"))
	r := schedule(t, c, pod("p", "2", "1Gi"), nil)
	want := "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. " +
		"preemption: 0/3 nodes are available: " +
		"1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod."
	if r.Node != "" || r.Message != want {
		t.Errorf("message\n got %q\nwant %q", r.Message, want)
	}
	if r.Evaluated != 3 || r.Feasible != 0 || len(r.Scores) != 0 {
		t.Errorf("evaluated %d feasible %d scores %d", r.Evaluated, r.Feasible, len(r.Scores))
	}

	// Counts sort as strings ("10 …" before "2 …"), a node may give two
	// reasons, and a request larger than the node is not helped by preemption.
	var nodes []*corev1.Node
	for _, n := range names("w", 10) {
		nodes = append(nodes, node(n, "1", "8Gi"))
	}
	for _, n := range names("big", 2) {
		nodes = append(nodes, node(n, "4", "1Gi"))
	}
	c = cluster(t, nodes)
	r = schedule(t, c, pod("p", "2", "2Gi"), nil)
	want = "0/12 nodes are available: 10 Insufficient cpu, 2 Insufficient memory. " +
		"preemption: 0/12 nodes are available: 12 Preemption is not helpful for scheduling."
	if r.Message != want {
		t.Errorf("message\n got %q\nwant %q", r.Message, want)
	}

	// Without the DRA sentence, and with preemptionPolicy Never.
	p := DefaultProfile()
	p.DRAPostFilter = false
	pp := pod("p", "2", "2Gi")
	pp.Spec.PreemptionPolicy = ptr(corev1.PreemptNever)
	r = NewWithProfile(p).Schedule(pp, c, rng(1), nil)
	want = "0/12 nodes are available: 10 Insufficient cpu, 2 Insufficient memory. preemption: not eligible due to preemptionPolicy=Never."
	if r.Message != want {
		t.Errorf("message\n got %q\nwant %q", r.Message, want)
	}
}

func TestNoNodes(t *testing.T) {
	r := New().Schedule(pod("p", "", ""), NewCluster(), rng(1), nil)
	if r.Node != "" || r.Message != "no nodes available to schedule pods" {
		t.Errorf("%+v", r)
	}
}

// PodTopologySpread's DoNotSchedule filter (podtopologyspread/filtering.go):
// zone-1 holds 2 matching pods, zone-2 none, maxSkew 1: zone-1 nodes would
// reach skew 2+1−0 = 3 > 1, zone-2 nodes 0+1−0 = 1. A node without the zone
// label cannot satisfy the constraint at all.
func TestPodTopologySpreadFilter(t *testing.T) {
	z := corev1.LabelTopologyZone
	lbl := map[string]string{"app": "web"}
	c := cluster(t, []*corev1.Node{node("a", "4", "8Gi", z, "zone-1"), node("b", "4", "8Gi", z, "zone-2"), node("nolabel", "4", "8Gi")},
		bound(owned(pod("w1", "100m", "100Mi"), "rs", lbl), "a"), bound(owned(pod("w2", "100m", "100Mi"), "rs", lbl), "a"))
	p := owned(pod("p", "100m", "100Mi"), "rs", lbl)
	p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{
		TopologyKey: z, MaxSkew: 1, WhenUnsatisfiable: corev1.DoNotSchedule,
		LabelSelector: &metav1.LabelSelector{MatchLabels: lbl},
	}}
	r := schedule(t, c, p, nil)
	got := map[string]string{}
	for _, v := range r.Filtered {
		got[v.Node] = v.Plugin + ":" + strings.Join(v.Reasons, ",")
	}
	want := map[string]string{
		"a":       PodTopologySpreadName + ":" + ReasonSpreadConstraints,
		"b":       ":",
		"nolabel": PodTopologySpreadName + ":" + ReasonSpreadMissingKey,
	}
	for n, w := range want {
		if got[n] != w {
			t.Errorf("%s: %q, want %q", n, got[n], w)
		}
	}
	if r.Node != "b" {
		t.Errorf("chosen %q", r.Node)
	}
}
