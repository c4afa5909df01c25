package controller

import (
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
)

// ResourceQuota is the resource-quota controller of kube-controller-manager
// (pkg/controller/resourcequota): when a quota is created or its spec.hard
// changes it copies hard into status.hard and counts status.used from the
// namespace's pods; when a pod is deleted or finishes it gives the usage
// back (replenishment). Admission charges new pods itself. Only pod
// resources are counted here (pods, count/pods, cpu, memory and their
// requests./limits. forms).
type ResourceQuota struct {
	c      *apiserver.Client
	rec    *trace.Recorder
	quotas map[string]*corev1.ResourceQuota
	pods   map[string]map[string]*corev1.Pod // namespace → name → pod
	queue  *workQueue
}

// NewResourceQuota starts the controller's watches.
func NewResourceQuota(c *apiserver.Client, eng *engine.Engine, rec *trace.Recorder) *ResourceQuota {
	q := &ResourceQuota{c: c, rec: rec, quotas: map[string]*corev1.ResourceQuota{}, pods: map[string]map[string]*corev1.Pod{}}
	q.queue = newWorkQueue(eng, q.sync)
	c.Watch("resourcequotas", func(ev apiserver.Event) {
		rq := ev.Obj.(*corev1.ResourceQuota)
		k := rq.Namespace + "/" + rq.Name
		if ev.Type == apiserver.Deleted {
			delete(q.quotas, k)
			return
		}
		q.quotas[k] = rq
		if !sameList(rq.Spec.Hard, rq.Status.Hard) {
			q.queue.add(k)
		}
	})
	c.Watch("pods", func(ev apiserver.Event) {
		pod := ev.Obj.(*corev1.Pod)
		ns := q.pods[pod.Namespace]
		if ns == nil {
			ns = map[string]*corev1.Pod{}
			q.pods[pod.Namespace] = ns
		}
		old := ns[pod.Name]
		if ev.Type == apiserver.Deleted {
			delete(ns, pod.Name)
		} else {
			ns[pod.Name] = pod
		}
		// Replenish when a pod stops counting: deleted, or finished.
		if ev.Type == apiserver.Deleted || (old != nil && counts(old) && !counts(pod)) {
			for k, rq := range q.quotas {
				if rq.Namespace == pod.Namespace {
					q.queue.add(k)
				}
			}
		}
	})
	return q
}

// counts: a pod charges its quota until it is Succeeded or Failed.
func counts(p *corev1.Pod) bool {
	return p.Status.Phase != corev1.PodSucceeded && p.Status.Phase != corev1.PodFailed
}

func sameList(a, b corev1.ResourceList) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || v.Cmp(w) != 0 {
			return false
		}
	}
	return true
}

func (q *ResourceQuota) sync(k string, done func(error)) {
	rq := q.quotas[k]
	if rq == nil {
		done(nil)
		return
	}
	used := corev1.ResourceList{}
	names := make([]string, 0, len(q.pods[rq.Namespace]))
	for n := range q.pods[rq.Namespace] {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := q.pods[rq.Namespace][n]
		if !counts(p) {
			continue
		}
		for r, v := range apiserver.PodUsage(p) {
			if _, tracked := rq.Spec.Hard[r]; tracked {
				u := used[r]
				u.Add(v)
				used[r] = u
			}
		}
	}
	for r := range rq.Spec.Hard {
		if _, ok := used[r]; !ok && podResource(r) {
			used[r] = resource.MustParse("0")
		}
	}
	if sameList(rq.Spec.Hard, rq.Status.Hard) && sameList(used, rq.Status.Used) {
		done(nil)
		return
	}
	var ignored []string
	for _, r := range slices.Sorted(maps.Keys(rq.Spec.Hard)) {
		if !podResource(r) {
			ignored = append(ignored, string(r))
		}
	}
	if len(ignored) > 0 && !sameList(rq.Spec.Hard, rq.Status.Hard) {
		q.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: q.c.Actor, Kind: "resourcequota.unmodeled", Object: apiserver.ObjectRef(rq),
			Fields: trace.F("quota", rq.Name, "keys", strings.Join(ignored, ", "))})
	}
	upd := rq.DeepCopy()
	upd.Status.Hard = rq.Spec.Hard.DeepCopy()
	upd.Status.Used = used
	q.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: q.c.Actor, Kind: "resourcequota.sync", Object: apiserver.ObjectRef(rq),
		Fields: trace.F("quota", rq.Name, "hard", printList(upd.Status.Hard), "used", printList(used))})
	q.c.UpdateStatus(upd, func(obj runtime.Object, err *apiserver.Status) {
		if err != nil {
			done(err) // a 409 from a stale copy: requeued with back-off
			return
		}
		q.quotas[k] = obj.(*corev1.ResourceQuota)
		done(nil)
	})
}

func podResource(r corev1.ResourceName) bool {
	switch r {
	case "pods", "count/pods", "cpu", "memory", "requests.cpu", "requests.memory", "limits.cpu", "limits.memory":
		return true
	}
	return false
}

// printList is "k=v" sorted and comma-joined, like the quota messages.
func printList(l corev1.ResourceList) string {
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, string(k))
	}
	sort.Strings(keys)
	for i, k := range keys {
		v := l[corev1.ResourceName(k)]
		keys[i] = k + "=" + v.String()
	}
	return strings.Join(keys, ",")
}
