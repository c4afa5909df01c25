package apiserver

import (
	"reflect"
	"slices"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// statusIntern shares the parts of stored pod statuses that many pods hold
// equal, value for value: their conditions differ only in times kept to
// the second, and a running container's status only in its name, image and
// start time. Stored objects are immutable, so one read-only copy serves
// every pod whose status has it; the collector then scans one instead of
// one per pod. Only byte-identical values are shared (times compare with
// their location), so what a reader sees is the same.
//
// The tables are emptied when they grow past internLimit: sharing is an
// optimization, and values seen long ago are seldom seen again.
type statusIntern struct {
	conds   map[condsKey][]corev1.PodCondition
	running map[runningKey][]corev1.ContainerStatus
	times   map[metav1.Time]*metav1.Time
}

const internLimit = 1 << 12

// condsKey is a condition list of up to six (a pod has five, six with
// DisruptionTarget); PodCondition is comparable.
type condsKey struct {
	n     int
	conds [6]corev1.PodCondition
}

// runningKey is the status of a pod's one container while it runs,
// restarted or not, with nothing else set.
type runningKey struct {
	name, image, imageID, containerID string
	restarts                          int32
	ready                             bool
	started                           int8 // 0 unset, 1 false, 2 true
	at                                metav1.Time
}

// share replaces st's container statuses and start time with
// the shared copies of equal ones (kept as they are when there is none
// yet, and then shared from there on).
func (t *statusIntern) share(st *corev1.PodStatus) {
	st.ContainerStatuses = t.shareRunning(st.ContainerStatuses)
	if st.StartTime != nil {
		if t.times == nil || len(t.times) >= internLimit {
			t.times = map[metav1.Time]*metav1.Time{}
		}
		if p, ok := t.times[*st.StartTime]; ok {
			st.StartTime = p
		} else {
			t.times[*st.StartTime] = st.StartTime
		}
	}
}

// keepConditions is conds, a scratch buffer, as a slice a stored object may
// keep: handed (the writer's conditions, handed over with its request) when
// equal, else the shared equal one, else a copy of the exact size, shared
// from then on; a kept slice has no room (an append to it copies). t may be
// nil: nothing is shared.
func (t *statusIntern) keepConditions(conds, handed []corev1.PodCondition) []corev1.PodCondition {
	if len(handed) > 0 && slices.Equal(conds, handed) {
		// The writer's, whose request kept the shared one if it is a
		// kubelet's (PatchPodStatusOf): no second lookup.
		return handed[:len(handed):len(handed)]
	}
	var k condsKey
	share := t != nil && len(conds) <= len(k.conds)
	if share {
		k.n = copy(k.conds[:], conds)
		if t.conds == nil || len(t.conds) >= internLimit {
			t.conds = map[condsKey][]corev1.PodCondition{}
		}
		if kept, ok := t.conds[k]; ok {
			return kept
		}
	}
	kept := make([]corev1.PodCondition, len(conds))
	copy(kept, conds)
	if share {
		t.conds[k] = kept
	}
	return kept
}

func (t *statusIntern) shareRunning(cs []corev1.ContainerStatus) []corev1.ContainerStatus {
	k, ok := runningKeyOf(cs)
	if !ok {
		return cs
	}
	if t.running == nil || len(t.running) >= internLimit {
		t.running = map[runningKey][]corev1.ContainerStatus{}
	}
	if shared, ok := t.running[k]; ok {
		return shared
	}
	cs = cs[:1:1]
	t.running[k] = cs
	return cs
}

// runningKeyOf is the key of a one-container status that runningKey
// covers: every field it leaves out is zero.
func runningKeyOf(cs []corev1.ContainerStatus) (runningKey, bool) {
	if len(cs) != 1 || cs[0].State.Running == nil || cs[0].State.Waiting != nil || cs[0].State.Terminated != nil {
		return runningKey{}, false
	}
	c := cs[0]
	k := runningKey{name: c.Name, image: c.Image, imageID: c.ImageID, containerID: c.ContainerID,
		restarts: c.RestartCount, ready: c.Ready, at: c.State.Running.StartedAt}
	if c.Started != nil {
		k.started = 1
		if *c.Started {
			k.started = 2
		}
	}
	c.Name, c.Image, c.ImageID, c.ContainerID, c.RestartCount, c.Ready, c.Started, c.State = "", "", "", "", 0, false, nil, corev1.ContainerState{}
	return k, reflect.ValueOf(&c).Elem().IsZero()
}
