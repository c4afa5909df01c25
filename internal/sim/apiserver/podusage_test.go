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

// A native sidecar listed before a regular init container is already
// running while that one runs, so the quota charges both at once
// (component-helpers resource.PodRequests, KEP-753): proxy 200m before
// migrate 1000m, then app 500m: max(1000m+200m, 500m+200m) = 1200m. Listed
// after migrate, the sidecar is not running yet: max(1000m, 700m) = 1000m.
func TestPodUsageSidecarBeforeInit(t *testing.T) {
	always := corev1.ContainerRestartPolicyAlways
	cpu := func(s string) corev1.ResourceRequirements {
		return corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(s)},
			Limits: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(s)}}
	}
	proxy := corev1.Container{Name: "proxy", RestartPolicy: &always, Resources: cpu("200m")}
	migrate := corev1.Container{Name: "migrate", Resources: cpu("1")}
	app := []corev1.Container{{Name: "app", Resources: cpu("500m")}}
	for _, tc := range []struct {
		inits []corev1.Container
		want  string
	}{
		{[]corev1.Container{proxy, migrate}, "1200m"},
		{[]corev1.Container{migrate, proxy}, "1"},
		{nil, "500m"},
	} {
		u := PodUsage(&corev1.Pod{Spec: corev1.PodSpec{InitContainers: tc.inits, Containers: app}})
		for _, r := range []corev1.ResourceName{"requests.cpu", "limits.cpu", corev1.ResourceCPU} {
			if q := u[r]; q.String() != tc.want {
				t.Errorf("%d init containers: %s = %s, want %s", len(tc.inits), r, q.String(), tc.want)
			}
		}
	}
}
