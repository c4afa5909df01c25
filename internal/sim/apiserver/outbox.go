package apiserver

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
)

// Outbox holds what a client has asked for and not yet sent, as raft's
// Ready holds the messages a node wants sent (etcd-io/raft rawnode.go): a
// test reads the requests a component made (Requests), then sends them on
// (Send), or answers one itself (Fail), and so drives the component one
// step at a time. Nothing holds requests unless a test calls Hold.
type Outbox struct {
	c    *Client
	reqs []heldRequest
}

type heldRequest struct {
	r    request
	done Done
}

// Request is a held request as the API server would see it.
type Request struct {
	Verb   string         // HTTP verb: POST, PUT, PATCH, DELETE, GET
	Path   string         // the URL path, subresource included
	Name   string         // the object's name ("" for a generateName create)
	Object runtime.Object // the body of a create or update; nil otherwise
}

// Hold makes the client keep every request it sends in the returned
// outbox until the test sends it.
func (c *Client) Hold() *Outbox {
	if c.held == nil {
		c.held = &Outbox{c: c}
	}
	return c.held
}

func (o *Outbox) hold(r request, done Done) { o.reqs = append(o.reqs, heldRequest{r: r, done: done}) }

// Requests lists the held requests in the order they were made.
func (o *Outbox) Requests() []Request {
	out := make([]Request, len(o.reqs))
	for i, h := range o.reqs {
		out[i] = Request{Verb: verbHTTP(h.r), Path: h.r.path(), Name: h.r.name, Object: h.r.obj}
	}
	return out
}

// Len is how many requests are held.
func (o *Outbox) Len() int { return len(o.reqs) }

// Send sends held request i as the client would have sent it: it reaches
// the API server RequestLatency from now, and its answer comes back as
// usual when the engine runs.
func (o *Outbox) Send(i int) {
	h := o.take(i)
	o.c.s.receive(o.c, h.r, h.done)
}

// SendAll sends every held request, in order, and reports how many.
func (o *Outbox) SendAll() int {
	n := len(o.reqs)
	for range n {
		o.Send(0)
	}
	return n
}

// Fail answers held request i with st now, without sending it: the
// component sees the failure it would get from the API server.
func (o *Outbox) Fail(i int, st *Status) {
	h := o.take(i)
	if h.done != nil {
		h.done(nil, st)
	}
}

// Release sends what is held and lets later requests go out directly.
func (o *Outbox) Release() {
	o.SendAll()
	o.c.held = nil
}

func (o *Outbox) take(i int) heldRequest {
	if i < 0 || i >= len(o.reqs) {
		panic(fmt.Sprintf("apiserver: the outbox holds %d requests, not request %d", len(o.reqs), i))
	}
	h := o.reqs[i]
	o.reqs = append(o.reqs[:i], o.reqs[i+1:]...)
	return h
}
