package apiserver

import (
	"fmt"
	"net/http"

	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
)

// Status is a failed request, shaped like metav1.Status.
type Status struct {
	Code    int
	Reason  string
	Message string
	// Cause is details.causes[0] as "Type: message" (the eviction's
	// DisruptionBudget cause), "" for none.
	Cause string
}

func (s *Status) Error() string { return s.Message }

// StatusLine is "422 Unprocessable Entity".
func (s *Status) StatusLine() string { return fmt.Sprintf("%d %s", s.Code, http.StatusText(s.Code)) }

// AsStatus converts any error into a Status (apimachinery StatusErrors keep
// their code and reason).
func AsStatus(err error) *Status {
	if err == nil {
		return nil
	}
	if st, ok := err.(*Status); ok {
		return st
	}
	if se, ok := err.(apierrors.APIStatus); ok {
		s := se.Status()
		return &Status{Code: int(s.Code), Reason: string(s.Reason), Message: s.Message}
	}
	return &Status{Code: http.StatusInternalServerError, Reason: "InternalError", Message: err.Error()}
}

// Client is one component's connection to the API server.
type Client struct {
	s     *Server
	Actor string
	ID    Identity
	// Phase is where this client's pipeline steps belong in the story.
	Phase trace.Phase
	// Loud records the request pipeline as regular steps (kubectl does);
	// otherwise the pipeline shows only with -v.
	Loud bool
	// Component, when set, is the event source's component in place of
	// the actor's name (a controller whose recorder names itself
	// otherwise, as the node lifecycle controller's "node-controller").
	Component string
	// corr is the event recorder's correlator state (eventcorrelate.go).
	corr correlator
	// held, when a test set it (Hold), keeps requests instead of sending.
	held *Outbox
}

// NewClient returns a client that authenticates as id.
func (s *Server) NewClient(actor string, id Identity, phase trace.Phase) *Client {
	return &Client{s: s, Actor: actor, ID: id, Phase: phase}
}

// Done receives a request's result: the stored object, or a failure.
type Done func(obj runtime.Object, err *Status)

type request struct {
	verb        string // create, update, delete, get
	subresource string // status, binding
	obj         runtime.Object
	res         Resource
	ns, name    string
	node        string // binding target; list: the spec.nodeName field selector
	// patch: the body as sent (for the trace) and its effect on the
	// stored object, applied when the write reaches etcd.
	body  string
	apply func(runtime.Object)
	// patch: the resourceVersion the body names (metadata.resourceVersion),
	// a precondition checked at commit; "" for none.
	rv string
	// patch: a pod status patch (kubelet, scheduler), merged at commit.
	patch *podStatusPatch
	// rare holds the parts few requests have, nil for the others (they
	// would take 56 bytes of every request in flight).
	rare *rareArgs
}

// rareArgs are a request's ?fieldManager= ("" names the User-Agent's), a
// server-side apply's body and ?force (apply.go), and a delete's
// gracePeriodSeconds from DeleteOptions.
type rareArgs struct {
	manager string
	body    []byte
	force   bool
	grace   *int64
	// release, set by the API server on its copy, undoes a ClusterIP
	// allocation when the create fails (call.fail).
	release func()
}

// manager is the request's ?fieldManager=, "" for none.
func (r *request) manager() string {
	if r.rare == nil {
		return ""
	}
	return r.rare.manager
}

// applied is a server-side apply's body, nil for any other request.
func (r *request) applied() []byte {
	if r.rare == nil {
		return nil
	}
	return r.rare.body
}

// grace is a delete's gracePeriodSeconds, nil when DeleteOptions set none.
func (r *request) grace() *int64 {
	if r.rare == nil {
		return nil
	}
	return r.rare.grace
}

func (c *Client) send(r request, done Done) {
	c.s.Requests[c.Actor]++
	if c.held != nil {
		c.held.hold(r, done)
		return
	}
	c.s.receive(c, r, done)
}

// Create POSTs obj to its collection.
func (c *Client) Create(obj runtime.Object, done Done) {
	m := Meta(obj)
	c.send(request{verb: "create", obj: obj, res: ResourceOf(obj), ns: m.GetNamespace(), name: m.GetName()}, done)
}

// Get reads one object (kubectl apply's first request).
func (c *Client) Get(res Resource, ns, name string, done Done) {
	c.send(request{verb: "get", res: res, ns: ns, name: name}, done)
}

// Update PUTs obj.
func (c *Client) Update(obj runtime.Object, done Done) {
	m := Meta(obj)
	c.send(request{verb: "update", obj: obj, res: ResourceOf(obj), ns: m.GetNamespace(), name: m.GetName()}, done)
}

// UpdateStatus PUTs obj's status subresource.
func (c *Client) UpdateStatus(obj runtime.Object, done Done) {
	m := Meta(obj)
	c.send(request{verb: "update", subresource: "status", obj: obj, res: ResourceOf(obj), ns: m.GetNamespace(), name: m.GetName()}, done)
}

// Patch sends a PATCH (strategic merge patch) of one object: body is the
// patch as kubectl prints it, apply makes the same change to a copy of the
// stored object. This patch carries no resourceVersion, so it never
// conflicts (PatchRV's does).
func (c *Client) Patch(res Resource, ns, name, body string, apply func(runtime.Object), done Done) {
	c.send(request{verb: "patch", res: res, ns: ns, name: name, body: body, apply: apply}, done)
}

// PatchRV sends a PATCH whose body also sets metadata.resourceVersion to
// rv, the version its writer read: the API server checks it like an
// update's and answers 409 Conflict when the stored object has moved on.
// controller.PatchNodeTaints does this for spec.taints, a list without a
// merge key that a patch would otherwise replace blindly
// (pkg/controller/controller_utils.go).
func (c *Client) PatchRV(res Resource, ns, name, rv, body string, apply func(runtime.Object), done Done) {
	c.send(request{verb: "patch", res: res, ns: ns, name: name, body: body, apply: apply, rv: rv}, done)
}

// PatchScale sends `kubectl scale`'s PATCH of the scale subresource,
// {"spec":{"replicas":N}} (k8s.io/kubectl pkg/scale, a merge patch of the
// autoscaling/v1 Scale); the answer is the Scale (scale.go).
func (c *Client) PatchScale(res Resource, ns, name string, replicas int32, done Done) {
	c.send(request{verb: "patch", subresource: "scale", res: res, ns: ns, name: name,
		body: fmt.Sprintf(`{"spec":{"replicas":%d}}`, replicas), apply: func(o runtime.Object) { setScaleReplicas(o, replicas) }}, done)
}

// PatchStatus sends a PATCH of the status subresource (see Patch).
func (c *Client) PatchStatus(res Resource, ns, name, body string, apply func(runtime.Object), done Done) {
	c.send(request{verb: "patch", subresource: "status", res: res, ns: ns, name: name, body: body, apply: apply}, done)
}

// Bind POSTs a Binding for pod to node (pods/binding subresource).
func (c *Client) Bind(pod *corev1.Pod, node string, done Done) {
	c.send(request{verb: "create", subresource: "binding", res: ResourceOf(pod), ns: pod.Namespace, name: pod.Name, node: node}, done)
}

// Delete removes an object. A pod bound to a node is deleted gracefully:
// the API server only sets deletionTimestamp, and the kubelet removes it
// with a second DELETE (grace 0) once its containers have stopped.
func (c *Client) Delete(res Resource, ns, name string, done Done) {
	c.send(request{verb: "delete", res: res, ns: ns, name: name}, done)
}

// DeleteGrace deletes with DeleteOptions.gracePeriodSeconds set.
func (c *Client) DeleteGrace(res Resource, ns, name string, grace int64, done Done) {
	c.send(request{verb: "delete", res: res, ns: ns, name: name, rare: &rareArgs{grace: &grace}}, done)
}

// Watch opens a watch on a resource (plural).
func (c *Client) Watch(plural string, h func(Event)) {
	c.s.Requests[c.Actor]++
	c.s.watch(c.Actor, plural, "", h)
}

// WatchShared opens the watch of a shared informer (client-go's
// SharedInformerFactory): one watch for the process, whose events the
// handlers of the components named in handlers hear; -v shows each event
// once, naming them.
func (c *Client) WatchShared(plural, handlers string, h func(Event)) {
	c.s.Requests[c.Actor]++
	c.s.watch(c.Actor, plural, "", h).shared = handlers
}

// WatchNode opens a watch on pods bound to node.
func (c *Client) WatchNode(plural, node string, h func(Event)) {
	c.s.Requests[c.Actor]++
	c.s.watch(c.Actor, plural, node, h)
}

func nodeOf(obj runtime.Object) string {
	if p, ok := obj.(*corev1.Pod); ok {
		return p.Spec.NodeName
	}
	return ""
}

func objectRef(obj runtime.Object) string {
	m := Meta(obj)
	return refPath(ResourceOf(obj), m.GetNamespace(), m.GetName())
}

// refPath is "resource/namespace/name" (or "resource/name" for a
// cluster-scoped resource) for the object of r named ns/name.
func refPath(r Resource, ns, name string) string {
	if r.Namespaced {
		return r.Plural + "/" + ns + "/" + name
	}
	return r.Plural + "/" + name
}

// ObjectRef is "resource/namespace/name" for obj.
func ObjectRef(obj runtime.Object) string { return objectRef(obj) }
