package apiserver

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// PodUsage sums into quantities of its own: the pod's (shared with its
// template and siblings) stay as they were, whatever their backing
// (decimal ones share it when copied by value).
func TestPodUsageLeavesThePodsQuantities(t *testing.T) {
	always := corev1.ContainerRestartPolicyAlways
	for _, s := range []string{"1.5Gi", "100m", "0.5", "1e3", "1.2345678901"} {
		shared := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(s)}
		before := shared[corev1.ResourceCPU]
		want := before.String()
		pod := &corev1.Pod{Spec: corev1.PodSpec{InitContainers: []corev1.Container{
			{Name: "init", Resources: corev1.ResourceRequirements{Requests: shared, Limits: shared}},
			{Name: "side", RestartPolicy: &always, Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")},
				Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}}},
		}}}
		PodUsage(pod)
		PodUsage(pod)
		if after := shared[corev1.ResourceCPU]; after.String() != want {
			t.Errorf("%s: PodUsage changed the pod's quantity to %s", want, after.String())
		}
	}
}
