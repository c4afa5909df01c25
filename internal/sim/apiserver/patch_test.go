package apiserver

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
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

// A PATCH that names the resourceVersion its writer read applies when that
// is still the stored one and is refused with 409 Conflict once another
// write has moved the object on; a plain PATCH of the same stale writer
// still applies.
func TestPatchRVConflicts(t *testing.T) {
	eng := engine.New(1)
	rec := trace.NewRecorder(eng.Now, 0)
	s, err := New(eng, rec, "10.96.0.0/12")
	if err != nil {
		t.Fatal(err)
	}
	n := &corev1.Node{}
	n.Name = "node-a"
	s.Seed(n)
	res := ResourceOf(n)
	read := Meta(s.Get(res, "", "node-a")).GetResourceVersion()
	c := s.NewClient("node-controller", Identity{User: "system:serviceaccount:kube-system:node-controller"}, trace.PhaseController)
	taint := func(key string) func(runtime.Object) {
		return func(o runtime.Object) {
			o.(*corev1.Node).Spec.Taints = append(o.(*corev1.Node).Spec.Taints, corev1.Taint{Key: key, Effect: corev1.TaintEffectNoSchedule})
		}
	}
	var first, second *Status
	c.PatchRV(res, "", "node-a", read, `{"spec":{"taints":[…a]}}`, taint("a"), func(_ runtime.Object, err *Status) { first = err })
	eng.Run(time.Minute)
	// read is stale now: the first patch wrote a new version.
	c.PatchRV(res, "", "node-a", read, `{"spec":{"taints":[…b]}}`, taint("b"), func(_ runtime.Object, err *Status) { second = err })
	c.Patch(res, "", "node-a", `{"spec":{"taints":[…c]}}`, taint("c"), nil)
	eng.Run(2 * time.Minute)
	if first != nil {
		t.Fatalf("fresh PatchRV refused: %v", first)
	}
	if second == nil || second.Code != 409 || s.Conflicts != 1 {
		t.Fatalf("stale PatchRV: %+v, %d conflicts; want 409", second, s.Conflicts)
	}
	var keys []string
	for _, tn := range s.Get(res, "", "node-a").(*corev1.Node).Spec.Taints {
		keys = append(keys, tn.Key)
	}
	if strings.Join(keys, ",") != "a,c" {
		t.Fatalf("stored taints %v, want a,c", keys)
	}
}

// diffPodStatus decides field by field exactly as reflect.DeepEqual would,
// also where its fast paths apply (nil against empty, shared backing
// arrays, equal pointers).
func TestDiffPodStatusMatchesDeepEqual(t *testing.T) {
	now := metav1.Now()
	ips := []corev1.PodIP{{IP: "10.0.0.1"}}
	statuses := []corev1.PodStatus{
		{},
		{Phase: corev1.PodPending},
		{Phase: corev1.PodRunning, PodIP: "10.0.0.1", PodIPs: ips},
		{Phase: corev1.PodRunning, PodIP: "10.0.0.1", PodIPs: []corev1.PodIP{{IP: "10.0.0.1"}}},
		{Phase: corev1.PodRunning, PodIPs: ips[:0]},
		{Phase: corev1.PodRunning, PodIPs: []corev1.PodIP{}},
		{StartTime: &now},
		{StartTime: &metav1.Time{Time: now.Time}},
		{ContainerStatuses: []corev1.ContainerStatus{{Name: "web", Ready: true}}},
		{ContainerStatuses: []corev1.ContainerStatus{{Name: "web"}}},
		{QOSClass: corev1.PodQOSBurstable, ObservedGeneration: 2},
	}
	for i := range statuses {
		for j := range statuses {
			base, next := statuses[i], statuses[j]
			p := diffPodStatus(&base, &next)
			bv, nv := reflect.ValueOf(base), reflect.ValueOf(next)
			var want uint64
			for f := range bv.NumField() {
				if f != podStatusConditions && !reflect.DeepEqual(bv.Field(f).Interface(), nv.Field(f).Interface()) {
					want |= 1 << f
				}
			}
			if p.fields != want {
				t.Errorf("status %d → %d: patched fields %b, want %b", i, j, p.fields, want)
			}
		}
	}
}

// A condition's lastTransitionTime moves only when its status changes.
func TestStampConditions(t *testing.T) {
	t0 := TimeAt(time.Second)
	base := corev1.PodStatus{Conditions: []corev1.PodCondition{
		{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: t0},
		{Type: corev1.PodReady, Status: corev1.ConditionFalse, LastTransitionTime: t0},
	}}
	next := corev1.PodStatus{Conditions: []corev1.PodCondition{
		{Type: corev1.PodScheduled, Status: corev1.ConditionTrue},
		{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: t0},
		{Type: corev1.ContainersReady, Status: corev1.ConditionTrue},
	}}
	StampConditions(&base, &next, 2, 5*time.Second)
	for _, c := range next.Conditions {
		if c.ObservedGeneration != 2 {
			t.Errorf("%s: observedGeneration %d, want 2", c.Type, c.ObservedGeneration)
		}
	}
	t5 := TimeAt(5 * time.Second)
	for i, want := range []metav1.Time{t0, t5, t5} {
		if got := next.Conditions[i].LastTransitionTime; !got.Equal(&want) {
			t.Errorf("%s: lastTransitionTime %s, want %s", next.Conditions[i].Type, got, want)
		}
	}
}
