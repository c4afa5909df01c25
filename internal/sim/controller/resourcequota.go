package controller

import (
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/sim/informer"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
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
	quotas *informer.Informer[*corev1.ResourceQuota]
	pods   *informer.Informer[*corev1.Pod]
	queue  *workQueue
	own    *informer.Factory // its own informers, when built without kube-controller-manager's
}

// NewResourceQuota builds the controller on its client; Start opens its
// watches.
func NewResourceQuota(f *informer.Factory, c *apiserver.Client, eng *engine.Engine, rec *trace.Recorder) *ResourceQuota {
	f, own := informer.Or(f, c)
	q := &ResourceQuota{c: c, rec: rec, quotas: informer.For[*corev1.ResourceQuota](f, "resourcequotas"), pods: informer.For[*corev1.Pod](f, "pods"), own: own}
	q.queue = newWorkQueue(eng, q.syncResourceQuota)
	q.quotas.AddEventHandlerFor(c.Actor, func(ev informer.Event[*corev1.ResourceQuota]) {
		if rq := ev.Obj; !ev.Deleted() && !sameList(rq.Spec.Hard, rq.Status.Hard) {
			q.queue.add(rq.Namespace + "/" + rq.Name)
		}
	})
	q.pods.AddEventHandlerFor(c.Actor, func(ev informer.Event[*corev1.Pod]) {
		// Replenish when a pod stops counting: deleted, or finished.
		if pod, old := ev.Obj, ev.Old; ev.Deleted() || (old != nil && counts(old) && !counts(pod)) {
			for _, rq := range q.quotas.ByNamespace(pod.Namespace) {
				q.queue.add(rq.Namespace + "/" + rq.Name)
			}
		}
	})
	return q
}

// Name is the controller's client name.
func (q *ResourceQuota) Name() string { return q.c.Actor }

// Start opens the controller's own watches (ResourceQuotas, then pods);
// on shared informers kube-controller-manager opens them.
func (q *ResourceQuota) Start() { q.own.Start() }

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

// syncResourceQuota is syncResourceQuota (pkg/controller/resourcequota/
// resource_quota_controller.go) for pod resources: status.hard from spec.hard, status.used counted
// from the namespace's pods, one status write when either changed.
func (q *ResourceQuota) syncResourceQuota(p *engine.Proc, k string) error {
	rq, _ := q.quotas.GetByKey(k)
	if rq == nil {
		return nil
	}
	used := corev1.ResourceList{}
	for _, pod := range q.pods.ByNamespace(rq.Namespace) { // in name order
		if !counts(pod) {
			continue
		}
		for r, v := range apiserver.PodUsage(pod) {
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
		return nil
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
	obj, err := q.c.In(p).UpdateStatus(upd)
	if err != nil {
		return err // a 409 from a stale copy: requeued with back-off
	}
	q.quotas.Write(obj.(*corev1.ResourceQuota)) // read by the next sync before the watch event comes
	return nil
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
