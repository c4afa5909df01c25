package sim

import (
	"fmt"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/sim/scheduler"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// PreemptionReason and preemptionMessage are the DisruptionTarget
// condition the scheduler puts on a victim (framework/preemption/
// preemption.go PreemptPod, v1.37: v1.PodReasonPreemptionByScheduler).
const PreemptionReason = corev1.PodReasonPreemptionByScheduler

func preemptionMessage(schedulerName string) string {
	return schedulerName + ": preempting to accommodate a higher priority pod"
}

// notEligible is PodEligibleToPreemptOthers' refusal while victims of an
// earlier preemption are still terminating on the nominated node
// (default_preemption.go).
const notEligible = "preemption: not eligible due to a terminating pod on the nominated node."

// budgets is what preemption reads of the PodDisruptionBudgets (the
// scheduler's PDB lister), nil when the cluster runs no disruption
// controller.
func (s *schedAgent) budgets() []scheduler.Budget {
	if s.pdbs == nil {
		return nil
	}
	var out []scheduler.Budget
	for _, pdb := range s.pdbs.List() {
		sel, err := metav1.LabelSelectorAsSelector(pdb.Spec.Selector)
		if err != nil {
			continue
		}
		out = append(out, scheduler.Budget{Namespace: pdb.Namespace, Selector: sel, Allowed: pdb.Status.DisruptionsAllowed})
	}
	return out
}

// eligible is PodEligibleToPreemptOthers: preemptionPolicy Never never
// preempts; a pod already nominated waits while a lower-priority pod on
// that node is terminating.
func (s *schedAgent) eligible(pod *corev1.Pod) (bool, string) {
	if p := pod.Spec.PreemptionPolicy; p != nil && *p == corev1.PreemptNever {
		return false, ""
	}
	if nom := pod.Status.NominatedNodeName; nom != "" {
		if n := s.cache.Node(nom); n != nil {
			for _, p := range n.Pods {
				if p.DeletionTimestamp != nil && scheduler.PodPriority(p) < scheduler.PodPriority(pod) {
					return false, notEligible
				}
			}
		}
	}
	return true, ""
}

// postFilter runs DefaultPreemption for a pod no node fits. It returns the
// nominated node ("" when preemption cannot help) and the FailedScheduling
// message to record; the victims are evicted on a proc of their own, as
// upstream's async preemption (SchedulerAsyncPreemption, on by default)
// does in a goroutine.
func (s *schedAgent) postFilter(pod *corev1.Pod, res scheduler.Result) (string, string) {
	if ok, why := s.eligible(pod); !ok {
		if why != "" {
			return "", scheduler.WithoutPostFilter(res.Message) + " " + why
		}
		return "", res.Message
	}
	best, all := s.fw.Preempt(pod, s.cache, res.Filtered, s.budgets())
	if best == nil {
		return "", res.Message
	}
	cands := trace.Phrases{Sep: "; "}
	for _, c := range all {
		var names []string
		for _, v := range c.Victims {
			names = append(names, v.Name)
		}
		cands.Items = append(cands.Items, trace.P("preempt.candidate", c.Node, strings.Join(names, ", "), c.PDBViolations))
	}
	s.rec.Add(trace.Step{Phase: trace.PhaseScheduler, Actor: s.c.Actor, Kind: "scheduler.preempt", Object: apiserver.ObjectRef(pod),
		Fields: trace.F("pod", pod.Name, "priority", scheduler.PodPriority(pod), "node", best.Node, "victims", victimNames(best.Victims),
			"violations", best.PDBViolations, "candidates", cands, "count", len(all))})
	victims := best.Victims
	node := best.Node
	s.eng.Go(func(p *engine.Proc) { s.evictVictims(p, pod, node, victims) })
	// Since v1.37 the Success status carries a message, which FitError
	// appends as any PostFilter's ("preemption: found a potential
	// placement…": framework/preemption/preemption.go Preempt,
	// kubernetes#140180; the oracle's preemption recording).
	return node, fmt.Sprintf("%s preemption: found a potential placement for pod on node %s, preempting %d victims",
		scheduler.WithoutPostFilter(res.Message), node, len(victims))
}

// victimNames lists victims with their priorities, a phrase per pod.
func victimNames(pods []*corev1.Pod) trace.Phrases {
	out := trace.Phrases{Sep: ", "}
	for _, p := range pods {
		out.Items = append(out.Items, trace.P("preempt.victim", p.Name, scheduler.PodPriority(p)))
	}
	return out
}

// evictVictims is prepareCandidateAsync → PreemptPod for each victim: the
// DisruptionTarget condition (PATCH status), the graceful DELETE, the
// Preempted event naming the preemptor's UID.
func (s *schedAgent) evictVictims(p *engine.Proc, pod *corev1.Pod, node string, victims []*corev1.Pod) {
	api := s.c.In(p)
	schedName := pod.Spec.SchedulerName
	if schedName == "" {
		schedName = corev1.DefaultSchedulerName
	}
	for _, v := range victims {
		s.rec.Add(trace.Step{Phase: trace.PhaseScheduler, Actor: s.c.Actor, To: "kube-apiserver", Kind: "scheduler.victim", Object: apiserver.ObjectRef(v),
			Fields: trace.F("pod", v.Name, "priority", scheduler.PodPriority(v), "preemptor", pod.Name, "node", node,
				"reason", PreemptionReason, "message", preemptionMessage(schedName))})
		upd := v.DeepCopy()
		apiserver.SetPodCondition(upd, corev1.PodCondition{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue,
			Reason: PreemptionReason, Message: preemptionMessage(schedName)})
		apiserver.StampConditions(&v.Status, &upd.Status, v.Generation, s.eng.Now())
		s.c.PatchPodStatus(v, upd, nil)
		if _, err := api.Delete(apiserver.ResourceOf(v), v.Namespace, v.Name); err != nil && err.Code != 404 {
			continue
		}
		s.c.EventV1(trace.PhaseScheduler, v, "Normal", "Preempted", "Preempting", fmt.Sprintf("Preempted by pod %v on node %v", pod.UID, node))
	}
}
