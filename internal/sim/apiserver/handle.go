package apiserver

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/trace"
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
	if r.verb == "list" {
		// kubectl drain's list of the node's pods in every namespace
		// (drain.go GetPodsForDeletion: fieldSelector spec.nodeName).
		return "/api/v1/pods?fieldSelector=spec.nodeName%3D" + r.node
	}
	p := Path(r.res, r.ns, name)
	if r.subresource != "" {
		p += "/" + r.subresource
	}
	return p
}

// call is one request on its way through the API server's pipeline: who
// sent it, what it asks, whom to answer, and the steps it records. 240
// bytes (a size class; 256 with the server, which is the client's, and
// the Service create's undo, which is in req.rare).
type call struct {
	c    *Client
	req  request
	done Done
}

// loud is true for kubectl's own requests, which show without -v (its GET
// before a create shows only with -v).
func (k *call) loud() bool {
	return k.c.Loud && k.req.verb != "get" && k.req.verb != "list"
}

// apiPhase is the phase the pipeline's steps are shown in.
func (k *call) apiPhase() trace.Phase {
	if k.c.Loud {
		return trace.PhaseAPIServer
	}
	return k.c.Phase
}

// step records one pipeline step of the request (verbose unless kubectl's).
func (k *call) step(phase trace.Phase, kind trace.Kind, fields ...any) {
	s, r := k.c.s, &k.req
	if s.rec.Full() {
		return
	}
	s.rec.Add(trace.Step{Phase: phase, Actor: "kube-apiserver", Kind: kind, Verbose: !k.loud(),
		Object: r.res.Plural + "/" + r.ns + "/" + r.name, Fields: trace.F(fields...)})
}

// apiStep records a step in the pipeline's phase.
func (k *call) apiStep(kind trace.Kind, fields ...any) { k.step(k.apiPhase(), kind, fields...) }

// fail refuses the request: it undoes an allocation made for it and answers
// with st one request latency later.
func (k *call) fail(st *Status) {
	if k.req.rare != nil && k.req.rare.release != nil {
		k.req.rare.release()
	}
	k.step(k.c.Phase, "apiserver.reject", "status", st.StatusLine(), "message", st.Message)
	done := k.done
	k.c.s.eng.After(RequestLatency, func() {
		if done != nil {
			done(nil, st)
		}
	})
}

// receive sends r to the server: it arrives one request latency later and
// runs the pipeline (call.handle).
func (s *Server) receive(c *Client, r request, done Done) {
	s.eng.AfterRun(RequestLatency, newCall(c, r, done))
}

// Run is the request's arrival: the engine event receive queued runs the
// call itself, with no closure made for it.
func (k *call) Run() { k.handle() }

// newCall is the request r of c on its way: one allocation holds the
// request and its pipeline state.
func newCall(c *Client, r request, done Done) *call {
	return &call{c: c, req: r, done: done}
}

// handle runs the API server's request pipeline for one request:
// authentication and authorization, then by verb a read, a delete, a
// binding, a patch, or a create or update through admission, validation
// and the store.
func (k *call) handle() {
	s, c, r := k.c.s, k.c, &k.req
	if !c.Loud {
		if !s.rec.Full() {
			k.step(c.Phase, "apiserver.request", "verb", verbHTTP(*r), "path", r.path(), "user", c.ID.User)
		}
	}
	if s.LogWrites && r.verb != "get" {
		k.done = s.logWrite(c, r, k.done)
	}
	if !k.authorize() {
		return
	}
	switch {
	case r.verb == "get":
		k.get()
	case r.verb == "list":
		s.list(r, k.done)
	case r.verb == "delete":
		s.commitDelete(c, r, k.done, k.step)
	case r.subresource == "eviction":
		s.evict(c, r, k.done, k.step)
	case r.subresource == "binding":
		s.bind(c, r, k.done, k.step)
	case r.verb == "update" && r.subresource == "scale":
		// A PUT of the Scale changes only the parent's spec.replicas; its
		// resourceVersion is the parent's (ScaleREST.Update).
		s.patch(c, r, k.done, k.step)
	case r.verb == "patch":
		k.patch()
	default:
		k.write()
	}
}

// authorize runs 1. authentication (who is asking) and 2. authorization
// (the Node authorizer for kubelets, then RBAC); a refusal answers 403.
func (k *call) authorize() bool {
	s, c, r := k.c.s, k.c, &k.req
	if !s.rec.Full() {
		k.apiStep("apiserver.authn", "user", c.ID.User, "groups", strings.Join(c.ID.Groups, ", "), "method", authnMethod(c.ID.Method))
	}
	resource := resourcePath(r.res.Plural, r.subresource)
	allowed, by := s.rbac.authorize(c.ID, r.verb, r.res.Group, resource)
	if !allowed {
		k.fail(forbidden(c.ID.User, r.verb, r.res, resource, r.ns, r.name))
		return false
	}
	if !s.rec.Full() {
		k.apiStep("apiserver.authz", "user", c.ID.User, "verb", r.verb, "resource", resource, "by", by)
	}
	return true
}

// resourcePath is the resource an authorizer checks: the plural, or
// plural/subresource (authorizer.Attributes GetResource and
// GetSubresource, joined as RBAC rules write them). The kubelets' and the
// scheduler's usual ones are constants, not a string per request.
func resourcePath(plural, sub string) string {
	switch {
	case sub == "":
		return plural
	case plural == "pods" && sub == "status":
		return "pods/status"
	case plural == "pods" && sub == "binding":
		return "pods/binding"
	case plural == "nodes" && sub == "status":
		return "nodes/status"
	}
	return plural + "/" + sub
}

// get answers a GET with a copy of the stored object, or 404.
func (k *call) get() {
	s, r, done := k.c.s, &k.req, k.done
	var obj runtime.Object // as read now: a later write updates the entry in place
	if st, _ := s.lookup(r.res, r.ns, r.name); st != nil {
		obj = st.obj
	}
	s.eng.After(RequestLatency, func() {
		if obj == nil {
			nf := &Status{Code: http.StatusNotFound, Reason: "NotFound",
				Message: fmt.Sprintf("%s %q not found", strings.ToLower(r.res.Plural), r.name)}
			if r.res.Group != "" {
				nf.Message = fmt.Sprintf("%s.%s %q not found", r.res.Plural, r.res.Group, r.name)
			}
			k.step(trace.PhaseKubectl, "apiserver.notfound", "path", r.path())
			done(nil, nf)
			return
		}
		if r.subresource == "scale" {
			done(scaleOf(obj), nil)
			return
		}
		done(obj.DeepCopyObject(), nil)
	})
}

// patch serves a PATCH: a pod-status patch, else a merge patch (shown for
// kubectl and an event recorder's count).
func (k *call) patch() {
	s, c, r := k.c.s, k.c, &k.req
	if r.applied() != nil {
		k.serverSideApply()
		return
	}
	if r.patch != nil {
		s.patchStatus(c, r, k.done, k.step)
		return
	}
	if c.Loud {
		k.apiStep("apiserver.patch", "body", r.body, "path", r.path())
	} else if r.res.Kind == "Event" && !s.rec.Full() {
		// An event recorder's count PATCH (verbose): the body and its
		// content type, as client-go sends it (typed/core/v1
		// event_expansion.go PatchWithEventNamespace:
		// types.StrategicMergePatchType).
		k.apiStep("apiserver.patch", "body", r.body+" ("+PatchContentType+")", "path", r.path())
	}
	s.patch(c, r, k.done, k.step)
}

// write serves a create or an update (of the object or a subresource).
// The request body becomes the server's object, as a decoded request body
// would: callers hand over a fresh object and do not touch it again
// (kubectl copies the manifest's object; controllers build or DeepCopy).
func (k *call) write() {
	r := &k.req
	obj := r.obj
	m := Meta(obj)
	if m.GetNamespace() == "" && r.res.Namespaced {
		m.SetNamespace("default")
		r.ns = "default"
	}
	if r.verb != "create" || r.subresource != "" {
		k.validate(obj, false)
		return
	}
	// 3. Decoding applies defaults; 4. mutating admission: the built-in
	// plugins, then the mutating webhooks (MutatingAdmissionWebhook is the
	// last mutating plugin, pkg/kubeapiserver/options/plugins.go), then
	// the registry's BeforeCreate.
	if !k.admitCreate(obj) {
		return
	}
	if k.anyWebhook(true) {
		k.webhooks(true, func() { k.mutated(obj) })
		return
	}
	k.mutated(obj)
}

// mutated goes on with a create after mutating admission: the registry's
// BeforeCreate, then validation.
func (k *call) mutated(obj runtime.Object) {
	if k.prepareCreate(obj) {
		k.validate(obj, true)
	}
}

// validate runs 5. validation (the type's rules) and validating admission
// (a create's validating webhooks before ResourceQuota, the last plugin),
// then stores the object.
func (k *call) validate(obj runtime.Object, creating bool) {
	s, c, r := k.c.s, k.c, &k.req
	if s.Validate != nil && r.subresource == "" {
		if err := s.Validate(obj); err != nil {
			k.fail(AsStatus(err))
			return
		}
	}
	if c.Loud {
		k.apiStep("apiserver.validated", "kind", r.res.GroupKind(), "plugins", validatingPlugins(r.res))
	}
	if !creating {
		k.store(obj, false)
		return
	}
	if k.anyWebhook(false) {
		k.webhooks(false, func() { k.store(obj, true) })
		return
	}
	k.store(obj, true)
}

// store charges a create to its quota and commits the create or update.
func (k *call) store(obj runtime.Object, creating bool) {
	s, c, r := k.c.s, k.c, &k.req
	prev, key := s.lookup(r.res, r.ns, r.name)
	var step func(trace.Phase, trace.Kind, ...any) // an update makes its own (update)
	if creating {
		step = k.step // one method value for the quota's commit and the object's
	}
	if creating && !s.admitQuota(c, *r, obj, step, k.fail) {
		return
	}
	if r.verb == "create" && (prev != nil || s.eventExists(r.res, key)) {
		k.fail(&Status{Code: http.StatusConflict, Reason: "AlreadyExists",
			Message: fmt.Sprintf("%s %q already exists", qualifiedPlural(r.res), r.name)})
		return
	}
	if r.verb == "update" && prev == nil {
		k.fail(notFound(*r))
		return
	}
	if r.verb == "create" {
		s.commit(c, r, key, func(cur *stored) (runtime.Object, *Status) {
			if cur != nil || s.eventExists(r.res, key) {
				return nil, &Status{Code: http.StatusConflict, Reason: "AlreadyExists",
					Message: fmt.Sprintf("%s %q already exists", qualifiedPlural(r.res), r.name)}
			}
			return obj, nil
		}, k.done, step)
		return
	}
	k.update(key, Meta(obj).GetResourceVersion())
}

// update stores an update. It carries the resourceVersion its writer read.
// The check is made against what is stored when the write reaches etcd
// (the registry's GuaranteedUpdate compares and swaps on the key's
// revision): a writer that read an older version gets 409 Conflict and
// must read again. Then the registry strategy's PrepareForUpdate keeps the
// stored object's identity fields, and the half of the object this
// endpoint does not own: a write to the main resource keeps the stored
// status, a write to /status the stored spec.
func (k *call) update(key, readRV string) {
	s, c, r, obj := k.c.s, k.c, &k.req, k.req.obj
	s.commit(c, r, key, func(cur *stored) (runtime.Object, *Status) {
		if cur == nil {
			return nil, notFound(*r)
		}
		if readRV != "" && readRV != Meta(cur.obj).GetResourceVersion() {
			return nil, s.conflict(c, *r, readRV, Meta(cur.obj).GetResourceVersion())
		}
		return mergeUpdate(cur.obj, obj, r.subresource == "status"), nil
	}, k.done, k.step)
}

// eventName is how client-go's recorders name an Event
// (staging/src/k8s.io/client-go/tools/record/event.go makeEvent,
// tools/events/event_recorder.go generateEvent: fmt.Sprintf("%v.%x",
// ref.Name, t.UnixNano())), at the virtual clock's now. Events recorded
// at the same virtual instant are a nanosecond apart, as a real clock
// would have moved on between them, so no two names collide. at is when
// the event was recorded (makeEvent), not when the sink writes it.
// eventNano draws the timestamp; eventName writes the name out, only
// when someone reads it (eventcount.go).
func (s *Server) eventNano(at time.Duration) int64 {
	n := Epoch.Add(at).UnixNano()
	if n <= s.lastEventNano {
		n = s.lastEventNano + 1
	}
	s.lastEventNano = n
	return n
}

func eventName(object string, nano int64) string { return object + "." + strconv.FormatInt(nano, 16) }

func (s *Server) generateName(r Resource, ns, base string) string {
	// apiserver storage/names: base cut to 58 characters + 5 random ones.
	if len(base) > 58 {
		base = base[:58]
	}
	// The candidate's key is built in place and looked up without a
	// string made for it; only the name chosen is.
	var buf [192]byte
	key := appendKey(buf[:0], r, ns, base)
	from, n := len(key)-len(base), len(key)
	for {
		key = key[:n]
		for range 5 {
			key = append(key, nameAlphabet[s.eng.Rand().IntN(len(nameAlphabet))])
		}
		if s.data[string(key)] == nil && !(r.Kind == "Event" && s.eventKeys.hasBytes(key)) {
			return string(key[from:])
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
