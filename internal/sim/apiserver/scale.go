package apiserver

// The scale subresource of Deployments (and ReplicaSets): a Scale in and
// out, the parent's spec.replicas underneath
// (pkg/registry/apps/deployment/storage/storage.go ScaleREST,
// scaleFromDeployment; pkg/registry/apps/replicaset/storage/storage.go;
// v1.37.2). The PATCH is applied to the parent, so its strategy's
// generation bump and the watchers see an ordinary Deployment update.

import (
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

func setScaleReplicas(o runtime.Object, n int32) {
	switch x := o.(type) {
	case *appsv1.Deployment:
		x.Spec.Replicas = &n
	case *appsv1.ReplicaSet:
		x.Spec.Replicas = &n
	case *appsv1.StatefulSet:
		x.Spec.Replicas = &n
	}
}

// scaleOf is scaleFromDeployment / scaleFromReplicaSet: name, namespace,
// UID, resourceVersion and creation time of the parent, spec.replicas,
// status.replicas and the selector as a string.
func scaleOf(o runtime.Object) runtime.Object {
	var spec, status int32
	var sel *metav1.LabelSelector
	switch x := o.(type) {
	case *appsv1.Deployment:
		if x.Spec.Replicas != nil {
			spec = *x.Spec.Replicas
		}
		status, sel = x.Status.Replicas, x.Spec.Selector
	case *appsv1.ReplicaSet:
		if x.Spec.Replicas != nil {
			spec = *x.Spec.Replicas
		}
		status, sel = x.Status.Replicas, x.Spec.Selector
	case *appsv1.StatefulSet:
		// pkg/registry/apps/statefulset/storage/storage.go scaleFromStatefulSet.
		if x.Spec.Replicas != nil {
			spec = *x.Spec.Replicas
		}
		status, sel = x.Status.Replicas, x.Spec.Selector
	default:
		return o
	}
	m := Meta(o)
	sc := &autoscalingv1.Scale{}
	sc.APIVersion, sc.Kind = "autoscaling/v1", "Scale"
	sc.Name, sc.Namespace, sc.UID = m.GetName(), m.GetNamespace(), m.GetUID()
	sc.ResourceVersion, sc.CreationTimestamp = m.GetResourceVersion(), m.GetCreationTimestamp()
	sc.Spec.Replicas, sc.Status.Replicas = spec, status
	if s, err := metav1.LabelSelectorAsSelector(sel); err == nil && sel != nil {
		sc.Status.Selector = s.String()
	}
	return sc
}
