package scheduler

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func podTerm(key string, lbl map[string]string) corev1.PodAffinityTerm {
	return corev1.PodAffinityTerm{TopologyKey: key, LabelSelector: &metav1.LabelSelector{MatchLabels: lbl}}
}

func withLabels(p *corev1.Pod, lbl map[string]string) *corev1.Pod {
	p.Labels = lbl
	return p
}

// The message a real cluster printed for replicas with required hostname
// anti-affinity on two workers that already hold one each and a tainted
// control plane (interpodaffinity/filtering.go reasons; anti-affinity is
// Unschedulable, so preemption looks for victims there).
func TestInterPodAntiAffinityMessage(t *testing.T) {
	web := map[string]string{"app": "web"}
	cp := taint(node("cp", "4", "8Gi"), "node-role.kubernetes.io/control-plane", "", corev1.TaintEffectNoSchedule)
	c := cluster(t, []*corev1.Node{cp, node("w1", "4", "8Gi"), node("w2", "4", "8Gi")},
		bound(withLabels(pod("web-1", "100m", "100Mi"), web), "w1"), bound(withLabels(pod("web-2", "100m", "100Mi"), web), "w2"))
	p := withLabels(pod("web-3", "100m", "100Mi"), web)
	p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{podTerm(corev1.LabelHostname, web)},
	}}
	r := schedule(t, c, p, nil)
	want := "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 node(s) didn't match pod anti-affinity rules. " +
		"preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, " +
		"2 No preemption victims found for incoming pod."
	if r.Message != want {
		t.Errorf("message\n got %q\nwant %q", r.Message, want)
	}
}

func TestInterPodAffinityFilter(t *testing.T) {
	z := corev1.LabelTopologyZone
	cache, db := map[string]string{"app": "cache"}, map[string]string{"app": "db"}
	guard := withLabels(pod("guard", "100m", "100Mi"), map[string]string{"app": "guard"})
	guard.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{podTerm(corev1.LabelHostname, db)},
	}}
	c := cluster(t, []*corev1.Node{node("a", "4", "8Gi", z, "z1"), node("b", "4", "8Gi", z, "z1"), node("c", "4", "8Gi", z, "z2"), node("nozone", "4", "8Gi")},
		bound(withLabels(pod("cache-0", "100m", "100Mi"), cache), "a"), bound(guard, "b"))

	verdicts := func(p *corev1.Pod) map[string]string {
		out := map[string]string{}
		for _, v := range schedule(t, c, p, nil).Filtered {
			out[v.Node] = strings.Join(v.Reasons, ",")
		}
		return out
	}
	// Required zone affinity to the cache: only z1 nodes; b also holds a
	// pod whose anti-affinity rejects app=db.
	p := withLabels(pod("db-0", "100m", "100Mi"), db)
	p.Spec.Affinity = &corev1.Affinity{PodAffinity: &corev1.PodAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{podTerm(z, cache)},
	}}
	got := verdicts(p)
	want := map[string]string{"a": "", "b": ReasonExistingPodAntiAffinity, "c": ReasonPodAffinity, "nozone": ReasonPodAffinity}
	for n, w := range want {
		if got[n] != w {
			t.Errorf("%s: %q, want %q", n, got[n], w)
		}
	}
	// The first pod of a group that requires affinity to itself may go
	// anywhere that has the topology key.
	q := withLabels(pod("q-0", "100m", "100Mi"), map[string]string{"app": "q"})
	q.Spec.Affinity = &corev1.Affinity{PodAffinity: &corev1.PodAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{podTerm(z, map[string]string{"app": "q"})},
	}}
	got = verdicts(q)
	want = map[string]string{"a": "", "b": "", "c": "", "nozone": ReasonPodAffinity}
	for n, w := range want {
		if got[n] != w {
			t.Errorf("first of group %s: %q, want %q", n, got[n], w)
		}
	}
	// Removing the guard lifts the existing anti-affinity.
	c.RemovePod(guard)
	if got = verdicts(p); got["b"] != "" {
		t.Errorf("after removing the guard: b %q", got["b"])
	}
}

// Preferred anti-affinity, weight 100, hostname: the node holding a match
// scores −100, the others 0; min–max normalised: 0, 100, 100; weight 2.
// An existing pod's preferred affinity to the incoming pod (weight 10, zone)
// counts too: z1 nodes +10 → a −90, b +10, c 0 → 0, 100, 90.
func TestInterPodAffinityScore(t *testing.T) {
	z := corev1.LabelTopologyZone
	web := map[string]string{"app": "web"}
	c := cluster(t, []*corev1.Node{node("a", "4", "8Gi", z, "z1"), node("b", "4", "8Gi", z, "z1"), node("c", "4", "8Gi", z, "z2")},
		bound(withLabels(pod("web-0", "100m", "100Mi"), web), "a"))
	p := withLabels(pod("web-1", "100m", "100Mi"), web)
	p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
		PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{Weight: 100, PodAffinityTerm: podTerm(corev1.LabelHostname, web)}},
	}}
	check := func(want map[string][2]int64) {
		t.Helper()
		got := scoresOf(schedule(t, c, p, nil))
		for n, w := range want {
			if ps := got[n][InterPodAffinityName]; ps.Raw != w[0] || ps.Normalized != w[1] || ps.Weight != 2 {
				t.Errorf("%s: %+v, want raw %d normalized %d", n, ps, w[0], w[1])
			}
		}
	}
	check(map[string][2]int64{"a": {-100, 0}, "b": {0, 100}, "c": {0, 100}})

	fan := withLabels(pod("fan", "100m", "100Mi"), map[string]string{"app": "fan"})
	fan.Spec.Affinity = &corev1.Affinity{PodAffinity: &corev1.PodAffinity{
		PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{Weight: 10, PodAffinityTerm: podTerm(z, web)}},
	}}
	if err := c.AddPod(bound(fan, "b")); err != nil {
		t.Fatal(err)
	}
	check(map[string][2]int64{"a": {-90, 0}, "b": {10, 100}, "c": {0, 90}})
}
