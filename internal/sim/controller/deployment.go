// Package controller holds the kube-controller-manager loops the simulator
// runs: Deployment, ReplicaSet and EndpointSlice. Each is a reconcile loop:
// it keeps a cache fed only by watch events, compares desired with observed
// state, and acts only through API requests with its own service account.
//
// The Deployment controller does rolling updates and Recreate, and reuses
// an old ReplicaSet on `rollout undo`. Every write carries the
// resourceVersion read from the informer; a 409 Conflict ends the sync and
// the key is retried with back-off, as client-go's work queue does.
//
// Left out: pausing, proportional scaling of a rollout in progress,
// revisionHistoryLimit clean-up, adoption of orphans and the garbage
// collector.
package controller

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/sim/informer"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Deployment is the deployment controller.
type Deployment struct {
	c       *apiserver.Client
	eng     *engine.Engine
	rec     *trace.Recorder
	deploys *informer.Informer[*appsv1.Deployment]
	rsets   *informer.Informer[*appsv1.ReplicaSet] // indexed by controller UID
	queue   *workQueue                             // syncs queued
	avail   map[string]int32                       // last reported available replicas
	// History is each Deployment's rollout table: sizes after every scaling.
	History       map[string][]RolloutRow
	progress      map[string]time.Duration // last progress (scaling, more available)
	deadlineArmed map[string]time.Duration
	complete      map[string]bool
	exceeded      map[string]bool
	rolledOut     map[string]bool                 // the last rollout completed
	pods          *informer.Informer[*corev1.Pod] // indexed by controller UID
	waiting       map[string]bool                 // Recreate: waiting for old pods to go
	shown         map[string][3]int32             // last status line shown: ready, available, minAvailable
}

// NewDeployment builds the controller on its client; Start opens its
// watches.
func NewDeployment(c *apiserver.Client, eng *engine.Engine, rec *trace.Recorder) *Deployment {
	d := &Deployment{c: c, eng: eng, rec: rec, deploys: informer.New[*appsv1.Deployment]("deployments"),
		rsets: informer.New[*appsv1.ReplicaSet]("replicasets").AddIndexer(informer.ControllerIndex, informer.ByController[*appsv1.ReplicaSet]),
		avail: map[string]int32{}, History: map[string][]RolloutRow{}, progress: map[string]time.Duration{}, deadlineArmed: map[string]time.Duration{},
		complete: map[string]bool{}, exceeded: map[string]bool{}, rolledOut: map[string]bool{},
		pods:    informer.New[*corev1.Pod]("pods").AddIndexer(informer.ControllerIndex, informer.ByController[*corev1.Pod]),
		waiting: map[string]bool{}, shown: map[string][3]int32{}}
	d.queue = newWorkQueue(eng, d.sync)
	d.queue.onRetry = retryStep(rec, c.Actor, "deployments")
	d.deploys.AddEventHandler(observeAndQueue[*appsv1.Deployment](rec, c.Actor, "Deployment", d.queue))
	d.rsets.AddEventHandler(func(ev informer.Event[*appsv1.ReplicaSet]) {
		if ref := metav1.GetControllerOfNoCopy(ev.Obj); ref != nil && ref.Kind == "Deployment" {
			d.queue.add(ev.Obj.Namespace + "/" + ref.Name)
		}
	})
	// Pods, for Recreate: the new ReplicaSet waits until no old pod exists
	// (deployment_controller.go deletePod enqueues the Deployment).
	d.pods.AddEventHandler(func(ev informer.Event[*corev1.Pod]) {
		if !ev.Deleted() {
			return
		}
		pod := ev.Obj
		ref := metav1.GetControllerOfNoCopy(pod)
		if ref == nil || ref.Kind != "ReplicaSet" {
			return
		}
		rs, _ := d.rsets.Get(pod.Namespace, ref.Name)
		if rs == nil {
			return
		}
		if dref := metav1.GetControllerOfNoCopy(rs); dref != nil && dref.Kind == "Deployment" {
			if dep, _ := d.deploys.Get(rs.Namespace, dref.Name); dep != nil && dep.Spec.Strategy.Type == appsv1.RecreateDeploymentStrategyType {
				d.queue.add(rs.Namespace + "/" + dref.Name)
			}
		}
	})
	return d
}

// Name is the controller's client name.
func (d *Deployment) Name() string { return d.c.Actor }

// Start opens the controller's watches: Deployments, ReplicaSets, pods.
func (d *Deployment) Start() {
	d.deploys.Run(d.c)
	d.rsets.Run(d.c)
	d.pods.Run(d.c)
}

// retryStep records a failed sync and its back-off.
func retryStep(rec *trace.Recorder, actor, plural string) func(string, error, time.Duration, int) {
	return func(key string, err error, after time.Duration, attempt int) {
		ns, name, _ := strings.Cut(key, "/")
		kind := "controller.retry"
		if st, ok := err.(*apiserver.Status); ok && st.Reason == "Conflict" {
			kind = "controller.conflict"
		}
		rec.Add(trace.Step{Phase: trace.PhaseController, Actor: actor, Kind: kind, Object: plural + "/" + ns + "/" + name,
			Fields: trace.F("key", key, "message", err.Error(), "after", after, "attempt", attempt)})
	}
}

// MaxSurge and MaxUnavailable resolve the rolling-update parameters: a
// percentage of replicas, surge rounded up and unavailable rounded down;
// both zero makes unavailable 1 (deployment/util ResolveFenceposts).
func ResolveFenceposts(surge, unavail *intstr.IntOrString, replicas int32) (int32, int32, error) {
	s, err := intstr.GetScaledValueFromIntOrPercent(intstr.ValueOrDefault(surge, intstr.FromInt32(0)), int(replicas), true)
	if err != nil {
		return 0, 0, err
	}
	u, err := intstr.GetScaledValueFromIntOrPercent(intstr.ValueOrDefault(unavail, intstr.FromInt32(0)), int(replicas), false)
	if err != nil {
		return 0, 0, err
	}
	if s == 0 && u == 0 {
		u = 1
	}
	if int32(u) > replicas {
		u = int(replicas)
	}
	return int32(s), int32(u), nil
}

// sync is syncDeployment (deployment_controller.go): it reads the
// Deployment and its ReplicaSets from the informers, and its API calls
// follow one another as upstream's blocking calls do; the first failure
// ends the sync with an error, and the queue retries the key with back-off
// after the informers have caught up.
func (d *Deployment) sync(k string, done func(error)) {
	dep, _ := d.deploys.GetByKey(k)
	if dep == nil {
		done(nil)
		return
	}
	replicas := int32(1)
	if dep.Spec.Replicas != nil {
		replicas = *dep.Spec.Replicas
	}
	surge, unavail, _ := d.fenceposts(dep, replicas)
	hash := PodTemplateHash(&dep.Spec.Template, dep.Status.CollisionCount)
	name := dep.Name + "-" + hash
	newRS, olds := d.owned(dep, name)
	if dep.Spec.Strategy.Type == appsv1.RecreateDeploymentStrategyType {
		d.recreate(k, dep, replicas, name, hash, newRS, olds, done)
		return
	}
	// rolloutRolling: the new ReplicaSet (created, or its revision synced),
	// then scale it up if the surge allows; only if it did not, scale old
	// ones down within the availability budget; then the status.
	size := int32(0)
	if newRS == nil {
		size = max(NewRSTarget(replicas, surge, total(olds), 0), 0)
	}
	d.newReplicaSet(dep, newRS, olds, name, hash, replicas, size, surge, func(newRS *appsv1.ReplicaSet, created bool, err error) {
		if err != nil {
			done(err)
			return
		}
		d.syncRevision(dep, newRS, created, func(dep *appsv1.Deployment, err error) {
			if err != nil {
				done(err)
				return
			}
			if t := NewRSTarget(replicas, surge, total(olds)+spec(newRS), spec(newRS)); t >= 0 && t != spec(newRS) {
				d.scale(dep, newRS, t, func(rs *appsv1.ReplicaSet, err error) {
					if err != nil {
						done(err)
						return
					}
					d.record(k, dep, olds, rs)
					d.status(k, dep, replicas, unavail, rs, olds, done)
				})
				return
			}
			d.scaleDownOld(dep, replicas, unavail, newRS, olds, func(olds []*appsv1.ReplicaSet, scaled bool, err error) {
				if err != nil {
					done(err)
					return
				}
				if scaled || (created && len(olds) > 0) {
					d.record(k, dep, olds, newRS) // created and old scaled in the same sync: one row
				}
				d.status(k, dep, replicas, unavail, newRS, olds, done)
			})
		})
	})
}

// syncRevision is the end of getNewReplicaSet (deployment/sync.go): the
// Deployment takes its new ReplicaSet's revision in the
// deployment.kubernetes.io/revision annotation and, when the ReplicaSet was
// just created, the Progressing condition NewReplicaSetCreated; both go in
// one status write (the Deployment status strategy keeps annotation
// changes). Like upstream, the sync goes on with its own copy, which still
// has the resourceVersion it read: the status write at the end of the same
// sync then meets 409 Conflict and the key is retried.
func (d *Deployment) syncRevision(dep *appsv1.Deployment, newRS *appsv1.ReplicaSet, created bool, then func(*appsv1.Deployment, error)) {
	rev := newRS.Annotations["deployment.kubernetes.io/revision"]
	needsUpdate := dep.Annotations["deployment.kubernetes.io/revision"] != rev
	progress := dep.Spec.ProgressDeadlineSeconds != nil
	if !needsUpdate && !(created && progress) {
		then(dep, nil)
		return
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
	d.c.UpdateStatus(upd, func(_ runtime.Object, err *apiserver.Status) {
		if err != nil {
			then(nil, err)
			return
		}
		then(upd, nil)
	})
}

// condition is NewDeploymentCondition: both times now.
func (d *Deployment) condition(t appsv1.DeploymentConditionType, status corev1.ConditionStatus, reason, msg string) appsv1.DeploymentCondition {
	now := apiserver.TimeAt(d.eng.Now())
	return appsv1.DeploymentCondition{Type: t, Status: status, Reason: reason, Message: msg, LastUpdateTime: now, LastTransitionTime: now}
}

// recreate is rolloutRecreate (deployment/recreate.go): every old
// ReplicaSet goes to 0 first; while any old pod still exists (terminating
// ones included) nothing else happens; then the new ReplicaSet is created,
// or scaled, at full size.
func (d *Deployment) recreate(k string, dep *appsv1.Deployment, replicas int32, name, hash string, newRS *appsv1.ReplicaSet, olds []*appsv1.ReplicaSet, done func(error)) {
	var active []int
	for i, rs := range olds {
		if spec(rs) > 0 {
			active = append(active, i)
		}
	}
	finish := func(newRS *appsv1.ReplicaSet, olds []*appsv1.ReplicaSet) {
		if newRS == nil {
			newRS = &appsv1.ReplicaSet{} // not created yet: no pods, no status
		}
		d.status(k, dep, replicas, 0, newRS, olds, done) // Recreate: MaxUnavailable is 0
	}
	if len(active) > 0 {
		d.scaleEach(dep, olds, active, func(int) int32 { return 0 }, func(olds []*appsv1.ReplicaSet, err error) {
			if err != nil {
				done(err)
				return
			}
			if newRS != nil {
				d.record(k, dep, olds, newRS)
			} else {
				d.record(k, dep, olds, &appsv1.ReplicaSet{Spec: appsv1.ReplicaSetSpec{Replicas: new(int32)}})
			}
			finish(newRS, olds)
		})
		return
	}
	if d.oldPodsRunning(newRS, olds) {
		if !d.waiting[k] {
			d.waiting[k] = true
			d.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: d.c.Actor, Kind: "deployment.recreatewait", Object: apiserver.ObjectRef(dep),
				Fields: trace.F("pods", d.oldPods(newRS, olds))})
		}
		finish(newRS, olds)
		return
	}
	delete(d.waiting, k)
	d.newReplicaSet(dep, newRS, olds, name, hash, replicas, replicas, 0, func(rs *appsv1.ReplicaSet, created bool, err error) {
		if err != nil {
			done(err)
			return
		}
		d.syncRevision(dep, rs, created, func(dep2 *appsv1.Deployment, err error) {
			if err != nil {
				done(err)
				return
			}
			dep = dep2 // finish writes the status from this copy
			if created || spec(rs) == replicas {
				if created {
					d.record(k, dep, olds, rs)
				}
				finish(rs, olds)
				return
			}
			d.scale(dep, rs, replicas, func(rs *appsv1.ReplicaSet, err error) {
				if err != nil {
					done(err)
					return
				}
				d.record(k, dep, olds, rs)
				finish(rs, olds)
			})
		})
	})
}

// oldPodsRunning is recreate.go oldPodsRunning: old ReplicaSets still
// report pods, or a pod of one still exists and has not finished.
func (d *Deployment) oldPodsRunning(newRS *appsv1.ReplicaSet, olds []*appsv1.ReplicaSet) bool {
	for _, rs := range olds {
		if rs.Status.Replicas > 0 {
			return true
		}
	}
	return d.oldPods(newRS, olds) > 0
}

func (d *Deployment) oldPods(newRS *appsv1.ReplicaSet, olds []*appsv1.ReplicaSet) int {
	n := 0
	for _, rs := range olds {
		if newRS != nil && rs.UID == newRS.UID {
			continue
		}
		for _, p := range d.pods.ByIndex(informer.ControllerIndex, string(rs.UID)) {
			if p.Status.Phase != corev1.PodFailed && p.Status.Phase != corev1.PodSucceeded {
				n++
			}
		}
	}
	return n
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
// the others, oldest revision first.
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

// scale is scaleReplicaSet: it writes the ReplicaSet's new size (and the
// desired/max replicas annotations) with the resourceVersion read from the
// informer, and records the ScalingReplicaSet event only once the write
// succeeded. A stale read ends in 409 Conflict and no event.
func (d *Deployment) scale(dep *appsv1.Deployment, rs *appsv1.ReplicaSet, to int32, then func(*appsv1.ReplicaSet, error)) {
	from := spec(rs)
	upd := rs.DeepCopy()
	upd.Spec.Replicas = &to
	d.setReplicasAnnotations(dep, upd)
	dir := "up"
	if to < from {
		dir = "down"
	}
	d.c.Update(upd, func(obj runtime.Object, err *apiserver.Status) {
		if err != nil {
			then(nil, err)
			return
		}
		stored := obj.(*appsv1.ReplicaSet)
		d.c.Event(trace.PhaseController, dep, "Normal", "ScalingReplicaSet", fmt.Sprintf("Scaled %s replica set %s from %d to %d", dir, rs.Name, from, to))
		d.progress[dep.Namespace+"/"+dep.Name] = d.eng.Now()
		then(stored, nil)
	})
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

// scaleEach scales the ReplicaSets olds[i] for i in which, one after the
// other, to size(i); it stops at the first failure. It hands back olds
// with each scaled one replaced by the stored result.
func (d *Deployment) scaleEach(dep *appsv1.Deployment, olds []*appsv1.ReplicaSet, which []int, size func(int) int32, then func([]*appsv1.ReplicaSet, error)) {
	out := slices.Clone(olds)
	var step func(j int)
	step = func(j int) {
		if j == len(which) {
			then(out, nil)
			return
		}
		i := which[j]
		d.scale(dep, out[i], size(i), func(rs *appsv1.ReplicaSet, err error) {
			if err != nil {
				then(nil, err)
				return
			}
			out[i] = rs
			step(j + 1)
		})
	}
	step(0)
}

// scaleDownOld is reconcileOldReplicaSets: old replicas go within the
// availability budget, unhealthy ones first, then healthy ones, oldest
// ReplicaSet first.
func (d *Deployment) scaleDownOld(dep *appsv1.Deployment, replicas, unavail int32, newRS *appsv1.ReplicaSet, olds []*appsv1.ReplicaSet, then func([]*appsv1.ReplicaSet, bool, error)) {
	var oldSpec, oldAvail int32
	for _, rs := range olds {
		oldSpec += spec(rs)
		oldAvail += min(rs.Status.AvailableReplicas, spec(rs))
	}
	if oldSpec == 0 {
		then(olds, false, nil)
		return
	}
	newAvail := min(newRS.Status.AvailableReplicas, spec(newRS))
	unhealthy, healthy := ScaleDownBudget(replicas, unavail, oldSpec+spec(newRS), spec(newRS), newAvail, oldSpec, oldAvail)
	var which []int
	sizes := map[int]int32{}
	for i, rs := range olds {
		sz := spec(rs)
		cutU := min(unhealthy, sz-min(rs.Status.AvailableReplicas, sz))
		unhealthy -= cutU
		cutH := min(healthy, sz-cutU)
		healthy -= cutH
		if cut := cutU + cutH; cut > 0 {
			which = append(which, i)
			sizes[i] = sz - cut
		}
	}
	if len(which) == 0 {
		then(olds, false, nil)
		return
	}
	d.scaleEach(dep, olds, which, func(i int) int32 { return sizes[i] }, func(out []*appsv1.ReplicaSet, err error) {
		then(out, err == nil, err)
	})
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
	if h := d.History[k]; len(h) > 0 && h[len(h)-1] == row {
		return
	}
	d.History[k] = append(d.History[k], row)
	d.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: d.c.Actor, Kind: "deployment.rollout", Object: apiserver.ObjectRef(dep),
		Fields: trace.F("old", row.Old, "new", row.New, "available", row.Available, "pods", row.Old+row.New)})
}

// status is syncRolloutStatus: it computes the status from the
// ReplicaSets and writes it when it differs from what the informer shows
// (with that resourceVersion: a stale copy conflicts and the sync is
// retried).
func (d *Deployment) status(k string, dep *appsv1.Deployment, replicas, maxUnavail int32, newRS *appsv1.ReplicaSet, olds []*appsv1.ReplicaSet, done func(error)) {
	var ready, available, total, desired int32
	for _, rs := range append([]*appsv1.ReplicaSet{newRS}, olds...) {
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
	if available > d.avail[k] {
		d.progress[k] = d.eng.Now()
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
	setDeploymentCondition(next, d.condition(appsv1.DeploymentAvailable, cond, reason, msg))
	d.rolloutConditions(dep, replicas, newRS, olds, next)
	if equality.Semantic.DeepEqual(&dep.Status, next) {
		d.finishRollout(k, dep, replicas, newRS, olds, complete)
		done(nil)
		return
	}
	// A status write carries only the status (the server keeps the stored
	// spec): a shallow copy of the informer's read-only object.
	st := new(appsv1.Deployment)
	*st = *dep
	st.Status = *next
	d.c.UpdateStatus(st, func(_ runtime.Object, err *apiserver.Status) {
		if err != nil {
			done(err)
			return
		}
		// A status that reads the same as the last one shown (only
		// replicas or updatedReplicas moved) is shown with -v only.
		shown := [3]int32{ready, available, replicas - maxUnavail}
		d.rec.Add(trace.Step{Phase: trace.PhaseReady, Actor: d.c.Actor, Kind: "deployment.status", Object: apiserver.ObjectRef(dep), Verbose: d.shown[k] == shown,
			Fields: trace.F("ready", ready, "available", available, "replicas", replicas, "availableCond", string(cond), "minAvailable", replicas-maxUnavail)})
		d.shown[k] = shown
		d.finishRollout(k, dep, replicas, newRS, olds, complete)
		done(nil)
	})
}

// finishRollout notes a rollout that completed and arms the progress
// deadline of one that did not.
func (d *Deployment) finishRollout(k string, dep *appsv1.Deployment, replicas int32, newRS *appsv1.ReplicaSet, olds []*appsv1.ReplicaSet, complete bool) {
	if complete && !d.complete[k] && len(olds) > 0 {
		d.rec.Add(trace.Step{Phase: trace.PhaseReady, Actor: d.c.Actor, Kind: "deployment.complete", Object: apiserver.ObjectRef(dep),
			Fields: trace.F("rs", newRS.Name, "replicas", replicas)})
	}
	d.complete[k] = complete
	if complete {
		d.rolledOut[k] = true
	}
	d.watchDeadline(k, dep, newRS, complete)
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
		name := fmt.Sprintf("Deployment %q", dep.Name)
		if newRS.Name != "" {
			name = fmt.Sprintf("ReplicaSet %q", newRS.Name)
		}
		completed := next.Replicas == next.UpdatedReplicas && cur != nil && cur.Reason == "NewReplicaSetAvailable"
		switch {
		case completed:
		case next.UpdatedReplicas == replicas && next.Replicas == replicas && next.AvailableReplicas == replicas && next.ObservedGeneration >= dep.Generation:
			setDeploymentCondition(next, d.condition(appsv1.DeploymentProgressing, corev1.ConditionTrue, "NewReplicaSetAvailable", name+" has successfully progressed."))
		case next.UpdatedReplicas > dep.Status.UpdatedReplicas || next.Replicas-next.UpdatedReplicas < dep.Status.Replicas-dep.Status.UpdatedReplicas ||
			next.ReadyReplicas > dep.Status.ReadyReplicas || next.AvailableReplicas > dep.Status.AvailableReplicas:
			c := d.condition(appsv1.DeploymentProgressing, corev1.ConditionTrue, "ReplicaSetUpdated", name+" is progressing.")
			if cur != nil {
				if cur.Status == corev1.ConditionTrue {
					c.LastTransitionTime = cur.LastTransitionTime
				}
				removeDeploymentCondition(next, appsv1.DeploymentProgressing)
			}
			setDeploymentCondition(next, c)
		}
	}
	var failure *appsv1.ReplicaSetCondition
	for _, rs := range append([]*appsv1.ReplicaSet{newRS}, olds...) {
		if failure = replicaFailure(rs.Status); failure != nil {
			break
		}
	}
	if failure == nil {
		removeDeploymentCondition(next, appsv1.DeploymentReplicaFailure)
		return
	}
	setDeploymentCondition(next, appsv1.DeploymentCondition{Type: appsv1.DeploymentReplicaFailure, Status: failure.Status,
		Reason: failure.Reason, Message: failure.Message, LastTransitionTime: failure.LastTransitionTime, LastUpdateTime: failure.LastTransitionTime})
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
	var keep []appsv1.DeploymentCondition
	for _, c := range st.Conditions {
		if c.Type != t {
			keep = append(keep, c)
		}
	}
	st.Conditions = keep
}

// watchDeadline arms the progressDeadlineSeconds check of an unfinished
// rollout (deployment/progress.go): no progress for that long sets
// Progressing=False with reason ProgressDeadlineExceeded. No rollback.
func (d *Deployment) watchDeadline(k string, dep *appsv1.Deployment, newRS *appsv1.ReplicaSet, complete bool) {
	// A finished rollout is not measured again until the next one
	// (syncRolloutStatus: isCompleteDeployment).
	if complete || d.exceeded[k] || d.rolledOut[k] || dep.Spec.ProgressDeadlineSeconds == nil {
		return
	}
	last, armed := d.progress[k], d.deadlineArmed[k]
	if armed == last+1 {
		return
	}
	d.deadlineArmed[k] = last + 1
	secs := *dep.Spec.ProgressDeadlineSeconds
	limit := time.Duration(secs) * time.Second
	// The timer holds names, not this moment's objects: one is armed per
	// progress step and outlives the run, so capturing dep and newRS kept
	// every version of both alive.
	ref, rsName := apiserver.ObjectRef(dep), newRS.Name
	d.eng.Background(last+limit-d.eng.Now(), func() {
		if d.complete[k] || d.exceeded[k] || d.progress[k] != last {
			return
		}
		d.exceeded[k] = true
		d.rec.Add(trace.Step{Phase: trace.PhaseReady, Actor: d.c.Actor, Kind: "deployment.deadline", Object: ref,
			Fields: trace.F("rs", rsName, "seconds", secs)})
		cond := d.condition(appsv1.DeploymentProgressing, corev1.ConditionFalse, "ProgressDeadlineExceeded", fmt.Sprintf("ReplicaSet %q has timed out progressing.", rsName))
		d.writeCondition(k, cond, 0)
	})
}

// writeCondition sets a status condition from the informer's copy; a
// conflict is retried with back-off from the newer copy, as the requeued
// sync would.
func (d *Deployment) writeCondition(k string, cond appsv1.DeploymentCondition, attempt int) {
	dep, _ := d.deploys.GetByKey(k)
	if dep == nil || attempt >= maxRetries {
		return
	}
	st := dep.DeepCopy()
	setDeploymentCondition(&st.Status, cond)
	d.c.UpdateStatus(st, func(_ runtime.Object, err *apiserver.Status) {
		if err != nil {
			d.eng.After(RetryBackoff(attempt), func() { d.writeCondition(k, cond, attempt+1) })
		}
	})
}

func (d *Deployment) fenceposts(dep *appsv1.Deployment, replicas int32) (int32, int32, error) {
	var surge, unavail *intstr.IntOrString
	if ru := dep.Spec.Strategy.RollingUpdate; ru != nil {
		surge, unavail = ru.MaxSurge, ru.MaxUnavailable
	}
	if dep.Spec.Strategy.Type == appsv1.RecreateDeploymentStrategyType {
		return 0, replicas, nil
	}
	return ResolveFenceposts(surge, unavail, replicas)
}

// newReplicaSet is getNewReplicaSet: an existing ReplicaSet for the
// template gets the next revision number when it is behind (that is how
// `kubectl rollout undo` reuses an old ReplicaSet: its revision is
// renumbered and the old number kept in revision-history); otherwise one is
// created at size, and its `Scaled up … from 0 to N` event is recorded as
// soon as the create succeeded, before anything else the sync does.
func (d *Deployment) newReplicaSet(dep *appsv1.Deployment, existing *appsv1.ReplicaSet, olds []*appsv1.ReplicaSet, name, hash string, replicas, size, surge int32,
	then func(rs *appsv1.ReplicaSet, created bool, err error)) {
	rev := nextRevision(olds)
	if existing != nil {
		if revision(existing) >= rev {
			then(existing, false, nil)
			return
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
		d.c.Update(upd, func(obj runtime.Object, err *apiserver.Status) {
			if err != nil {
				then(nil, false, err)
				return
			}
			d.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: d.c.Actor, Kind: "deployment.reuse", Object: apiserver.ObjectRef(dep),
				Fields: trace.F("rs", existing.Name, "from", old, "revision", rev)})
			d.progress[dep.Namespace+"/"+dep.Name] = d.eng.Now()
			d.rolledOut[dep.Namespace+"/"+dep.Name] = false // a new rollout starts
			d.complete[dep.Namespace+"/"+dep.Name] = false
			then(obj.(*appsv1.ReplicaSet), false, nil)
		})
		return
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
	d.c.Create(rs, func(obj runtime.Object, err *apiserver.Status) {
		if err != nil {
			d.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: d.c.Actor, Kind: "controller.error", Object: apiserver.ObjectRef(dep), Fields: trace.F("message", err.Message)})
			then(nil, false, err)
			return
		}
		// Event wording of recent releases (deployment/sync.go
		// getNewReplicaSet); none when the new set starts empty.
		if size > 0 {
			d.c.Event(trace.PhaseController, dep, "Normal", "ScalingReplicaSet", fmt.Sprintf("Scaled up replica set %s from 0 to %d", name, size))
		}
		d.progress[dep.Namespace+"/"+dep.Name] = d.eng.Now()
		d.rolledOut[dep.Namespace+"/"+dep.Name] = false // a new rollout starts
		then(obj.(*appsv1.ReplicaSet), true, nil)
	})
}

func copyLabels(in map[string]string, hash string) map[string]string {
	out := make(map[string]string, len(in)+1)
	for k, v := range in {
		out[k] = v
	}
	out["pod-template-hash"] = hash
	return out
}
