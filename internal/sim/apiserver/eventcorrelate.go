package apiserver

import (
	"slices"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/fnv1a"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// The core/v1 event recorder's correlator (client-go
// tools/record/events_cache.go EventCorrelator.EventCorrelate): every event
// a controller or the kubelet records passes, in this order,
//
//  1. the aggregator (EventAggregator): events that share source, object,
//     type and reason but differ in message are "similar"; from the 10th
//     distinct message within 10 minutes on, the recorder writes one
//     aggregate event whose message starts "(combined from similar events): "
//     (EventAggregate inserts the message into the record's set, then
//     combines unless the set is still smaller than
//     defaultAggregateMaxEvents, 10);
//  2. the logger (eventLogger.eventObserve): an event whose key it has seen
//     becomes a PATCH of the Event written for that key, count+1, new
//     lastTimestamp and message, instead of a create. The key is the whole
//     event (getEventKey, message included), or for an aggregate event the
//     aggregation key, so every later combined event patches the one
//     aggregate Event;
//  3. the spam filter (EventSourceObjectSpamFilter.Filter): a token bucket
//     per source, object and type (getSpamKey), burst 25, refilled at 1/300
//     per second (defaultSpamBurst, defaultSpamQPS): an event without a
//     token is not sent at all. It runs last, so patches spend tokens too,
//     and the logger has already counted a dropped event: the next PATCH
//     that gets through carries a count that includes it.
//
// Each stage keeps an LRU of maxLruCacheEntries (4096) records per
// recorder; one recorder per component here, one Client (every controller
// of kube-controller-manager has its own broadcaster and recorder, e.g.
// pkg/controller/replicaset/replica_set.go NewBaseController; the kubelet
// one, cmd/kubelet/app/server.go).
//
// The kubelet's container events carry involvedObject.fieldPath
// (spec.containers{name}, ContainerEvent): getEventKey includes it, the
// aggregation and spam keys do not.
//
// Left out: the broadcaster's serialization: upstream one goroutine
// writes a recorder's events one request at a time (event.go
// recordToSink), here each create goes out when recorded.
const (
	aggregateMaxEvents = 10
	aggregateInterval  = 600 * time.Second
	// correlatorCacheSize is the size of each of the three LRUs
	// (events_cache.go maxLruCacheEntries): the least recently used record
	// is forgotten beyond it, so memory stays bounded however many objects
	// a component reports on.
	correlatorCacheSize = 4096
	// spamBurst and spamQPS are defaultSpamBurst and defaultSpamQPS; the
	// rate is a float32 there (flowcontrol.NewTokenBucketPassiveRateLimiterWithClock),
	// kept as one here so a token is back after the same 300 s.
	spamBurst = 25
)

var spamQPS = float64(float32(1. / 300.))

// CombinedPrefix starts the message of an aggregate event
// (EventAggregatorByReasonMessageFunc).
const CombinedPrefix = "(combined from similar events): "

// aggregateKey is what makes events similar (EventAggregatorByReasonFunc:
// source, involved object, type and reason). The source is the client's
// own and the object's UID names it; the strings are shared with the
// object and the caller, not concatenated.
type aggregateKey struct {
	uid, typ, reason string
}

// aggregateRecord is one group of similar events.
//
// The records hold hashes (hashStrings), not the strings: the correlator's
// three LRUs are one entry per distinct event a component reports, most of
// them the kubelets' per-pod events at scale, and a hash keeps neither the
// message text nor the key's string headers alive. Two keys or messages
// sharing a hash (odds 2^-64 a pair) would count as one.
//
// Most groups see one message (a kubelet's Pulling, Created, ... of a
// pod): the first one's hash is kept in the record, any further ones in
// the correlator's more, by the record's key, so the record holds no
// pointer.
type aggregateRecord struct {
	last  time.Duration
	first uint64 // hash of the first message seen
	n     uint8  // distinct messages seen, at most aggregateMaxEvents-1
}

// hashStrings is a 64-bit FNV-1a of the strings, each followed by a byte
// that UTF-8 text never contains, so ("ab", "c") and ("a", "bc") differ.
func hashStrings(parts ...string) uint64 {
	h := fnv1a.Offset
	for _, s := range parts {
		h = h.Str(s).Byte(0xff)
	}
	return uint64(h)
}

// logKey is the logger's key: the whole event (getEventKey), or the
// aggregation key for an aggregate event (combined, msg "").
type logKey struct {
	agg       aggregateKey
	msg       string
	fieldPath string // involvedObject.fieldPath: getEventKey includes it
	combined  bool
}

// hashFrom is the key as the logger's LRU holds it, hashing on from k.agg's
// hash: hashStrings(uid, typ, reason, msg[, fieldPath]), and a 1 byte for a
// combined key (hashStrings is one pass over its parts in order).
func (k logKey) hashFrom(agg uint64) uint64 {
	h := fnv1a.Hash(agg).Str(k.msg).Byte(0xff)
	if k.fieldPath != "" {
		h = h.Str(k.fieldPath).Byte(0xff)
	}
	if k.combined {
		h = h.Byte(1)
	}
	return uint64(h)
}

// eventLog is what the logger remembers of the Event a key writes to
// (events_cache.go eventLog): its count and first timestamp, and what its
// create answered that a PATCH must name (the Event's body is not kept;
// upstream's logger keeps only the name and resourceVersion).
//
// The recorder names an Event itself (eventName, as makeEvent:
// <object>.<unix nanoseconds in hex>); the logger learns it (the
// nanoseconds: every event of a key is about the same object), with the uid
// and creationTimestamp a PATCH carries, from the create's answer, and a
// PATCH recorded before that waits for it (upstream the broadcaster's
// single goroutine sends the PATCH only after the create returned anyway,
// event.go recordToSink).
type eventLog struct {
	count    int32
	answered bool // the create has answered
	first    time.Duration
	created  int64  // the Event's creationTimestamp, Unix seconds
	nano     int64  // its name's timestamp (eventName): 0 until the create answers, or when it failed
	uid      logUID // the Event's, from the same answer
}

// keys are an event's spam key (getSpamKey: source, the client, involved
// object and type) and aggregation key, as the LRUs hold them, in one pass:
// hashStrings(uid, typ) and hashStrings(uid, typ, reason), whose parts start
// with the same two.
func (k aggregateKey) keys() (spam, agg uint64) {
	h := fnv1a.Offset.Str(k.uid).Byte(0xff).Str(k.typ).Byte(0xff)
	return uint64(h), uint64(h.Str(k.reason).Byte(0xff))
}

// tokenBucket is golang.org/x/time/rate's limiter as TryAccept uses it:
// full at first, refilled continuously at spamQPS up to the burst.
type tokenBucket struct {
	tokens float64
	last   time.Duration
}

func (b *tokenBucket) take(now time.Duration) bool {
	b.tokens = min(float64(spamBurst), b.tokens+(now-b.last).Seconds()*spamQPS)
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// correlator is one recorder's state: the three LRUs, and the PATCHes
// recorded before the create of their Event answered, by its log entry
// (kept beside the entries, as few are waiting at any time).
type correlator struct {
	similar lru[aggregateRecord] // by aggregateKey.keys' agg
	more    map[uint64][]uint64  // a record's message hashes past its first, by its key
	logged  lru[eventLog]        // by logKey.hashFrom
	spam    lru[tokenBucket]     // by aggregateKey.keys' spam
	waiting map[lruRef][]*eventBody
	// orphans are log entries forgotten while PATCHes waited for their
	// create's answer: the waiting PATCHes still name the Event it
	// answers (as upstream's goroutine holds its eventLog copy).
	orphans map[lruRef]*eventLog
	uids    []types.UID // uids an answer gave that are not a uidDraw's text (logUID)
	// Bodies whose events are over, to reuse (release).
	bodies freeList[eventBody]
	v1s    freeList[v1Body]
	authz  [2]eventAuthz // create, patch (eventAuthorized)
	// comp is source.component for actor and override (component).
	actor, override, comp string
}

// component is the source.component of c's events: its Component, or its
// Actor up to a "/" (kubelet/node-1: kubelet), worked out once per client.
func (corr *correlator) component(c *Client) string {
	if corr.comp == "" || corr.actor != c.Actor || corr.override != c.Component {
		comp, _, _ := strings.Cut(c.Actor, "/")
		if c.Component != "" {
			comp = c.Component
		}
		corr.actor, corr.override, corr.comp = c.Actor, c.Component, comp
	}
	return corr.comp
}

func keyOf(regarding runtime.Object, typ, reason string) aggregateKey {
	m := Meta(regarding)
	return aggKey(string(m.GetUID()), m.GetNamespace(), m.GetName(), typ, reason)
}

func aggKey(uid, ns, name, typ, reason string) aggregateKey {
	if uid == "" { // not stored yet: the name stands for it
		uid = ns + "/" + name
	}
	return aggregateKey{uid: uid, typ: typ, reason: reason}
}

// aggregated reports whether the recorder writes the event of key with
// msg as an aggregate one, with CombinedPrefix before msg (eventBody's
// message writes it out, only when read).
func (c *Client) aggregated(key uint64, msg string) bool {
	now := c.s.eng.Now()
	corr := &c.corr
	if corr.similar.evicted == nil {
		corr.similar.evicted = corr.forgetSimilar
	}
	r := corr.similar.get(key)
	if r == nil || now-r.last > aggregateInterval {
		if r == nil {
			r = corr.similar.insert(key, aggregateRecord{})
		} else {
			*r = aggregateRecord{} // Cache.Add's update: get made it the most recent
		}
		if corr.more != nil {
			delete(corr.more, key)
		}
	}
	r.last = now
	mh := hashStrings(msg)
	if r.n > 0 && (r.first == mh || slices.Contains(corr.more[key], mh)) {
		return false
	}
	if int(r.n)+1 < aggregateMaxEvents {
		if r.n == 0 {
			r.first = mh
		} else {
			if corr.more == nil {
				corr.more = map[uint64][]uint64{}
			}
			corr.more[key] = append(corr.more[key], mh)
		}
		r.n++
		return false
	}
	// Combined. Upstream inserts the message and then pops an arbitrary
	// one (localKeys.PopAny, map order) so the set stays at 9; popping the
	// one just inserted is the deterministic choice: the 9 remembered
	// messages stay the first 9.
	return true
}

// Event records a Kubernetes Event through the API, as client-go's core/v1
// event recorder does: through the correlator (aggregate, count, filter),
// then POST events for a new one or PATCH events/NAME for one seen before;
// a step for the story either way.
func (c *Client) Event(phase trace.Phase, regarding runtime.Object, typ, reason, msg string) {
	c.ContainerEvent(phase, regarding, "", typ, reason, msg)
}

// ContainerEvent is Event about one container of a pod: fieldPath is its
// field path (spec.containers{web}), as the kubelet's container reference
// carries it (pkg/kubelet/container/ref.go GenerateContainerRef); "" for
// the object as a whole.
//
// Recording is asynchronous, as client-go's is (tools/record/event.go):
// Eventf only queues the event on the broadcaster, and the goroutine
// StartRecordingToSink started writes it later (recordToSink: correlate,
// then POST or PATCH). So an event trails the action it reports and the
// requests the caller sends right after it: it is written in a later
// engine event at the same virtual time, in the order recorded. It keeps
// the time it was recorded (makeEvent: its timestamps and name); the step
// is recorded when it is written. Left out: upstream's sink writes one
// event at a time, each after the previous one's answer (recordEvent is a
// blocking call); here a burst of events goes out at once.
func (c *Client) ContainerEvent(phase trace.Phase, regarding runtime.Object, fieldPath, typ, reason, msg string) {
	m := Meta(regarding)
	b := c.corr.bodies.get()
	*b = eventBody{phase: phase, kind: ResourceOf(regarding).Kind, objNS: m.GetNamespace(), objName: m.GetName(), objUID: string(m.GetUID()),
		fieldPath: fieldPath, typ: typ, reason: reason, msg: msg, at: c.s.eng.Now(), wr: eventWrite{run: b.wr.run}}
	b.aggUID = aggKey(b.objUID, b.objNS, b.objName, typ, reason).uid
	b.nano = c.s.eventNano(b.at) // makeEvent names every event it makes
	b.wr.body = b
	c.queue(&b.wr)
}

// queue hands an event to the broadcaster: its goroutine takes it (the
// body's queued) soon, in the engine's sense. The write's run is its
// callback then, and the same one again for every stage of its requests.
func (c *Client) queue(w *eventWrite) {
	if w.run == nil {
		w.run = w.step
	}
	w.c, w.stage = c, stageQueued
	c.s.eng.Soon(w.run)
}

// queued is the recorder's sink taking the event (recordToSink).
func (b *eventBody) queued() { b.wr.c.recordToSink(b) }

// freeList keeps a client's released bodies of one kind (eventBody,
// v1Body) for its next events.
type freeList[T any] []*T

// get is a released body to reuse, or a new one.
func (f *freeList[T]) get() *T {
	if n := len(*f); n > 0 {
		b := (*f)[n-1]
		*f = (*f)[:n-1]
		return b
	}
	return new(T)
}

// put keeps b, which nothing refers to any more, for get.
func (f *freeList[T]) put(b *T) { *f = append(*f, b) }

// release keeps b, cleared, for the client's next event: nothing refers
// to it any more (see eventRequester). Its run, bound to it, stays.
func (b *eventBody) release() {
	c := b.wr.c
	*b = eventBody{wr: eventWrite{run: b.wr.run}}
	c.corr.bodies.put(b)
}

// recordToSink correlates one queued event and writes it.
func (c *Client) recordToSink(b *eventBody) {
	phase, kind, fieldPath, typ, reason := b.phase, b.kind, b.fieldPath, b.typ, b.reason
	agg := aggregateKey{uid: b.aggUID, typ: typ, reason: reason}
	sk, ak := agg.keys()
	combined := c.aggregated(ak, b.msg)
	b.combined = combined
	now := c.s.eng.Now()
	// The logger counts the event before the filter decides (eventObserve
	// runs before filterFunc in EventCorrelate).
	lk := logKey{agg: agg, combined: combined, fieldPath: fieldPath}
	if !combined {
		lk.msg = b.msg
	}
	lh := lk.hashFrom(ak)
	if c.corr.logged.evicted == nil {
		c.corr.logged.evicted = c.corr.forgetLogged
	}
	log := c.corr.logged.get(lh)
	if log != nil && log.count > 0 {
		log.count++
	} else if log == nil {
		log = c.corr.logged.insert(lh, eventLog{count: 1, first: b.at})
	} else {
		*log = eventLog{count: 1, first: b.at} // Cache.Add's update: get made it the most recent
	}
	count := log.count
	b.ref = c.corr.logged.headRef() // lh's entry: get or insert made it the most recent

	bucket := c.corr.spam.get(sk)
	if bucket == nil {
		bucket = c.corr.spam.insert(sk, tokenBucket{tokens: spamBurst, last: now})
	}
	if !bucket.take(now) {
		if count == 1 {
			// No Event will be created for this key: a later one that
			// gets through must create it (patchEvent without a name),
			// as upstream's PATCH to a name never created answers
			// NotFound and recordEvent creates it.
			log.answered = true
		}
		c.s.EventsDropped++
		if !c.s.rec.Full() {
			c.s.rec.Add(trace.Step{Phase: phase, Actor: c.Actor, Kind: "event.spam", Object: b.objRef(),
				Fields: withFieldPath(trace.F("type", typ, "reason", reason, "message", b.message(), "kind", kind, "about", trace.EventTarget(kind, b.objName)), fieldPath)})
		}
		b.release() // not sent
		return
	}

	component := c.corr.component(c)
	// What the recorder would write (makeEvent): built into a corev1.Event
	// only if the request goes through the pipeline (eventcount.go).
	b.component, b.first, b.count, b.ns = component, log.first, count, b.objNS
	if b.ns == "" {
		b.ns = "default"
	}
	if count == 1 {
		c.s.EventsCreated++
		if !c.s.rec.Full() {
			c.s.rec.Add(trace.Step{Phase: phase, Actor: c.Actor, Kind: "event", Object: b.objRef(),
				Fields: withFieldPath(trace.F("type", typ, "reason", reason, "message", b.message(), "kind", kind, "about", trace.EventTarget(kind, b.objName)), fieldPath)})
		}
		c.createEvent(b)
		return
	}
	c.s.EventsPatched++
	if !c.s.rec.Full() {
		c.s.rec.Add(trace.Step{Phase: phase, Actor: c.Actor, Kind: "event.patch", Object: b.objRef(),
			Fields: withFieldPath(trace.F("type", typ, "reason", reason, "message", b.message(), "kind", kind, "about", trace.EventTarget(kind, b.objName), "count", count), fieldPath)})
	}
	if log.answered {
		c.patchEvent(b)
		return
	}
	if c.corr.waiting == nil {
		c.corr.waiting = map[lruRef][]*eventBody{}
	}
	c.corr.waiting[b.ref] = append(c.corr.waiting[b.ref], b)
}

// forgetSimilar drops a forgotten aggregate record's further messages.
func (c *correlator) forgetSimilar(key uint64, _ lruRef, _ *aggregateRecord) { delete(c.more, key) }

// forgetLogged keeps a forgotten log entry that PATCHes wait on as an
// orphan (see correlator).
func (c *correlator) forgetLogged(_ uint64, ref lruRef, le *eventLog) {
	if _, ok := c.waiting[ref]; !ok {
		return
	}
	if c.orphans == nil {
		c.orphans = map[lruRef]*eventLog{}
	}
	o := *le
	c.orphans[ref] = &o
}

// logAt is the log entry ref names, an orphan if it was forgotten while
// PATCHes waited on it, or nil.
func (c *correlator) logAt(ref lruRef) *eventLog {
	if le := c.logged.at(ref); le != nil {
		return le
	}
	return c.orphans[ref]
}

// withFieldPath adds an event's involvedObject.fieldPath to its step, when
// it has one (kubectl describe prints it before the message).
func withFieldPath(f []trace.Field, fieldPath string) []trace.Field {
	if fieldPath == "" {
		return f
	}
	return append(f, trace.F("fieldpath", fieldPath)...)
}
