package apiserver

import (
	"encoding/json"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/trace"
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
//
// It is made when the event is recorded (ContainerEvent: the object,
// what happened, when) and completed by the correlator (recordToSink:
// the message as aggregated, the count, the first timestamp), and it is
// the request in flight (wr) and what waits for its answer.
type eventBody struct {
	phase                                   trace.Phase
	kind, objNS, objName, objUID, fieldPath string // involvedObject
	typ, reason, msg, component             string
	combined                                bool          // an aggregate event: msg follows CombinedPrefix
	aggUID                                  string        // the aggregateKey's uid (aggKey)
	first, at                               time.Duration // firstTimestamp; lastTimestamp (when recorded)
	count                                   int32
	nano                                    int64  // the Event's name is eventName(objName, nano)
	ns                                      string // the Event's namespace
	// A PATCH names the stored Event: the uid and creationTimestamp its
	// create answered (eventLog).
	uid     eventUID
	created int64
	ref     lruRef     // the logger's entry for the event's key
	wr      eventWrite // the request in flight
}

// message is the Event's message.
func (b *eventBody) message() string {
	if b.combined {
		return CombinedPrefix + b.msg
	}
	return b.msg
}

// objRef is the object's "resource/namespace/name" (objectRef), for a
// step: written out only when one is recorded.
func (b *eventBody) objRef() string { return eventObjectRef(b.kind, b.objNS, b.objName) }

// eventObjectRef is objectRef of an object of kind named ns/name.
func eventObjectRef(kind, ns, name string) string {
	return refPath(resourceOfKind(kind), ns, name)
}

// request is the POST (create) or PATCH (patch) of the Event.
func (b *eventBody) request(verb string) request {
	if verb == "patch" {
		return b.patchRequest()
	}
	return b.createRequest()
}

// event is the corev1.Event the recorder sends.
func (b *eventBody) event() *corev1.Event {
	ev := &corev1.Event{
		InvolvedObject: corev1.ObjectReference{Kind: b.kind, Namespace: b.objNS, Name: b.objName, UID: types.UID(b.objUID), FieldPath: b.fieldPath},
		Type:           b.typ, Reason: b.reason, Message: b.message(),
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
	c       *Client        // the sender (sendEvent)
	body    eventRequester // builds the request
	done    eventDone      // nil: nothing waits for the answer
	// run is the write's one engine callback, which each stage schedules
	// again for the next (step), instead of a closure each.
	run   func()
	stage eventStage
	// What a counted write carries from stage to stage (eventcount.go).
	key uint64      // the Event's key's hash
	rev int64       // the revision it took
	ans eventAnswer // a create's answer
	st  *Status     // the failure it answers
}

// eventStage is where a write is when its run is next called.
type eventStage uint8

const (
	stageQueued eventStage = iota // taken from the recorder's queue (queue)
	stageArrive                   // reaches the API server (sendEvent)
	stageCommit                   // reaches the store (commitEvent)
	stageAnswer                   // its answer reaches the recorder
)

func (w *eventWrite) step() {
	s := w.c.s
	switch w.stage {
	case stageQueued:
		w.body.queued()
	case stageArrive:
		if s.countEvent(w) {
			return
		}
		s.EventsBuilt++
		newCall(w.c, w.body.request(w.verb), fullDone(w)).handle()
	case stageCommit:
		s.commitStage(w)
	case stageAnswer:
		s.answerStage(w)
	}
}

// eventRequester is what a write is about: the body that builds its
// request for its verb, and whose queued takes the event from the
// recorder's queue (queue). release hands the body back for reuse once
// its event is over: dropped by the spam filter, or its counted write
// answered (answerStage), when no closure, waiting list or request holds
// it (a body that went through the pipeline or a held Outbox is left to
// the garbage collector).
type eventRequester interface {
	request(verb string) request
	queued()
	release()
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
type eventDone interface {
	eventAnswered(a eventAnswer, st *Status)
}

// fullDone is w.done as the pipeline answers w (nil for nil): the stored
// Event has the name w asked for (recorders do not generate names).
func fullDone(w *eventWrite) Done {
	done := w.done
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
		done.eventAnswered(a, st)
	}
}

// sendEvent sends an Event request as send does, one request latency to
// the API server; there it is only counted when nothing can see it
// (countEvent), else built and handled.
func (c *Client) sendEvent(w *eventWrite) {
	s := c.s
	w.c = c
	s.Requests[c.Actor]++
	if c.held != nil {
		s.EventsBuilt++
		c.held.hold(w.body.request(w.verb), fullDone(w))
		return
	}
	if w.run == nil {
		w.run = w.step
	}
	w.stage = stageArrive
	s.eng.After(RequestLatency, w.run)
}

// createEvent POSTs b's Event; the log entry b.ref names learns the name
// the API server gave it (eventAnswered).
func (c *Client) createEvent(b *eventBody) {
	if b.nano == 0 {
		b.nano = c.s.eventNano(b.at)
	}
	// run, bound to b.wr, serves every write of b in turn
	b.wr = eventWrite{verb: "create", res: coreEvents, ns: b.ns, obj: b.objName, nano: b.nano, body: b, done: b, run: b.wr.run}
	c.sendEvent(&b.wr)
}

// eventAnswered takes the answer to b's request. A create's tells the log
// entry the Event's name, then the PATCHes waiting on it go; an entry
// forgotten meanwhile is not told: nothing reads it again (unless PATCHes
// wait on it: an orphan then). A PATCH answered NotFound creates the
// Event instead, under the name it had (recordEvent; only the
// resourceVersion is cleared).
func (b *eventBody) eventAnswered(a eventAnswer, st *Status) {
	c := b.wr.c
	if b.wr.verb == "patch" {
		if st != nil && st.Code == 404 {
			fresh := *b
			fresh.uid, fresh.created = eventUID{}, 0
			fresh.wr = eventWrite{} // b's run is bound to b.wr
			c.createEvent(&fresh)
		}
		return
	}
	if le := c.corr.logAt(b.ref); le != nil {
		le.answered = true
		if st == nil {
			le.nano, le.uid, le.created = a.nano, c.corr.logUID(a.uid), a.created
		}
	}
	waiting := c.corr.waiting[b.ref]
	delete(c.corr.waiting, b.ref)
	for _, p := range waiting {
		c.patchEvent(p)
	}
}

// patchEvent PATCHes the Event le stands for with b's count, last
// timestamp and message, as the same user (application/strategic-merge-patch+json).
// Without a stored Event (its create failed) the event is created instead,
// as recordEvent does when the PATCH answers NotFound; so is one whose
// PATCH does answer NotFound.
func (c *Client) patchEvent(b *eventBody) {
	le := c.corr.logAt(b.ref) // kept while this PATCH waited (forgetLogged)
	if le.nano == 0 {
		c.createEvent(b)
		return
	}
	b.nano, b.uid, b.created = le.nano, c.corr.eventUID(le.uid), le.created
	b.wr = eventWrite{verb: "patch", res: coreEvents, ns: b.ns, obj: b.objName, nano: b.nano, body: b, done: b, run: b.wr.run}
	c.sendEvent(&b.wr)
}
