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
// The labels map is shared too, read-only in the same way: no component
// and no admission plugin changes a pod's labels in place (a PATCH applies
// to a deep copy), and selectors only read them (about 350 bytes per pod).
func copyTemplate(src *corev1.PodTemplateSpec) *corev1.PodTemplateSpec {
	t := new(corev1.PodTemplateSpec)
	meta := src.ObjectMeta // a shallow copy, as spec below
	meta.Labels = nil
	meta.DeepCopyInto(&t.ObjectMeta)
	t.Labels = src.Labels
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
