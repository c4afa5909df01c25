package apiserver

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// Two writers patching different status fields from the same stale copy
// both keep their change: a strategic-merge patch carries only the diff,
// and conditions merge by type.
func TestPodStatusPatchMerges(t *testing.T) {
	base := &corev1.Pod{}
	base.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionTrue}}
	stored := base.DeepCopy()

	kubelet := base.DeepCopy()
	kubelet.Status.Phase = corev1.PodRunning
	kubelet.Status.Conditions = append(kubelet.Status.Conditions, corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionTrue})
	controller := base.DeepCopy()
	controller.Status.Conditions = append(controller.Status.Conditions, corev1.PodCondition{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue})

	p1 := diffPodStatus(&base.Status, &kubelet.Status)
	p2 := diffPodStatus(&base.Status, &controller.Status)
	p1.apply(&stored.Status)
	p2.apply(&stored.Status)
	if stored.Status.Phase != corev1.PodRunning || len(stored.Status.Conditions) != 3 {
		t.Fatalf("lost a write: phase %q, conditions %v", stored.Status.Phase, stored.Status.Conditions)
	}
	if got := p1.describe(); got != "status.phase, status.conditions[Ready]" {
		t.Fatalf("describe: %q", got)
	}
}
