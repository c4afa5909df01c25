package controller

// The RollingUpdate arithmetic of the deployment controller
// (pkg/controller/deployment/rolling.go and util/deployment_util.go),
// as pure functions so the table of a rollout can be checked on its own.

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

// RolloutRow is the ReplicaSet sizes after one sync of a rollout.
type RolloutRow struct {
	Old, New, Available int32
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
				rows = append(rows, RolloutRow{old, newSpec, oldAvail + newAvail})
				newAvail = newSpec // the new pods become Ready before the next sync
				continue
			}
		}
		u, h := ScaleDownBudget(replicas, maxUnavailable, old+newSpec, newSpec, newAvail, old, oldAvail)
		old -= u + h
		oldAvail = min(oldAvail, old)
		rows = append(rows, RolloutRow{old, newSpec, oldAvail + newAvail})
		newAvail = newSpec
		if old == 0 && newSpec == replicas {
			break
		}
	}
	return rows
}
