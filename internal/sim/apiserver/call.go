package apiserver

import (
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Calls is a client used from inside an engine proc: each call sends its
// request exactly as the callback form does (same latency, same engine
// event), parks the proc, and returns in the engine event that carries the
// answer. Code on it reads like client-go's typed clients:
//
//	pod, err := r.c.In(p).Create(pod)
type Calls struct {
	c *Client
	p *engine.Proc
}

// In is the client's blocking form for proc p.
func (c *Client) In(p *engine.Proc) Calls { return Calls{c: c, p: p} }

// answer is one request's result, filled by the Done that wakes the proc:
// p, the proc to wake, is nil once it is answered (32 bytes, with no flag
// of its own).
type answer struct {
	p   *engine.Proc
	obj runtime.Object
	err *Status
}

func (a *answer) done(obj runtime.Object, err *Status) {
	p := a.p
	if p == nil {
		return // a second answer: the call is over, nothing to wake
	}
	a.obj, a.err, a.p = obj, err, nil
	p.Wake()
}

func (k Calls) do(r request) (runtime.Object, *Status) {
	a := &answer{p: k.p}
	k.c.send(r, a.done)
	// Only the answer ends the call: a wake meant for another park (a
	// timer of an earlier Sleep) parks the proc again.
	for a.p != nil {
		k.p.Park()
	}
	return a.obj, a.err
}

// Create is Client.Create, blocking.
func (k Calls) Create(obj runtime.Object) (runtime.Object, *Status) {
	m := Meta(obj)
	return k.do(request{verb: "create", obj: obj, res: ResourceOf(obj), ns: m.GetNamespace(), name: m.GetName()})
}

// Get is Client.Get, blocking.
func (k Calls) Get(res Resource, ns, name string) (runtime.Object, *Status) {
	return k.do(request{verb: "get", res: res, ns: ns, name: name})
}

// Update is Client.Update, blocking.
func (k Calls) Update(obj runtime.Object) (runtime.Object, *Status) {
	m := Meta(obj)
	return k.do(request{verb: "update", obj: obj, res: ResourceOf(obj), ns: m.GetNamespace(), name: m.GetName()})
}

// UpdateStatus is Client.UpdateStatus, blocking.
func (k Calls) UpdateStatus(obj runtime.Object) (runtime.Object, *Status) {
	m := Meta(obj)
	return k.do(request{verb: "update", subresource: "status", obj: obj, res: ResourceOf(obj), ns: m.GetNamespace(), name: m.GetName()})
}

// Patch is Client.Patch, blocking.
func (k Calls) Patch(res Resource, ns, name, body string, apply func(runtime.Object)) (runtime.Object, *Status) {
	return k.do(request{verb: "patch", res: res, ns: ns, name: name, body: body, apply: apply})
}

// PatchRV is Client.PatchRV, blocking.
func (k Calls) PatchRV(res Resource, ns, name, rv, body string, apply func(runtime.Object)) (runtime.Object, *Status) {
	return k.do(request{verb: "patch", res: res, ns: ns, name: name, body: body, apply: apply, rv: rv})
}

// PatchStatus is Client.PatchStatus, blocking.
func (k Calls) PatchStatus(res Resource, ns, name, body string, apply func(runtime.Object)) (runtime.Object, *Status) {
	return k.do(request{verb: "patch", subresource: "status", res: res, ns: ns, name: name, body: body, apply: apply})
}

// Delete is Client.Delete, blocking.
func (k Calls) Delete(res Resource, ns, name string) (runtime.Object, *Status) {
	return k.do(request{verb: "delete", res: res, ns: ns, name: name})
}

// Bind is Client.Bind, blocking.
func (k Calls) Bind(pod *corev1.Pod, node string) (runtime.Object, *Status) {
	return k.do(request{verb: "create", subresource: "binding", res: ResourceOf(pod), ns: pod.Namespace, name: pod.Name, node: node})
}

// GetScale reads the scale subresource of a Deployment or ReplicaSet (GET
// …/scale): the Scale built from the stored parent (scale.go), as the HPA
// controller's scale client does before it decides
// (pkg/controller/podautoscaler/horizontal.go scaleForResourceMappings).
func (k Calls) GetScale(res Resource, ns, name string) (runtime.Object, *Status) {
	return k.do(request{verb: "get", subresource: "scale", res: res, ns: ns, name: name})
}

// UpdateScale PUTs the Scale read at resourceVersion rv with
// spec.replicas set to n (the HPA controller's
// scaleNamespacer.Scales(ns).Update): the API server writes the parent's
// spec.replicas, or answers 409 Conflict when the parent moved on since rv.
func (k Calls) UpdateScale(res Resource, ns, name, rv string, n int32) (runtime.Object, *Status) {
	return k.do(request{verb: "update", subresource: "scale", res: res, ns: ns, name: name, rv: rv,
		apply: func(o runtime.Object) { setScaleReplicas(o, n) }})
}
