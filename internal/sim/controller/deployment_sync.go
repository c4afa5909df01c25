package controller

// The Deployment controller's sync.go (pkg/controller/deployment/sync.go):
// finding and creating the new ReplicaSet, the revision it hands
// to the Deployment, and scaling a ReplicaSet.

import (
	"fmt"
	"slices"
	"sort"
	"strconv"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/sim/informer"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// getNewReplicaSet is getNewReplicaSet (sync.go): an existing ReplicaSet for
// the template gets the next revision number when it is behind (that is how
// `kubectl rollout undo` reuses an old ReplicaSet: its revision is
// renumbered and the old number kept in revision-history); otherwise one is
// created at size, and its `Scaled up … from 0 to N` event is recorded as
// soon as the create succeeded, before anything else the sync does.
func (d *Deployment) getNewReplicaSet(p *engine.Proc, dep *appsv1.Deployment, existing *appsv1.ReplicaSet, olds []*appsv1.ReplicaSet,
	name, hash string, replicas, size, surge int32) (*appsv1.ReplicaSet, bool, error) {
	key := dep.Namespace + "/" + dep.Name
	rev := nextRevision(olds)
	if existing != nil {
		if revision(existing) >= rev {
			return existing, false, nil
		}
		upd := existing.DeepCopy()
		old := upd.Annotations["deployment.kubernetes.io/revision"]
		upd.Annotations["deployment.kubernetes.io/revision"] = strconv.Itoa(rev)
		if old != "" {
			if h := upd.Annotations["deployment.kubernetes.io/revision-history"]; h != "" {
				upd.Annotations["deployment.kubernetes.io/revision-history"] = h + "," + old
			} else {
				upd.Annotations["deployment.kubernetes.io/revision-history"] = old
			}
		}
		d.setReplicasAnnotations(dep, upd)
		obj, err := d.c.In(p).Update(upd)
		if err != nil {
			return nil, false, err
		}
		d.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: d.c.Actor, Kind: "deployment.reuse", Object: apiserver.ObjectRef(dep),
			Fields: trace.F("rs", existing.Name, "from", old, "revision", rev)})
		d.complete[key] = false
		return obj.(*appsv1.ReplicaSet), false, nil
	}
	rs := &appsv1.ReplicaSet{}
	rs.Name, rs.Namespace = name, dep.Namespace
	rs.Labels = copyLabels(dep.Spec.Template.Labels, hash)
	rs.Annotations = map[string]string{
		"deployment.kubernetes.io/revision":         strconv.Itoa(rev),
		"deployment.kubernetes.io/desired-replicas": strconv.Itoa(int(replicas)),
		"deployment.kubernetes.io/max-replicas":     strconv.Itoa(int(replicas + surge)),
	}
	rs.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(dep, appsv1.SchemeGroupVersion.WithKind("Deployment"))}
	rs.Spec.Replicas = &size
	rs.Spec.MinReadySeconds = dep.Spec.MinReadySeconds
	rs.Spec.Selector = dep.Spec.Selector.DeepCopy()
	if rs.Spec.Selector.MatchLabels == nil {
		rs.Spec.Selector.MatchLabels = map[string]string{}
	}
	rs.Spec.Selector.MatchLabels["pod-template-hash"] = hash
	rs.Spec.Template = *dep.Spec.Template.DeepCopy()
	rs.Spec.Template.Labels = copyLabels(dep.Spec.Template.Labels, hash)
	d.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: d.c.Actor, Kind: "deployment.newrs", Object: apiserver.ObjectRef(dep),
		Fields: trace.F("rs", name, "hash", hash, "replicas", size, "maxSurge", surge, "revision", rev)})
	obj, serr := d.c.In(p).Create(rs)
	if serr != nil {
		d.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: d.c.Actor, Kind: "controller.error", Object: apiserver.ObjectRef(dep), Fields: trace.F("message", serr.Message)})
		return nil, false, serr
	}
	// Event wording of recent releases (getNewReplicaSet); none when the
	// new set starts empty.
	if size > 0 {
		d.c.Event(trace.PhaseController, dep, "Normal", "ScalingReplicaSet", fmt.Sprintf("Scaled up replica set %s from 0 to %d", name, size))
	}
	return obj.(*appsv1.ReplicaSet), true, nil
}

// syncRevision is the end of getNewReplicaSet (sync.go): the Deployment
// takes its new ReplicaSet's revision in the
// deployment.kubernetes.io/revision annotation and, when the ReplicaSet was
// just created, the Progressing condition NewReplicaSetCreated; both go in
// one status write (the Deployment status strategy keeps annotation
// changes). Like upstream, the sync goes on with its own copy, which still
// has the resourceVersion it read: the status write at the end of the same
// sync then meets 409 Conflict and the key is retried.
func (d *Deployment) syncRevision(p *engine.Proc, dep *appsv1.Deployment, newRS *appsv1.ReplicaSet, created bool) (*appsv1.Deployment, error) {
	rev := newRS.Annotations["deployment.kubernetes.io/revision"]
	needsUpdate := dep.Annotations["deployment.kubernetes.io/revision"] != rev
	progress := dep.Spec.ProgressDeadlineSeconds != nil
	if !needsUpdate && !(created && progress) {
		return dep, nil
	}
	upd := dep.DeepCopy()
	if upd.Annotations == nil {
		upd.Annotations = map[string]string{}
	}
	upd.Annotations["deployment.kubernetes.io/revision"] = rev
	if created && progress {
		setDeploymentCondition(&upd.Status, d.condition(appsv1.DeploymentProgressing, corev1.ConditionTrue, "NewReplicaSetCreated",
			fmt.Sprintf("Created new replica set %q", newRS.Name)))
	}
	// The request is a copy of its own: the server keeps the struct it is
	// sent (apiserver adoptStatus), and upd must keep the version read.
	if _, err := d.c.In(p).UpdateStatus(upd.DeepCopy()); err != nil {
		return nil, err
	}
	return upd, nil
}

// condition is NewDeploymentCondition: both times now.
func (d *Deployment) condition(t appsv1.DeploymentConditionType, status corev1.ConditionStatus, reason, msg string) appsv1.DeploymentCondition {
	now := apiserver.TimeAt(d.eng.Now())
	return appsv1.DeploymentCondition{Type: t, Status: status, Reason: reason, Message: msg, LastUpdateTime: now, LastTransitionTime: now}
}

// scaleReplicaSet is scaleReplicaSet (sync.go): it writes the ReplicaSet's
// new size (and the desired/max replicas annotations) with the
// resourceVersion read from the informer, and records the ScalingReplicaSet
// event only once the write succeeded. A stale read ends in 409 Conflict
// and no event.
func (d *Deployment) scaleReplicaSet(p *engine.Proc, dep *appsv1.Deployment, rs *appsv1.ReplicaSet, to int32) (*appsv1.ReplicaSet, error) {
	from := spec(rs)
	upd := rs.DeepCopy()
	upd.Spec.Replicas = &to
	d.setReplicasAnnotations(dep, upd)
	dir := "up"
	if to < from {
		dir = "down"
	}
	obj, err := d.c.In(p).Update(upd)
	if err != nil {
		return nil, err
	}
	d.c.Event(trace.PhaseController, dep, "Normal", "ScalingReplicaSet", fmt.Sprintf("Scaled %s replica set %s from %d to %d", dir, rs.Name, from, to))
	return obj.(*appsv1.ReplicaSet), nil
}

func (d *Deployment) setReplicasAnnotations(dep *appsv1.Deployment, rs *appsv1.ReplicaSet) {
	replicas := int32(1)
	if dep.Spec.Replicas != nil {
		replicas = *dep.Spec.Replicas
	}
	surge, _, _ := d.fenceposts(dep, replicas)
	if rs.Annotations == nil {
		rs.Annotations = map[string]string{}
	}
	rs.Annotations["deployment.kubernetes.io/desired-replicas"] = strconv.Itoa(int(replicas))
	rs.Annotations["deployment.kubernetes.io/max-replicas"] = strconv.Itoa(int(replicas + surge))
}

func spec(rs *appsv1.ReplicaSet) int32 {
	if rs.Spec.Replicas == nil {
		return 1
	}
	return *rs.Spec.Replicas
}

func total(rss []*appsv1.ReplicaSet) int32 {
	var n int32
	for _, rs := range rss {
		n += spec(rs)
	}
	return n
}

func revision(rs *appsv1.ReplicaSet) int {
	n, _ := strconv.Atoi(rs.Annotations["deployment.kubernetes.io/revision"])
	return n
}

func nextRevision(olds []*appsv1.ReplicaSet) int {
	r := 0
	for _, rs := range olds {
		r = max(r, revision(rs))
	}
	return r + 1
}

// owned returns the Deployment's ReplicaSet for the current template and
// the others, oldest revision first (getAllReplicaSetsAndSyncRevision).
func (d *Deployment) owned(dep *appsv1.Deployment, name string) (*appsv1.ReplicaSet, []*appsv1.ReplicaSet) {
	var newRS *appsv1.ReplicaSet
	var olds []*appsv1.ReplicaSet
	for _, rs := range d.rsets.ByIndex(informer.ControllerIndex, string(dep.UID)) {
		if rs.Name == name {
			newRS = rs
		} else {
			olds = append(olds, rs)
		}
	}
	sort.Slice(olds, func(i, j int) bool {
		if revision(olds[i]) != revision(olds[j]) {
			return revision(olds[i]) < revision(olds[j])
		}
		return olds[i].Name < olds[j].Name
	})
	return newRS, olds
}

// record adds a row to the rollout table after a scaling action.
func (d *Deployment) record(k string, dep *appsv1.Deployment, olds []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet) {
	var oldSpec, avail int32
	for _, rs := range olds {
		oldSpec += spec(rs)
		avail += min(rs.Status.AvailableReplicas, spec(rs))
	}
	avail += min(newRS.Status.AvailableReplicas, spec(newRS))
	row := RolloutRow{Old: oldSpec, New: spec(newRS), Available: avail}
	if h := d.History[k]; len(h) > 0 {
		last := h[len(h)-1]
		if last.Old == row.Old && last.New == row.New && last.Available == row.Available {
			return
		}
	}
	row.Pods, row.Terminating = d.existingPods(append(slices.Clone(olds), newRS))
	d.History[k] = append(d.History[k], row)
	d.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: d.c.Actor, Kind: "deployment.rollout", Object: apiserver.ObjectRef(dep),
		Fields: trace.F("old", row.Old, "new", row.New, "available", row.Available, "sizes", row.Old+row.New, "pods", row.Pods, "terminating", row.Terminating)})
}

// existingPods counts the pods the ReplicaSets control in the controller's
// pod cache (getPodMapForDeployment's lister), and those among them being
// deleted.
func (d *Deployment) existingPods(rsets []*appsv1.ReplicaSet) (pods, terminating int32) {
	for _, rs := range rsets {
		if rs.UID == "" {
			continue
		}
		for _, p := range d.pods.ByIndex(informer.ControllerIndex, string(rs.UID)) {
			pods++
			if p.DeletionTimestamp != nil {
				terminating++
			}
		}
	}
	return pods, terminating
}

func copyLabels(in map[string]string, hash string) map[string]string {
	out := make(map[string]string, len(in)+1)
	for k, v := range in {
		out[k] = v
	}
	out["pod-template-hash"] = hash
	return out
}
