package controller

import (
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

func quotaPod(name, cpu string) *corev1.Pod {
	p := &corev1.Pod{}
	p.Namespace, p.Name = "team", name
	p.Spec.Containers = []corev1.Container{{Name: "c", Image: "nginx", Resources: corev1.ResourceRequirements{
		Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu)}}}}
	return p
}

func (h *harness) quota() *corev1.ResourceQuota {
	return h.get(&corev1.ResourceQuota{}, "team", "q").(*corev1.ResourceQuota)
}

func used(rq *corev1.ResourceQuota, r corev1.ResourceName) string {
	q := rq.Status.Used[r]
	return q.String()
}

// A new quota gets status.hard and status.used counted from the
// namespace's pods (other namespaces do not count); a deleted or finished
// pod gives its usage back.
func TestResourceQuotaUsageRecomputed(t *testing.T) {
	h := newHarness(t)
	h.api.Seed(quotaPod("a", "500m"))
	h.api.Seed(quotaPod("b", "250m"))
	elsewhere := quotaPod("c", "1")
	elsewhere.Namespace = "default"
	h.api.Seed(elsewhere)
	q := NewResourceQuota(nil, h.client("resourcequota-controller"), h.eng, h.rec)
	q.Start()
	rq := &corev1.ResourceQuota{}
	rq.Namespace, rq.Name = "team", "q"
	rq.Spec.Hard = corev1.ResourceList{corev1.ResourcePods: resource.MustParse("10"), corev1.ResourceRequestsCPU: resource.MustParse("2"),
		"services": resource.MustParse("5")}
	h.create(rq)
	got := h.quota()
	if !sameList(got.Status.Hard, rq.Spec.Hard) {
		t.Fatalf("status.hard %v, want %v", got.Status.Hard, rq.Spec.Hard)
	}
	if used(got, corev1.ResourcePods) != "2" || used(got, corev1.ResourceRequestsCPU) != "750m" {
		t.Fatalf("used: %v", got.Status.Used)
	}
	if st := h.steps("resourcequota.unmodeled"); len(st) != 1 || st[0].Get("keys") != "services" {
		t.Fatalf("unmodeled steps: %+v", st)
	}
	// A pod that finishes stops counting.
	b := h.get(&corev1.Pod{}, "team", "b").(*corev1.Pod)
	b.Status.Phase = corev1.PodSucceeded
	h.admin.UpdateStatus(b, nil)
	h.settle()
	if got := h.quota(); used(got, corev1.ResourcePods) != "1" || used(got, corev1.ResourceRequestsCPU) != "500m" {
		t.Fatalf("after b finished: %v", got.Status.Used)
	}
	// A deleted pod gives its usage back.
	h.delete(h.get(&corev1.Pod{}, "team", "a"))
	if got := h.quota(); used(got, corev1.ResourcePods) != "0" || used(got, corev1.ResourceRequestsCPU) != "0" {
		t.Fatalf("after a was deleted: %v", got.Status.Used)
	}
}

// A rollout that quota stops (the third pod refused) makes no progress:
// its Progressing condition must turn False, ProgressDeadlineExceeded,
// once progressDeadlineSeconds have passed since its last update. The
// sync that finds nothing to write requeues the Deployment for that moment
// (requeueStuckDeployment, pkg/controller/deployment/progress.go, v1.37.2),
// and that sync sets the condition (syncRolloutStatus, DeploymentTimedOut).
func TestQuotaStuckRolloutTimesOut(t *testing.T) {
	h := newHarness(t)
	rq := &corev1.ResourceQuota{}
	rq.Namespace, rq.Name = "team", "q"
	rq.Spec.Hard = corev1.ResourceList{corev1.ResourcePods: resource.MustParse("2")}
	h.api.Seed(rq)
	NewResourceQuota(nil, h.client("resourcequota-controller"), h.eng, h.rec).Start()
	startDeployment(h)
	dep := rollingDeployment(3, "nginx:1.27")
	dep.Namespace = "team"
	deadline := int32(30)
	dep.Spec.ProgressDeadlineSeconds = &deadline
	h.admin.Create(dep, nil)
	h.runUntil(2 * time.Second)
	for i, p := range h.pods("team") { // the kubelets, without settling
		h.admin.UpdateStatus(readyPod(p, i), nil)
	}
	progressing := func() *appsv1.DeploymentCondition {
		got := h.get(&appsv1.Deployment{}, "team", "web").(*appsv1.Deployment)
		for i := range got.Status.Conditions {
			if got.Status.Conditions[i].Type == appsv1.DeploymentProgressing {
				return &got.Status.Conditions[i]
			}
		}
		return nil
	}
	h.runUntil(20 * time.Second)
	before := progressing()
	if before == nil || before.Status != corev1.ConditionTrue {
		t.Fatalf("Progressing condition at 20s: %+v", before)
	}
	h.runUntil(2 * time.Minute)
	if n := len(h.pods("team")); n != 2 {
		t.Fatalf("%d pods, want 2 (quota)", n)
	}
	prog := progressing()
	if prog == nil || prog.Status != corev1.ConditionFalse || prog.Reason != "ProgressDeadlineExceeded" {
		t.Fatalf("Progressing condition %+v, want False ProgressDeadlineExceeded", prog)
	}
	// The requeue is for lastUpdateTime (whole seconds, as stored) +
	// deadline + 1 s ("to avoid milliseconds skew in AddAfter"): the
	// timed-out condition is written no earlier.
	if earliest := before.LastUpdateTime.Add(31 * time.Second); prog.LastTransitionTime.Time.Before(earliest) {
		t.Fatalf("timed out at %s, before %s (last update %s + 30 s + 1 s)", prog.LastTransitionTime.Time, earliest, before.LastUpdateTime.Time)
	}
	if st := h.steps("deployment.deadline"); len(st) != 1 {
		t.Fatalf("deadline steps: %+v", st)
	}
}
