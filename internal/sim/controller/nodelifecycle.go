package controller

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/sim/informer"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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

// NodeLifecycle is the node lifecycle controller with its taint-based
// eviction: it watches node Leases, marks silent nodes Unknown, taints them
// unreachable (NoSchedule and NoExecute), marks their pods not ready, and
// deletes each pod when its toleration of the NoExecute taint runs out.
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
}

// nodeIndex files pods under spec.nodeName.
const nodeIndex = "node"

// NewNodeLifecycle builds the controller on its client; Start opens its
// watches and its monitor loop.
func NewNodeLifecycle(c *apiserver.Client, eng *engine.Engine, rec *trace.Recorder) *NodeLifecycle {
	n := &NodeLifecycle{c: c, eng: eng, rec: rec, renewed: map[string]time.Duration{},
		leases: informer.New[*coordinationv1.Lease]("leases"), nodes: informer.New[*corev1.Node]("nodes"),
		pods: informer.New[*corev1.Pod]("pods").AddIndexer(nodeIndex, func(p *corev1.Pod) []string {
			if p.Spec.NodeName == "" {
				return nil
			}
			return []string{p.Spec.NodeName}
		}),
		unknown: map[string]bool{}, Marked: map[string]time.Duration{}}
	// The monitor measures silence from when the controller saw a renewal
	// (upstream's probeTimestamp is the observation time too).
	n.leases.AddEventHandler(func(ev informer.Event[*coordinationv1.Lease]) {
		if ev.Obj.Namespace == "kube-node-lease" {
			n.renewed[ev.Obj.Name] = eng.Now()
		}
	})
	return n
}

// Name is the controller's client name.
func (n *NodeLifecycle) Name() string { return n.c.Actor }

// Start opens the controller's watches (Leases, nodes, pods) and starts
// the node monitor.
func (n *NodeLifecycle) Start() {
	n.leases.Run(n.c)
	n.nodes.Run(n.c)
	n.pods.Run(n.c)
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
	n.c.UpdateStatus(st, func(runtime.Object, *apiserver.Status) {
		tainted := st.DeepCopy()
		now := metav1.NewTime(apiserver.Epoch.Add(n.eng.Now()).Truncate(time.Second))
		tainted.Spec.Taints = append(tainted.Spec.Taints,
			corev1.Taint{Key: TaintUnreachable, Effect: corev1.TaintEffectNoSchedule, TimeAdded: &now},
			corev1.Taint{Key: TaintUnreachable, Effect: corev1.TaintEffectNoExecute, TimeAdded: &now})
		n.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: n.c.Actor, Kind: "node.taint", Object: "nodes/" + node.Name,
			Fields: trace.F("node", node.Name, "taint", TaintUnreachable)})
		n.c.Update(tainted, func(runtime.Object, *apiserver.Status) { n.podsOnDeadNode(node.Name) })
	})
}

// podsOnDeadNode marks the node's pods not ready and schedules each one's
// eviction when its NoExecute toleration expires.
func (n *NodeLifecycle) podsOnDeadNode(node string) {
	var pods []*corev1.Pod
	for _, p := range n.pods.ByIndex(nodeIndex, node) {
		if p.DeletionTimestamp == nil {
			pods = append(pods, p)
		}
	}
	sort.SliceStable(pods, func(i, j int) bool { return pods[i].Name < pods[j].Name })
	var names []string
	for _, p := range pods {
		names = append(names, p.Name)
		upd := p.DeepCopy()
		for i := range upd.Status.Conditions {
			if upd.Status.Conditions[i].Type == corev1.PodReady {
				upd.Status.Conditions[i].Status = corev1.ConditionFalse
				upd.Status.Conditions[i].Reason = "NodeNotReady"
			}
		}
		n.c.UpdateStatus(upd, nil)
		wait, ok := tolerationFor(p)
		evictor := "taint-eviction-controller"
		if n.Eviction != nil {
			evictor = n.Eviction.Actor
		}
		n.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: evictor, Kind: "node.evictplan", Object: apiserver.ObjectRef(p),
			Fields: trace.F("pod", p.Name, "seconds", int64(wait/time.Second), "forever", !ok)})
		if !ok {
			continue
		}
		p := p
		n.eng.After(wait, func() { n.evict(p, wait) })
	}
	n.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: n.c.Actor, Kind: "node.podsnotready", Object: "nodes/" + node,
		Fields: trace.F("node", node, "pods", strings.Join(names, ", "))})
}

// evict is the taint-eviction-controller's deletePodHandler: the
// TaintManagerEviction event, then addConditionAndDeletePod — GET the pod,
// PATCH its status with the DisruptionTarget condition, DELETE it
// (pkg/controller/tainteviction/taint_eviction.go).
func (n *NodeLifecycle) evict(p *corev1.Pod, wait time.Duration) {
	cur, _ := n.pods.Get(p.Namespace, p.Name)
	if cur == nil || cur.DeletionTimestamp != nil {
		return
	}
	te := n.Eviction
	if te == nil {
		te = n.c
	}
	n.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: te.Actor, Kind: "node.evict", Object: apiserver.ObjectRef(p),
		Fields: trace.F("pod", p.Name, "after", wait)})
	te.Event(trace.PhaseController, p, "Normal", "TaintManagerEviction", fmt.Sprintf("Marking for deletion Pod %s/%s", p.Namespace, p.Name))
	res := apiserver.ResourceOf(p)
	te.Get(res, p.Namespace, p.Name, func(_ runtime.Object, err *apiserver.Status) {
		if err != nil {
			return
		}
		body := `{"status":{"conditions":[{"type":"DisruptionTarget","status":"True","reason":"DeletionByTaintManager","message":"Taint manager: deleting due to NoExecute taint"}]}}`
		te.PatchStatus(res, p.Namespace, p.Name, body, func(o runtime.Object) {
			pod := o.(*corev1.Pod)
			cond := corev1.PodCondition{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue, Reason: "DeletionByTaintManager",
				Message: "Taint manager: deleting due to NoExecute taint"}
			for i := range pod.Status.Conditions {
				if pod.Status.Conditions[i].Type == cond.Type {
					pod.Status.Conditions[i] = cond
					return
				}
			}
			pod.Status.Conditions = append(pod.Status.Conditions, cond)
		}, func(_ runtime.Object, err *apiserver.Status) {
			if err == nil {
				te.Delete(res, p.Namespace, p.Name, nil)
			}
		})
	})
}

// tolerationFor is how long a pod tolerates the unreachable NoExecute
// taint: its tolerationSeconds (300 s from DefaultTolerationSeconds
// admission), forever without a limit, or 0 when it does not tolerate it.
func tolerationFor(p *corev1.Pod) (time.Duration, bool) {
	for _, t := range p.Spec.Tolerations {
		if (t.Key == TaintUnreachable || (t.Key == "" && t.Operator == corev1.TolerationOpExists)) &&
			(t.Effect == "" || t.Effect == corev1.TaintEffectNoExecute) {
			if t.TolerationSeconds == nil {
				return 0, false
			}
			return time.Duration(*t.TolerationSeconds) * time.Second, true
		}
	}
	return 0, true
}
