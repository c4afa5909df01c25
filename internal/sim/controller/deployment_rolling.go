package controller

// The Deployment controller's rolling.go (pkg/controller/deployment/rolling.go):
// rolloutRolling and its two halves, and the RollingUpdate
// arithmetic (with util/deployment_util.go) as pure functions so the table
// of a rollout can be checked on its own.

import (
	"slices"

	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	appsv1 "k8s.io/api/apps/v1"
)

// rolloutRolling is rolloutRolling (rolling.go): the new ReplicaSet
// (created, or its revision synced), then reconcileNewReplicaSet scales it
// up if the surge allows; only if it did not, reconcileOldReplicaSets
// scales old ones down within the availability budget; then the status.
func (d *Deployment) rolloutRolling(p *engine.Proc, key string, dep *appsv1.Deployment, replicas int32, name, hash string,
	newRS *appsv1.ReplicaSet, olds []*appsv1.ReplicaSet) error {
	surge, unavail, _ := d.fenceposts(dep, replicas)
	size := int32(0)
	if newRS == nil {
		size = max(NewRSTarget(replicas, surge, total(olds), 0), 0)
	}
	newRS, created, err := d.getNewReplicaSet(p, dep, newRS, olds, name, hash, replicas, size, surge)
	if err != nil {
		return err
	}
	if dep, err = d.syncRevision(p, dep, newRS, created); err != nil {
		return err
	}
	// reconcileNewReplicaSet
	if t := NewRSTarget(replicas, surge, total(olds)+spec(newRS), spec(newRS)); t >= 0 && t != spec(newRS) {
		rs, err := d.scaleReplicaSet(p, dep, newRS, t)
		if err != nil {
			return err
		}
		d.record(key, dep, olds, rs)
		return d.syncRolloutStatus(p, key, dep, replicas, unavail, rs, olds)
	}
	olds, scaled, err := d.reconcileOldReplicaSets(p, dep, replicas, unavail, newRS, olds)
	if err != nil {
		return err
	}
	if scaled || (created && len(olds) > 0) {
		d.record(key, dep, olds, newRS) // created and old scaled in the same sync: one row
	}
	return d.syncRolloutStatus(p, key, dep, replicas, unavail, newRS, olds)
}

// reconcileOldReplicaSets is reconcileOldReplicaSets (rolling.go): old
// replicas go within the availability budget, unhealthy ones first, then
// healthy ones, oldest ReplicaSet first. It returns olds with the scaled
// ones as stored, and whether any was scaled.
func (d *Deployment) reconcileOldReplicaSets(p *engine.Proc, dep *appsv1.Deployment, replicas, unavail int32, newRS *appsv1.ReplicaSet,
	olds []*appsv1.ReplicaSet) ([]*appsv1.ReplicaSet, bool, error) {
	var oldSpec, oldAvail int32
	for _, rs := range olds {
		oldSpec += spec(rs)
		oldAvail += min(rs.Status.AvailableReplicas, spec(rs))
	}
	if oldSpec == 0 {
		return olds, false, nil
	}
	newAvail := min(newRS.Status.AvailableReplicas, spec(newRS))
	unhealthy, healthy := ScaleDownBudget(replicas, unavail, oldSpec+spec(newRS), spec(newRS), newAvail, oldSpec, oldAvail)
	sizes := map[int]int32{}
	var which []int
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
		return olds, false, nil
	}
	out, err := d.scaleEach(p, dep, olds, which, sizes)
	if err != nil {
		// rolling.go: a failed scale-down returns (false, nil), so the
		// sync goes on to write the Deployment's status; the old
		// ReplicaSet's own update event brings the next sync.
		return olds, false, nil
	}
	return out, true, nil
}

// scaleEach scales olds[i] for i in which, one after the other, to
// sizes[i]; it stops at the first failure. It returns olds with each scaled
// one replaced by the stored result.
func (d *Deployment) scaleEach(p *engine.Proc, dep *appsv1.Deployment, olds []*appsv1.ReplicaSet, which []int, sizes map[int]int32) ([]*appsv1.ReplicaSet, error) {
	out := slices.Clone(olds)
	for _, i := range which {
		rs, err := d.scaleReplicaSet(p, dep, out[i], sizes[i])
		if err != nil {
			return nil, err
		}
		out[i] = rs
	}
	return out, nil
}

// NewRSTarget is the size a new ReplicaSet is scaled up to: with maxTotal =
// replicas + maxSurge and allSpec the sum of every ReplicaSet's spec,
// new + min(maxTotal − allSpec, replicas − new); -1 when no scale-up is
// possible. A new ReplicaSet above replicas is cut to replicas.
func NewRSTarget(replicas, maxSurge, allSpec, newSpec int32) int32 {
	if newSpec > replicas {
		return replicas
	}
	if newSpec == replicas {
		return -1
	}
	maxTotal := replicas + maxSurge
	if allSpec >= maxTotal {
		return -1
	}
	return newSpec + min(maxTotal-allSpec, replicas-newSpec)
}

// ScaleDownBudget is how many old replicas may go: maxScaledDown =
// allSpec − minAvailable − (newSpec − newAvailable); unhealthy old replicas
// go first, then healthy ones only down to minAvailable available pods.
// It returns the number of unhealthy and of healthy old replicas to remove.
func ScaleDownBudget(replicas, maxUnavailable, allSpec, newSpec, newAvailable, oldSpec, oldAvailable int32) (unhealthy, healthy int32) {
	minAvailable := replicas - maxUnavailable
	maxScaledDown := allSpec - minAvailable - (newSpec - newAvailable)
	if maxScaledDown <= 0 {
		return 0, 0
	}
	unhealthy = min(oldSpec-oldAvailable, maxScaledDown)
	// After the unhealthy ones are gone, scale down while the available
	// total stays at or above minAvailable.
	healthy = min(oldAvailable+newAvailable-minAvailable, maxScaledDown-unhealthy, oldSpec-unhealthy)
	return unhealthy, max(healthy, 0)
}

// RolloutRow is the ReplicaSet sizes after one sync of a rollout: Old and
// New are spec.replicas, the sizes rolling.go bounds by replicas + maxSurge
// (GetReplicaCountForReplicaSets sums spec.replicas); Pods counts the pods
// of those ReplicaSets that exist at that moment in the controller's pod
// cache, terminating ones included, of which Terminating are being
// deleted — more than the sizes while new pods are not created yet, or old
// ones run out their grace period. PlanRollout leaves them zero.
type RolloutRow struct {
	Old, New, Available int32
	Pods, Terminating   int32
}

// PlanRollout replays a rolling update from oldReplicas available pods of
// the old template, assuming every pod the controller creates is Ready
// before its next sync, and returns the (old, new) sizes after each change.
func PlanRollout(replicas, maxSurge, maxUnavailable int32) []RolloutRow {
	old, oldAvail := replicas, replicas
	var newSpec, newAvail int32
	var rows []RolloutRow
	// Created at this size — 0 when no surge is allowed (NewRSTarget's -1
	// means "no scale-up", as NewRSNewReplicas clamps it).
	newSpec = max(NewRSTarget(replicas, maxSurge, old, 0), 0)
	for i := 0; i < 4*int(replicas)+8; i++ {
		if i > 0 {
			if t := NewRSTarget(replicas, maxSurge, old+newSpec, newSpec); t >= 0 {
				newSpec = t
				rows = append(rows, RolloutRow{Old: old, New: newSpec, Available: oldAvail + newAvail})
				newAvail = newSpec // the new pods become Ready before the next sync
				continue
			}
		}
		u, h := ScaleDownBudget(replicas, maxUnavailable, old+newSpec, newSpec, newAvail, old, oldAvail)
		old -= u + h
		oldAvail = min(oldAvail, old)
		rows = append(rows, RolloutRow{Old: old, New: newSpec, Available: oldAvail + newAvail})
		newAvail = newSpec
		if old == 0 && newSpec == replicas {
			break
		}
	}
	return rows
}
