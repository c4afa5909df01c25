package apiserver

// The eviction subresource, POST pods/NAME/eviction with a policy/v1
// Eviction (pkg/registry/core/pod/storage/eviction.go EvictionREST.Create,
// v1.37): a pod that cannot hurt a budget any more (terminal, Pending,
// already terminating) is deleted at once; otherwise the one
// PodDisruptionBudget selecting it decides — its status must be observed
// (observedGeneration), and disruptionsAllowed > 0 is decremented and the
// pod written into status.disruptedPods before the pod is deleted; 0 is
// answered 429 TooManyRequests, which the client retries. The deletion is
// addConditionAndDeletePod: an update that adds the DisruptionTarget
// condition (reason EvictionByEvictionAPI), then a graceful delete.
//
// Left out: dry run, DeleteOptions preconditions from the request, and the
// 20 conflict retries of EvictionsRetry (the check is repeated at commit
// against the stored budget instead, which is what a retry would read).

import (
	"fmt"
	"net/http"

	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
)

// Eviction API texts (eviction.go v1.37: checkAndDecrement,
// createTooManyRequestsError, the multiple-PDB status, the condition).
const (
	EvictionViolatesBudget = "Cannot evict pod as it would violate the pod's disruption budget."
	EvictionManyBudgets    = "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."
	EvictionReason         = "EvictionByEvictionAPI"
	EvictionMessage        = "Eviction API: evicting"
	// MaxDisruptedPodSize bounds status.disruptedPods (eviction.go).
	MaxDisruptedPodSize = 2000
)

// BudgetCause is the DisruptionBudget cause of a 429 when the budget
// allows no disruption (checkAndDecrement).
func BudgetCause(pdb string, desired, current int32) string {
	return fmt.Sprintf("The disruption budget %s needs %d healthy pods and has %d currently", pdb, desired, current)
}

// pdbResource is policy/v1 PodDisruptionBudget.
var pdbResource = Resource{Group: "policy", Version: "v1", Kind: "PodDisruptionBudget", Plural: "poddisruptionbudgets", Namespaced: true}

// Evict POSTs an Eviction for the pod (pods/NAME/eviction).
func (c *Client) Evict(ns, name string, done Done) {
	c.send(request{verb: "create", subresource: "eviction", res: podResource, ns: ns, name: name}, done)
}

// Evict is Client.Evict, blocking.
func (k Calls) Evict(ns, name string) (runtime.Object, *Status) {
	return k.do(request{verb: "create", subresource: "eviction", res: podResource, ns: ns, name: name})
}

var podResource = Resource{Version: "v1", Kind: "Pod", Plural: "pods", Namespaced: true}

// tooManyRequests is errors.NewTooManyRequests with a DisruptionBudget cause.
func tooManyRequests(cause string) *Status {
	return &Status{Code: http.StatusTooManyRequests, Reason: "TooManyRequests", Message: EvictionViolatesBudget,
		Cause: string(policyv1.DisruptionBudgetCause) + ": " + cause}
}

// canIgnorePDB: terminal, Pending or terminating pods are deleted without
// asking a budget.
func canIgnorePDB(p *corev1.Pod) bool {
	return p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed ||
		p.Status.Phase == corev1.PodPending || p.DeletionTimestamp != nil
}

// PodIsReady is podutil.IsPodReady: condition Ready is True.
func PodIsReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// budgetsFor is getPodDisruptionBudgets: the budgets of the pod's namespace
// whose selector matches it (an empty selector matches nothing).
func (s *Server) budgetsFor(p *corev1.Pod) []*policyv1.PodDisruptionBudget {
	var out []*policyv1.PodDisruptionBudget
	for _, o := range s.List("poddisruptionbudgets") {
		pdb := o.(*policyv1.PodDisruptionBudget)
		if pdb.Namespace != p.Namespace {
			continue
		}
		sel, err := metav1.LabelSelectorAsSelector(pdb.Spec.Selector)
		if err != nil || sel.Empty() || !sel.Matches(labels.Set(p.Labels)) {
			continue
		}
		out = append(out, pdb)
	}
	return out
}

// evict serves POST pods/NAME/eviction.
func (s *Server) evict(c *Client, r *request, done Done, pipeline func(trace.Phase, trace.Kind, ...any)) {
	// The eviction's verdicts show without -v, whoever asks.
	step := func(phase trace.Phase, kind trace.Kind, fields ...any) {
		if kind.Component() != "eviction" {
			pipeline(phase, kind, fields...)
			return
		}
		if !s.rec.Full() {
			s.rec.Add(trace.Step{Phase: phase, Actor: "kube-apiserver", Kind: kind, Object: r.res.Plural + "/" + r.ns + "/" + r.name, Fields: trace.F(fields...)})
		}
	}
	key := Key(r.res, r.ns, r.name)
	cur := s.data[key]
	refuse := func(st *Status) {
		step(c.Phase, "eviction.refused", "pod", r.name, "status", st.StatusLine(), "message", st.Message, "cause", st.Cause)
		s.answer(done, nil, st)
	}
	if cur == nil {
		s.answer(done, nil, notFound(*r))
		return
	}
	pod := cur.obj.(*corev1.Pod)
	if canIgnorePDB(pod) {
		step(c.Phase, "eviction.nobudget", "pod", r.name, "phase", string(pod.Status.Phase), "terminating", pod.DeletionTimestamp != nil)
		s.conditionAndDelete(c, r, done, step)
		return
	}
	pdbs := s.budgetsFor(pod)
	switch len(pdbs) {
	case 0:
		step(c.Phase, "eviction.nopdb", "pod", r.name)
		s.conditionAndDelete(c, r, done, step)
		return
	case 1:
	default:
		refuse(&Status{Code: http.StatusInternalServerError, Reason: "InternalError", Message: EvictionManyBudgets})
		return
	}
	pdb := pdbs[0]
	if !PodIsReady(pod) {
		// An unhealthy pod does not count toward currentHealthy: it may go
		// without a decrement when the budget is met, or always under
		// unhealthyPodEvictionPolicy AlwaysAllow.
		always := pdb.Spec.UnhealthyPodEvictionPolicy != nil && *pdb.Spec.UnhealthyPodEvictionPolicy == policyv1.AlwaysAllow
		if always || (pdb.Status.CurrentHealthy >= pdb.Status.DesiredHealthy && pdb.Status.DesiredHealthy > 0) {
			step(c.Phase, "eviction.unhealthy", "pod", r.name, "pdb", pdb.Name)
			s.conditionAndDelete(c, r, done, step)
			return
		}
	}
	if st := checkBudget(pdb); st != nil {
		refuse(st)
		return
	}
	s.decrementBudget(c, r, done, step, pdb)
}

// decrementBudget is checkAndDecrement: the budget's status write that
// takes one disruption, then the pod's DisruptionTarget and delete.
func (s *Server) decrementBudget(c *Client, r *request, done Done, step func(trace.Phase, trace.Kind, ...any), pdb *policyv1.PodDisruptionBudget) {
	step(c.Phase, "eviction.check", "pod", r.name, "pdb", pdb.Name, "allowed", pdb.Status.DisruptionsAllowed,
		"healthy", pdb.Status.CurrentHealthy, "desired", pdb.Status.DesiredHealthy)
	// checkAndDecrement's UpdateStatus of the budget, through the API
	// server's loopback client; the check is made again against what is
	// stored when the write reaches etcd.
	pr := request{verb: "update", subresource: "status", res: pdbResource, ns: pdb.Namespace, name: pdb.Name}
	s.commit(c, &pr, Key(pdbResource, pdb.Namespace, pdb.Name), func(st *stored) (runtime.Object, *Status) {
		if st == nil {
			return nil, notFound(pr)
		}
		cur := st.obj.(*policyv1.PodDisruptionBudget)
		if fail := checkBudget(cur); fail != nil {
			return nil, fail
		}
		upd := cur.DeepCopy()
		upd.Status.DisruptionsAllowed--
		if upd.Status.DisruptionsAllowed == 0 {
			SetDisruptionAllowed(upd)
		}
		if upd.Status.DisruptedPods == nil {
			upd.Status.DisruptedPods = map[string]metav1.Time{}
		}
		upd.Status.DisruptedPods[r.name] = TimeAt(s.eng.Now())
		return upd, nil
	}, func(_ runtime.Object, err *Status) {
		if err != nil {
			// What the retry of the budget's update read: another
			// eviction took the last disruption in between.
			step(c.Phase, "eviction.refused", "pod", r.name, "status", err.StatusLine(), "message", err.Message, "cause", err.Cause)
			if done != nil {
				done(nil, err)
			}
			return
		}
		s.conditionAndDelete(c, r, done, step)
	}, internalStep(step))
}

// checkBudget is checkAndDecrement's refusals.
func checkBudget(pdb *policyv1.PodDisruptionBudget) *Status {
	switch {
	case pdb.Status.ObservedGeneration < pdb.Generation:
		return tooManyRequests(fmt.Sprintf("The disruption budget %s is still being processed by the server.", pdb.Name))
	case pdb.Status.DisruptionsAllowed < 0:
		return &Status{Code: http.StatusForbidden, Reason: "Forbidden",
			Message: fmt.Sprintf("poddisruptionbudgets.policy %q is forbidden: pdb disruptions allowed is negative", pdb.Name)}
	case len(pdb.Status.DisruptedPods) > MaxDisruptedPodSize:
		return &Status{Code: http.StatusForbidden, Reason: "Forbidden",
			Message: fmt.Sprintf("poddisruptionbudgets.policy %q is forbidden: DisruptedPods map too big - too many evictions not confirmed by PDB controller", pdb.Name)}
	case pdb.Status.DisruptionsAllowed == 0:
		return tooManyRequests(BudgetCause(pdb.Name, pdb.Status.DesiredHealthy, pdb.Status.CurrentHealthy))
	}
	return nil
}

// SetDisruptionAllowed is pdbhelper.UpdateDisruptionAllowedCondition
// (k8s.io/component-helpers/apps/poddisruptionbudget): condition
// DisruptionAllowed True/SufficientPods or False/InsufficientPods.
func SetDisruptionAllowed(pdb *policyv1.PodDisruptionBudget) {
	c := metav1.Condition{Type: policyv1.DisruptionAllowedCondition, Status: metav1.ConditionFalse,
		Reason: policyv1.InsufficientPodsReason, ObservedGeneration: pdb.Status.ObservedGeneration}
	if pdb.Status.DisruptionsAllowed > 0 {
		c.Status, c.Reason = metav1.ConditionTrue, policyv1.SufficientPodsReason
	}
	for i := range pdb.Status.Conditions {
		if old := pdb.Status.Conditions[i]; old.Type == c.Type {
			c.LastTransitionTime = old.LastTransitionTime
			if old.Status != c.Status {
				c.LastTransitionTime = metav1.Time{}
			}
			pdb.Status.Conditions[i] = c
			return
		}
	}
	pdb.Status.Conditions = append(pdb.Status.Conditions, c)
}

// internalStep records the store's steps of a write the API server makes
// itself (no HTTP response of its own).
func internalStep(step func(trace.Phase, trace.Kind, ...any)) func(trace.Phase, trace.Kind, ...any) {
	return func(p trace.Phase, kind trace.Kind, fields ...any) {
		if kind == trace.KindAPIServerUpdated || kind == trace.KindAPIServerResponse {
			return
		}
		step(p, kind, fields...)
	}
}

// conditionAndDelete is addConditionAndDeletePod: an update of the pod
// with the DisruptionTarget condition, then its graceful deletion; the
// Eviction is answered 201 Created with a Status Success.
func (s *Server) conditionAndDelete(c *Client, r *request, done Done, step func(trace.Phase, trace.Kind, ...any)) {
	key := Key(r.res, r.ns, r.name)
	ur := request{verb: "update", res: r.res, ns: r.ns, name: r.name}
	s.commit(c, &ur, key, func(st *stored) (runtime.Object, *Status) {
		if st == nil {
			return nil, notFound(ur)
		}
		old := st.obj.(*corev1.Pod)
		pod := old.DeepCopy()
		SetPodCondition(pod, corev1.PodCondition{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue,
			Reason: EvictionReason, Message: EvictionMessage})
		StampConditions(&old.Status, &pod.Status, pod.Generation, s.eng.Now())
		return pod, nil
	}, func(_ runtime.Object, err *Status) {
		if err != nil {
			s.answer(done, nil, err)
			return
		}
		step(c.Phase, "eviction.condition", "pod", r.name, "reason", EvictionReason, "message", EvictionMessage)
		dr := request{verb: "delete", res: r.res, ns: r.ns, name: r.name}
		s.commitDelete(c, &dr, func(obj runtime.Object, err *Status) {
			if err == nil {
				step(c.Phase, "eviction.evicted", "pod", r.name, "status", "201 Created")
			}
			if done != nil {
				done(obj, err)
			}
		}, internalStep(step))
	}, internalStep(step))
}
