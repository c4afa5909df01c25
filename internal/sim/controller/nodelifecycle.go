package controller

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/sim/informer"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Node lifecycle timings (kube-controller-manager defaults,
// pkg/controller/nodelifecycle/config): the node monitor runs every 5 s
// and a node whose Lease was not renewed for the grace period (50 s since
// v1.32, 40 s before, kubernetes PR #126287) becomes Ready=Unknown.
const (
	NodeMonitorPeriod      = 5 * time.Second
	NodeMonitorGracePeriod = 50 * time.Second
)

// Taints the node lifecycle controller puts on an unreachable node.
const TaintUnreachable = "node.kubernetes.io/unreachable"

// TaintNotReady is the taint of a node whose Ready condition is False; it
// and TaintUnreachable are mutually exclusive (nodelifecycle
// NotReadyTaintTemplate, UnreachableTaintTemplate).
const TaintNotReady = "node.kubernetes.io/not-ready"

// The NoExecute tainting pass (doNoExecuteTaintingPass) runs every
// NodeEvictionPeriod and takes nodes from a per-zone queue whose rate
// limiter lets one node through every TaintInterval (--node-eviction-rate
// 0.1/s, burst 1: pkg/controller/nodelifecycle/scheduler). A taint write
// that meets 409 Conflict is retried after UpdateTaintBackoff, 100 ms
// (5 steps, jitter 1.0, which the simulator leaves out).
const (
	NodeEvictionPeriod = 100 * time.Millisecond
	TaintInterval      = 10 * time.Second
	taintRetryDelay    = 100 * time.Millisecond
	taintRetrySteps    = 5
)

// NodeLifecycle is the node lifecycle controller with its taint-based
// eviction. Like upstream it runs separate loops: the node monitor marks
// silent nodes Unknown and their pods not ready and queues the node for
// the NoExecute tainting pass; the node update worker puts the NoSchedule
// taint matching the Ready condition it sees in its informer; the
// taint-eviction-controller sees the NoExecute taint in the same shared
// node informer and deletes each pod when its toleration runs out.
type NodeLifecycle struct {
	c       *apiserver.Client
	eng     *engine.Engine
	rec     *trace.Recorder
	renewed map[string]time.Duration // when each node's Lease was last seen renewed
	leases  *informer.Informer[*coordinationv1.Lease]
	nodes   *informer.Informer[*corev1.Node]
	pods    *informer.Informer[*corev1.Pod] // indexed by node
	unknown map[string]bool
	// Marked is when each node was marked Unknown, for the story's table.
	Marked map[string]time.Duration
	// Eviction is the taint-eviction-controller's client (its own service
	// account since v1.29); nil: the node lifecycle controller's.
	Eviction *apiserver.Client

	started time.Duration // the tainting pass ticks from here
	// noExecute is the tainting pass's queue (zoneNoExecuteTainter; the
	// simulated nodes share one zone), passAt when its next tick is
	// scheduled (-1: none).
	noExecute  []string
	passAt     time.Duration
	lastTaint  time.Duration // when the rate limiter last let a node through
	everTaints bool
	// planned is the trigger time of each pod's scheduled eviction
	// (taint-eviction's TimedWorkerQueue), by namespace/name.
	planned map[string]time.Duration
	// informers are its own, when built without kube-controller-manager's.
	informers *informer.Factory
}

// nodeIndex files pods under spec.nodeName.
const nodeIndex = "node"

// NewNodeLifecycle builds the controller on its client, its informers from
// f (kube-controller-manager's shared factory; nil: its own); Start opens
// its own watches and starts its monitor loop.
func NewNodeLifecycle(f *informer.Factory, c *apiserver.Client, eng *engine.Engine, rec *trace.Recorder) *NodeLifecycle {
	f, own := informer.Or(f, c)
	// Its recorder's source: record.NewBroadcaster().NewRecorder(...,
	// v1.EventSource{Component: "node-controller"}) in
	// NewNodeLifecycleController (node_lifecycle_controller.go, v1.37.2).
	c.Component = "node-controller"
	n := &NodeLifecycle{c: c, eng: eng, rec: rec, renewed: map[string]time.Duration{}, informers: own,
		leases: informer.For[*coordinationv1.Lease](f, "leases"), nodes: informer.For[*corev1.Node](f, "nodes"),
		pods: informer.For[*corev1.Pod](f, "pods").EnsureIndexer(nodeIndex, func(p *corev1.Pod, prev []string) []string {
			if p.Spec.NodeName == "" {
				return nil
			}
			return informer.One(prev, p.Spec.NodeName)
		}),
		unknown: map[string]bool{}, Marked: map[string]time.Duration{}, passAt: -1, planned: map[string]time.Duration{}}
	// The monitor measures silence from when the controller saw a renewal
	// (upstream's probeTimestamp is the observation time too).
	n.leases.AddEventHandlerFor(c.Actor, func(ev informer.Event[*coordinationv1.Lease]) {
		if ev.Obj.Namespace == "kube-node-lease" {
			n.renewed[ev.Obj.Name] = eng.Now()
		}
	})
	// kube-controller-manager's controllers share one informer factory:
	// the node update worker and the taint-eviction-controller both hear
	// of every node change here.
	n.nodes.AddEventHandlerFor(c.Actor, func(ev informer.Event[*corev1.Node]) {
		if ev.Deleted() {
			return
		}
		n.noScheduleTaintingPass(ev.Obj.Name)
		var old []corev1.Taint
		if ev.Old != nil {
			old = ev.Old.Spec.Taints
		}
		if !sameTaints(noExecuteTaints(old), noExecuteTaints(ev.Obj.Spec.Taints)) {
			n.taintEvictionNodeUpdate(ev.Obj)
		}
	})
	return n
}

// Name is the controller's client name.
func (n *NodeLifecycle) Name() string { return n.c.Actor }

// Start opens the controller's own watches (Leases, nodes, pods; on
// shared informers kube-controller-manager opens them) and starts the
// node monitor.
func (n *NodeLifecycle) Start() {
	n.informers.Start()
	n.started = n.eng.Now()
	var monitor func()
	monitor = func() {
		n.monitor()
		n.eng.Background(NodeMonitorPeriod, monitor)
	}
	n.eng.Background(NodeMonitorPeriod, monitor)
}

func (n *NodeLifecycle) monitor() {
	names := make([]string, 0, len(n.renewed))
	for name := range n.renewed {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		silent := n.eng.Now() - n.renewed[name]
		node, _ := n.nodes.Get("", name)
		if silent <= NodeMonitorGracePeriod || n.unknown[name] || node == nil {
			continue
		}
		n.unknown[name] = true
		n.Marked[name] = n.eng.Now()
		n.markUnknown(node, silent)
	}
}

// markUnknown is monitorNodeHealth for a silent node: tryUpdateNodeHealth
// PUTs the status with Ready=Unknown; then processTaintBaseEviction queues
// the node for the NoExecute tainting pass (markNodeForTainting) and
// MarkPodsNotReady writes its pods' status. The monitor writes no taint
// itself (pkg/controller/nodelifecycle/node_lifecycle_controller.go).
func (n *NodeLifecycle) markUnknown(node *corev1.Node, silent time.Duration) {
	n.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: n.c.Actor, Kind: "node.unknown", Object: "nodes/" + node.Name,
		Fields: trace.F("node", node.Name, "silent", silent.Round(time.Second), "grace", NodeMonitorGracePeriod)})
	st := node.DeepCopy()
	for i := range st.Status.Conditions {
		if st.Status.Conditions[i].Type == corev1.NodeReady {
			st.Status.Conditions[i].Status = corev1.ConditionUnknown
			st.Status.Conditions[i].Reason = "NodeStatusUnknown"
			st.Status.Conditions[i].Message = "Kubelet stopped posting node status."
		}
	}
	n.eng.Go(func(p *engine.Proc) {
		if _, err := n.c.In(p).UpdateStatus(st); err != nil {
			return
		}
		n.markNodeForTainting(node.Name)
		// RecordNodeStatusChange, once on the Ready → not Ready transition
		// (pkg/controller/util/node/controller_utils.go, v1.37.2).
		n.c.Event(trace.PhaseController, node, "Normal", "NodeNotReady", fmt.Sprintf("Node %s status is now: NodeNotReady", node.Name))
		n.podsNotReady(p, node.Name)
	})
}

// markNodeForTainting adds the node to the NoExecute tainting queue and
// makes sure a tick of the pass will look at it.
func (n *NodeLifecycle) markNodeForTainting(name string) {
	for _, q := range n.noExecute {
		if q == name {
			return
		}
	}
	n.noExecute = append(n.noExecute, name)
	n.schedulePass(n.eng.Now())
}

// schedulePass schedules the first tick of the tainting pass that is
// later than now and not before from. wait.Until runs the pass every
// NodeEvictionPeriod from the controller's start; the simulator runs only
// the ticks that can have work.
func (n *NodeLifecycle) schedulePass(from time.Duration) {
	if now := n.eng.Now(); from <= now {
		from = now + 1 // the tick at now has run (or is running)
	}
	since := from - n.started
	at := n.started + (since+NodeEvictionPeriod-1)/NodeEvictionPeriod*NodeEvictionPeriod
	if n.passAt >= 0 && n.passAt <= at {
		return
	}
	n.passAt = at
	n.eng.After(at-n.eng.Now(), func() {
		if n.passAt != at {
			return
		}
		n.passAt = -1
		n.noExecuteTaintingPass()
	})
}

// noExecuteTaintingPass is doNoExecuteTaintingPass: for each queued node the
// rate limiter lets through, read it from the informer and put the NoExecute
// taint matching its Ready condition (Unknown: unreachable, False:
// not-ready), removing the opposite one.
func (n *NodeLifecycle) noExecuteTaintingPass() {
	for len(n.noExecute) > 0 {
		if n.everTaints && n.eng.Now()-n.lastTaint < TaintInterval {
			break // RateLimitedTimedQueue.Try stops when TryAccept refuses
		}
		n.everTaints, n.lastTaint = true, n.eng.Now()
		name := n.noExecute[0]
		n.noExecute = n.noExecute[1:]
		node, _ := n.nodes.Get("", name)
		if node == nil {
			continue
		}
		add, remove, ok := readyTaints(node, corev1.TaintEffectNoExecute)
		if !ok {
			continue // Ready again (or no Ready condition): nothing to taint
		}
		n.swapTaint(node, add, remove)
	}
	if len(n.noExecute) > 0 {
		n.schedulePass(n.lastTaint + TaintInterval) // the limiter's next token
	}
}

// noScheduleTaintingPass is doNoScheduleTaintingPass, run by the node update
// worker on every node event: from the node in the informer, the NoSchedule
// taints its Ready condition and spec.unschedulable call for
// (node.kubernetes.io/unschedulable for a cordoned node), compared with the
// NoSchedule taints of those keys it carries (TaintSetDiff); a difference
// is swapped in (node_lifecycle_controller.go v1.37). The pressure
// conditions' taints are left out: the simulator's nodes never report them.
func (n *NodeLifecycle) noScheduleTaintingPass(name string) {
	node, _ := n.nodes.Get("", name)
	if node == nil {
		return
	}
	want, _, _ := readyTaints(node, corev1.TaintEffectNoSchedule)
	if node.Spec.Unschedulable {
		want = append(want, corev1.Taint{Key: corev1.TaintNodeUnschedulable, Effect: corev1.TaintEffectNoSchedule})
	}
	var have, add, remove []corev1.Taint
	for _, t := range node.Spec.Taints {
		if t.Effect == corev1.TaintEffectNoSchedule && (t.Key == corev1.TaintNodeUnschedulable || t.Key == TaintUnreachable || t.Key == TaintNotReady) {
			have = append(have, t)
		}
	}
	for _, t := range want {
		if !hasTaint(have, t) {
			add = append(add, t)
		}
	}
	for _, t := range have {
		if !hasTaint(want, t) {
			remove = append(remove, t)
		}
	}
	if len(add) == 0 && len(remove) == 0 {
		return // TaintSetDiff is empty: no API call
	}
	n.swapTaint(node, add, remove)
}

// readyTaints is the taint the node's Ready condition calls for, with the
// given effect, and its opposite; ok is false when Ready is True or absent.
func readyTaints(node *corev1.Node, effect corev1.TaintEffect) (add, remove []corev1.Taint, ok bool) {
	for _, c := range node.Status.Conditions {
		if c.Type != corev1.NodeReady {
			continue
		}
		switch c.Status {
		case corev1.ConditionUnknown:
			return []corev1.Taint{{Key: TaintUnreachable, Effect: effect}}, []corev1.Taint{{Key: TaintNotReady, Effect: effect}}, true
		case corev1.ConditionFalse:
			return []corev1.Taint{{Key: TaintNotReady, Effect: effect}}, []corev1.Taint{{Key: TaintUnreachable, Effect: effect}}, true
		}
	}
	return nil, nil, false
}

// swapTaint is controller util SwapNodeControllerTaint: stamp timeAdded on
// the taints to add, AddOrUpdateTaintOnNode them, then RemoveTaintOffNode
// the others, which makes no request when the node (as read from the
// informer) does not carry them.
func (n *NodeLifecycle) swapTaint(node *corev1.Node, add, remove []corev1.Taint) {
	now := apiserver.TimeAt(n.eng.Now())
	for i := range add {
		add[i].TimeAdded = &now
	}
	n.eng.Go(func(p *engine.Proc) { n.swapNodeControllerTaint(p, node, add, remove) })
}

func (n *NodeLifecycle) swapNodeControllerTaint(p *engine.Proc, node *corev1.Node, add, remove []corev1.Taint) {
	if !n.updateTaints(p, node.Name, func(cur []corev1.Taint) ([]corev1.Taint, bool) { return addTaints(cur, add) }) {
		return
	}
	if hasTaint(node.Spec.Taints, remove...) {
		n.updateTaints(p, node.Name, func(cur []corev1.Taint) ([]corev1.Taint, bool) { return removeTaints(cur, remove) })
	}
}

// updateTaints is AddOrUpdateTaintOnNode / RemoveTaintOffNode
// (pkg/controller/controller_utils.go) inside RetryOnConflict: GET the node
// (the first attempt with resourceVersion=0, served from the API server's
// watch cache; later ones from etcd: the simulator's GET reads the store
// either way), compute its new taints, and PatchNodeTaints: a strategic-merge
// PATCH of spec.taints — the whole list, as the field has no merge key —
// that also names the resourceVersion just read, so a write that slipped in
// between is answered 409 Conflict, and the loop reads again. It reports
// whether the taints are as asked (written, or nothing to change).
func (n *NodeLifecycle) updateTaints(p *engine.Proc, name string, change func([]corev1.Taint) ([]corev1.Taint, bool)) bool {
	api := n.c.In(p)
	for attempt := 1; ; attempt++ {
		obj, err := api.Get(apiserver.ResourceOf(&corev1.Node{}), "", name)
		if err != nil {
			return false
		}
		cur := obj.(*corev1.Node)
		taints, updated := change(cur.Spec.Taints)
		if !updated {
			return true
		}
		body, _ := json.Marshal(map[string]any{"metadata": map[string]string{"resourceVersion": cur.ResourceVersion},
			"spec": map[string]any{"taints": taints}})
		// The step tells of the request: a refused one is followed by the
		// 409 (with -v) and the next attempt's step.
		for _, t := range taints {
			if !hasTaint(cur.Spec.Taints, t) {
				kind := trace.Kind("node.taint")
				if t.Key == corev1.TaintNodeUnschedulable {
					kind = "node.taint.unschedulable"
				}
				n.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: n.c.Actor, Kind: kind, Object: "nodes/" + name,
					Fields: trace.F("node", name, "taint", t.Key, "effect", string(t.Effect), "rv", cur.ResourceVersion, "attempt", attempt)})
			}
		}
		_, err = api.PatchRV(apiserver.ResourceOf(cur), "", name, cur.ResourceVersion, string(body), func(o runtime.Object) {
			o.(*corev1.Node).Spec.Taints = taints
		})
		switch {
		case err == nil:
			return true
		case err.Reason == "Conflict" && attempt < taintRetrySteps:
			p.Sleep(taintRetryDelay)
		default:
			return false
		}
	}
}

// addTaints is taints.AddOrUpdateTaint for each taint (pkg/util/taints):
// one with the same key and effect is replaced unless it is equal,
// timeAdded included; updated is false when nothing changed.
func addTaints(taints, add []corev1.Taint) (out []corev1.Taint, updated bool) {
	out = append([]corev1.Taint(nil), taints...)
	for _, t := range add {
		found := false
		for i := range out {
			if out[i].Key == t.Key && out[i].Effect == t.Effect {
				found = true
				if out[i].Value != t.Value || !out[i].TimeAdded.Equal(t.TimeAdded) {
					out[i], updated = t, true
				}
			}
		}
		if !found {
			out, updated = append(out, t), true
		}
	}
	return out, updated
}

// removeTaints is taints.RemoveTaint for each taint (key and effect match).
func removeTaints(taints, remove []corev1.Taint) (out []corev1.Taint, updated bool) {
	for _, t := range taints {
		if hasTaint(remove, t) {
			updated = true
			continue
		}
		out = append(out, t)
	}
	return out, updated
}

// hasTaint reports whether taints holds one of want (key and effect match,
// as taint.MatchTaint).
func hasTaint(taints []corev1.Taint, want ...corev1.Taint) bool {
	for _, t := range taints {
		for _, w := range want {
			if t.Key == w.Key && t.Effect == w.Effect {
				return true
			}
		}
	}
	return false
}

func sameTaints(a, b []corev1.Taint) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Key != b[i].Key || a[i].Value != b[i].Value || a[i].Effect != b[i].Effect {
			return false
		}
	}
	return true
}

func noExecuteTaints(taints []corev1.Taint) []corev1.Taint {
	var out []corev1.Taint
	for _, t := range taints {
		if t.Effect == corev1.TaintEffectNoExecute {
			out = append(out, t)
		}
	}
	return out
}

// podsNotReady is MarkPodsNotReady (pkg/controller/util/node/
// controller_utils.go, v1.37.2): each pod on the node whose Ready
// condition is not already False gets it set False (the kubelet's reason
// and message kept; UpdatePodCondition moves lastTransitionTime) through a
// status update, one pod at a time, and after its write the event
// Warning NodeNotReady "Node is not ready". A pod already not ready, or
// without a Ready condition, is neither written nor told.
func (n *NodeLifecycle) podsNotReady(proc *engine.Proc, node string) {
	var names []string
	var todo []*corev1.Pod
	for _, p := range n.podsOn(node) {
		i := slices.IndexFunc(p.Status.Conditions, func(c corev1.PodCondition) bool { return c.Type == corev1.PodReady })
		if i < 0 || p.Status.Conditions[i].Status == corev1.ConditionFalse {
			continue
		}
		names = append(names, p.Name)
		upd := p.DeepCopy()
		upd.Status.Conditions[i].Status = corev1.ConditionFalse
		apiserver.StampConditions(&p.Status, &upd.Status, p.Generation, n.eng.Now())
		todo = append(todo, upd)
	}
	n.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: n.c.Actor, Kind: "node.podsnotready", Object: "nodes/" + node,
		Fields: trace.F("node", node, "pods", strings.Join(names, ", "))})
	for _, upd := range todo {
		if _, err := n.c.In(proc).UpdateStatus(upd); err != nil && err.Code == 404 {
			continue
		}
		// After the write, "to make sure pod still exists".
		n.c.Event(trace.PhaseController, upd, "Warning", "NodeNotReady", "Node is not ready")
	}
}

// podsOn lists the node's pods not being deleted, by name.
func (n *NodeLifecycle) podsOn(node string) []*corev1.Pod {
	var pods []*corev1.Pod
	for _, p := range n.pods.ByIndex(nodeIndex, node) {
		if p.DeletionTimestamp == nil {
			pods = append(pods, p)
		}
	}
	sort.SliceStable(pods, func(i, j int) bool { return pods[i].Name < pods[j].Name })
	return pods
}
