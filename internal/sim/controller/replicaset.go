package controller

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/sim/informer"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// slowStartInitialBatchSize is the first batch of pod creations; each
// successful batch doubles the next (controller_utils.go, 1 → 2 → 4 …),
// so a broken template fails once, not replicas times.
const slowStartInitialBatchSize = 1

// burstReplicas caps creations per sync (replicaset controller default 500).
const burstReplicas = 500

// ReplicaSet is the replicaset controller.
type ReplicaSet struct {
	c          *apiserver.Client
	eng        *engine.Engine
	rec        *trace.Recorder
	rsets      *informer.Informer[*appsv1.ReplicaSet]
	pods       *informer.Informer[*corev1.Pod] // indexed by controller UID
	inFlight   map[types.UID]int               // creations not yet observed (expectations)
	counts     map[types.UID]*rsPods           // kept up to date on every pod event
	deleting   map[types.UID]map[string]bool   // deletions sent, not yet seen
	queue      *workQueue                      // syncs queued
	lastStatus map[string][4]int64
	retry      itemBackoff       // failed creations requeue with back-off
	informers  *informer.Factory // its own, when built without kube-controller-manager's
	owner      ownerMemo         // generateName and owner reference of the last ReplicaSet a pod was created for
}

// rsPods is what the pod handler keeps per ReplicaSet: the counts, and the
// ReplicaSet's queue key, built once from the first owner reference seen
// with its UID, not on every pod event.
type rsPods struct {
	podCounts
	key string
}

// isKey reports whether key is namespace/name, without building it.
func isKey(key, ns, name string) bool {
	return len(key) == len(ns)+1+len(name) && key[len(ns)] == '/' && strings.HasPrefix(key, ns) && strings.HasSuffix(key, name)
}

// NewReplicaSet builds the controller on its client, its informers from f
// (kube-controller-manager's shared factory; nil: its own, which Start
// opens).
func NewReplicaSet(f *informer.Factory, c *apiserver.Client, eng *engine.Engine, rec *trace.Recorder) *ReplicaSet {
	f, own := informer.Or(f, c)
	r := &ReplicaSet{c: c, eng: eng, rec: rec, rsets: informer.For[*appsv1.ReplicaSet](f, "replicasets"),
		pods:     informer.For[*corev1.Pod](f, "pods").EnsureIndexer(informer.ControllerIndex, informer.ByController[*corev1.Pod]),
		inFlight: map[types.UID]int{}, counts: map[types.UID]*rsPods{}, deleting: map[types.UID]map[string]bool{}, informers: own}
	r.queue = newWorkQueue(eng, r.syncReplicaSet)
	r.queue.onRetry = retryStep(rec, c.Actor, "replicasets")
	r.rsets.AddEventHandlerFor(c.Actor, observeAndQueue[*appsv1.ReplicaSet](rec, c.Actor, "ReplicaSet", r.queue))
	r.pods.AddEventHandlerFor(c.Actor, func(ev informer.Event[*corev1.Pod]) {
		pod := ev.Obj
		ref := metav1.GetControllerOfNoCopy(pod)
		if ref == nil || ref.Kind != "ReplicaSet" {
			return
		}
		cnt := r.counts[ref.UID]
		if cnt == nil {
			cnt = &rsPods{key: pod.Namespace + "/" + ref.Name}
			r.counts[ref.UID] = cnt
		}
		if ev.Old != nil {
			cnt.add(ev.Old, -1)
		}
		if !ev.Deleted() {
			cnt.add(pod, 1)
		}
		if ev.Deleted() || pod.DeletionTimestamp != nil {
			delete(r.deleting[ref.UID], pod.Name)
		}
		key := cnt.key
		if !isKey(key, pod.Namespace, ref.Name) { // an owner reference with this UID under another name
			key = pod.Namespace + "/" + ref.Name
		}
		r.queue.add(key)
	})
	return r
}

// Name is the controller's client name.
func (r *ReplicaSet) Name() string { return r.c.Actor }

// Start opens the controller's own watches (ReplicaSets, then pods); on
// shared informers kube-controller-manager opens them.
func (r *ReplicaSet) Start() { r.informers.Start() }

// syncReplicaSet is syncReplicaSet (pkg/controller/replicaset/replica_set.go,
// read at kubernetes master 003e862): when the expectations are met (no creations in flight),
// manageReplicas creates or deletes pods; then, whether that worked or not,
// the status computed from the pods seen when the sync began is written
// (calculateStatus with manageReplicas' error: the ReplicaFailure
// condition).
func (r *ReplicaSet) syncReplicaSet(p *engine.Proc, key string) error {
	rs, _ := r.rsets.GetByKey(key)
	if rs == nil {
		return nil // deleted: its pods go with the garbage collector
	}
	// filteredPods: the active pods as the informer shows them now, less
	// the deletions sent and not yet seen.
	var seen podCounts
	if cnt := r.counts[rs.UID]; cnt != nil {
		seen = cnt.podCounts
	}
	var manageErr *apiserver.Status
	if r.inFlight[rs.UID] == 0 { // rsNeedsSync: SatisfiedExpectations
		manageErr = r.manageReplicas(p, seen.active-len(r.deleting[rs.UID]), rs)
	}
	newStatus := r.calculateStatus(rs, seen, manageErr)
	if err := r.updateReplicaSetStatus(p, rs, newStatus); err != nil {
		return err // the work queue retries the key rate-limited
	}
	// every replica Ready but not all available yet: look again once
	// minReadySeconds have passed (syncReplicaSet's AddAfter)
	if m := rs.Spec.MinReadySeconds; manageErr == nil && m > 0 && newStatus.ReadyReplicas == *rs.Spec.Replicas &&
		newStatus.AvailableReplicas != *rs.Spec.Replicas {
		r.eng.After(time.Duration(m)*time.Second, func() { r.queue.add(key) })
	}
	if manageErr != nil {
		// syncReplicaSet returns manageReplicas' error and the key is
		// requeued rate-limited, 5 ms doubling. The simulator requeues it
		// here, on the controller's own back-off, so that the failure shows
		// as the ReplicaFailure condition and the FailedCreate event, not
		// also as a controller.retry step.
		r.eng.After(r.retry.next(key), func() { r.queue.add(key) })
	}
	return nil
}

// manageReplicas is manageReplicas (replica_set.go): too few active pods
// and up to burstReplicas are created in slow-start batches; too many and
// the least valuable are deleted. It returns the first creation or
// deletion error.
func (r *ReplicaSet) manageReplicas(p *engine.Proc, active int, rs *appsv1.ReplicaSet) *apiserver.Status {
	want := int(*rs.Spec.Replicas)
	if diff := want - active; diff > 0 {
		diff = min(diff, burstReplicas)
		r.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: r.c.Actor, Kind: "replicaset.diff", Object: apiserver.ObjectRef(rs),
			Fields: trace.F("want", want, "have", want-diff, "create", diff)})
		r.inFlight[rs.UID] = diff // ExpectCreations
		_, err := slowStartBatch(p, diff, slowStartInitialBatchSize, func(c *engine.Proc) *apiserver.Status {
			return r.createPod(c, rs)
		})
		r.inFlight[rs.UID] = 0 // the creations skipped after a failure are not expected
		if err == nil {
			r.retry.forget(rs.Namespace + "/" + rs.Name)
		}
		return err
	}
	if diff := active - want; diff > 0 {
		return r.deletePods(p, rs, min(diff, burstReplicas))
	}
	return nil
}

// slowStartBatch is slowStartBatch (replica_set.go): fn runs count times,
// first initialBatchSize at once, each successful batch doubling the next,
// each call on its own proc (upstream: a goroutine) while p waits for the
// batch. After a batch with a failure it stops and returns the successes so
// far and the first error.
func slowStartBatch(p *engine.Proc, count, initialBatchSize int, fn func(*engine.Proc) *apiserver.Status) (int, *apiserver.Status) {
	remaining := count
	successes := 0
	for batchSize := min(remaining, initialBatchSize); batchSize > 0; batchSize = min(2*batchSize, remaining) {
		var wg engine.WaitGroup
		var firstErr *apiserver.Status
		failed := 0
		call := func(c *engine.Proc) { // one closure for the batch, not one per call
			if err := fn(c); err != nil {
				failed++
				if firstErr == nil {
					firstErr = err
				}
			}
		}
		for range batchSize {
			wg.Go(p.Engine(), call)
		}
		wg.Wait(p)
		successes += batchSize - failed
		if firstErr != nil {
			return successes, firstErr
		}
		remaining -= batchSize
	}
	return successes, nil
}

// createPod is RealPodControl.CreatePods (controller_utils.go): POST a
// pod from the template and record the event either way.
func (r *ReplicaSet) createPod(p *engine.Proc, rs *appsv1.ReplicaSet) *apiserver.Status {
	obj, err := r.c.In(p).Create(podFromTemplate(rs, &r.owner))
	r.inFlight[rs.UID]-- // CreationObserved
	if err != nil {
		r.c.Event(trace.PhaseController, rs, "Warning", "FailedCreate", fmt.Sprintf("Error creating: %s", err.Message))
		return err
	}
	r.c.Event(trace.PhaseController, rs, "Normal", "SuccessfulCreate", "Created pod: "+apiserver.Meta(obj).GetName())
	return nil
}

// deletePods is manageReplicas' other half: the n least valuable pods
// (getPodsToDelete) get a DELETE each, each on its own proc (upstream: a
// goroutine), and the sync waits for them all before it goes on to the
// status; the first failure other than NotFound is manageReplicas' error.
func (r *ReplicaSet) deletePods(p *engine.Proc, rs *appsv1.ReplicaSet, n int) *apiserver.Status {
	pods := r.getPodsToDelete(rs, n)
	if r.deleting[rs.UID] == nil {
		r.deleting[rs.UID] = map[string]bool{}
	}
	r.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: r.c.Actor, Kind: "replicaset.shrink", Object: apiserver.ObjectRef(rs),
		Fields: trace.F("want", *rs.Spec.Replicas, "have", int(*rs.Spec.Replicas)+n, "delete", n)})
	var wg engine.WaitGroup
	var firstErr *apiserver.Status
	for _, pod := range pods {
		r.deleting[rs.UID][pod.Name] = true // ExpectDeletions
		wg.Go(p.Engine(), func(c *engine.Proc) {
			if err := r.deletePod(c, rs, pod.Name); err != nil && firstErr == nil {
				firstErr = err
			}
		})
	}
	wg.Wait(p)
	return firstErr
}

// deletePod is RealPodControl.DeletePod (controller_utils.go): DELETE the
// pod and record the event. A failed deletion is observed at once
// (DeletionObserved) so the pod counts again; NotFound is no failure.
func (r *ReplicaSet) deletePod(p *engine.Proc, rs *appsv1.ReplicaSet, name string) *apiserver.Status {
	_, err := r.c.In(p).Delete(apiserver.ResourceOf(&corev1.Pod{}), rs.Namespace, name)
	if err != nil {
		delete(r.deleting[rs.UID], name)
		if err.Code == http.StatusNotFound {
			return nil
		}
		r.c.Event(trace.PhaseController, rs, "Warning", "FailedDelete", fmt.Sprintf("Error deleting: %s", err.Message))
		return err
	}
	r.c.Event(trace.PhaseController, rs, "Normal", "SuccessfulDelete", "Deleted pod: "+name)
	return nil
}

// getPodsToDelete is getPodsToDelete (replica_set.go) with
// controller_utils.go's ActivePodsWithRanks order: unscheduled, then
// pending, then not ready, then doubled-up on a node, then the most
// recently created go first.
func (r *ReplicaSet) getPodsToDelete(rs *appsv1.ReplicaSet, n int) []*corev1.Pod {
	var pods []*corev1.Pod
	perNode := map[string]int{}
	for _, p := range r.pods.ByIndex(informer.ControllerIndex, string(rs.UID)) {
		if p.DeletionTimestamp == nil && !r.deleting[rs.UID][p.Name] {
			pods = append(pods, p)
			perNode[p.Spec.NodeName]++
		}
	}
	rank := func(p *corev1.Pod) [4]int {
		r := [4]int{1, 1, 1, -perNode[p.Spec.NodeName]}
		if p.Spec.NodeName == "" {
			r[0] = 0
		}
		if p.Status.Phase != corev1.PodRunning {
			r[1] = 0
		}
		if !PodReady(p) {
			r[2] = 0
		}
		return r
	}
	// The order is total (names are unique), so any sort gives this one.
	slices.SortFunc(pods, func(a, b *corev1.Pod) int {
		ra, rb := rank(a), rank(b)
		if c := slices.Compare(ra[:], rb[:]); c != 0 {
			return c
		}
		if !a.CreationTimestamp.Equal(&b.CreationTimestamp) {
			return b.CreationTimestamp.Compare(a.CreationTimestamp.Time)
		}
		return strings.Compare(b.Name, a.Name)
	})
	return pods[:min(n, len(pods))]
}

// observeAndQueue is the handler of a controller's primary resource: the
// first sight of an object is recorded, and every add or update queues its
// namespace/name key (deletions are left to the owner references).
func observeAndQueue[T interface {
	*E
	runtime.Object
	metav1.Object
}, E any](rec *trace.Recorder, actor, kind string, q *workQueue) func(informer.Event[T]) {
	return func(ev informer.Event[T]) {
		if ev.Deleted() {
			return
		}
		if ev.Old == nil {
			rec.Add(trace.Step{Phase: trace.PhaseController, Actor: actor, Kind: "controller.observe",
				Object: apiserver.ObjectRef(ev.Obj), Fields: trace.F("kind", kind, "rev", ev.Rev)})
		}
		q.add(ev.Obj.GetNamespace() + "/" + ev.Obj.GetName())
	}
}
