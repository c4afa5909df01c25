package apiserver

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// nameAlphabet is what generateName draws its 5-character suffix from
// (apimachinery util/rand: consonants and digits that cannot spell words).
const nameAlphabet = "bcdfghjklmnpqrstvwxz2456789"

func verbHTTP(r request) string {
	switch r.verb {
	case "create":
		return "POST"
	case "update":
		return "PUT"
	case "delete":
		return "DELETE"
	case "patch":
		return "PATCH"
	}
	return "GET"
}

func (r request) path() string {
	name := r.name
	if r.verb == "create" && r.subresource == "" {
		name = "" // POST goes to the collection
	}
	p := Path(r.res, r.ns, name)
	if r.subresource != "" {
		p += "/" + r.subresource
	}
	return p
}

// handle runs the API server's request pipeline for one request.
func (s *Server) handle(c *Client, r *request, done Done) {
	loud := c.Loud && r.verb != "get" // kubectl's GET before a create shows only with -v
	step := func(phase trace.Phase, kind string, fields ...any) {
		if s.rec.Full() {
			return
		}
		s.rec.Add(trace.Step{Phase: phase, Actor: "kube-apiserver", Kind: kind, Verbose: !loud,
			Object: r.res.Plural + "/" + r.ns + "/" + r.name, Fields: trace.F(fields...)})
	}
	if !c.Loud {
		if !s.rec.Full() {
			step(c.Phase, "apiserver.request", "verb", verbHTTP(*r), "path", r.path(), "user", c.ID.User)
		}
	}
	var release func() // undoes a ClusterIP allocation when the create fails
	if s.LogWrites && r.verb != "get" {
		done = s.logWrite(c, r, done)
	}
	fail := func(st *Status) {
		if release != nil {
			release()
		}
		step(c.Phase, "apiserver.reject", "status", st.StatusLine(), "message", st.Message)
		s.eng.After(RequestLatency, func() {
			if done != nil {
				done(nil, st)
			}
		})
	}
	apiPhase := trace.PhaseAPIServer
	if !c.Loud {
		apiPhase = c.Phase
	}
	// 1. Authentication: who is asking.
	if !s.rec.Full() {
		step(apiPhase, "apiserver.authn", "user", c.ID.User, "groups", strings.Join(c.ID.Groups, ", "), "method", authnMethod(c.ID.Method))
	}
	// 2. Authorization: Node authorizer for kubelets, then RBAC.
	verb := r.verb
	resource := r.res.Plural
	if r.subresource != "" {
		resource += "/" + r.subresource
	}
	allowed, by := s.rbac.authorize(c.ID, verb, r.res.Group, resource)
	if !allowed {
		fail(forbidden(c.ID.User, verb, r.res, resource, r.ns, r.name))
		return
	}
	if !s.rec.Full() {
		step(apiPhase, "apiserver.authz", "user", c.ID.User, "verb", verb, "resource", resource, "by", by)
	}

	switch r.verb {
	case "get":
		st := s.data[Key(r.res, r.ns, r.name)]
		s.eng.After(RequestLatency, func() {
			if st == nil {
				nf := &Status{Code: http.StatusNotFound, Reason: "NotFound",
					Message: fmt.Sprintf("%s %q not found", strings.ToLower(r.res.Plural), r.name)}
				if r.res.Group != "" {
					nf.Message = fmt.Sprintf("%s.%s %q not found", r.res.Plural, r.res.Group, r.name)
				}
				step(trace.PhaseKubectl, "apiserver.notfound", "path", r.path())
				done(nil, nf)
				return
			}
			done(st.obj.DeepCopyObject(), nil)
		})
		return
	case "delete":
		s.commitDelete(c, r, done, step)
		return
	}
	if r.subresource == "binding" {
		s.bind(c, r, done, step)
		return
	}
	if r.verb == "patch" {
		if r.patch != nil {
			s.patchStatus(c, r, done, step)
			return
		}
		if c.Loud {
			step(apiPhase, "apiserver.patch", "body", r.body, "path", r.path())
		} else if r.res.Kind == "Event" && !s.rec.Full() {
			// An event recorder's count PATCH (verbose): the body and its
			// content type, as client-go sends it (typed/core/v1
			// event_expansion.go PatchWithEventNamespace:
			// types.StrategicMergePatchType).
			step(apiPhase, "apiserver.patch", "body", r.body+" ("+PatchContentType+")", "path", r.path())
		}
		s.patch(c, r, done, step)
		return
	}
	// The request body becomes the server's object, as a decoded request
	// body would: callers hand over a fresh object and do not touch it again
	// (kubectl copies the manifest's object; controllers build or DeepCopy).
	obj := r.obj
	m := Meta(obj)
	if m.GetNamespace() == "" && r.res.Namespaced {
		m.SetNamespace("default")
		r.ns = "default"
	}
	// 3. Decoding applies defaults; 4. mutating admission.
	if r.verb == "create" && r.subresource == "" {
		if s.Default != nil {
			if filled := s.Default(obj); len(filled) > 0 && c.Loud {
				step(apiPhase, "apiserver.defaulted", "fields", strings.Join(filled, ", "))
			}
		}
		// NamespaceLifecycle, the first mutating plugin, implements only
		// Admit (plugin/pkg/admission/namespace/lifecycle/admission.go): no
		// new object in a namespace that does not exist, refused with the
		// NotFound of its namespace GET before any other plugin or
		// validation runs.
		if r.res.Namespaced && s.data[Key(Resource{Kind: "Namespace", Plural: "namespaces"}, "", r.ns)] == nil {
			fail(&Status{Code: http.StatusNotFound, Reason: "NotFound", Message: fmt.Sprintf("namespaces %q not found", r.ns)})
			return
		}
		plugins, st := s.mutate(obj)
		if st != nil {
			fail(st)
			return
		}
		if len(plugins) > 0 {
			step(apiPhase, "apiserver.mutating", "plugins", trace.Phrases{Sep: "; ", Items: plugins})
			s.noteLimitRanger(c, *r, obj)
		}
		m.SetGeneration(1)
		if pod, ok := obj.(*corev1.Pod); ok {
			// The pod strategy's PrepareForCreate (pkg/registry/core/pod/strategy.go):
			// whatever status the request carried, a new pod is Pending with
			// its QoS class computed from what admission left.
			pod.Status = corev1.PodStatus{Phase: corev1.PodPending, QOSClass: manifest.PodQOS(pod)}
		}
		if ns, ok := obj.(*corev1.Namespace); ok {
			// The namespace strategy's PrepareForCreate
			// (pkg/registry/core/namespace/strategy.go): a new namespace is
			// Active and carries the kubernetes finalizer, which the
			// namespace controller removes once it has emptied it.
			ns.Status = corev1.NamespaceStatus{Phase: corev1.NamespaceActive}
			if !slices.Contains(ns.Spec.Finalizers, corev1.FinalizerKubernetes) {
				ns.Spec.Finalizers = append(ns.Spec.Finalizers, corev1.FinalizerKubernetes)
			}
		}
		if m.GetName() == "" && m.GetGenerateName() != "" {
			m.SetName(s.generateName(r.res, m.GetNamespace(), m.GetGenerateName()))
		}
		r.name = m.GetName()
		// The Service registry allocates the ClusterIP after admission and
		// before validation (its BeginCreate hook), and sets ipFamilies there.
		if svc, ok := obj.(*corev1.Service); ok {
			rel, err := s.allocateClusterIP(c, svc, func(kind string, fields ...any) { step(apiPhase, kind, fields...) })
			if err != nil {
				fail(err)
				return
			}
			// Then its node ports (alloc.go txnAllocNodePorts, same BeginCreate).
			relPorts, err := s.allocateNodePorts(svc, func(kind string, fields ...any) { step(apiPhase, kind, fields...) })
			if err != nil {
				if rel != nil {
					rel()
				}
				fail(err)
				return
			}
			release = func() {
				if rel != nil {
					rel()
				}
				if relPorts != nil {
					relPorts()
				}
			}
		}
	}
	// 5. Validation (the type's rules) and validating admission.
	if s.Validate != nil && r.subresource == "" {
		if err := s.Validate(obj); err != nil {
			fail(AsStatus(err))
			return
		}
	}
	if c.Loud {
		step(apiPhase, "apiserver.validated", "kind", r.res.GroupKind(), "plugins", validatingPlugins(r.res))
	}
	key := Key(r.res, r.ns, r.name)
	prev := s.data[key]
	if r.verb == "create" && r.subresource == "" {
		if !s.admitQuota(c, *r, obj, step, fail) {
			return
		}
	}
	if r.verb == "create" && (prev != nil || s.eventExists(r.res, key)) {
		fail(&Status{Code: http.StatusConflict, Reason: "AlreadyExists",
			Message: fmt.Sprintf("%s %q already exists", qualifiedPlural(r.res), r.name)})
		return
	}
	if r.verb == "update" && prev == nil {
		fail(notFound(*r))
		return
	}
	if r.verb == "create" {
		s.commit(c, r, key, func(cur *stored) (runtime.Object, *Status) {
			if cur != nil || s.eventExists(r.res, key) {
				return nil, &Status{Code: http.StatusConflict, Reason: "AlreadyExists",
					Message: fmt.Sprintf("%s %q already exists", qualifiedPlural(r.res), r.name)}
			}
			return obj, nil
		}, done, step)
		return
	}
	// An update carries the resourceVersion its writer read. The check is
	// made against what is stored when the write reaches etcd (the
	// registry's GuaranteedUpdate compares and swaps on the key's revision):
	// a writer that read an older version gets 409 Conflict and must read
	// again. Then the registry strategy's PrepareForUpdate keeps the stored
	// object's identity fields, and the half of the object this endpoint
	// does not own: a write to the main resource keeps the stored status, a
	// write to /status the stored spec.
	readRV := m.GetResourceVersion()
	s.commit(c, r, key, func(cur *stored) (runtime.Object, *Status) {
		if cur == nil {
			return nil, notFound(*r)
		}
		if readRV != "" && readRV != Meta(cur.obj).GetResourceVersion() {
			return nil, s.conflict(c, *r, readRV, Meta(cur.obj).GetResourceVersion())
		}
		return mergeUpdate(cur.obj, obj, r.subresource == "status"), nil
	}, done, step)
}

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
func (s *Server) patch(c *Client, r *request, done Done, step func(trace.Phase, string, ...any)) {
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
func (s *Server) patchEvent(c *Client, r *request, key string, done Done, step func(trace.Phase, string, ...any)) {
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
func (s *Server) commit(c *Client, r *request, key string, build func(cur *stored) (runtime.Object, *Status), done Done, step func(trace.Phase, string, ...any)) {
	s.eng.After(StoreLatency, func() {
		prev := s.data[key]
		obj, fail := build(prev)
		if fail != nil {
			s.eng.After(RequestLatency, func() {
				if fail.Reason != "Conflict" || r.subresource == "binding" {
					step(c.Phase, "apiserver.reject", "status", fail.StatusLine(), "message", fail.Message)
				}
				if done != nil {
					done(nil, fail)
				}
			})
			return
		}
		m := Meta(obj)
		s.stamp(m)
		if s.first == 0 {
			s.first = s.rev
		}
		s.put(key, &stored{obj: obj, res: r.res})
		storePhase := trace.PhaseStore
		if !c.Loud {
			storePhase = c.Phase
		}
		if !s.rec.Full() {
			step(storePhase, "etcd.put", "key", key, "rev", s.rev)
		}
		ev := Event{Type: Added, Obj: obj, Rev: s.rev}
		oldNode := ""
		if prev != nil {
			ev.Type = Modified
			oldNode = nodeOf(prev.obj)
		}
		if r.res.Kind != "Event" {
			s.fanOut(ev, r.res, oldNode)
		}
		code := http.StatusOK
		if r.verb == "create" {
			code = http.StatusCreated
		}
		rv := m.GetResourceVersion()
		answer, answerKind := obj, r.res.Kind
		if r.subresource == "scale" {
			answer, answerKind = scaleOf(obj), "Scale"
		}
		s.eng.After(RequestLatency, func() {
			kind := "apiserver.response"
			switch {
			case r.subresource == "binding":
				// BindingREST.Create answers 201 with a Status, not the
				// Pod (pkg/registry/core/pod/storage/storage.go, v1.37).
				kind = "apiserver.bound"
			case code != http.StatusCreated:
				kind = "apiserver.updated"
			}
			if !s.rec.Full() {
				step(storePhase, kind, "status", fmt.Sprintf("%d %s", code, http.StatusText(code)), "rv", rv, "kind", answerKind)
			}
			if done != nil {
				done(answer, nil)
			}
		})
	})
}

func (s *Server) commitDelete(c *Client, r *request, done Done, step func(trace.Phase, string, ...any)) {
	key := Key(r.res, r.ns, r.name)
	prev := s.data[key]
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
		if r.grace != nil {
			grace = *r.grace
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
	s.eng.After(StoreLatency, func() {
		s.del(key)
		s.rev++
		step(c.Phase, "etcd.delete", "key", key, "rev", s.rev)
		if svc, ok := prev.obj.(*corev1.Service); ok {
			s.releaseService(svc)
		}
		s.fanOut(Event{Type: Deleted, Obj: prev.obj, Rev: s.rev}, r.res, "")
		s.eng.After(RequestLatency, func() {
			if done != nil {
				done(prev.obj, nil)
			}
		})
	})
}

// bind handles POST pods/NAME/binding: it sets spec.nodeName, which only
// the binding subresource may do once.
func (s *Server) bind(c *Client, r *request, done Done, step func(trace.Phase, string, ...any)) {
	key := Key(r.res, r.ns, r.name)
	prev := s.data[key]
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

// eventName is how client-go's recorders name an Event
// (staging/src/k8s.io/client-go/tools/record/event.go makeEvent,
// tools/events/event_recorder.go generateEvent: fmt.Sprintf("%v.%x",
// ref.Name, t.UnixNano())), at the virtual clock's now. Events recorded
// at the same virtual instant are a nanosecond apart, as a real clock
// would have moved on between them, so no two names collide. at is when
// the event was recorded (makeEvent), not when the sink writes it.
func (s *Server) eventName(object string, at time.Duration) string {
	n := Epoch.Add(at).UnixNano()
	if n <= s.lastEventNano {
		n = s.lastEventNano + 1
	}
	s.lastEventNano = n
	return fmt.Sprintf("%v.%x", object, n)
}

func (s *Server) generateName(r Resource, ns, base string) string {
	// apiserver storage/names: base cut to 58 characters + 5 random ones.
	if len(base) > 58 {
		base = base[:58]
	}
	for {
		b := make([]byte, 5)
		for i := range b {
			b[i] = nameAlphabet[s.eng.Rand().IntN(len(nameAlphabet))]
		}
		name := base + string(b)
		if k := Key(r, ns, name); s.data[k] == nil && !s.eventExists(r, k) {
			return name
		}
	}
}

func forbidden(user, verb string, r Resource, resource, ns, name string) *Status {
	// apiserver authorization: `pods "x" is forbidden: User "u" cannot create
	// resource "pods" in API group "" in the namespace "default"`.
	msg := fmt.Sprintf("%s %q is forbidden: User %q cannot %s resource %q in API group %q", qualifiedPlural(r), name, user, verb, resource, r.Group)
	if ns != "" && r.Namespaced {
		msg += fmt.Sprintf(" in the namespace %q", ns)
	} else {
		msg += " at the cluster scope"
	}
	return &Status{Code: http.StatusForbidden, Reason: "Forbidden", Message: msg}
}

// authnMethod is how a client authenticated, as a phrase each output
// language writes in its own words (the field's value stays English).
func authnMethod(m string) any {
	switch {
	case strings.HasPrefix(m, "x509"):
		return trace.P("authn.x509")
	case strings.HasPrefix(m, "service account"):
		return trace.P("authn.sa")
	}
	return m
}
