package scheduler

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// prio gives a bound pod a priority and a start time (seconds).
func prio(p *corev1.Pod, priority int32, started int, lbls ...string) *corev1.Pod {
	p.Spec.Priority = &priority
	t := metav1.NewTime(time.Date(2026, 1, 1, 9, 0, started, 0, time.UTC))
	p.Status.StartTime = &t
	if len(lbls) == 2 {
		p.Labels = map[string]string{lbls[0]: lbls[1]}
	}
	return p
}

func victimsOf(c *Candidate) string {
	var out []string
	for _, p := range c.Victims {
		out = append(out, p.Name)
	}
	return c.Node + ":" + strings.Join(out, ",")
}

// Each of upstream's criteria decides a case where the ones before it tie.
// (The fewest victims never decides alone: with every priority shifted by
// MaxInt32+1, equal sums mean equal counts.)
func TestPreemptionPicksByCriteria(t *testing.T) {
	for _, tc := range []struct {
		name    string
		cpu     string
		pods    []*corev1.Pod
		budgets []Budget
		want    string
	}{
		{"lowest highest-priority victim", "2", []*corev1.Pod{
			prio(bound(pod("a1", "3", ""), "a"), 500, 1), prio(bound(pod("b1", "3", ""), "b"), 100, 1)}, nil, "b:b1"},
		{"fewest PDB violations before priority", "2", []*corev1.Pod{
			prio(bound(pod("a1", "3", ""), "a"), 500, 1), prio(bound(pod("b1", "3", ""), "b"), 100, 1, "app", "batch")},
			[]Budget{{Namespace: "default", Selector: labels.SelectorFromSet(labels.Set{"app": "batch"}), Allowed: 0}}, "a:a1"},
		{"smallest sum of priorities", "3", []*corev1.Pod{
			prio(bound(pod("a1", "2", ""), "a"), 100, 1), prio(bound(pod("a2", "2", ""), "a"), 100, 1),
			prio(bound(pod("b1", "2", ""), "b"), 100, 1), prio(bound(pod("b2", "2", ""), "b"), 50, 1)}, nil, "b:b1,b2"},
		{"latest start time", "2", []*corev1.Pod{
			prio(bound(pod("a1", "3", ""), "a"), 100, 1), prio(bound(pod("b1", "3", ""), "b"), 100, 9)}, nil, "b:b1"},
		{"reprieve what still fits", "2", []*corev1.Pod{
			prio(bound(pod("a1", "1", ""), "a"), 100, 1), prio(bound(pod("a2", "2", ""), "a"), 50, 1), prio(bound(pod("b1", "4", ""), "b"), 900, 1)}, nil, "a:a2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			preemptor := prio(pod("p", tc.cpu, ""), 1000, 0)
			c := cluster(t, []*corev1.Node{node("a", "4", "8Gi"), node("b", "4", "8Gi")}, tc.pods...)
			s := New()
			res := s.Schedule(preemptor, c, rng(1), nil)
			if res.Node != "" {
				t.Fatalf("the preemptor fits on %s", res.Node)
			}
			before := len(c.Node("a").Pods) + len(c.Node("b").Pods)
			best, _ := s.Preempt(preemptor, c, res.Clone().Filtered, tc.budgets)
			if best == nil || victimsOf(best) != tc.want {
				got := "none"
				if best != nil {
					got = victimsOf(best)
				}
				t.Fatalf("picked %s, want %s", got, tc.want)
			}
			if after := len(c.Node("a").Pods) + len(c.Node("b").Pods); after != before {
				t.Errorf("the cache lost pods: %d → %d", before, after)
			}
		})
	}
}

// Pods of equal or higher priority are never victims.
func TestPreemptionNeedsLowerPriority(t *testing.T) {
	c := cluster(t, []*corev1.Node{node("a", "4", "8Gi")}, prio(bound(pod("a1", "3", ""), "a"), 1000, 1))
	p := prio(pod("p", "2", ""), 1000, 0)
	s := New()
	res := s.Schedule(p, c, rng(1), nil)
	if best, _ := s.Preempt(p, c, res.Clone().Filtered, nil); best != nil {
		t.Fatalf("preempted an equal-priority pod: %v", victimsOf(best))
	}
}
