package apiserver

import (
	"encoding/json"
	"time"

	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// The event recorders' writes: a create (POST events) or a count PATCH of
// one Event. What the recorder would send is kept as an eventBody and
// built into the real request (a corev1.Event, the patch's JSON) only when
// the request goes through the API server's pipeline; an Event nothing can
// show is only counted (eventcount.go).

// eventRes is an Event API's resource and where its keys start.
type eventRes struct {
	Resource
	keyPrefix string // Key(Resource, ns, name) is keyPrefix + ns + "/" + name
}

func newEventRes(obj runtime.Object) *eventRes {
	r := ResourceOf(obj)
	k := Key(r, "", "") // "/registry/events//"
	return &eventRes{Resource: r, keyPrefix: k[:len(k)-1]}
}

// The resources of the two Event APIs.
var (
	coreEvents = newEventRes(&corev1.Event{})
	v1Events   = newEventRes(&eventsv1.Event{})
)

// eventBody is a core/v1 Event as the recorder makes it (makeEvent, with
// the logger's count and first timestamp): the involved object, what
// happened, and the Event's own name and namespace.
type eventBody struct {
	kind, objNS, objName, objUID, fieldPath string // involvedObject
	typ, reason, msg, component             string
	first, at                               time.Duration // firstTimestamp; lastTimestamp (when recorded)
	count                                   int32
	nano                                    int64  // the Event's name is eventName(objName, nano)
	ns                                      string // the Event's namespace
	// A PATCH names the stored Event: the uid and creationTimestamp its
	// create answered (eventLog).
	uid     eventUID
	created int64
}

// event is the corev1.Event the recorder sends.
func (b *eventBody) event() *corev1.Event {
	ev := &corev1.Event{
		InvolvedObject: corev1.ObjectReference{Kind: b.kind, Namespace: b.objNS, Name: b.objName, UID: types.UID(b.objUID), FieldPath: b.fieldPath},
		Type:           b.typ, Reason: b.reason, Message: b.msg,
		Source:         corev1.EventSource{Component: b.component},
		FirstTimestamp: metav1.NewTime(Epoch.Add(b.first)), LastTimestamp: metav1.NewTime(Epoch.Add(b.at)), Count: b.count,
	}
	ev.Name, ev.Namespace = eventName(b.objName, b.nano), b.ns
	return ev
}

// createRequest is the POST of the Event.
func (b *eventBody) createRequest() request {
	ev := b.event()
	return request{verb: "create", obj: ev, res: coreEvents.Resource, ns: ev.Namespace}
}

// patchBody is the strategic merge patch eventObserve computes
// (strategicpatch.CreateTwoWayMergePatch from a copy with count 0, the
// zero lastTimestamp and no message to the event): those three fields.
type patchBody struct {
	Count         int32       `json:"count"`
	LastTimestamp metav1.Time `json:"lastTimestamp"`
	Message       string      `json:"message"`
}

// patchRequest is the PATCH of the stored Event, carrying the Event as the
// patch leaves it: the recorder's copy with the stored one's identity
// (name, uid, creationTimestamp); firstTimestamp is the logger's, as stored.
func (b *eventBody) patchRequest() request {
	ev := b.event()
	ev.UID, ev.CreationTimestamp = b.uid.get(), metav1.NewTime(time.Unix(b.created, 0).UTC())
	body, _ := json.Marshal(patchBody{Count: ev.Count, LastTimestamp: ev.LastTimestamp, Message: ev.Message})
	return request{verb: "patch", res: coreEvents.Resource, ns: ev.Namespace, name: ev.Name, body: string(body), obj: ev}
}

// eventWrite is one recorder request as the counted path needs it: the
// verb and the Event's resource, namespace and name (eventName(obj,
// nano), written out only when read); build makes the real request for
// the pipeline.
type eventWrite struct {
	verb    string // create, patch
	res     *eventRes
	ns, obj string
	nano    int64
	build   func() request
}

// eventAnswer is what a create's answer tells the recorder: the stored
// Event's name (its timestamp: the object's name is the recorder's), uid
// and creationTimestamp (Unix seconds).
type eventAnswer struct {
	nano    int64
	uid     eventUID
	created int64
}

// eventDone receives an Event request's answer.
type eventDone func(a eventAnswer, st *Status)

// fullDone is done as the pipeline answers w (nil for nil): the stored
// Event has the name w asked for (recorders do not generate names).
func fullDone(w *eventWrite, done eventDone) Done {
	if done == nil {
		return nil
	}
	nano := w.nano
	return func(obj runtime.Object, st *Status) {
		var a eventAnswer
		if st == nil && obj != nil {
			m := Meta(obj)
			a = eventAnswer{nano: nano, uid: eventUID{s: m.GetUID()}, created: m.GetCreationTimestamp().Unix()}
		}
		done(a, st)
	}
}

// sendEvent sends an Event request as send does, one request latency to
// the API server; there it is only counted when nothing can see it
// (countEvent), else built and handled.
func (c *Client) sendEvent(w eventWrite, done eventDone) {
	s := c.s
	s.Requests[c.Actor]++
	if c.held != nil {
		s.EventsBuilt++
		c.held.hold(w.build(), fullDone(&w, done))
		return
	}
	s.eng.After(RequestLatency, func() {
		if s.countEvent(c, &w, done) {
			return
		}
		s.EventsBuilt++
		newCall(s, c, w.build(), fullDone(&w, done)).handle()
	})
}

// createEvent POSTs b's Event; le learns the name the API server gave it.
// le points into the logger's LRU entry: an entry forgotten meanwhile
// still gets the answer, and nothing reads it again.
func (c *Client) createEvent(b *eventBody, le *eventLog) {
	if b.nano == 0 {
		b.nano = c.s.eventNano(b.at)
	}
	w := eventWrite{verb: "create", res: coreEvents, ns: b.ns, obj: b.objName, nano: b.nano, build: b.createRequest}
	c.sendEvent(w, func(a eventAnswer, st *Status) {
		le.answered = true
		if st == nil {
			le.nano, le.uid, le.created = a.nano, a.uid, a.created
		}
		waiting := c.corr.waiting[le]
		delete(c.corr.waiting, le)
		for _, f := range waiting {
			f()
		}
	})
}

// patchEvent PATCHes the Event le stands for with b's count, last
// timestamp and message, as the same user (application/strategic-merge-patch+json).
// Without a stored Event (its create failed) the event is created instead,
// as recordEvent does when the PATCH answers NotFound; so is one whose
// PATCH does answer NotFound.
func (c *Client) patchEvent(b *eventBody, le *eventLog) {
	if le.nano == 0 {
		c.createEvent(b, le)
		return
	}
	b.nano, b.uid, b.created = le.nano, le.uid, le.created
	w := eventWrite{verb: "patch", res: coreEvents, ns: b.ns, obj: b.objName, nano: b.nano, build: b.patchRequest}
	c.sendEvent(w, func(_ eventAnswer, st *Status) {
		if st != nil && st.Code == 404 {
			// recordEvent creates it under the name it had (only the
			// resourceVersion is cleared)
			fresh := *b
			fresh.uid, fresh.created = eventUID{}, 0
			c.createEvent(&fresh, le)
		}
	})
}
