package apiserver

import (
	"reflect"
	"slices"
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
	p1.apply(&stored.Status, nil)
	p2.apply(&stored.Status, nil)
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

// refApplyConditions is the merge as first written: a copy of the stored
// conditions, each patched one replacing every stored one of its type or
// appended, then the named ones moved behind the others in the writer's
// order.
func refApplyConditions(p *podStatusPatch, stored []corev1.PodCondition) []corev1.PodCondition {
	next := p.status.Conditions
	if len(p.conds) == 0 && !p.order {
		return stored
	}
	var st []corev1.PodCondition
	if stored != nil {
		st = append([]corev1.PodCondition{}, stored...)
	}
	for _, j := range p.conds {
		found := false
		for i := range st {
			if st[i].Type == next[j].Type {
				st[i], found = next[j], true
			}
		}
		if !found {
			st = append(st, next[j])
		}
	}
	if !p.order || len(next) == 0 {
		return st
	}
	out := []corev1.PodCondition{}
	for _, c := range st {
		if !slices.ContainsFunc(next, func(n corev1.PodCondition) bool { return n.Type == c.Type }) {
			out = append(out, c)
		}
	}
	for _, n := range next {
		if i := slices.IndexFunc(st, func(c corev1.PodCondition) bool { return c.Type == n.Type }); i >= 0 {
			out = append(out, st[i])
		}
	}
	return out
}

// The stored conditions after a patch are the merge's, nil and empty
// told apart, whether the table shares them or not; a kept slice has no
// room to append into, and the writer's slice is kept only when equal.
func TestApplyConditionsMatchesMerge(t *testing.T) {
	c := func(typ corev1.PodConditionType, st corev1.ConditionStatus, sec int) corev1.PodCondition {
		return corev1.PodCondition{Type: typ, Status: st, LastTransitionTime: TimeAt(time.Duration(sec) * time.Second)}
	}
	sched := c(corev1.PodScheduled, corev1.ConditionTrue, 1)
	ready := c(corev1.PodReady, corev1.ConditionTrue, 2)
	notReady := c(corev1.PodReady, corev1.ConditionFalse, 3)
	init := c(corev1.PodInitialized, corev1.ConditionTrue, 2)
	disrupt := c(corev1.DisruptionTarget, corev1.ConditionTrue, 4)
	lists := [][]corev1.PodCondition{nil, {}, {sched}, {sched, ready}, {ready, sched}, {init, notReady, sched},
		{disrupt, init, ready, sched}, {sched, sched}, {notReady, disrupt}}
	shared := &statusIntern{}
	for bi, base := range lists {
		for ni, next := range lists {
			for si, stored := range lists {
				for _, tab := range []*statusIntern{nil, shared} {
					nextSt := corev1.PodStatus{Conditions: slices.Clone(next)}
					p := diffPodStatus(&corev1.PodStatus{Conditions: base}, &nextSt)
					want := refApplyConditions(p, slices.Clone(stored))
					got := p.applyConditions(slices.Clone(stored), tab)
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("base %d next %d stored %d: got %v, want %v", bi, ni, si, got, want)
					}
					if len(got) > 0 && cap(got) != len(got) && (len(p.conds) > 0 || p.order) {
						t.Fatalf("base %d next %d stored %d: kept slice has room: len %d cap %d", bi, ni, si, len(got), cap(got))
					}
				}
			}
		}
	}
}

// Equal statuses share their parts; a different one, or a container status
// with a field the key leaves out, does not.
func TestStatusInternShares(t *testing.T) {
	var tab statusIntern
	at := TimeAt(3 * time.Second)
	running := func(name string, restarts int32) *corev1.PodStatus {
		start := TimeAt(time.Second)
		return &corev1.PodStatus{StartTime: &start, ContainerStatuses: []corev1.ContainerStatus{{Name: name, Image: "nginx", Ready: true,
			RestartCount: restarts, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: at}}}}}
	}
	a, b, other := running("web", 0), running("web", 0), running("web", 1)
	for _, st := range []*corev1.PodStatus{a, b, other} {
		tab.share(st)
	}
	if &a.ContainerStatuses[0] != &b.ContainerStatuses[0] || a.StartTime != b.StartTime {
		t.Fatal("equal statuses not shared")
	}
	if &a.ContainerStatuses[0] == &other.ContainerStatuses[0] || other.ContainerStatuses[0].RestartCount != 1 {
		t.Fatal("different restart counts shared")
	}
	withEnv := running("web", 0)
	withEnv.ContainerStatuses[0].ContainerID = "containerd://1"
	withEnv.ContainerStatuses[0].User = &corev1.ContainerUser{}
	tab.share(withEnv)
	if &withEnv.ContainerStatuses[0] == &a.ContainerStatuses[0] || withEnv.ContainerStatuses[0].User == nil {
		t.Fatal("a status with a field the key leaves out was shared")
	}
}

// A patch names the replaced status fields as bits of a uint64: PodStatus
// must keep to 64 fields (22 in k8s.io/api v0.37).
func TestPodStatusFieldsFitTheMask(t *testing.T) {
	if n := reflect.TypeFor[corev1.PodStatus]().NumField(); n > 64 {
		t.Fatalf("PodStatus has %d fields; podStatusPatch.fields holds 64", n)
	}
}
