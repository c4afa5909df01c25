package apiserver

import (
	"encoding/json"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
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
		if status {
			st := n.Status
			n = p.DeepCopy()
			n.Status = st
			return n
		}
		n.Status = *p.Status.DeepCopy()
		n.Spec.NodeName = p.Spec.NodeName // only the binding subresource sets it
	case *appsv1.Deployment:
		p := prev.(*appsv1.Deployment)
		if status {
			st := n.Status
			n = p.DeepCopy()
			n.Status = st
			return n
		}
		n.Status = *p.Status.DeepCopy()
		if !sameJSON(p.Spec, n.Spec) {
			n.Generation = p.Generation + 1
		}
	case *appsv1.ReplicaSet:
		p := prev.(*appsv1.ReplicaSet)
		if status {
			st := n.Status
			n = p.DeepCopy()
			n.Status = st
			return n
		}
		n.Status = *p.Status.DeepCopy()
		if !sameJSON(p.Spec, n.Spec) {
			n.Generation = p.Generation + 1
		}
	case *corev1.Node:
		p := prev.(*corev1.Node)
		if status {
			st := n.Status
			n = p.DeepCopy()
			n.Status = st
			return n
		}
		n.Status = *p.Status.DeepCopy()
	}
	return next
}

func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}
