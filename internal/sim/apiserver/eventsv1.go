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
func (c *Client) EventV1(phase trace.Phase, regarding runtime.Object, typ, reason, action, note string) {
	m := Meta(regarding)
	res := ResourceOf(regarding)
	if !c.s.rec.Full() {
		c.s.rec.Add(trace.Step{Phase: phase, Actor: c.Actor, Kind: "event", Object: objectRef(regarding),
			Fields: trace.F("type", typ, "reason", reason, "message", note, "kind", res.Kind, "about", trace.EventTarget(res.Kind, m.GetName()), "api", "events.k8s.io/v1", "action", action)})
	}
	ev := &eventsv1.Event{
		EventTime:           metav1.NewMicroTime(Epoch.Add(c.s.eng.Now())),
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
	ev.Name = c.s.eventName(m.GetName()) // event_recorder.go generateEvent: the same scheme
	c.send(request{verb: "create", obj: ev, res: ResourceOf(ev), ns: ev.Namespace}, nil)
}
