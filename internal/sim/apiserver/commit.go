package apiserver

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// answer gives the client its response one request latency later.
func (s *Server) answer(done Done, obj runtime.Object, st *Status) {
	s.eng.After(RequestLatency, func() {
		if done != nil {
			done(obj, st)
		}
	})
}

func notFound(r request) *Status {
	return &Status{Code: http.StatusNotFound, Reason: "NotFound",
		Message: fmt.Sprintf("%s %q not found", qualifiedPlural(r.res), r.name)}
}

// ConflictMessage is the API server's answer to a write whose
// resourceVersion is no longer the stored one (apimachinery errors.NewConflict
// with the storage layer's OptimisticLockErrorMsg).
func ConflictMessage(r Resource, name string) string {
	return fmt.Sprintf("Operation cannot be fulfilled on %s %q: the object has been modified; please apply your changes to the latest version and try again",
		qualifiedPlural(r), name)
}

// conflict builds the 409 of a stale write and records it.
func (s *Server) conflict(c *Client, r request, read, stored string) *Status {
	s.Conflicts++
	st := &Status{Code: http.StatusConflict, Reason: "Conflict", Message: ConflictMessage(r.res, r.name)}
	if !s.rec.Full() {
		resource := r.res.Plural
		if r.subresource != "" {
			resource += "/" + r.subresource
		}
		s.rec.Add(trace.Step{Phase: c.Phase, Actor: "kube-apiserver", Kind: "apiserver.conflict", Verbose: true,
			Object: r.res.Plural + "/" + r.ns + "/" + r.name,
			Fields: trace.F("user", c.ID.User, "verb", verbHTTP(r), "resource", resource, "name", r.name, "read", read, "stored", stored)})
	}
	return st
}

// patch applies a PATCH to the stored object when the write reaches etcd.
// A patch names only the fields it changes; without a resourceVersion it
// cannot conflict and is applied to whatever is stored. One that names a
// resourceVersion (PatchRV) is refused with 409 Conflict when that is no
// longer the stored one, as the patched object carries it into the same
// GuaranteedUpdate precondition as an update's.
func (s *Server) patch(c *Client, r *request, done Done, step func(trace.Phase, trace.Kind, ...any)) {
	key := Key(r.res, r.ns, r.name)
	if r.res.Kind == "Event" {
		s.patchEvent(c, r, key, done, step)
		return
	}
	if s.data[key] == nil {
		s.eng.After(RequestLatency, func() {
			if done != nil {
				done(nil, notFound(*r))
			}
		})
		return
	}
	s.commit(c, r, key, func(cur *stored) (runtime.Object, *Status) {
		if cur == nil {
			return nil, notFound(*r)
		}
		if r.rv != "" && r.rv != Meta(cur.obj).GetResourceVersion() {
			return nil, s.conflict(c, *r, r.rv, Meta(cur.obj).GetResourceVersion())
		}
		next := cur.obj.DeepCopyObject()
		r.apply(next)
		return mergeUpdate(cur.obj, next, r.subresource == "status"), nil
	}, done, step)
}

// patchEvent serves an event recorder's PATCH of an Event's count. Event
// bodies are not kept (put), so the request carries the Event as patched
// (the recorder's copy of the created one, with the patch's count,
// lastTimestamp and message) and the store only checks that it exists.
func (s *Server) patchEvent(c *Client, r *request, key string, done Done, step func(trace.Phase, trace.Kind, ...any)) {
	if !s.eventExists(r.res, key) {
		s.answer(done, nil, notFound(*r))
		return
	}
	s.commit(c, r, key, func(*stored) (runtime.Object, *Status) { return r.obj, nil }, done, step)
}

func qualifiedPlural(r Resource) string {
	if r.Group == "" {
		return r.Plural
	}
	return r.Plural + "." + r.Group
}

// commit builds the object to store from what is stored when the write
// reaches etcd (build may refuse: a conflict, a vanished object), writes it
// at a new revision, fans the change out, and answers the client.
func (s *Server) commit(c *Client, r *request, key string, build func(cur *stored) (runtime.Object, *Status), done Done, step func(trace.Phase, trace.Kind, ...any)) {
	s.eng.AfterRun(StoreLatency, &commitOp{c: c, r: r, key: key, build: build, done: done, step: step})
}

// commitOp is one write on its way: queued once for when it reaches etcd
// and again for when its answer reaches the client, the engine event both
// times (a Runner), so neither needs a closure. 80 bytes: the server is
// the client's.
type commitOp struct {
	c     *Client
	r     *request
	key   string
	build func(cur *stored) (runtime.Object, *Status) // nil once written
	done  Done
	step  func(trace.Phase, trace.Kind, ...any)
	// Set by the write for its answer: the refusal, or the object (or
	// Scale) written, which carries the resourceVersion the answer shows.
	fail   *Status
	answer runtime.Object
}

// Run writes, the first time; the second, answers.
func (op *commitOp) Run() {
	if op.build == nil {
		op.reply()
		return
	}
	op.write()
}

// write is the write reaching etcd.
func (op *commitOp) write() {
	s, c, r, key := op.c.s, op.c, op.r, op.key
	prev := s.data[key]
	if prev != nil && prev.key != "" {
		key = prev.key // the stored key: the event's Key shares its bytes (stored)
	}
	obj, fail := op.build(prev)
	op.build = nil
	if fail != nil {
		op.fail = fail
		s.eng.AfterRun(RequestLatency, op)
		return
	}
	if s.fields != nil {
		obj = s.track(c, r, prev, obj)
	}
	m := Meta(obj)
	s.stamp(m)
	if s.first == 0 {
		s.first = s.rev
	}
	ev := Event{Type: Added, Obj: obj, Rev: s.rev, Key: keyTail(key, m)}
	oldNode := ""
	if prev != nil {
		ev.Type = Modified
		oldNode = nodeOf(prev.obj)
	}
	if prev != nil && *prev.res == r.res {
		// The registry's entry takes the new version in place: no entry
		// made, no map written. Nothing keeps a *stored past the event
		// that read it (a GET or DELETE keeps the object it read).
		prev.obj = obj
	} else {
		s.put(key, &stored{obj: obj, res: s.resource(r.res)})
	}
	if !s.rec.Full() {
		op.step(op.storePhase(), "etcd.put", "key", key, "rev", s.rev)
	}
	if r.res.Kind != "Event" {
		s.fanOut(ev, r.res, oldNode)
	} else if s.OnEvent != nil {
		s.OnEvent(ev)
	}
	op.answer = obj
	if r.subresource == "scale" {
		op.answer = scaleOf(obj)
	}
	s.eng.AfterRun(RequestLatency, op)
}

// storePhase is where the store's steps show: their own phase for
// kubectl's requests, the client's otherwise.
func (op *commitOp) storePhase() trace.Phase {
	if !op.c.Loud {
		return op.c.Phase
	}
	return trace.PhaseStore
}

// reply is the answer reaching the client.
func (op *commitOp) reply() {
	s, r, done := op.c.s, op.r, op.done
	if fail := op.fail; fail != nil {
		if fail.Reason != "Conflict" || r.subresource == "binding" {
			op.step(op.c.Phase, "apiserver.reject", "status", fail.StatusLine(), "message", fail.Message)
		}
		if done != nil {
			done(nil, fail)
		}
		return
	}
	code := http.StatusOK
	if r.verb == "create" {
		code = http.StatusCreated
	}
	kind := trace.KindAPIServerResponse
	switch {
	case r.subresource == "binding":
		// BindingREST.Create answers 201 with a Status, not the
		// Pod (pkg/registry/core/pod/storage/storage.go, v1.37).
		kind = "apiserver.bound"
	case code != http.StatusCreated:
		kind = trace.KindAPIServerUpdated
	}
	if !s.rec.Full() {
		answerKind := r.res.Kind
		if r.subresource == "scale" {
			answerKind = "Scale"
		}
		op.step(op.storePhase(), kind, "status", fmt.Sprintf("%d %s", code, http.StatusText(code)), "rv", Meta(op.answer).GetResourceVersion(), "kind", answerKind)
	}
	if done != nil {
		done(op.answer, nil)
	}
}

func (s *Server) commitDelete(c *Client, r *request, done Done, step func(trace.Phase, trace.Kind, ...any)) {
	prev, key := s.lookup(r.res, r.ns, r.name)
	if prev == nil {
		s.answer(done, nil, notFound(*r))
		return
	}
	if pod, ok := prev.obj.(*corev1.Pod); ok && pod.Spec.NodeName != "" {
		// Graceful deletion (pkg/registry/core/pod strategy CheckGracefulDelete):
		// the grace period comes from DeleteOptions, else the pod's
		// terminationGracePeriodSeconds (default 30); the object stays, marked.
		grace := int64(corev1.DefaultTerminationGracePeriodSeconds)
		if pod.Spec.TerminationGracePeriodSeconds != nil {
			grace = *pod.Spec.TerminationGracePeriodSeconds
		}
		if g := r.grace(); g != nil {
			grace = *g
		}
		if grace > 0 {
			if pod.DeletionTimestamp != nil {
				s.eng.After(RequestLatency, func() {
					if done != nil {
						done(pod, nil) // already terminating: nothing changes
					}
				})
				return
			}
			ts := TimeAt(s.eng.Now() + trace.Seconds(grace))
			step(c.Phase, "apiserver.graceful", "pod", pod.Name, "grace", grace, "user", c.ID.User)
			s.commit(c, r, key, func(cur *stored) (runtime.Object, *Status) {
				if cur == nil {
					return nil, notFound(*r)
				}
				upd := cur.obj.(*corev1.Pod).DeepCopy()
				if upd.DeletionTimestamp == nil {
					upd.DeletionTimestamp = &ts
					upd.DeletionGracePeriodSeconds = &grace
				}
				return upd, nil
			}, done, step)
			return
		}
	}
	old := prev.obj // as read now: a write before the delete lands updates the entry in place
	s.eng.After(StoreLatency, func() {
		s.del(key)
		s.rev++
		step(c.Phase, "etcd.delete", "key", key, "rev", s.rev)
		if svc, ok := old.(*corev1.Service); ok {
			s.releaseService(svc)
		}
		s.fanOut(Event{Type: Deleted, Obj: old, Rev: s.rev, Key: keyTail(key, Meta(old))}, r.res, "")
		s.eng.After(RequestLatency, func() {
			if done != nil {
				done(old, nil)
			}
		})
	})
}

// bind handles POST pods/NAME/binding: it sets spec.nodeName, which only
// the binding subresource may do once.
func (s *Server) bind(c *Client, r *request, done Done, step func(trace.Phase, trace.Kind, ...any)) {
	prev, key := s.lookup(r.res, r.ns, r.name)
	if prev == nil {
		s.eng.After(RequestLatency, func() {
			done(nil, &Status{Code: http.StatusNotFound, Reason: "NotFound", Message: fmt.Sprintf("pods %q not found", r.name)})
		})
		return
	}
	s.commit(c, r, key, func(cur *stored) (runtime.Object, *Status) {
		if cur == nil {
			return nil, &Status{Code: http.StatusNotFound, Reason: "NotFound", Message: fmt.Sprintf("pods %q not found", r.name)}
		}
		// A new version sharing what the binding leaves alone (stored
		// objects are immutable); only the conditions slice is written.
		pod := new(corev1.Pod)
		*pod = *cur.obj.(*corev1.Pod)
		pod.Status.Conditions = slices.Clone(pod.Status.Conditions)
		if pod.Spec.NodeName != "" {
			return nil, &Status{Code: http.StatusConflict, Reason: "Conflict",
				Message: fmt.Sprintf("Operation cannot be fulfilled on pods/binding %q: pod %s is already assigned to node %q", r.name, r.name, pod.Spec.NodeName)}
		}
		pod.Spec.NodeName = r.node
		// ClearingNominatedNodeNameAfterBinding, on by default since v1.35
		// (kubernetes#135103; pkg/registry/core/pod/storage
		// setPodNodeAndMetadata): a bound pod keeps no nomination. The
		// oracle's preemption recording shows the preemptor without one.
		pod.Status.NominatedNodeName = ""
		SetPodCondition(pod, corev1.PodCondition{Type: corev1.PodScheduled, Status: corev1.ConditionTrue})
		StampConditions(&cur.obj.(*corev1.Pod).Status, &pod.Status, pod.Generation, s.eng.Now())
		return pod, nil
	}, done, step)
}

// SetPodCondition puts c into p's conditions: in place of the one of its
// type, else at the end.
func SetPodCondition(p *corev1.Pod, c corev1.PodCondition) {
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == c.Type {
			p.Status.Conditions[i] = c
			return
		}
	}
	p.Status.Conditions = append(p.Status.Conditions, c)
}
