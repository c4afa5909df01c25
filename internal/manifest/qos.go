package manifest

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// PodQOS is the pod's QoS class as the API server computes it when the pod
// is created (pkg/registry/core/pod/strategy.go PrepareForCreate) and the
// kubelet reads it (pkg/apis/core/helper/qos ComputePodQOS): from
// pod-level resources when the pod sets them (PodLevelResources, beta and
// on since 1.34), else from every init and app container. A container is
// BestEffort without requests or limits; for cpu and memory each, request
// equal to limit and non-zero is Guaranteed, both zero BestEffort, anything
// else Burstable; one Burstable resource or container, or a mix of
// Guaranteed and BestEffort, makes the pod Burstable.
func PodQOS(pod *corev1.Pod) corev1.PodQOSClass {
	if r := pod.Spec.Resources; r != nil && (podLevelSet(r.Requests) || podLevelSet(r.Limits)) {
		return requirementsQOS(r)
	}
	var qos corev1.PodQOSClass
	for _, cs := range [][]corev1.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for i := range cs {
			c := requirementsQOS(&cs[i].Resources)
			switch {
			case c == corev1.PodQOSBurstable:
				return c
			case qos == "":
				qos = c
			case qos != c:
				return corev1.PodQOSBurstable
			}
		}
	}
	if qos == "" {
		return corev1.PodQOSBestEffort
	}
	return qos
}

// podLevelSet reports whether l names a resource pod-level resources support
// (IsPodLevelResourcesSet, IsSupportedPodLevelResource: cpu, memory, hugepages).
func podLevelSet(l corev1.ResourceList) bool {
	for name := range l {
		if name == corev1.ResourceCPU || name == corev1.ResourceMemory || strings.HasPrefix(string(name), corev1.ResourceHugePagesPrefix) {
			return true
		}
	}
	return false
}

func requirementsQOS(r *corev1.ResourceRequirements) corev1.PodQOSClass {
	if len(r.Requests) == 0 && len(r.Limits) == 0 {
		return corev1.PodQOSBestEffort
	}
	var qos corev1.PodQOSClass
	for _, name := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		req, lim := r.Requests[name], r.Limits[name]
		var c corev1.PodQOSClass
		switch {
		case !req.Equal(lim):
			return corev1.PodQOSBurstable
		case req.IsZero():
			c = corev1.PodQOSBestEffort
		default:
			c = corev1.PodQOSGuaranteed
		}
		if qos == "" {
			qos = c
		} else if qos != c {
			return corev1.PodQOSBurstable
		}
	}
	return qos
}
