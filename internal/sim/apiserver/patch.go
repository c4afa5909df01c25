package apiserver

import (
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// PatchContentType is the body type of the kubelet's and the scheduler's
// pod status writes (statusutil.PatchPodStatus, scheduler util.PatchPodStatus).
const PatchContentType = "application/strategic-merge-patch+json"

// podStatusPatch is a strategic-merge patch of a pod's status: only the
// fields the writer changed against the copy it last saw. Conditions merge
// by their key, type; every other changed field replaces the stored one.
// It carries no resourceVersion, so it cannot conflict: two writers that
// change different fields both keep their change.
type podStatusPatch struct {
	status     *corev1.PodStatus // the writer's next status, handed over
	fields     []int             // top-level status fields to replace, by index
	conditions []corev1.PodCondition
	// Room for a typical patch (a few fields, one or two conditions), so
	// that building one is a single allocation.
	fieldsBuf [4]int
	condBuf   [2]corev1.PodCondition
	orderBuf  [6]corev1.PodConditionType // a pod has 5 conditions
	// order is the writer's order of condition types when it differs from
	// the stored one: the $setElementOrder/conditions directive
	// CreateTwoWayMergePatch adds (apimachinery strategicpatch), which the
	// server's merge follows.
	order []corev1.PodConditionType
}

// podStatusConditions is the index of PodStatus.Conditions, which merges by
// key instead of being replaced.
var podStatusConditions = func() int {
	f, _ := reflect.TypeFor[corev1.PodStatus]().FieldByName("Conditions")
	return f.Index[0]
}()

// sameField reports whether two values of one status field are
// reflect.DeepEqual, deciding the common cases (strings, numbers, nil or
// shared slices and pointers: a writer's next status is a copy sharing what
// it did not change) without boxing them.
func sameField(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.String:
		return a.String() == b.String()
	case reflect.Int, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Pointer, reflect.Map:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		if a.Pointer() == b.Pointer() {
			return true
		}
	case reflect.Slice:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		if a.Len() != b.Len() {
			return false
		}
		if a.Len() == 0 || a.Pointer() == b.Pointer() {
			return true
		}
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}

// TimeAt is virtual time at as the API shows a timestamp: wall-clock time
// from the simulation's epoch, to the second (metav1.Time's RFC 3339 form).
func TimeAt(at time.Duration) metav1.Time {
	return metav1.NewTime(Epoch.Add(at).Truncate(time.Second))
}

// StampConditions sets each condition's lastTransitionTime and
// observedGeneration in next as the components do when they write pod
// conditions (podutil.UpdatePodCondition, the kubelet's status/generate.go):
// the time is kept from base while the condition's status stays the same
// and is now when it changes or first appears; observedGeneration is the
// pod's generation (CalculatePodConditionObservedGeneration,
// PodObservedGenerationTracking, GA and locked on since 1.35).
func StampConditions(base, next *corev1.PodStatus, generation int64, now time.Duration) {
	for i := range next.Conditions {
		c := &next.Conditions[i]
		c.ObservedGeneration = generation
		if j := slices.IndexFunc(base.Conditions, func(b corev1.PodCondition) bool { return b.Type == c.Type }); j >= 0 && base.Conditions[j].Status == c.Status {
			c.LastTransitionTime = base.Conditions[j].LastTransitionTime
			continue
		}
		c.LastTransitionTime = TimeAt(now)
	}
}

// diffPodStatus builds the patch that turns base's status into next's
// (strategicpatch.CreateTwoWayMergePatch, as PatchPodStatus calls it).
func diffPodStatus(base, next *corev1.PodStatus) *podStatusPatch {
	// next is handed over, as a request body is (PatchPodStatus): the
	// patch keeps it without a copy.
	p := &podStatusPatch{status: next}
	p.fields, p.conditions = p.fieldsBuf[:0], p.condBuf[:0]
	bv, nv := reflect.ValueOf(base).Elem(), reflect.ValueOf(next).Elem()
	for i := range bv.NumField() {
		if i != podStatusConditions && !sameField(bv.Field(i), nv.Field(i)) {
			p.fields = append(p.fields, i)
		}
	}
	for _, c := range next.Conditions {
		var old *corev1.PodCondition
		for i := range base.Conditions {
			if base.Conditions[i].Type == c.Type {
				old = &base.Conditions[i]
			}
		}
		if old == nil || !sameCondition(old, &c) {
			p.conditions = append(p.conditions, c)
		}
	}
	if len(p.conditions) > 0 || !sameConditionOrder(base.Conditions, next.Conditions) {
		p.order = p.orderBuf[:0]
		for _, c := range next.Conditions {
			p.order = append(p.order, c.Type)
		}
	}
	return p
}

// sameCondition is reflect.DeepEqual(*a, *b) without boxing the two
// structs (two allocations per condition compared): a difference in a
// plain field settles it, == settles equality, and only what is left (the
// times differ in representation) goes to DeepEqual, which also follows
// time.Location pointers.
func sameCondition(a, b *corev1.PodCondition) bool {
	if a.Type != b.Type || a.Status != b.Status || a.ObservedGeneration != b.ObservedGeneration ||
		a.Reason != b.Reason || a.Message != b.Message {
		return false
	}
	return *a == *b || reflect.DeepEqual(*a, *b)
}

func sameConditionOrder(a, b []corev1.PodCondition) bool {
	return slices.EqualFunc(a, b, func(x, y corev1.PodCondition) bool { return x.Type == y.Type })
}

// reorder puts st's conditions in the patch's element order; conditions
// the order does not name keep their places ahead of the named ones.
func (p *podStatusPatch) reorder(st *corev1.PodStatus) {
	if len(p.order) == 0 {
		return
	}
	out := make([]corev1.PodCondition, 0, len(st.Conditions))
	for _, c := range st.Conditions {
		if !slices.Contains(p.order, c.Type) {
			out = append(out, c)
		}
	}
	for _, t := range p.order {
		if i := slices.IndexFunc(st.Conditions, func(c corev1.PodCondition) bool { return c.Type == t }); i >= 0 {
			out = append(out, st.Conditions[i])
		}
	}
	st.Conditions = out
}

func (p *podStatusPatch) apply(st *corev1.PodStatus) {
	defer p.reorder(st)
	sv, pv := reflect.ValueOf(st).Elem(), reflect.ValueOf(p.status).Elem()
	for _, f := range p.fields {
		sv.Field(f).Set(pv.Field(f))
	}
	for _, c := range p.conditions {
		found := false
		for i := range st.Conditions {
			if st.Conditions[i].Type == c.Type {
				st.Conditions[i], found = c, true
			}
		}
		if !found {
			st.Conditions = append(st.Conditions, c)
		}
	}
}

// conditionsFor is a copy of the stored conditions with room for the ones
// the patch adds, sized exactly: the stored version keeps it.
func (p *podStatusPatch) conditionsFor(stored []corev1.PodCondition) []corev1.PodCondition {
	added := 0
	for _, c := range p.conditions {
		if !slices.ContainsFunc(stored, func(s corev1.PodCondition) bool { return s.Type == c.Type }) {
			added++
		}
	}
	if stored == nil && added == 0 {
		return nil
	}
	out := make([]corev1.PodCondition, len(stored), len(stored)+added)
	copy(out, stored)
	return out
}

// describe lists the patched paths for the trace: status.phase,
// status.conditions[Ready], …
func (p *podStatusPatch) describe() string {
	var out []string
	t := reflect.TypeOf(p.status).Elem()
	for _, f := range p.fields {
		sf := t.Field(f)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		out = append(out, "status."+name)
	}
	for _, c := range p.conditions {
		out = append(out, fmt.Sprintf("status.conditions[%s]", c.Type))
	}
	if len(out) == 0 {
		return "{} (no change)"
	}
	return strings.Join(out, ", ")
}

// PatchPodStatus sends PATCH pods/NAME/status with the strategic-merge
// patch from base (the writer's last copy) to next. next's status is
// handed over, as any request body: the caller builds it fresh and does not
// change it afterwards.
func (c *Client) PatchPodStatus(base, next *corev1.Pod, done Done) {
	p := diffPodStatus(&base.Status, &next.Status)
	c.send(request{verb: "patch", subresource: "status", res: ResourceOf(next), ns: next.Namespace, name: next.Name, patch: p}, done)
}

// patchStatus serves PATCH …/status: the patch is applied to the stored
// object, spec and metadata stay as stored (registry PrepareForUpdate).
func (s *Server) patchStatus(c *Client, r *request, done Done, step func(trace.Phase, trace.Kind, ...any)) {
	key := Key(r.res, r.ns, r.name)
	prev := s.data[key]
	if prev == nil {
		s.answer(done, nil, notFound(*r))
		return
	}
	if _, ok := prev.obj.(*corev1.Pod); !ok || r.patch == nil {
		s.answer(done, nil, &Status{Code: http.StatusUnsupportedMediaType, Reason: "UnsupportedMediaType", Message: "the simulator patches only pod status"})
		return
	}
	if !s.rec.Full() {
		step(c.Phase, "apiserver.statuspatch", "path", r.path(), "type", PatchContentType, "fields", r.patch.describe(), "user", c.ID.User)
	}
	// The patch is applied to what is stored when the write reaches etcd,
	// as every write here: it carries no resourceVersion, so it cannot
	// conflict, and fields other writers changed meanwhile are kept.
	s.commit(c, r, key, func(cur *stored) (runtime.Object, *Status) {
		if cur == nil {
			return nil, notFound(*r)
		}
		p, ok := cur.obj.(*corev1.Pod)
		if !ok {
			return nil, notFound(*r)
		}
		// A new version sharing all but what the patch writes: apply sets
		// whole status fields and replaces conditions in their slice, so
		// only the top-level struct and the conditions are copied (stored
		// objects are immutable).
		out := new(corev1.Pod)
		*out = *p
		out.Status.Conditions = r.patch.conditionsFor(p.Status.Conditions)
		r.patch.apply(&out.Status)
		return out, nil
	}, done, step)
}
