package controller

import (
	"fmt"
	"reflect"
	"slices"
	"sort"

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
	counts     map[types.UID]*podCounts        // kept up to date on every pod event
	deleting   map[types.UID]map[string]bool   // deletions sent, not yet seen
	queue      *workQueue                      // syncs queued
	lastStatus map[string][4]int64
	retry      itemBackoff // failed creations requeue with back-off
}

// NewReplicaSet builds the controller on its client; Start opens its watches.
func NewReplicaSet(c *apiserver.Client, eng *engine.Engine, rec *trace.Recorder) *ReplicaSet {
	r := &ReplicaSet{c: c, eng: eng, rec: rec, rsets: informer.New[*appsv1.ReplicaSet]("replicasets"),
		pods:     informer.New[*corev1.Pod]("pods").AddIndexer(informer.ControllerIndex, informer.ByController[*corev1.Pod]),
		inFlight: map[types.UID]int{}, counts: map[types.UID]*podCounts{}, deleting: map[types.UID]map[string]bool{}}
	r.queue = newWorkQueue(eng, r.sync)
	r.queue.onRetry = retryStep(rec, c.Actor, "replicasets")
	r.rsets.AddEventHandler(observeAndQueue[*appsv1.ReplicaSet](rec, c.Actor, "ReplicaSet", r.queue))
	r.pods.AddEventHandler(func(ev informer.Event[*corev1.Pod]) {
		pod := ev.Obj
		ref := metav1.GetControllerOfNoCopy(pod)
		if ref == nil || ref.Kind != "ReplicaSet" {
			return
		}
		cnt := r.counts[ref.UID]
		if cnt == nil {
			cnt = &podCounts{}
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
		r.queue.add(pod.Namespace + "/" + ref.Name)
	})
	return r
}

// Name is the controller's client name.
func (r *ReplicaSet) Name() string { return r.c.Actor }

// Start opens the controller's watches: ReplicaSets, then pods.
func (r *ReplicaSet) Start() {
	r.rsets.Run(r.c)
	r.pods.Run(r.c)
}

// sync is syncReplicaSet (pkg/controller/replicaset/replica_set.go): when
// the expectations are met, manageReplicas creates or deletes pods; then,
// whether that worked or not, the status computed from the pods seen when
// the sync began is written (calculateStatus with manageReplicas' error:
// the ReplicaFailure condition), and only then is the sync done. A failed
// creation requeues the key rate-limited after the status write.
func (r *ReplicaSet) sync(k string, done func(error)) {
	rs, _ := r.rsets.GetByKey(k)
	if rs == nil {
		done(nil)
		return
	}
	want := int32(1)
	if rs.Spec.Replicas != nil {
		want = *rs.Spec.Replicas
	}
	// activePods as the informer showed them when the sync began
	var seen podCounts
	if cnt := r.counts[rs.UID]; cnt != nil {
		seen = *cnt
	}
	active := seen.active - len(r.deleting[rs.UID])
	finish := func(manageErr *apiserver.Status) {
		r.updateStatus(rs, seen, manageErr, func(err error) {
			if err != nil {
				done(err)
				return
			}
			if manageErr != nil {
				// syncReplicaSet returned manageReplicas' error: the key
				// is requeued rate-limited, 5 ms doubling.
				key := rs.Namespace + "/" + rs.Name
				r.eng.After(r.retry.next(key), func() { r.queue.add(key) })
			}
			done(nil)
		})
	}
	if r.inFlight[rs.UID] == 0 {
		if diff := int(want) - active; diff > 0 {
			r.create(rs, min(diff, burstReplicas), finish)
			return
		}
		if diff := active - int(want); diff > 0 {
			r.remove(rs, min(diff, burstReplicas))
		}
	}
	finish(nil)
}

// create makes n pods in slow-start batches, then calls finish with the
// first creation error (slowStartBatch stops after a failed batch).
func (r *ReplicaSet) create(rs *appsv1.ReplicaSet, n int, finish func(*apiserver.Status)) {
	r.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: r.c.Actor, Kind: "replicaset.diff", Object: apiserver.ObjectRef(rs),
		Fields: trace.F("want", *rs.Spec.Replicas, "have", int(*rs.Spec.Replicas)-n, "create", n)})
	r.inFlight[rs.UID] = n
	r.batch(rs, n, slowStartInitialBatchSize, finish)
}

func (r *ReplicaSet) batch(rs *appsv1.ReplicaSet, remaining, size int, finish func(*apiserver.Status)) {
	size = min(size, remaining)
	done := 0
	var failed *apiserver.Status
	for i := 0; i < size; i++ {
		pod := podFromTemplate(rs)
		r.c.Create(pod, func(obj runtime.Object, err *apiserver.Status) {
			done++
			r.inFlight[rs.UID]--
			if err != nil {
				if failed == nil {
					failed = err
				}
				r.c.Event(trace.PhaseController, rs, "Warning", "FailedCreate", fmt.Sprintf("Error creating: %s", err.Message))
			} else {
				r.c.Event(trace.PhaseController, rs, "Normal", "SuccessfulCreate", "Created pod: "+apiserver.Meta(obj).GetName())
			}
			if done == size {
				left := remaining - size
				if left > 0 && failed == nil {
					r.batch(rs, left, size*2, finish)
					return
				}
				r.inFlight[rs.UID] = 0
				if failed == nil {
					r.retry.forget(rs.Namespace + "/" + rs.Name)
				}
				finish(failed)
			}
		})
	}
}

func podFromTemplate(rs *appsv1.ReplicaSet) *corev1.Pod {
	t := copyTemplate(&rs.Spec.Template)
	p := &corev1.Pod{ObjectMeta: t.ObjectMeta, Spec: t.Spec}
	p.Namespace = rs.Namespace
	p.GenerateName = rs.Name + "-"
	p.Name = ""
	p.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(rs, appsv1.SchemeGroupVersion.WithKind("ReplicaSet"))}
	return p
}

// copyTemplate deep-copies a pod template (GetPodFromTemplate's
// DeepCopy), except that the containers' resource requests and limits
// stay shared with the template: every pod of a ReplicaSet would otherwise
// carry two maps of its own with the same quantities (a tenth of what a
// pod keeps live at scale). Shared maps are read-only; the API server's
// defaulting and LimitRanger, the only writers, copy a map before they
// add to it (manifest requestsFromLimits, apiserver LimitRanger fill).
func copyTemplate(src *corev1.PodTemplateSpec) *corev1.PodTemplateSpec {
	t := new(corev1.PodTemplateSpec)
	src.ObjectMeta.DeepCopyInto(&t.ObjectMeta)
	spec := src.Spec // a shallow copy: DeepCopyInto below reads it, src stays as it is
	spec.Containers, spec.InitContainers = nil, nil
	spec.DeepCopyInto(&t.Spec)
	t.Spec.Containers = copyContainers(src.Spec.Containers)
	t.Spec.InitContainers = copyContainers(src.Spec.InitContainers)
	return t
}

func copyContainers(src []corev1.Container) []corev1.Container {
	if src == nil {
		return nil
	}
	out := make([]corev1.Container, len(src))
	for i := range src {
		c := src[i] // a shallow copy
		res := c.Resources
		c.Resources = corev1.ResourceRequirements{}
		c.DeepCopyInto(&out[i])
		out[i].Resources = res
	}
	return out
}

// PodReady reports the pod's Ready condition.
func PodReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// statusUpdateRetries is how often updateReplicaSetStatus reads the
// ReplicaSet again and retries a failed status write before the sync fails
// and the key is requeued (replica_set_utils.go).
const statusUpdateRetries = 1

// updateStatus is calculateStatus and updateReplicaSetStatus
// (replica_set_utils.go): the status computed from the pods seen is
// written when it differs from what the informer shows, with that copy's
// resourceVersion; after a failure the controller GETs the latest
// ReplicaSet and tries once more, then gives up until the requeue.
func (r *ReplicaSet) updateStatus(rs *appsv1.ReplicaSet, seen podCounts, manageErr *apiserver.Status, done func(error)) {
	st := appsv1.ReplicaSetStatus{Conditions: rs.Status.Conditions}
	st.Replicas = int32(seen.all)
	st.ReadyReplicas = int32(seen.ready)
	st.AvailableReplicas = int32(seen.ready) // minReadySeconds 0: available as soon as Ready
	st.FullyLabeledReplicas = st.Replicas
	// calculateStatus: a failed manageReplicas sets ReplicaFailure (once: an
	// existing one is kept as it is); a successful one removes it.
	failure := replicaFailure(rs.Status)
	switch {
	case manageErr != nil && failure == nil:
		reason := "FailedCreate"
		if seen.active > int(*rs.Spec.Replicas) {
			reason = "FailedDelete"
		}
		st.Conditions = append(slices.Clone(st.Conditions), appsv1.ReplicaSetCondition{Type: appsv1.ReplicaSetReplicaFailure,
			Status: corev1.ConditionTrue, Reason: reason, Message: manageErr.Message,
			LastTransitionTime: apiserver.TimeAt(r.eng.Now())})
	case manageErr == nil && failure != nil:
		st.Conditions = slices.DeleteFunc(slices.Clone(st.Conditions), func(c appsv1.ReplicaSetCondition) bool {
			return c.Type == appsv1.ReplicaSetReplicaFailure
		})
		if len(st.Conditions) == 0 {
			st.Conditions = nil
		}
	}
	cur := rs.Status
	if cur.Replicas == st.Replicas && cur.ReadyReplicas == st.ReadyReplicas && cur.AvailableReplicas == st.AvailableReplicas &&
		cur.FullyLabeledReplicas == st.FullyLabeledReplicas && cur.ObservedGeneration == rs.Generation &&
		reflect.DeepEqual(cur.Conditions, st.Conditions) {
		done(nil)
		return
	}
	var try func(rs *appsv1.ReplicaSet, attempt int)
	try = func(rs *appsv1.ReplicaSet, attempt int) {
		// A status write carries only the status (the server keeps the
		// stored spec): a shallow copy of the informer's read-only object.
		upd := new(appsv1.ReplicaSet)
		*upd = *rs
		upd.Status = st
		upd.Status.ObservedGeneration = rs.Generation
		r.c.UpdateStatus(upd, func(_ runtime.Object, err *apiserver.Status) {
			if err == nil && r.rec.Full() {
				done(nil)
				return
			}
			if err == nil {
				r.rec.Add(trace.Step{Phase: trace.PhaseReady, Actor: r.c.Actor, Kind: "replicaset.status", Object: apiserver.ObjectRef(rs), Verbose: true,
					Fields: trace.F("replicas", st.Replicas, "ready", st.ReadyReplicas, "available", st.AvailableReplicas)})
				done(nil)
				return
			}
			if attempt >= statusUpdateRetries {
				done(err)
				return
			}
			r.c.Get(apiserver.ResourceOf(rs), rs.Namespace, rs.Name, func(obj runtime.Object, gerr *apiserver.Status) {
				if gerr != nil {
					done(gerr)
					return
				}
				try(obj.(*appsv1.ReplicaSet), attempt+1)
			})
		})
	}
	try(rs, 0)
}

func replicaFailure(st appsv1.ReplicaSetStatus) *appsv1.ReplicaSetCondition {
	for i := range st.Conditions {
		if st.Conditions[i].Type == appsv1.ReplicaSetReplicaFailure {
			return &st.Conditions[i]
		}
	}
	return nil
}

// podCounts are a ReplicaSet's pods counted incrementally, so a status
// sync costs O(1) however many pods it owns.
type podCounts struct{ all, active, ready int }

func (c *podCounts) add(p *corev1.Pod, d int) {
	if p.DeletionTimestamp != nil || p.Status.Phase == corev1.PodFailed || p.Status.Phase == corev1.PodSucceeded {
		return // terminating and finished pods are not replicas
	}
	c.all += d
	c.active += d
	if PodReady(p) {
		c.ready += d
	}
}

// remove deletes n of the ReplicaSet's pods, the least valuable first
// (controller_utils.go ActivePodsWithRanks: unscheduled, then pending, then
// not ready, then doubled-up on a node, then the most recently created).
func (r *ReplicaSet) remove(rs *appsv1.ReplicaSet, n int) {
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
	sort.Slice(pods, func(i, j int) bool {
		a, b := rank(pods[i]), rank(pods[j])
		if a != b {
			for k := range a {
				if a[k] != b[k] {
					return a[k] < b[k]
				}
			}
		}
		if !pods[i].CreationTimestamp.Equal(&pods[j].CreationTimestamp) {
			return pods[j].CreationTimestamp.Before(&pods[i].CreationTimestamp)
		}
		return pods[i].Name > pods[j].Name
	})
	if r.deleting[rs.UID] == nil {
		r.deleting[rs.UID] = map[string]bool{}
	}
	r.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: r.c.Actor, Kind: "replicaset.shrink", Object: apiserver.ObjectRef(rs),
		Fields: trace.F("want", *rs.Spec.Replicas, "have", int(*rs.Spec.Replicas)+n, "delete", n)})
	for _, p := range pods[:min(n, len(pods))] {
		p := p
		r.deleting[rs.UID][p.Name] = true
		r.c.Delete(apiserver.ResourceOf(p), p.Namespace, p.Name, func(_ runtime.Object, err *apiserver.Status) {
			if err != nil {
				delete(r.deleting[rs.UID], p.Name)
				return
			}
			r.c.Event(trace.PhaseController, rs, "Normal", "SuccessfulDelete", "Deleted pod: "+p.Name)
		})
	}
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
