// Package controller holds the kube-controller-manager loops the simulator
// runs: Deployment, ReplicaSet and EndpointSlice. Each is a reconcile loop:
// it keeps a cache fed only by watch events, compares desired with observed
// state, and acts only through API requests with its own service account.
//
// Left out: rolling updates of an existing Deployment (only the first
// rollout of a new one), the Recreate strategy, pod deletion ranking,
// adoption of orphans and the garbage collector.
package controller

import (
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Deployment is the deployment controller.
type Deployment struct {
	c       *apiserver.Client
	eng     *engine.Engine
	rec     *trace.Recorder
	deploys map[string]*appsv1.Deployment
	rsets   map[string]*appsv1.ReplicaSet // by namespace/name
	queue   *workQueue                    // syncs queued
	avail   map[string]int32              // last reported available replicas
	// History is each Deployment's rollout table: sizes after every scaling.
	History       map[string][]RolloutRow
	progress      map[string]time.Duration // last progress (scaling, more available)
	deadlineArmed map[string]time.Duration
	complete      map[string]bool
	exceeded      map[string]bool
	pendingScale  map[string]int32 // ReplicaSet → size asked for, not yet seen
	rolledOut     map[string]bool  // the last rollout completed
}

// NewDeployment starts the controller's watches.
func NewDeployment(c *apiserver.Client, eng *engine.Engine, rec *trace.Recorder) *Deployment {
	d := &Deployment{c: c, eng: eng, rec: rec, deploys: map[string]*appsv1.Deployment{},
		rsets: map[string]*appsv1.ReplicaSet{}, avail: map[string]int32{},
		History: map[string][]RolloutRow{}, progress: map[string]time.Duration{}, deadlineArmed: map[string]time.Duration{},
		complete: map[string]bool{}, exceeded: map[string]bool{}, pendingScale: map[string]int32{}, rolledOut: map[string]bool{}}
	d.queue = newWorkQueue(eng, d.sync)
	c.Watch("deployments", func(ev apiserver.Event) {
		dep := ev.Obj.(*appsv1.Deployment)
		k := dep.Namespace + "/" + dep.Name
		if ev.Type == apiserver.Deleted {
			delete(d.deploys, k)
			return
		}
		first := d.deploys[k] == nil
		d.deploys[k] = dep
		if first {
			rec.Add(trace.Step{Phase: trace.PhaseController, Actor: c.Actor, Kind: "controller.observe",
				Object: apiserver.ObjectRef(dep), Fields: trace.F("kind", "Deployment", "rev", ev.Rev)})
		}
		d.queue.add(k)
	})
	c.Watch("replicasets", func(ev apiserver.Event) {
		rs := ev.Obj.(*appsv1.ReplicaSet)
		k := rs.Namespace + "/" + rs.Name
		if ev.Type == apiserver.Deleted {
			delete(d.rsets, k)
		} else {
			if want, ok := d.pendingScale[k]; ok {
				// Expectation: until the watch shows our own scaling, keep
				// the size we asked for (an older event may still arrive).
				if spec(rs) == want {
					delete(d.pendingScale, k)
				} else {
					rs = rs.DeepCopy()
					rs.Spec.Replicas = &want
				}
			}
			d.rsets[k] = rs
		}
		if ref := metav1.GetControllerOf(rs); ref != nil && ref.Kind == "Deployment" {
			d.queue.add(rs.Namespace + "/" + ref.Name)
		}
	})
	return d
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

func (d *Deployment) sync(k string) {
	dep := d.deploys[k]
	if dep == nil {
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
	if newRS == nil {
		var allSpec int32
		for _, rs := range olds {
			allSpec += spec(rs)
		}
		size := max(NewRSTarget(replicas, surge, allSpec, 0), 0)
		newRS = d.createRS(dep, name, hash, replicas, size, surge, nextRevision(olds))
		if len(olds) > 0 {
			d.scaleDownOld(dep, replicas, unavail, newRS, olds)
			d.record(k, dep, olds, newRS) // one row: created and old scaled in the same sync
		}
		d.status(k, dep, replicas, unavail, newRS, olds)
		return
	} else if t := NewRSTarget(replicas, surge, total(olds)+spec(newRS), spec(newRS)); t >= 0 && t != spec(newRS) {
		d.scale(dep, newRS, t)
		d.record(k, dep, olds, newRS)
		d.status(k, dep, replicas, unavail, newRS, olds)
		return
	}
	if d.scaleDownOld(dep, replicas, unavail, newRS, olds) {
		d.record(k, dep, olds, newRS)
	}
	d.status(k, dep, replicas, unavail, newRS, olds)
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
	for _, rs := range d.rsets {
		if ref := metav1.GetControllerOf(rs); ref == nil || ref.UID != dep.UID {
			continue
		}
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

// scale sets a ReplicaSet's replicas through the API and records the
// ScalingReplicaSet event.
func (d *Deployment) scale(dep *appsv1.Deployment, rs *appsv1.ReplicaSet, to int32) {
	from := spec(rs)
	upd := rs.DeepCopy()
	upd.Spec.Replicas = &to
	if upd.Annotations == nil {
		upd.Annotations = map[string]string{}
	}
	d.rsets[rs.Namespace+"/"+rs.Name] = upd // expectation: the next sync sees the new size
	d.pendingScale[rs.Namespace+"/"+rs.Name] = to
	dir := "up"
	if to < from {
		dir = "down"
	}
	d.c.Update(upd, nil)
	d.c.Event(trace.PhaseController, dep, "Normal", "ScalingReplicaSet", fmt.Sprintf("Scaled %s replica set %s from %d to %d", dir, rs.Name, from, to))
	d.progress[dep.Namespace+"/"+dep.Name] = d.eng.Now()
}

// scaleDownOld removes old replicas within the availability budget:
// unhealthy ones first, then healthy ones, oldest ReplicaSet first.
func (d *Deployment) scaleDownOld(dep *appsv1.Deployment, replicas, unavail int32, newRS *appsv1.ReplicaSet, olds []*appsv1.ReplicaSet) bool {
	var oldSpec, oldAvail int32
	for _, rs := range olds {
		oldSpec += spec(rs)
		oldAvail += min(rs.Status.AvailableReplicas, spec(rs))
	}
	if oldSpec == 0 {
		return false
	}
	newAvail := min(newRS.Status.AvailableReplicas, spec(newRS))
	unhealthy, healthy := ScaleDownBudget(replicas, unavail, oldSpec+spec(newRS), spec(newRS), newAvail, oldSpec, oldAvail)
	changed := false
	for _, rs := range olds {
		sz := spec(rs)
		cutU := min(unhealthy, sz-min(rs.Status.AvailableReplicas, sz))
		unhealthy -= cutU
		cutH := min(healthy, sz-cutU)
		healthy -= cutH
		if cut := cutU + cutH; cut > 0 {
			d.scale(dep, rs, spec(rs)-cut)
			changed = true
		}
	}
	return changed
}

// record adds a row to the rollout table after a scaling action.
func (d *Deployment) record(k string, dep *appsv1.Deployment, olds []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet) {
	newRS = d.rsets[newRS.Namespace+"/"+newRS.Name]
	var oldSpec, avail int32
	for _, rs := range olds {
		rs = d.rsets[rs.Namespace+"/"+rs.Name]
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

// status writes the Deployment's status when availability changed.
func (d *Deployment) status(k string, dep *appsv1.Deployment, replicas, maxUnavail int32, newRS *appsv1.ReplicaSet, olds []*appsv1.ReplicaSet) {
	var ready, available, total int32
	for _, rs := range append([]*appsv1.ReplicaSet{newRS}, olds...) {
		ready += rs.Status.ReadyReplicas
		available += rs.Status.AvailableReplicas
		total += rs.Status.Replicas
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
	if d.avail[k] == available && dep.Status.ObservedGeneration == dep.Generation && d.complete[k] == complete {
		d.watchDeadline(k, dep, newRS, complete)
		return
	}
	d.avail[k] = available
	if complete && !d.complete[k] && len(olds) > 0 {
		d.rec.Add(trace.Step{Phase: trace.PhaseReady, Actor: d.c.Actor, Kind: "deployment.complete", Object: apiserver.ObjectRef(dep),
			Fields: trace.F("rs", newRS.Name, "replicas", replicas)})
	}
	d.complete[k] = complete
	if complete {
		d.rolledOut[k] = true
	}
	st := dep.DeepCopy()
	st.Status.ObservedGeneration = dep.Generation
	st.Status.Replicas, st.Status.ReadyReplicas, st.Status.AvailableReplicas = total, ready, available
	st.Status.UpdatedReplicas = newRS.Status.Replicas
	st.Status.UnavailableReplicas = max(replicas-available, 0)
	cond := "False"
	if available >= replicas-maxUnavail {
		cond = "True"
	}
	d.rec.Add(trace.Step{Phase: trace.PhaseReady, Actor: d.c.Actor, Kind: "deployment.status", Object: apiserver.ObjectRef(dep),
		Fields: trace.F("ready", ready, "available", available, "replicas", replicas, "availableCond", cond, "minAvailable", replicas-maxUnavail)})
	d.c.UpdateStatus(st, nil)
	d.watchDeadline(k, dep, newRS, complete)
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
	limit := time.Duration(*dep.Spec.ProgressDeadlineSeconds) * time.Second
	d.eng.Background(last+limit-d.eng.Now(), func() {
		if d.complete[k] || d.exceeded[k] || d.progress[k] != last {
			return
		}
		d.exceeded[k] = true
		d.rec.Add(trace.Step{Phase: trace.PhaseReady, Actor: d.c.Actor, Kind: "deployment.deadline", Object: apiserver.ObjectRef(dep),
			Fields: trace.F("rs", newRS.Name, "seconds", *dep.Spec.ProgressDeadlineSeconds)})
		st := d.deploys[k].DeepCopy()
		st.Status.Conditions = append(st.Status.Conditions, appsv1.DeploymentCondition{Type: appsv1.DeploymentProgressing,
			Status: "False", Reason: "ProgressDeadlineExceeded", Message: fmt.Sprintf("ReplicaSet %q has timed out progressing.", newRS.Name)})
		d.c.UpdateStatus(st, nil)
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

func (d *Deployment) createRS(dep *appsv1.Deployment, name, hash string, replicas, size, surge int32, rev int) *appsv1.ReplicaSet {
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
	key := dep.Namespace + "/" + name
	d.rsets[key] = rs // expectation: do not create it twice while the request is in flight
	d.c.Create(rs, func(_ runtime.Object, err *apiserver.Status) {
		if err != nil {
			delete(d.rsets, key)
			d.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: d.c.Actor, Kind: "controller.error", Object: apiserver.ObjectRef(dep), Fields: trace.F("message", err.Message)})
			return
		}
		// Event wording of recent releases (deployment/sync.go scaleReplicaSet).
		d.c.Event(trace.PhaseController, dep, "Normal", "ScalingReplicaSet", fmt.Sprintf("Scaled up replica set %s from 0 to %d", name, size))
	})
	d.progress[dep.Namespace+"/"+dep.Name] = d.eng.Now()
	d.rolledOut[dep.Namespace+"/"+dep.Name] = false // a new rollout starts
	return rs
}

func copyLabels(in map[string]string, hash string) map[string]string {
	out := make(map[string]string, len(in)+1)
	for k, v := range in {
		out[k] = v
	}
	out["pod-template-hash"] = hash
	return out
}
