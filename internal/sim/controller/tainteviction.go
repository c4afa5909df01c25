package controller

// The taint-eviction-controller (pkg/controller/tainteviction/taint_eviction.go),
// run beside the node lifecycle controller on the same node
// informer: pods on a node with the unreachable NoExecute taint are deleted
// when their toleration runs out.

import (
	"fmt"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// taintEvictionNodeUpdate is the taint-eviction-controller's handleNodeUpdate
// for a node whose NoExecute taints changed (as its informer shows them):
// processPodOnNode schedules each pod's deletion when its toleration of
// the unreachable taint runs out, counted from now
// (pkg/controller/tainteviction/taint_eviction.go).
func (n *NodeLifecycle) taintEvictionNodeUpdate(node *corev1.Node) {
	if !hasTaint(node.Spec.Taints, corev1.Taint{Key: TaintUnreachable, Effect: corev1.TaintEffectNoExecute}) {
		return // the simulator evicts only for the unreachable taint
	}
	evictor := n.c.Actor
	if n.Eviction != nil {
		evictor = n.Eviction.Actor
	}
	for _, p := range n.podsOn(node.Name) {
		wait, ok := tolerationFor(p)
		key := p.Namespace + "/" + p.Name
		if at, planned := n.planned[key]; planned && ok && at <= n.eng.Now()+wait {
			continue // an earlier eviction is already scheduled
		}
		n.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: evictor, Kind: "node.evictplan", Object: apiserver.ObjectRef(p),
			Fields: trace.F("pod", p.Name, "seconds", int64(wait/time.Second), "forever", !ok)})
		if !ok {
			continue
		}
		n.planned[key] = n.eng.Now() + wait
		p := p
		n.eng.After(wait, func() { n.evict(p, wait) })
	}
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
	n.eng.Go(func(pr *engine.Proc) {
		// deletePodHandler tries addConditionAndDeletePod up to 5 times,
		// 10 ms apart (taint_eviction.go retries, retryDelay).
		for i := 0; i < evictRetries; i++ {
			if n.addConditionAndDeletePod(pr, te, p) {
				return
			}
			pr.Sleep(evictRetryDelay)
		}
	})
}

// The taint-eviction controller's retries of one eviction
// (pkg/controller/tainteviction/taint_eviction.go: retries = 5, retryDelay = 10ms).
const (
	evictRetries    = 5
	evictRetryDelay = 10 * time.Millisecond
)

// addConditionAndDeletePod is taint_eviction.go addConditionAndDeletePod:
// GET the pod, PATCH its status with the DisruptionTarget condition, DELETE
// it. It reports whether all three got through (any error, a 404 too, is
// retried upstream).
func (n *NodeLifecycle) addConditionAndDeletePod(pr *engine.Proc, te *apiserver.Client, p *corev1.Pod) bool {
	api := te.In(pr)
	res := apiserver.ResourceOf(p)
	if _, err := api.Get(res, p.Namespace, p.Name); err != nil {
		return false
	}
	body := `{"status":{"conditions":[{"type":"DisruptionTarget","status":"True","reason":"DeletionByTaintManager","message":"Taint manager: deleting due to NoExecute taint"}]}}`
	if _, err := api.PatchStatus(res, p.Namespace, p.Name, body, n.disruptionTarget); err != nil {
		return false
	}
	_, err := api.Delete(res, p.Namespace, p.Name)
	return err == nil
}

// disruptionTarget sets the condition the eviction's status patch carries.
func (n *NodeLifecycle) disruptionTarget(o runtime.Object) {
	pod := o.(*corev1.Pod)
	cond := corev1.PodCondition{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue, Reason: "DeletionByTaintManager",
		Message: "Taint manager: deleting due to NoExecute taint", LastTransitionTime: apiserver.TimeAt(n.eng.Now()), ObservedGeneration: pod.Generation}
	apiserver.SetPodCondition(pod, cond)
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
			return trace.Seconds(*t.TolerationSeconds), true
		}
	}
	return 0, true
}
