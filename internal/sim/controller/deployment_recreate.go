package controller

// The Deployment controller's recreate.go (pkg/controller/deployment/recreate.go).

import (
	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/sim/informer"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// rolloutRecreate is rolloutRecreate (recreate.go): every old ReplicaSet
// goes to 0 first; while any old pod still exists (terminating ones
// included) nothing else happens; then the new ReplicaSet is created, or
// scaled, at full size. Every path ends in the status (MaxUnavailable 0).
func (d *Deployment) rolloutRecreate(p *engine.Proc, key string, dep *appsv1.Deployment, replicas int32, name, hash string,
	newRS *appsv1.ReplicaSet, olds []*appsv1.ReplicaSet) error {
	sizes := map[int]int32{}
	var active []int
	for i, rs := range olds {
		if spec(rs) > 0 {
			active = append(active, i)
			sizes[i] = 0
		}
	}
	if len(active) > 0 { // scaleDownOldReplicaSetsForRecreate
		olds, err := d.scaleEach(p, dep, olds, active, sizes)
		if err != nil {
			return err
		}
		if newRS != nil {
			d.record(key, dep, olds, newRS)
		} else {
			d.record(key, dep, olds, &appsv1.ReplicaSet{Spec: appsv1.ReplicaSetSpec{Replicas: new(int32)}})
		}
		return d.recreateStatus(p, key, dep, replicas, newRS, olds)
	}
	if d.oldPodsRunning(newRS, olds) {
		if !d.waiting[key] {
			d.waiting[key] = true
			d.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: d.c.Actor, Kind: "deployment.recreatewait", Object: apiserver.ObjectRef(dep),
				Fields: trace.F("pods", d.oldPods(newRS, olds))})
		}
		return d.recreateStatus(p, key, dep, replicas, newRS, olds)
	}
	delete(d.waiting, key)
	rs, created, err := d.getNewReplicaSet(p, dep, newRS, olds, name, hash, replicas, replicas, 0)
	if err != nil {
		return err
	}
	if dep, err = d.syncRevision(p, dep, rs, created); err != nil {
		return err
	}
	if created || spec(rs) == replicas {
		if created {
			d.record(key, dep, olds, rs)
		}
		return d.recreateStatus(p, key, dep, replicas, rs, olds)
	}
	if rs, err = d.scaleReplicaSet(p, dep, rs, replicas); err != nil {
		return err
	}
	d.record(key, dep, olds, rs)
	return d.recreateStatus(p, key, dep, replicas, rs, olds)
}

// recreateStatus is syncRolloutStatus with Recreate's MaxUnavailable of 0,
// for a new ReplicaSet that may not exist yet (no pods, no status).
func (d *Deployment) recreateStatus(p *engine.Proc, key string, dep *appsv1.Deployment, replicas int32, newRS *appsv1.ReplicaSet, olds []*appsv1.ReplicaSet) error {
	if newRS == nil {
		newRS = &appsv1.ReplicaSet{}
	}
	return d.syncRolloutStatus(p, key, dep, replicas, 0, newRS, olds)
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
