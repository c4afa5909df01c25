package apiserver

import (
	"time"

	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// EventV1 records an event through events.k8s.io/v1, as the new events
// library (k8s.io/client-go/tools/events) does for kube-scheduler:
// reportingController and action instead of source, note instead of
// message. `kubectl describe` shows it like a core/v1 event.
//
// Recording is asynchronous: the recorder queues the event on its
// broadcaster, whose watcher's recordToSink writes each event on a
// goroutine of its own (tools/events/event_broadcaster.go), so the create
// goes out after the caller's own requests of the moment — in a later
// engine event at the same virtual time — and, unlike core/v1's sink,
// does not wait for the previous event's answer.
func (c *Client) EventV1(phase trace.Phase, regarding runtime.Object, typ, reason, action, note string) {
	m := Meta(regarding)
	b := c.corr.v1s.get()
	*b = v1Body{phase: phase, kind: ResourceOf(regarding).Kind, objNS: m.GetNamespace(), objName: m.GetName(), objUID: m.GetUID(),
		typ: typ, reason: reason, action: action, note: note, actor: c.Actor, at: c.s.eng.Now(), ns: m.GetNamespace(), wr: eventWrite{run: b.wr.run}}
	if b.ns == "" {
		b.ns = "default"
	}
	b.nano = c.s.eventNano(b.at) // event_recorder.go generateEvent: the same name scheme
	b.wr = eventWrite{verb: "create", res: v1Events, ns: b.ns, obj: b.objName, nano: b.nano, body: b, run: b.wr.run}
	c.queue(&b.wr)
}

// queued is the broadcaster's goroutine taking the event: its step, then
// its create.
func (b *v1Body) queued() {
	c := b.wr.c
	if !c.s.rec.Full() {
		c.s.rec.Add(trace.Step{Phase: b.phase, Actor: c.Actor, Kind: "event", Object: eventObjectRef(b.kind, b.objNS, b.objName),
			Fields: trace.F("type", b.typ, "reason", b.reason, "message", b.note, "kind", b.kind, "about", trace.EventTarget(b.kind, b.objName), "api", "events.k8s.io/v1", "action", b.action)})
	}
	c.sendEvent(&b.wr)
}

// v1Body is an events.k8s.io/v1 Event as the recorder makes it, built
// only when its create goes through the pipeline (eventwrite.go).
type v1Body struct {
	phase                            trace.Phase
	kind, objNS, objName             string // regarding
	objUID                           types.UID
	typ, reason, action, note, actor string
	at                               time.Duration
	nano                             int64  // the Event's name is eventName(objName, nano)
	ns                               string // the Event's namespace
	wr                               eventWrite
}

// request is the POST of the Event (verb "create").
func (b *v1Body) request(string) request {
	ev := &eventsv1.Event{
		EventTime:           metav1.NewMicroTime(Epoch.Add(b.at)),
		ReportingController: b.actor,
		ReportingInstance:   b.actor + "-control-plane",
		Action:              b.action,
		Reason:              b.reason,
		Regarding:           corev1.ObjectReference{Kind: b.kind, Namespace: b.objNS, Name: b.objName, UID: b.objUID, APIVersion: "v1"},
		Note:                b.note,
		Type:                b.typ,
	}
	ev.Name, ev.Namespace = eventName(b.objName, b.nano), b.ns
	return request{verb: "create", obj: ev, res: v1Events.Resource, ns: ev.Namespace}
}

// release keeps b, cleared, for the client's next event: nothing refers
// to it any more (see eventRequester).
func (b *v1Body) release() {
	c := b.wr.c
	*b = v1Body{wr: eventWrite{run: b.wr.run}}
	c.corr.v1s.put(b)
}
