package controller

// The Deployment controller's progress.go and the status half of sync.go
// (pkg/controller/deployment/progress.go, sync.go): the status
// written after every rollout step, its conditions, and the progress
// deadline.

import (
	"fmt"
	"math"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/utils/ptr"
)

// syncRolloutStatus is syncRolloutStatus (progress.go) with calculateStatus
// (sync.go): it computes the status from the ReplicaSets and writes it when
// it differs from what the informer shows (with that resourceVersion: a
// stale copy conflicts and the sync is retried).
func (d *Deployment) syncRolloutStatus(p *engine.Proc, k string, dep *appsv1.Deployment, replicas, maxUnavail int32,
	newRS *appsv1.ReplicaSet, olds []*appsv1.ReplicaSet) error {
	var ready, available, total, desired int32
	// GetTerminatingReplicaCountForReplicaSets (deployment/util): the
	// ReplicaSets' terminatingReplicas summed, unknown (nil) when one does
	// not report it.
	terminating := ptr.To(int32(0))
	for i := -1; i < len(olds); i++ { // newRS, then olds: no joined slice built per sync
		rs := newRS
		if i >= 0 {
			rs = olds[i]
		}
		switch {
		case rs.Spec.Replicas == nil: // Recreate's placeholder, not a ReplicaSet yet
		case rs.Status.TerminatingReplicas == nil:
			terminating = nil
		case terminating != nil:
			*terminating += *rs.Status.TerminatingReplicas
		}
		ready += rs.Status.ReadyReplicas
		available += rs.Status.AvailableReplicas
		total += rs.Status.Replicas
		if rs.Spec.Replicas != nil { // Recreate's placeholder for a new ReplicaSet not created yet has none
			desired += *rs.Spec.Replicas
		}
	}
	complete := spec(newRS) == replicas && newRS.Status.AvailableReplicas >= replicas && total == replicas
	for _, rs := range olds {
		if spec(rs) > 0 {
			complete = false
		}
	}
	d.avail[k] = available
	cond := corev1.ConditionFalse
	reason, msg := "MinimumReplicasUnavailable", "Deployment does not have minimum availability."
	if available >= replicas-maxUnavail {
		cond, reason, msg = corev1.ConditionTrue, "MinimumReplicasAvailable", "Deployment has minimum availability."
	}
	next := dep.Status.DeepCopy()
	next.ObservedGeneration = dep.Generation
	next.Replicas, next.ReadyReplicas, next.AvailableReplicas = total, ready, available
	next.UpdatedReplicas = newRS.Status.Replicas
	// calculateStatus (deployment/sync.go): the ReplicaSets' desired
	// replicas (surge included) minus the available ones, not below 0.
	next.UnavailableReplicas = max(desired-available, 0)
	next.TerminatingReplicas = terminating
	setDeploymentCondition(next, d.condition(appsv1.DeploymentAvailable, cond, reason, msg))
	d.rolloutConditions(dep, replicas, newRS, olds, next)
	if equality.Semantic.DeepEqual(&dep.Status, next) {
		d.requeueStuckDeployment(k, dep, replicas, next)
		d.finishRollout(k, dep, replicas, newRS, olds, complete)
		return nil
	}
	if c := deploymentCondition(*next, appsv1.DeploymentProgressing); c != nil && c.Reason == timedOutReason {
		if cur := deploymentCondition(dep.Status, appsv1.DeploymentProgressing); cur == nil || cur.Reason != timedOutReason {
			d.rec.Add(trace.Step{Phase: trace.PhaseReady, Actor: d.c.Actor, Kind: "deployment.deadline", Object: apiserver.ObjectRef(dep),
				Fields: trace.F("rs", newRS.Name, "seconds", *dep.Spec.ProgressDeadlineSeconds)})
		}
	}
	// A status write carries only the status (the server keeps the stored
	// spec): a shallow copy of the informer's read-only object.
	st := new(appsv1.Deployment)
	*st = *dep
	st.Status = *next
	if _, err := d.c.In(p).UpdateStatus(st); err != nil {
		return err
	}
	// A status that reads the same as the last one shown (only replicas or
	// updatedReplicas moved) is shown with -v only.
	shown := [3]int32{ready, available, replicas - maxUnavail}
	if !d.rec.Full() { // a full recorder counts the step dropped, unbuilt
		d.rec.Add(trace.Step{Phase: trace.PhaseReady, Actor: d.c.Actor, Kind: "deployment.status", Object: apiserver.ObjectRef(dep), Verbose: d.shown[k] == shown,
			Fields: trace.F("ready", ready, "available", available, "replicas", replicas, "availableCond", string(cond), "minAvailable", replicas-maxUnavail)})
	}
	d.shown[k] = shown
	d.finishRollout(k, dep, replicas, newRS, olds, complete)
	return nil
}

// finishRollout notes a rollout that completed.
func (d *Deployment) finishRollout(k string, dep *appsv1.Deployment, replicas int32, newRS *appsv1.ReplicaSet, olds []*appsv1.ReplicaSet, complete bool) {
	if complete && !d.complete[k] && len(olds) > 0 {
		d.rec.Add(trace.Step{Phase: trace.PhaseReady, Actor: d.c.Actor, Kind: "deployment.complete", Object: apiserver.ObjectRef(dep),
			Fields: trace.F("rs", newRS.Name, "replicas", replicas)})
	}
	d.complete[k] = complete
}

// rolloutConditions is the conditions half of syncRolloutStatus
// (deployment/progress.go): Progressing NewReplicaSetAvailable once the
// rollout is complete, ReplicaSetUpdated whenever it made progress (the
// transition time kept while it stays True), not measured again once
// complete; the timeout is watchDeadline's. Then the ReplicaFailure
// condition of the new ReplicaSet, else of an old one, is copied, or
// removed when none has one (getReplicaFailures).
func (d *Deployment) rolloutConditions(dep *appsv1.Deployment, replicas int32, newRS *appsv1.ReplicaSet, olds []*appsv1.ReplicaSet, next *appsv1.DeploymentStatus) {
	if dep.Spec.ProgressDeadlineSeconds != nil {
		cur := deploymentCondition(dep.Status, appsv1.DeploymentProgressing)
		completed := next.Replicas == next.UpdatedReplicas && cur != nil && cur.Reason == "NewReplicaSetAvailable"
		switch {
		case completed:
		case next.UpdatedReplicas == replicas && next.Replicas == replicas && next.AvailableReplicas == replicas && next.ObservedGeneration >= dep.Generation:
			setDeploymentCondition(next, d.condition(appsv1.DeploymentProgressing, corev1.ConditionTrue, "NewReplicaSetAvailable", progressingName(dep, newRS)+" has successfully progressed."))
		case next.UpdatedReplicas > dep.Status.UpdatedReplicas || next.Replicas-next.UpdatedReplicas < dep.Status.Replicas-dep.Status.UpdatedReplicas ||
			next.ReadyReplicas > dep.Status.ReadyReplicas || next.AvailableReplicas > dep.Status.AvailableReplicas:
			c := d.condition(appsv1.DeploymentProgressing, corev1.ConditionTrue, "ReplicaSetUpdated", progressingName(dep, newRS)+" is progressing.")
			if cur != nil {
				if cur.Status == corev1.ConditionTrue {
					c.LastTransitionTime = cur.LastTransitionTime
				}
				removeDeploymentCondition(next, appsv1.DeploymentProgressing)
			}
			setDeploymentCondition(next, c)
		case d.timedOut(dep, next):
			setDeploymentCondition(next, d.condition(appsv1.DeploymentProgressing, corev1.ConditionFalse, timedOutReason, progressingName(dep, newRS)+" has timed out progressing."))
		}
	}
	var failure *appsv1.ReplicaSetCondition
	if failure = replicaFailure(newRS.Status); failure == nil {
		for _, rs := range olds {
			if failure = replicaFailure(rs.Status); failure != nil {
				break
			}
		}
	}
	if failure == nil {
		removeDeploymentCondition(next, appsv1.DeploymentReplicaFailure)
		return
	}
	setDeploymentCondition(next, appsv1.DeploymentCondition{Type: appsv1.DeploymentReplicaFailure, Status: failure.Status,
		Reason: failure.Reason, Message: failure.Message, LastTransitionTime: failure.LastTransitionTime, LastUpdateTime: failure.LastTransitionTime})
}

// progressingName names what the Progressing condition's message is about,
// the new ReplicaSet, or the Deployment before it has one; the message is
// formatted only when a condition is written, not on every status sync.
func progressingName(dep *appsv1.Deployment, newRS *appsv1.ReplicaSet) string {
	if newRS.Name != "" {
		return fmt.Sprintf("ReplicaSet %q", newRS.Name)
	}
	return fmt.Sprintf("Deployment %q", dep.Name)
}

// setDeploymentCondition is SetDeploymentCondition (deployment/util): a
// condition of the same status and reason is left as it is; one of the
// same status keeps its transition time; the new one goes last.
func setDeploymentCondition(st *appsv1.DeploymentStatus, c appsv1.DeploymentCondition) {
	if cur := deploymentCondition(*st, c.Type); cur != nil {
		if cur.Status == c.Status && cur.Reason == c.Reason {
			return
		}
		if cur.Status == c.Status {
			c.LastTransitionTime = cur.LastTransitionTime
		}
	}
	removeDeploymentCondition(st, c.Type)
	st.Conditions = append(st.Conditions, c)
}

func deploymentCondition(st appsv1.DeploymentStatus, t appsv1.DeploymentConditionType) *appsv1.DeploymentCondition {
	for i := range st.Conditions {
		if st.Conditions[i].Type == t {
			return &st.Conditions[i]
		}
	}
	return nil
}

func removeDeploymentCondition(st *appsv1.DeploymentStatus, t appsv1.DeploymentConditionType) {
	if deploymentCondition(*st, t) == nil { // nothing to remove: no copy (every caller's status is its own)
		if len(st.Conditions) == 0 {
			st.Conditions = nil
		}
		return
	}
	var keep []appsv1.DeploymentCondition
	for _, c := range st.Conditions {
		if c.Type != t {
			keep = append(keep, c)
		}
	}
	st.Conditions = keep
}

// timedOutReason is util.TimedOutReason (deployment/util/deployment_util.go).
const timedOutReason = "ProgressDeadlineExceeded"

// hasProgressDeadline is util.HasProgressDeadline: a deadline other than
// MaxInt32.
func hasProgressDeadline(dep *appsv1.Deployment) bool {
	return dep.Spec.ProgressDeadlineSeconds != nil && *dep.Spec.ProgressDeadlineSeconds != math.MaxInt32
}

// timedOut is util.DeploymentTimedOut (deployment_util.go, v1.37.2): the
// Progressing condition's lastUpdateTime (whole seconds, as stored) plus
// the deadline is before now; a condition already timed out stays so, a
// completed one never is.
func (d *Deployment) timedOut(dep *appsv1.Deployment, st *appsv1.DeploymentStatus) bool {
	if !hasProgressDeadline(dep) {
		return false
	}
	c := deploymentCondition(*st, appsv1.DeploymentProgressing)
	switch {
	case c == nil || c.Reason == "NewReplicaSetAvailable":
		return false
	case c.Reason == timedOutReason:
		return true
	}
	limit := time.Duration(*dep.Spec.ProgressDeadlineSeconds) * time.Second
	return c.LastUpdateTime.Add(limit).Before(apiserver.Epoch.Add(d.eng.Now()))
}

// requeueStuckDeployment is requeueStuckDeployment (progress.go, v1.37.2):
// a sync that wrote nothing while the rollout is neither complete nor
// timed out queues the Deployment again for the moment its Progressing
// condition's lastUpdateTime + progressDeadlineSeconds passes, plus 1 s
// "to avoid milliseconds skew in AddAfter"; under a second away, at once
// (rate limited: the first back-off). That sync finds it timed out. A
// rollout stopped by quota makes no other sync happen, so this requeue
// is what ends it in ProgressDeadlineExceeded.
func (d *Deployment) requeueStuckDeployment(k string, dep *appsv1.Deployment, replicas int32, st *appsv1.DeploymentStatus) {
	cur := deploymentCondition(dep.Status, appsv1.DeploymentProgressing)
	if !hasProgressDeadline(dep) || cur == nil || cur.Reason == timedOutReason {
		return
	}
	// util.DeploymentComplete
	if st.UpdatedReplicas == replicas && st.Replicas == replicas && st.AvailableReplicas == replicas && st.ObservedGeneration >= dep.Generation {
		return
	}
	limit := time.Duration(*dep.Spec.ProgressDeadlineSeconds) * time.Second
	after := cur.LastUpdateTime.Add(limit).Sub(apiserver.Epoch.Add(d.eng.Now()))
	if after < time.Second {
		d.queue.addAfterQuietly(k, retryBase)
		return
	}
	d.queue.addAfterQuietly(k, after+time.Second)
}
