package controller

import (
	"fmt"
	"regexp"
	"testing"

	_ "github.com/k8sexplain/k8sexplain/internal/golden"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/intstr"
)

func TestPodTemplateHashShape(t *testing.T) {
	tmpl := &corev1.PodTemplateSpec{}
	tmpl.Labels = map[string]string{"app": "web"}
	tmpl.Spec.Containers = []corev1.Container{{Name: "web", Image: "nginx:1.27"}}
	h := PodTemplateHash(tmpl, nil)
	if !regexp.MustCompile(`^[bcdfghjklmnpqrstvwxz2456789]{1,10}$`).MatchString(h) {
		t.Fatalf("hash %q has the wrong shape", h)
	}
	if PodTemplateHash(tmpl, nil) != h {
		t.Fatal("hash not stable")
	}
	one := int32(1)
	if PodTemplateHash(tmpl, &one) == h {
		t.Fatal("collisionCount must change the hash")
	}
	tmpl.Spec.Containers[0].Image = "nginx:1.28"
	if PodTemplateHash(tmpl, nil) == h {
		t.Fatal("a new template must give a new hash")
	}
	// SafeEncodeString maps each digit byte b to alphanums[b%27]: '0' (48) → alphanums[21] = '4', which is why real hashes look like 5d59d67564.
	if safeEncode("0123456789") != "456789bcdf" {
		t.Fatalf("safeEncode: %q", safeEncode("0123456789"))
	}
}

func TestResolveFenceposts(t *testing.T) {
	pct := func(s string) *intstr.IntOrString { v := intstr.FromString(s); return &v }
	num := func(i int32) *intstr.IntOrString { v := intstr.FromInt32(i); return &v }
	for _, tc := range []struct {
		surge, unavail *intstr.IntOrString
		replicas       int32
		s, u           int32
	}{
		{pct("25%"), pct("25%"), 3, 1, 0},  // surge rounds up, unavailable down
		{pct("25%"), pct("25%"), 10, 3, 2}, // 2.5 → 3 and 2
		{num(3), num(2), 10, 3, 2},         // ints as they are
		{num(0), num(0), 5, 0, 1},          // both zero: unavailable 1
		{pct("0%"), pct("100%"), 4, 0, 4},  // 100% unavailable
		{num(0), num(7), 3, 0, 3},          // unavailable capped at replicas
	} {
		s, u, err := ResolveFenceposts(tc.surge, tc.unavail, tc.replicas)
		if err != nil || s != tc.s || u != tc.u {
			t.Errorf("%v/%v of %d: got %d/%d (%v), want %d/%d", tc.surge, tc.unavail, tc.replicas, s, u, err, tc.s, tc.u)
		}
	}
}

func TestPlanRollout(t *testing.T) {
	sizes := func(rows []RolloutRow) string {
		s := ""
		for i, r := range rows {
			if i > 0 {
				s += " → "
			}
			s += fmt.Sprintf("%d/%d", r.Old, r.New)
		}
		return s
	}
	// 10 replicas, maxSurge 3, maxUnavailable 2 (the table).
	if got := sizes(PlanRollout(10, 3, 2)); got != "8/3 → 8/5 → 3/5 → 3/10 → 0/10" {
		t.Errorf("10/3/2: %s", got)
	}
	// 3 replicas with the defaults: 25% surge rounds up to 1, 25%
	// unavailable rounds down to 0. Never fewer than 3 available, never
	// more than 4 pods.
	rows := PlanRollout(3, 1, 0)
	if got := sizes(rows); got != "3/1 → 2/1 → 2/2 → 1/2 → 1/3 → 0/3" {
		t.Errorf("3/1/0: %s", got)
	}
	for _, r := range rows {
		if r.Old+r.New > 4 || r.Available < 3 {
			t.Errorf("3 replicas: %+v breaks the budget", r)
		}
	}
}

// The textbook table clamps like the controller: with maxSurge 0 the new
// ReplicaSet starts empty (never -1), and no row has more pods than
// replicas + maxSurge or fewer available than replicas − maxUnavailable.
func TestPlanRolloutClamps(t *testing.T) {
	for _, c := range [][3]int32{{3, 0, 1}, {10, 0, 2}, {1, 0, 1}, {4, 2, 0}, {10, 3, 2}, {7, 1, 0}, {30, 0, 30}} {
		replicas, surge, unavail := c[0], c[1], c[2]
		rows := PlanRollout(replicas, surge, unavail)
		for _, r := range rows {
			if r.New < 0 || r.Old < 0 || r.Old+r.New > replicas+surge || r.Available < replicas-unavail {
				t.Errorf("%d/%d/%d: row %+v breaks the budget", replicas, surge, unavail, r)
			}
		}
		if last := rows[len(rows)-1]; last.Old != 0 || last.New != replicas {
			t.Errorf("%d/%d/%d: ends at %+v", replicas, surge, unavail, last)
		}
	}
}

// The real controller hashes the template an informer decoded from
// protobuf: an empty list is nil there and a quantity is re-parsed from its
// canonical string. The simulator's objects come from JSON, so both forms
// must hash alike.
func TestPodTemplateHashSeesWhatTheInformerSees(t *testing.T) {
	mk := func(cpu string, args []string) *corev1.PodTemplateSpec {
		tmpl := &corev1.PodTemplateSpec{}
		tmpl.Labels = map[string]string{"app": "web"}
		tmpl.Spec.Containers = []corev1.Container{{Name: "web", Image: "nginx:1.27", Args: args,
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu)}}}}
		return tmpl
	}
	if a, b := PodTemplateHash(mk("100m", nil), nil), PodTemplateHash(mk("0.1", []string{}), nil); a != b {
		t.Errorf("100m/nil args hashes %s, 0.1/[] args %s: want the same", a, b)
	}
	if a, b := PodTemplateHash(mk("100m", nil), nil), PodTemplateHash(mk("200m", nil), nil); a == b {
		t.Errorf("different requests hash alike (%s)", a)
	}
}
