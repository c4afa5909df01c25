package manifest

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// The cases follow pkg/apis/core/helper/qos ComputePodQOS.
func TestPodQOS(t *testing.T) {
	rl := func(kv ...string) corev1.ResourceList {
		l := corev1.ResourceList{}
		for i := 0; i < len(kv); i += 2 {
			l[corev1.ResourceName(kv[i])] = resource.MustParse(kv[i+1])
		}
		return l
	}
	c := func(req, lim corev1.ResourceList) corev1.Container {
		return corev1.Container{Name: "c", Resources: corev1.ResourceRequirements{Requests: req, Limits: lim}}
	}
	guaranteed := c(rl("cpu", "100m", "memory", "64Mi"), rl("cpu", "100m", "memory", "64Mi"))
	best := c(nil, nil)
	for _, tc := range []struct {
		name       string
		init, main []corev1.Container
		podLevel   *corev1.ResourceRequirements
		want       corev1.PodQOSClass
	}{
		{"no resources", nil, []corev1.Container{best}, nil, corev1.PodQOSBestEffort},
		{"requests equal limits", nil, []corev1.Container{guaranteed}, nil, corev1.PodQOSGuaranteed},
		{"limits only (requests defaulted elsewhere)", nil, []corev1.Container{c(nil, rl("cpu", "100m", "memory", "64Mi"))}, nil, corev1.PodQOSBurstable},
		{"cpu only, equal", nil, []corev1.Container{c(rl("cpu", "100m"), rl("cpu", "100m"))}, nil, corev1.PodQOSBurstable},
		{"requests below limits", nil, []corev1.Container{c(rl("cpu", "50m", "memory", "64Mi"), rl("cpu", "100m", "memory", "64Mi"))}, nil, corev1.PodQOSBurstable},
		{"guaranteed and best-effort containers", nil, []corev1.Container{guaranteed, best}, nil, corev1.PodQOSBurstable},
		{"only ephemeral-storage", nil, []corev1.Container{c(rl("ephemeral-storage", "1Gi"), nil)}, nil, corev1.PodQOSBestEffort},
		{"a best-effort init container", []corev1.Container{best}, []corev1.Container{guaranteed}, nil, corev1.PodQOSBurstable},
		{"a guaranteed init container", []corev1.Container{guaranteed}, []corev1.Container{guaranteed}, nil, corev1.PodQOSGuaranteed},
		{"pod-level resources decide", nil, []corev1.Container{best},
			&corev1.ResourceRequirements{Requests: rl("cpu", "1", "memory", "1Gi"), Limits: rl("cpu", "1", "memory", "1Gi")}, corev1.PodQOSGuaranteed},
		{"pod-level without cpu or memory", nil, []corev1.Container{guaranteed},
			&corev1.ResourceRequirements{Requests: rl("ephemeral-storage", "1Gi")}, corev1.PodQOSGuaranteed},
	} {
		pod := &corev1.Pod{Spec: corev1.PodSpec{InitContainers: tc.init, Containers: tc.main, Resources: tc.podLevel}}
		if got := PodQOS(pod); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}
