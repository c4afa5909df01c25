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
//
// It names what changed by position (bits of top-level fields, indices of
// the writer's conditions) instead of copying it: the writer's status is
// handed over and read when the patch is applied.
type podStatusPatch struct {
	status *corev1.PodStatus // the writer's next status, handed over
	fields uint64            // top-level status fields to replace: bit i is field i
	// conds are the indices in status.Conditions of the conditions to set;
	// condBuf is room for a typical patch's, so that a patch is one
	// allocation.
	conds   []int16
	condBuf [6]int16
	// order says the writer's order of condition types (status.Conditions')
	// is to be followed: the $setElementOrder/conditions directive
	// CreateTwoWayMergePatch adds (apimachinery strategicpatch) when the
	// conditions change or their order differs, which the server's merge
	// follows.
	order bool
}

// podStatusConditions is the index of PodStatus.Conditions, which merges by
// key instead of being replaced.
var podStatusConditions = func() int {
	f, _ := reflect.TypeFor[corev1.PodStatus]().FieldByName("Conditions")
	return f.Index[0]
}()

// sameField reports whether two addressable values of one status field are
// reflect.DeepEqual, deciding the common cases (strings, numbers, nil or
// shared slices and pointers: a writer's next status is a copy sharing what
// it did not change) without DeepEqual, and boxing only the fields'
// addresses for the rest (DeepEqual of two pointers is that of what they
// point to; boxing a pointer allocates nothing).
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
	return reflect.DeepEqual(a.Addr().Interface(), b.Addr().Interface())
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
	p.conds = p.condBuf[:0]
	bv, nv := reflect.ValueOf(base).Elem(), reflect.ValueOf(next).Elem()
	for i := range bv.NumField() {
		if i != podStatusConditions && !sameField(bv.Field(i), nv.Field(i)) {
			p.fields |= 1 << i
		}
	}
	for j := range next.Conditions {
		c := &next.Conditions[j]
		var old *corev1.PodCondition
		for i := range base.Conditions {
			if base.Conditions[i].Type == c.Type {
				old = &base.Conditions[i]
			}
		}
		if old == nil || !sameCondition(old, c) {
			p.conds = append(p.conds, int16(j))
		}
	}
	p.order = len(p.conds) > 0 || !sameConditionOrder(base.Conditions, next.Conditions)
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

// apply writes the patch into st: the replaced fields, then the
// conditions (applyConditions).
func (p *podStatusPatch) apply(st *corev1.PodStatus, shared *statusIntern) {
	sv, pv := reflect.ValueOf(st).Elem(), reflect.ValueOf(p.status).Elem()
	for f := range sv.NumField() {
		if p.fields&(1<<f) != 0 {
			sv.Field(f).Set(pv.Field(f))
		}
	}
	st.Conditions = p.applyConditions(st.Conditions, shared)
}

// applyConditions is the conditions after the patch, in a new slice when
// they change (stored ones are never written in place): stored with the
// patch's conditions merged in by type — each replaces every stored one of
// its type, or is appended — and then, when the patch gives the order,
// those the order does not name in their places ahead of the named ones in
// its order. They are worked out in a buffer on the stack; the slice kept
// is the writer's own when equal, else shared's equal one, or a copy
// (statusIntern.keepConditions).
func (p *podStatusPatch) applyConditions(stored []corev1.PodCondition, shared *statusIntern) []corev1.PodCondition {
	if len(p.conds) == 0 && !p.order {
		return stored
	}
	next := p.status.Conditions
	var buf [8]corev1.PodCondition // a pod has 5 or 6 conditions
	out := append(buf[:0], stored...)
	for _, j := range p.conds {
		c := &next[j]
		found := false
		for i := range out {
			if out[i].Type == c.Type {
				out[i], found = *c, true
			}
		}
		if !found {
			out = append(out, *c)
		}
	}
	if len(out) == 0 {
		if stored == nil && !(p.order && len(next) > 0) {
			return nil
		}
		return []corev1.PodCondition{} // what reordering or copying nothing makes
	}
	if p.order {
		out = reorderConditions(out, next)
	}
	return shared.keepConditions(out, next)
}

// reorderConditions puts out's conditions in order's order of types, in
// place: those order does not name keep their places ahead of the named
// ones, and each named type takes its first condition in out.
func reorderConditions(out, order []corev1.PodCondition) []corev1.PodCondition {
	named := func(t corev1.PodConditionType) bool {
		return slices.ContainsFunc(order, func(c corev1.PodCondition) bool { return c.Type == t })
	}
	var buf [8]corev1.PodCondition // a pod has 5 or 6 conditions
	tmp := buf[:0]
	for _, c := range out {
		if !named(c.Type) {
			tmp = append(tmp, c)
		}
	}
	for _, o := range order {
		if i := slices.IndexFunc(out, func(c corev1.PodCondition) bool { return c.Type == o.Type }); i >= 0 {
			tmp = append(tmp, out[i])
		}
	}
	if len(tmp) > cap(out) { // order names a type twice
		return append([]corev1.PodCondition(nil), tmp...)
	}
	return append(out[:0], tmp...)
}

// describe lists the patched paths for the trace: status.phase,
// status.conditions[Ready], …
func (p *podStatusPatch) describe() string {
	var out []string
	t := reflect.TypeOf(p.status).Elem()
	for f := range t.NumField() {
		if p.fields&(1<<f) == 0 {
			continue
		}
		name, _, _ := strings.Cut(t.Field(f).Tag.Get("json"), ",")
		out = append(out, "status."+name)
	}
	for _, j := range p.conds {
		out = append(out, fmt.Sprintf("status.conditions[%s]", p.status.Conditions[j].Type))
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

// PatchPodStatusOf is PatchPodStatus to base's pod with next as its next status
// (handed over the same way), for a writer that builds only the status.
// next's conditions may be the writer's scratch buffer, which it reuses
// once this returns: the request takes a copy of them (as encoding a body
// would), the equal one stored statuses share when there is one.
func (c *Client) PatchPodStatusOf(base *corev1.Pod, next *corev1.PodStatus, done Done) {
	if len(next.Conditions) == 0 {
		next.Conditions = next.Conditions[:0:0]
	} else {
		next.Conditions = c.s.statuses.keepConditions(next.Conditions, nil)
	}
	p := diffPodStatus(&base.Status, next)
	c.send(request{verb: "patch", subresource: "status", res: ResourceOf(base), ns: base.Namespace, name: base.Name, patch: p}, done)
}

// patchStatus serves PATCH …/status: the patch is applied to the stored
// object, spec and metadata stay as stored (registry PrepareForUpdate).
func (s *Server) patchStatus(c *Client, r *request, done Done, step func(trace.Phase, trace.Kind, ...any)) {
	prev, key := s.lookup(r.res, r.ns, r.name) // the stored entry's key: none built per PATCH
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
		// whole status fields and builds a new conditions slice, so only
		// the top-level struct is copied (stored objects are immutable).
		out := new(corev1.Pod)
		*out = *p
		r.patch.apply(&out.Status, &s.statuses)
		s.statuses.share(&out.Status)
		return out, nil
	}, done, step)
}
