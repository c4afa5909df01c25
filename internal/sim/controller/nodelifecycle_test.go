package controller

import (
	"strings"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// seedNode stores a Ready node, its Lease, and a pod bound to it that
// tolerates the unreachable taint for tolerate seconds.
func (h *harness) seedNode(name string, tolerate int64) {
	n := &corev1.Node{}
	n.Name = name
	n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady"}}
	h.api.Seed(n)
	l := &coordinationv1.Lease{}
	l.Namespace, l.Name = "kube-node-lease", name
	now := metav1.NewMicroTime(time.Now())
	l.Spec.RenewTime = &now
	h.api.Seed(l)
	p := &corev1.Pod{}
	p.Namespace, p.Name = "default", "on-"+name
	p.Spec.NodeName = name
	p.Spec.Containers = []corev1.Container{{Name: "c", Image: "nginx"}}
	p.Spec.Tolerations = []corev1.Toleration{{Key: TaintUnreachable, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: &tolerate}}
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
	h.api.Seed(p)
}

// A node whose Lease is not renewed for the grace period becomes
// Ready=Unknown, is tainted unreachable (the step; the stored taint is
// TestNodeLifecycleTaintStored), its pods turn not ready, and each is evicted when its toleration runs out.
// A node that keeps renewing is left alone.
func TestNodeLifecycleTaintsSilentNode(t *testing.T) {
	h := newHarness(t)
	h.seedNode("node-a", 30)
	h.seedNode("node-b", 30)
	n := NewNodeLifecycle(nil, h.client("node-controller"), h.eng, h.rec)
	n.Eviction = h.client("taint-eviction-controller")
	n.Start()
	// node-b's kubelet renews every 10 s; node-a's is silent.
	var renew func()
	renew = func() {
		l := h.get(&coordinationv1.Lease{}, "kube-node-lease", "node-b").(*coordinationv1.Lease)
		h.admin.Update(l, nil)
		h.eng.Background(10*time.Second, renew)
	}
	h.eng.Background(10*time.Second, renew)

	h.runUntil(NodeMonitorGracePeriod)
	if node := h.get(&corev1.Node{}, "", "node-a").(*corev1.Node); len(node.Spec.Taints) != 0 {
		t.Fatal("tainted before the grace period ran out")
	}
	h.runUntil(NodeMonitorGracePeriod + 2*NodeMonitorPeriod)
	node := h.get(&corev1.Node{}, "", "node-a").(*corev1.Node)
	if node.Status.Conditions[0].Status != corev1.ConditionUnknown || node.Status.Conditions[0].Reason != "NodeStatusUnknown" {
		t.Fatalf("node-a condition: %+v", node.Status.Conditions[0])
	}
	// Two writers, two PATCHes: the node update worker's NoSchedule as soon
	// as the Unknown status reaches the informer, then the tainting pass's
	// NoExecute.
	st := h.steps("node.taint")
	if len(st) != 2 || st[0].Get("effect") != "NoSchedule" || st[1].Get("effect") != "NoExecute" {
		t.Fatalf("taint steps: %+v", st)
	}
	for _, s := range st {
		if s.Get("node") != "node-a" || s.Get("taint") != TaintUnreachable {
			t.Fatalf("taint step: %+v", s)
		}
	}
	if _, ok := n.Marked["node-a"]; !ok {
		t.Fatal("node-a not in Marked")
	}
	if _, ok := n.Marked["node-b"]; ok {
		t.Fatal("node-b renews its Lease and must not be marked")
	}
	pod := h.get(&corev1.Pod{}, "default", "on-node-a").(*corev1.Pod)
	if PodReady(pod) || pod.DeletionTimestamp != nil {
		t.Fatalf("on-node-a: ready %v, deleted %v; want not ready, not yet deleted", PodReady(pod), pod.DeletionTimestamp != nil)
	}
	if !PodReady(h.get(&corev1.Pod{}, "default", "on-node-b").(*corev1.Pod)) {
		t.Fatal("on-node-b lost its readiness")
	}
	// 30 s of toleration later the taint-eviction-controller deletes it.
	h.runUntil(NodeMonitorGracePeriod + 2*NodeMonitorPeriod + 31*time.Second)
	pod = h.get(&corev1.Pod{}, "default", "on-node-a").(*corev1.Pod)
	if pod.DeletionTimestamp == nil {
		t.Fatal("on-node-a not evicted after its toleration")
	}
	disrupted := false
	for _, c := range pod.Status.Conditions {
		disrupted = disrupted || (c.Type == corev1.DisruptionTarget && c.Reason == "DeletionByTaintManager")
	}
	if !disrupted {
		t.Fatalf("no DisruptionTarget condition: %+v", pod.Status.Conditions)
	}
	if ev := h.steps("node.evict"); len(ev) != 1 || ev[0].Actor != "taint-eviction-controller" {
		t.Fatalf("evict steps: %+v", ev)
	}
}

// The unreachable taints must reach the store, where the scheduler and the
// taint-eviction-controller read them. (The bug this test found: the taint
// Update carried the resourceVersion read before the controller's own
// status write, and was refused with 409 Conflict.) Upstream PATCHes the
// taints with the version it has just read (controller_utils
// SwapNodeControllerTaint → AddOrUpdateTaintOnNode → PatchNodeTaints).
func TestNodeLifecycleTaintStored(t *testing.T) {
	h := newHarness(t)
	h.seedNode("node-a", 30)
	n := NewNodeLifecycle(nil, h.client("node-controller"), h.eng, h.rec)
	n.Start()
	h.runUntil(NodeMonitorGracePeriod + 2*NodeMonitorPeriod)
	node := h.get(&corev1.Node{}, "", "node-a").(*corev1.Node)
	var effects []corev1.TaintEffect
	for _, tn := range node.Spec.Taints {
		if tn.Key == TaintUnreachable {
			effects = append(effects, tn.Effect)
			if tn.TimeAdded == nil {
				t.Errorf("taint %s:%s has no timeAdded", tn.Key, tn.Effect)
			}
		}
	}
	if len(effects) != 2 || effects[0] != corev1.TaintEffectNoSchedule || effects[1] != corev1.TaintEffectNoExecute {
		t.Fatalf("node-a taints: %+v (%d conflicts)", node.Spec.Taints, h.api.Conflicts)
	}
	if h.api.Conflicts != 0 {
		t.Errorf("%d conflicts; the two taint writers should not meet here", h.api.Conflicts)
	}
	// The eviction was planned from the stored NoExecute taint.
	if len(h.steps("node.evictplan")) != 1 {
		t.Errorf("evictplan steps: %+v", h.steps("node.evictplan"))
	}
}

// A write to the node between the taint GET and its PATCH makes the PATCH
// stale: the API server answers 409 Conflict, and the controller GETs the
// node again and patches from the fresh copy, keeping the other writer's
// change (RetryOnConflict with UpdateTaintBackoff).
func TestNodeLifecycleTaintRetriesOnConflict(t *testing.T) {
	h := newHarness(t)
	h.seedNode("node-a", 30)
	node := h.get(&corev1.Node{}, "", "node-a").(*corev1.Node).DeepCopy()
	node.Status.Conditions[0].Status = corev1.ConditionUnknown
	h.api.Seed(node)
	n := NewNodeLifecycle(nil, h.client("node-controller"), h.eng, h.rec)
	n.Start()
	h.runUntil(time.Second) // informers filled
	n.swapTaint(node, []corev1.Taint{{Key: TaintUnreachable, Effect: corev1.TaintEffectNoExecute}}, nil)
	// Sent with the GET: it is stored after the GET read, before the PATCH lands.
	labelled := h.get(&corev1.Node{}, "", "node-a").(*corev1.Node).DeepCopy()
	labelled.ResourceVersion = ""
	labelled.Labels = map[string]string{"team": "blue"}
	h.admin.Update(labelled, nil)
	h.runUntil(2 * time.Second)

	if h.api.Conflicts != 1 {
		t.Fatalf("conflicts: %d, want the first PATCH refused", h.api.Conflicts)
	}
	got := h.get(&corev1.Node{}, "", "node-a").(*corev1.Node)
	if !hasTaint(got.Spec.Taints, corev1.Taint{Key: TaintUnreachable, Effect: corev1.TaintEffectNoExecute}) {
		t.Fatalf("taint lost after the retry: %+v", got.Spec.Taints)
	}
	if got.Labels["team"] != "blue" {
		t.Fatalf("the other writer's label was overwritten: %v", got.Labels)
	}
	// (The node update worker put NoSchedule when the informer filled.)
	// Each PATCH has its step: the refused one, then the retry.
	st := h.steps("node.taint")
	if len(st) != 3 || st[1].Get("effect") != "NoExecute" || st[1].Get("attempt") != "1" || st[2].Get("attempt") != "2" || st[1].Get("rv") == st[2].Get("rv") {
		t.Fatalf("taint steps: %+v", st)
	}
}

// Two nodes going silent together: both get NoSchedule at once from the
// node update worker, but the NoExecute tainting pass lets one node
// through per 10 s (--node-eviction-rate 0.1, burst 1), so the second
// node's pods start their toleration 10 s later.
func TestNodeLifecycleNoExecuteRateLimited(t *testing.T) {
	h := newHarness(t)
	h.seedNode("node-a", 30)
	h.seedNode("node-b", 30)
	NewNodeLifecycle(nil, h.client("node-controller"), h.eng, h.rec).Start()
	h.runUntil(NodeMonitorGracePeriod + NodeMonitorPeriod + 15*time.Second)
	at := map[string]time.Duration{}
	for _, s := range h.steps("node.taint") {
		at[s.Get("node")+" "+s.Get("effect")] = s.At
	}
	if len(at) != 4 {
		t.Fatalf("taint steps: %v", at)
	}
	if d := at["node-b NoSchedule"] - at["node-a NoSchedule"]; d < 0 || d > 10*time.Millisecond {
		t.Errorf("NoSchedule %v apart, want together", d)
	}
	if d := at["node-b NoExecute"] - at["node-a NoExecute"]; d < TaintInterval || d > TaintInterval+NodeEvictionPeriod {
		t.Errorf("NoExecute %v apart, want one per %v", d, TaintInterval)
	}
	if d := at["node-a NoExecute"] - at["node-a NoSchedule"]; d <= 0 || d > NodeEvictionPeriod {
		t.Errorf("node-a NoExecute %v after NoSchedule, want within one pass period", d)
	}
}

// A node going NotReady gets the node lifecycle controller's events, as
// monitorNodeHealth records them at v1.37: first RecordNodeStatusChange's
// Normal NodeNotReady on the Node, then MarkPodsNotReady's Warning
// NodeNotReady on each pod whose Ready condition it turned False, each
// after that pod's status write, from the component "node-controller"
// (pkg/controller/nodelifecycle/node_lifecycle_controller.go,
// pkg/controller/util/node/controller_utils.go). A pod already not ready
// is not written and gets no event (UpdatePodCondition reports no change);
// the pod's Ready condition keeps the kubelet's reason.
func TestNodeLifecycleNotReadyEvents(t *testing.T) {
	h := newHarness(t)
	h.seedNode("node-a", 300)
	p := &corev1.Pod{}
	p.Namespace, p.Name = "default", "idle-node-a"
	p.Spec.NodeName = "node-a"
	p.Spec.Containers = []corev1.Container{{Name: "c", Image: "nginx"}}
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse, Reason: "ContainersNotReady"}}
	p.Spec.Tolerations = []corev1.Toleration{{Operator: corev1.TolerationOpExists}}
	h.api.Seed(p)
	NewNodeLifecycle(nil, h.client("node-controller"), h.eng, h.rec).Start()
	h.runUntil(NodeMonitorGracePeriod + 2*NodeMonitorPeriod)

	var got []string
	for _, s := range h.steps("event") {
		got = append(got, s.Object+" "+s.Get("type")+" "+s.Get("reason")+" "+s.Get("message"))
	}
	want := []string{
		"nodes/node-a Normal NodeNotReady Node node-a status is now: NodeNotReady",
		"pods/default/on-node-a Warning NodeNotReady Node is not ready",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, o := range h.api.List("events") {
		if ev := o.(*corev1.Event); ev.Source.Component != "node-controller" {
			t.Fatalf("event %s/%s from %q, want node-controller", ev.InvolvedObject.Name, ev.Reason, ev.Source.Component)
		}
	}
	pod := h.get(&corev1.Pod{}, "default", "on-node-a").(*corev1.Pod)
	if c := pod.Status.Conditions[0]; c.Status != corev1.ConditionFalse || c.Reason != "" {
		t.Fatalf("on-node-a Ready condition %+v, want False with the kubelet's (empty) reason", c)
	}
	idle := h.get(&corev1.Pod{}, "default", "idle-node-a").(*corev1.Pod)
	if idle.Status.Conditions[0].Reason != "ContainersNotReady" {
		t.Fatalf("idle-node-a rewritten: %+v", idle.Status.Conditions[0])
	}
}
