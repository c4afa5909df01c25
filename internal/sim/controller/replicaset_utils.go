package controller

import (
	"reflect"
	"slices"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/sim/informer"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
)

// statusUpdateRetries is how often updateReplicaSetStatus reads the
// ReplicaSet again and retries a failed status write before the sync fails
// and the key is requeued (replica_set_utils.go).
const statusUpdateRetries = 1

// calculateStatus is calculateStatus (replica_set_utils.go): the counts of
// the pods seen, and the ReplicaFailure condition from manageReplicas'
// error, set once (an existing one is kept as it is) and removed after a
// success.
func (r *ReplicaSet) calculateStatus(rs *appsv1.ReplicaSet, seen podCounts, manageErr *apiserver.Status) appsv1.ReplicaSetStatus {
	st := appsv1.ReplicaSetStatus{Conditions: rs.Status.Conditions}
	st.Replicas = int32(seen.all)
	st.ReadyReplicas = int32(seen.ready)
	st.AvailableReplicas = int32(seen.ready) // minReadySeconds 0: available as soon as Ready
	if m := rs.Spec.MinReadySeconds; m > 0 {
		st.AvailableReplicas = r.available(rs, m)
	}
	st.FullyLabeledReplicas = st.Replicas
	// DeploymentReplicaSetTerminatingReplicas: beta, on by default since
	// v1.35 (pkg/features/kube_features.go); the pods being deleted.
	st.TerminatingReplicas = ptr.To(int32(seen.terminating))
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
	return st
}

// updateReplicaSetStatus is updateReplicaSetStatus (replica_set_utils.go):
// the status is written when it differs from what the informer shows, with
// that copy's resourceVersion; after a failure the controller GETs the
// latest ReplicaSet and tries once more, then gives up until the requeue.
func (r *ReplicaSet) updateReplicaSetStatus(p *engine.Proc, rs *appsv1.ReplicaSet, st appsv1.ReplicaSetStatus) *apiserver.Status {
	cur := rs.Status
	if cur.Replicas == st.Replicas && cur.ReadyReplicas == st.ReadyReplicas && cur.AvailableReplicas == st.AvailableReplicas &&
		cur.FullyLabeledReplicas == st.FullyLabeledReplicas && ptr.Equal(cur.TerminatingReplicas, st.TerminatingReplicas) &&
		cur.ObservedGeneration == rs.Generation &&
		reflect.DeepEqual(cur.Conditions, st.Conditions) {
		return nil
	}
	// The generation this sync acted on, saved before a retry re-reads the
	// ReplicaSet (replica_set_utils.go: "otherwise we might wrongfully
	// indicate that we've seen a spec update when we retry").
	st.ObservedGeneration = rs.Generation
	api := r.c.In(p)
	for attempt := 0; ; attempt++ {
		// A status write carries only the status (the server keeps the
		// stored spec): a shallow copy of the informer's read-only object.
		upd := new(appsv1.ReplicaSet)
		*upd = *rs
		upd.Status = st
		_, err := api.UpdateStatus(upd)
		if err == nil {
			if !r.rec.Full() {
				r.rec.Add(trace.Step{Phase: trace.PhaseReady, Actor: r.c.Actor, Kind: "replicaset.status", Object: apiserver.ObjectRef(rs), Verbose: true,
					Fields: trace.F("replicas", st.Replicas, "ready", st.ReadyReplicas, "available", st.AvailableReplicas)})
			}
			return nil
		}
		if attempt >= statusUpdateRetries {
			return err
		}
		obj, gerr := api.Get(apiserver.ResourceOf(rs), rs.Namespace, rs.Name)
		if gerr != nil {
			return gerr
		}
		rs = obj.(*appsv1.ReplicaSet)
	}
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
// terminating counts the pods being deleted that have not finished
// (controller.FilterTerminatingPods, pkg/controller/controller_utils.go,
// v1.37.2): status.terminatingReplicas.
type podCounts struct{ all, active, ready, terminating int }

func (c *podCounts) add(p *corev1.Pod, d int) {
	finished := p.Status.Phase == corev1.PodFailed || p.Status.Phase == corev1.PodSucceeded
	if p.DeletionTimestamp != nil && !finished {
		c.terminating += d
	}
	if p.DeletionTimestamp != nil || finished {
		return // terminating and finished pods are not replicas
	}
	c.all += d
	c.active += d
	if PodReady(p) {
		c.ready += d
	}
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

// podFromTemplate is GetPodFromTemplate (controller_utils.go): a pod of the
// ReplicaSet's template, named by generateName, owned by the ReplicaSet.
//
// The generateName and the owner reference are the same for every pod of
// the ReplicaSet: they come from own, built once per ReplicaSet and shared
// read-only (nothing changes a stored pod's ownerReferences in place; the
// slice's capacity is its length, so an append copies).
func podFromTemplate(rs *appsv1.ReplicaSet, own *ownerMemo) *corev1.Pod {
	p := new(corev1.Pod)
	copyTemplate(&rs.Spec.Template, p)
	p.Namespace = rs.Namespace
	own.of(rs)
	p.GenerateName = own.generateName
	p.Name = ""
	p.OwnerReferences = own.refs
	return p
}

// ownerMemo is what podFromTemplate sets the same on every pod of one
// ReplicaSet, for the last ReplicaSet it created a pod of.
type ownerMemo struct {
	uid          types.UID
	name         string
	generateName string
	refs         []metav1.OwnerReference
}

// of makes the memo rs's.
func (m *ownerMemo) of(rs *appsv1.ReplicaSet) {
	if m.refs != nil && m.uid == rs.UID && m.name == rs.Name {
		return
	}
	m.uid, m.name, m.generateName = rs.UID, rs.Name, rs.Name+"-"
	m.refs = []metav1.OwnerReference{*metav1.NewControllerRef(rs, appsv1.SchemeGroupVersion.WithKind("ReplicaSet"))}
}

// copyTemplate copies a pod template into a new pod (GetPodFromTemplate's
// DeepCopy), straight into the pod's own metadata and spec (no template
// struct in between, which cost a second pod-sized allocation), sharing with the template every part no writer changes in
// place: every pod of a ReplicaSet would otherwise carry its own copy of
// the same pod security context, affinity, probes, environment and
// resource maps (about a tenth of what a pod keeps live at scale).
//
// Why sharing is safe: stored objects are immutable (informer.DetectMutations
// panics in tests on one changed in place), a PATCH applies to a deep copy,
// and the writers of a new pod only assign or append:
//   - the API server's defaulting (manifest podSpec) fills only unset
//     fields, and the template went through the same defaulting when its
//     ReplicaSet was stored, so on a shared part it finds nothing to fill;
//     LimitRanger and requestsFromLimits copy a resource map before they
//     add to it (manifest.OwnResourceList);
//   - admission appends to the volumes (copied here), to the tolerations and
//     to each container's volumeMounts: those are clipped to their length,
//     so an append copies instead of writing into the template's array;
//   - the labels map: no component or plugin changes a pod's labels in
//     place, selectors only read them.
//
// What each pod gets of its own: the metadata (but the labels), the spec's
// top-level struct, the volumes, and the containers' arrays (each pod's
// containers differ by the kube-api-access volume mount).
func copyTemplate(src *corev1.PodTemplateSpec, t *corev1.Pod) {
	meta := src.ObjectMeta // a shallow copy, as spec below
	meta.Labels = nil
	meta.DeepCopyInto(&t.ObjectMeta)
	t.Labels = src.Labels
	t.Spec = src.Spec // a shallow copy: the parts below are the pod's own
	t.Spec.Volumes = nil
	if src.Spec.Volumes != nil {
		t.Spec.Volumes = make([]corev1.Volume, len(src.Spec.Volumes))
		for i := range src.Spec.Volumes {
			src.Spec.Volumes[i].DeepCopyInto(&t.Spec.Volumes[i])
		}
	}
	t.Spec.Tolerations = slices.Clip(t.Spec.Tolerations)
	t.Spec.Containers = copyContainers(src.Spec.Containers)
	t.Spec.InitContainers = copyContainers(src.Spec.InitContainers)
}

// copyContainers gives a pod its own container array over the template's
// parts (see copyTemplate); a container's volumeMounts are clipped, so
// admission's append copies them.
func copyContainers(src []corev1.Container) []corev1.Container {
	if src == nil {
		return nil
	}
	out := slices.Clone(src)
	for i := range out {
		out[i].VolumeMounts = slices.Clip(out[i].VolumeMounts)
	}
	return out
}

// available counts the ReplicaSet's replicas that have been Ready for
// minReadySeconds (podutil.IsPodAvailable: the Ready condition's
// lastTransitionTime plus minReadySeconds not after now), as
// calculateStatus does when minReadySeconds is set; the pods are read from
// the informer, terminating and finished ones left out as filteredPods does.
func (r *ReplicaSet) available(rs *appsv1.ReplicaSet, minReadySeconds int32) int32 {
	now := apiserver.TimeAt(r.eng.Now())
	var n int32
	for _, p := range r.pods.ByIndex(informer.ControllerIndex, string(rs.UID)) {
		if p.DeletionTimestamp != nil || p.Status.Phase == corev1.PodFailed || p.Status.Phase == corev1.PodSucceeded {
			continue
		}
		for _, c := range p.Status.Conditions {
			if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue &&
				!c.LastTransitionTime.IsZero() && !c.LastTransitionTime.Add(time.Duration(minReadySeconds)*time.Second).After(now.Time) {
				n++
			}
		}
	}
	return n
}
