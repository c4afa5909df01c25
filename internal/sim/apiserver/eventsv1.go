package apiserver

import (
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
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
	res := ResourceOf(regarding)
	at := c.s.eng.Now()
	ref := objectRef(regarding)
	ev := &eventsv1.Event{
		EventTime:           metav1.NewMicroTime(Epoch.Add(at)),
		ReportingController: c.Actor,
		ReportingInstance:   c.Actor + "-control-plane",
		Action:              action,
		Reason:              reason,
		Regarding:           corev1.ObjectReference{Kind: res.Kind, Namespace: m.GetNamespace(), Name: m.GetName(), UID: m.GetUID(), APIVersion: "v1"},
		Note:                note,
		Type:                typ,
	}
	ev.Namespace = m.GetNamespace()
	if ev.Namespace == "" {
		ev.Namespace = "default"
	}
	ev.Name = c.s.eventName(m.GetName(), at) // event_recorder.go generateEvent: the same scheme
	c.s.eng.Soon(func() {
		if !c.s.rec.Full() {
			c.s.rec.Add(trace.Step{Phase: phase, Actor: c.Actor, Kind: "event", Object: ref,
				Fields: trace.F("type", typ, "reason", reason, "message", note, "kind", res.Kind, "about", trace.EventTarget(res.Kind, ev.Regarding.Name), "api", "events.k8s.io/v1", "action", action)})
		}
		c.send(request{verb: "create", obj: ev, res: ResourceOf(ev), ns: ev.Namespace}, nil)
	})
}
