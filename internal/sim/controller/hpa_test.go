package controller

import (
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// hpaPod is a Running pod requesting 250m that started at start and became
// Ready (or not) at readyAt.
func hpaPod(name string, start, readyAt time.Duration, ready bool) *corev1.Pod {
	p := &corev1.Pod{}
	p.Name = name
	p.Spec.Containers = []corev1.Container{{Name: "web", Resources: corev1.ResourceRequirements{
		Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m")}}}}
	p.Status.Phase = corev1.PodRunning
	st := metav1.NewTime(apiserver.Epoch.Add(start))
	p.Status.StartTime = &st
	status := corev1.ConditionTrue
	if !ready {
		status = corev1.ConditionFalse
	}
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: status, LastTransitionTime: metav1.NewTime(apiserver.Epoch.Add(readyAt))}}
	return p
}

func metric(v int64, at time.Duration) PodMetric {
	return PodMetric{Value: v, Timestamp: at, Window: 15 * time.Second}
}

// The formula on the example's numbers: 3 pods at 300m of 250m (120 %)
// against a 50 % target want ceil(3 × 2.4) = 8; 3 at 137m (54 %) are
// within the 0.1 tolerance; just outside it (56 % → 1.12) they want 4;
// at 20 % ceil(3 × 0.4) = 2.
func TestResourceReplicasFormula(t *testing.T) {
	now := 10 * time.Minute
	pods := []*corev1.Pod{hpaPod("a", 0, time.Second, true), hpaPod("b", 0, time.Second, true), hpaPod("c", 0, time.Second, true)}
	for _, tc := range []struct {
		use        int64
		want       int32
		util       int32
		within     bool
		ratioAbove float64
	}{
		{300, 8, 120, false, 2.39},
		{137, 3, 54, true, 1.07},
		{140, 4, 56, false, 1.11},
		{50, 2, 20, false, 0.39},
	} {
		m := map[string]PodMetric{"a": metric(tc.use, now), "b": metric(tc.use, now), "c": metric(tc.use, now)}
		p, err := ResourceReplicas(3, 50, pods, m, now)
		if err != nil {
			t.Fatal(err)
		}
		if p.Replicas != tc.want || p.Utilization != tc.util || p.WithinTolerance != tc.within || p.Ratio < tc.ratioAbove {
			t.Errorf("usage %dm: got %d replicas, %d%%, ratio %.2f, within %v; want %d, %d%%, within %v", tc.use, p.Replicas, p.Utilization, p.Ratio, p.WithinTolerance, tc.want, tc.util, tc.within)
		}
	}
}

// A scale-up does not count pods that just started: a new pod without a
// metric counts as 0 %, and if that turns the ratio below 1 the replicas
// stay; on a scale-down a missing pod counts as 100 % of its request.
func TestResourceReplicasUnreadyAndMissing(t *testing.T) {
	now := 10 * time.Minute
	old := []*corev1.Pod{hpaPod("a", 0, time.Second, true), hpaPod("b", 0, time.Second, true)}
	fresh := hpaPod("new", now-10*time.Second, now-5*time.Second, true)
	pods := append(old, fresh)
	// Scale-up: 2 Ready pods at 150 %, the new one has no metric yet.
	m := map[string]PodMetric{"a": metric(375, now), "b": metric(375, now)}
	p, err := ResourceReplicas(3, 50, pods, m, now)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Rebalanced || p.Missing != 1 || p.Counted != 3 || p.Replicas != 6 {
		t.Errorf("scale-up with a missing pod: %+v; want rebalanced over 3 pods, ratio 2.0 → 6", p)
	}
	// Its metric's window began before it was Ready: unready, not counted.
	m["new"] = metric(10, now)
	p, _ = ResourceReplicas(3, 50, pods, m, now)
	if p.Unready != 1 || p.Ready != 2 || p.Replicas != 6 {
		t.Errorf("scale-up with an unready pod: %+v; want 2 ready, 1 unready at 0 %% → 6", p)
	}
	// Scale-down: 2 pods at 10 %, the missing one counts as 100 %:
	// (25+25+250)/750 = 40 % → ratio 0.8 → ceil(3 × 0.8) = 3.
	delete(m, "new")
	m["a"], m["b"] = metric(25, now), metric(25, now)
	p, _ = ResourceReplicas(3, 50, pods, m, now)
	if p.Replicas != 3 || !p.Rebalanced || p.NewRatio != 0.8 {
		t.Errorf("scale-down with a missing pod: %+v; want new ratio 0.8 and 3 replicas", p)
	}
	// No metrics at all: upstream's error.
	if _, err := ResourceReplicas(3, 50, pods, nil, now); err == nil || err.Error() != "did not receive metrics for targeted pods (pods might be unready)" {
		t.Errorf("no metrics: %v", err)
	}
}

func defaultBehavior(t *testing.T) *autoscalingv2.HorizontalPodAutoscalerBehavior {
	h := &autoscalingv2.HorizontalPodAutoscaler{}
	h.Name = "web"
	manifest.Default(h)
	if h.Spec.Behavior == nil {
		t.Fatal("no behavior defaulted")
	}
	return h.Spec.Behavior
}

// The v2 defaults on a load curve: scale-up is capped at max(+4, +100 %)
// per 15 s; scale-down waits out the 300 s window of recommendations,
// then goes all the way (100 % per 15 s) but not below min.
func TestBehaviorOnACurve(t *testing.T) {
	b := defaultBehavior(t)
	m := &hpaMemory{}
	sync := HPASyncPeriod
	// t=0: 3 replicas want 20 → +4 or ×2: 7 (ScaleUpLimit).
	n := m.normalize(b, 1, 30, 3, 20, 0)
	if n.Desired != 7 || n.LimitReason != "ScaleUpLimit" {
		t.Fatalf("3 → 20: got %d (%s), want 7 ScaleUpLimit", n.Desired, n.LimitReason)
	}
	m.store(b, 3, 7, 0)
	// 15 s later the period has passed: 7 → ×2 = 14.
	n = m.normalize(b, 1, 30, 7, 20, sync)
	if n.Desired != 14 {
		t.Fatalf("7 → 20 after 15 s: got %d, want 14", n.Desired)
	}
	m.store(b, 7, 14, sync)
	// Within the same period again: no more.
	n = m.normalize(b, 1, 30, 14, 20, sync+time.Second)
	if n.Desired != 14 || n.LimitReason != "ScaleUpLimit" {
		t.Fatalf("14 → 20 in the same period: got %d (%s), want 14", n.Desired, n.LimitReason)
	}
	// The load drops: proposals of 2 are held at the highest
	// recommendation of the last 5 minutes (20) — capped at current 14.
	start := 2 * sync
	for at := start; at < start+HPADownscaleStabilization; at += sync {
		n = m.normalize(b, 3, 30, 14, 2, at)
		if n.Desired != 14 || n.StableReason != "ScaleDownStabilized" {
			t.Fatalf("at %v: got %d (%s), want 14 held by the window", at, n.Desired, n.StableReason)
		}
	}
	// Past the window every recommendation in it is 2: down to min 3.
	n = m.normalize(b, 3, 30, 14, 2, start+HPADownscaleStabilization+sync)
	if n.Desired != 3 || n.LimitReason != "TooFewReplicas" {
		t.Fatalf("after the window: got %d (%s), want 3 TooFewReplicas", n.Desired, n.LimitReason)
	}
}
