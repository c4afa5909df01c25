package apiserver

import (
	"encoding/json"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// mergeUpdate applies an update the way the registry strategies do
// (PrepareForUpdate in pkg/registry/...): identity and deletion fields come
// from the stored object; a main-resource update keeps the stored status
// and bumps metadata.generation when the spec changed; a status update
// keeps the stored spec and metadata.
func mergeUpdate(prev, next runtime.Object, status bool) runtime.Object {
	pm, nm := Meta(prev), Meta(next)
	nm.SetUID(pm.GetUID())
	nm.SetCreationTimestamp(pm.GetCreationTimestamp())
	nm.SetDeletionTimestamp(pm.GetDeletionTimestamp())
	nm.SetDeletionGracePeriodSeconds(pm.GetDeletionGracePeriodSeconds())
	nm.SetGeneration(pm.GetGeneration())
	switch n := next.(type) {
	case *corev1.Pod:
		p := prev.(*corev1.Pod)
		out := split(p, n, status, func(x *corev1.Pod) *corev1.PodStatus { return &x.Status })
		out.Spec.NodeName = p.Spec.NodeName // only the binding subresource sets it
		return out
	case *appsv1.Deployment:
		p := prev.(*appsv1.Deployment)
		if status {
			// deploymentStatusStrategy.PrepareForUpdate resets only spec
			// and labels (pkg/registry/apps/deployment/strategy.go): the
			// deployment controller writes the revision annotation with
			// UpdateStatus (deployment/sync.go getNewReplicaSet).
			ann := n.Annotations
			out := adoptStatus(p, n, func(x *appsv1.Deployment) *appsv1.DeploymentStatus { return &x.Status })
			out.Annotations = ann
			return out
		}
		out := split(p, n, false, func(x *appsv1.Deployment) *appsv1.DeploymentStatus { return &x.Status })
		bumpGeneration(&out.ObjectMeta, &p.Spec, &out.Spec, false)
		return out
	case *appsv1.ReplicaSet:
		p := prev.(*appsv1.ReplicaSet)
		if status {
			return adoptStatus(p, n, func(x *appsv1.ReplicaSet) *appsv1.ReplicaSetStatus { return &x.Status })
		}
		out := split(p, n, false, func(x *appsv1.ReplicaSet) *appsv1.ReplicaSetStatus { return &x.Status })
		bumpGeneration(&out.ObjectMeta, &p.Spec, &out.Spec, false)
		return out
	case *appsv1.StatefulSet:
		// pkg/registry/apps/statefulset/strategy.go: the same split, and
		// generation bumped on a spec change.
		p := prev.(*appsv1.StatefulSet)
		out := split(p, n, status, func(x *appsv1.StatefulSet) *appsv1.StatefulSetStatus { return &x.Status })
		bumpGeneration(&out.ObjectMeta, &p.Spec, &out.Spec, status)
		return out
	case *autoscalingv2.HorizontalPodAutoscaler:
		// pkg/registry/autoscaling/horizontalpodautoscaler/strategy.go.
		p := prev.(*autoscalingv2.HorizontalPodAutoscaler)
		out := split(p, n, status, func(x *autoscalingv2.HorizontalPodAutoscaler) *autoscalingv2.HorizontalPodAutoscalerStatus {
			return &x.Status
		})
		bumpGeneration(&out.ObjectMeta, &p.Spec, &out.Spec, status)
		return out
	case *corev1.PersistentVolumeClaim:
		return split(prev.(*corev1.PersistentVolumeClaim), n, status, func(x *corev1.PersistentVolumeClaim) *corev1.PersistentVolumeClaimStatus { return &x.Status })
	case *corev1.PersistentVolume:
		return split(prev.(*corev1.PersistentVolume), n, status, func(x *corev1.PersistentVolume) *corev1.PersistentVolumeStatus { return &x.Status })
	case *corev1.Node:
		return split(prev.(*corev1.Node), n, status, func(x *corev1.Node) *corev1.NodeStatus { return &x.Status })
	}
	return next
}

// split keeps each half of an object with its owner: a status update takes
// only the status from the request, a main-resource update everything but.
// Stored objects are immutable (every writer copies before it changes one,
// and watchers share them read-only, as the watch cache hands out its
// objects), so the kept half is shared with the stored version, not
// deep-copied: the result is a new top-level struct whose fields point at
// the same spec, metadata maps and status slices.
func split[T, S any](prev, next *T, status bool, statusOf func(*T) *S) *T {
	if status {
		out := new(T)
		*out = *prev
		*statusOf(out) = *statusOf(next)
		return out
	}
	*statusOf(next) = *statusOf(prev)
	return next
}

// adoptStatus is split's status half that keeps the request's struct
// instead of a new one: the stored object's fields over it, then the
// request's status back. An object sent with Update becomes the server's
// (the main-resource half above already stores the request itself); the
// writers of Deployment and ReplicaSet status (deployment_progress.go,
// deployment_sync.go, replicaset_utils.go, a PATCH's own deep copy) send a
// struct of their own, built for this one write, so a status write no
// longer costs a second copy of the whole object (one per status sync of
// every ReplicaSet and Deployment).
func adoptStatus[T, S any](prev, next *T, statusOf func(*T) *S) *T {
	st := *statusOf(next)
	*next = *prev
	*statusOf(next) = st
	return next
}

// bumpGeneration raises metadata.generation when a main-resource update
// changed the spec. The specs come as pointers: a spec passed by value to
// an any parameter is copied to the heap on every call, status updates
// included (two template-sized copies per ReplicaSet or Deployment status
// write); json.Marshal encodes a pointer as what it points to.
func bumpGeneration(m *metav1.ObjectMeta, oldSpec, newSpec any, status bool) {
	if !status && !sameJSON(oldSpec, newSpec) {
		m.Generation++
	}
}

func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}
