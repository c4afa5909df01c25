package apiserver

import (
	"slices"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/fnv1a"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	"k8s.io/apimachinery/pkg/runtime"
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
type aggregateRecord struct {
	messages []uint64 // hashes of the distinct messages seen, at most aggregateMaxEvents-1
	last     time.Duration
}

// hash is the key as the aggregator's LRU holds it.
func (k aggregateKey) hash() uint64 { return hashStrings(k.uid, k.typ, k.reason) }

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

// hash is the key as the logger's LRU holds it (see aggregateRecord).
func (k logKey) hash() uint64 {
	h := fnv1a.Hash(hashStrings(k.agg.uid, k.agg.typ, k.agg.reason, k.msg))
	if k.fieldPath != "" {
		h = fnv1a.Hash(hashStrings(k.agg.uid, k.agg.typ, k.agg.reason, k.msg, k.fieldPath))
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
	created  int64    // the Event's creationTimestamp, Unix seconds
	nano     int64    // its name's timestamp (eventName): 0 until the create answers, or when it failed
	uid      eventUID // the Event's, from the same answer
}

// spamKey is getSpamKey: source (the client), involved object and type,
// hashed as the LRU holds it (see aggregateRecord).
func spamKey(uid, typ string) uint64 { return hashStrings(uid, typ) }

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
	similar lru[uint64, aggregateRecord] // by aggregateKey.hash
	logged  lru[uint64, eventLog]        // by logKey.hash
	spam    lru[uint64, tokenBucket]     // by spamKey.hash
	waiting map[*eventLog][]func()
}

// queuedEvent is an event as the recorder queued it: what it is about,
// captured when it was recorded, and when (makeEvent's timestamp). Its
// type and reason are agg's.
type queuedEvent struct {
	phase          trace.Phase
	kind           string // the object's
	ns, name, uid  string
	nano           int64 // makeEvent's name is <object>.<hex of this UnixNano>
	agg            aggregateKey
	fieldPath, msg string
	at             time.Duration
}

// ref is the object's "resource/namespace/name" (objectRef), for a step:
// written out only when one is recorded.
func (q *queuedEvent) ref() string {
	r := Resource{Kind: q.kind, Plural: Plural(q.kind), Namespaced: !clusterScoped[q.kind]} // as ResourceOf derives them
	if r.Namespaced {
		return r.Plural + "/" + q.ns + "/" + q.name
	}
	return r.Plural + "/" + q.name
}

// lru is a least recently used cache of at most correlatorCacheSize
// entries (k8s.io/utils/lru in upstream), a map and an intrusive doubly
// linked list.
type lru[K comparable, V any] struct {
	byKey      map[K]*lruEntry[K, V]
	head, tail *lruEntry[K, V]
}

type lruEntry[K comparable, V any] struct {
	key        K
	val        V
	prev, next *lruEntry[K, V] // most recently used at the head
}

func (a *lru[K, V]) unlink(r *lruEntry[K, V]) {
	if r.prev != nil {
		r.prev.next = r.next
	} else {
		a.head = r.next
	}
	if r.next != nil {
		r.next.prev = r.prev
	} else {
		a.tail = r.prev
	}
	r.prev, r.next = nil, nil
}

func (a *lru[K, V]) pushFront(r *lruEntry[K, V]) {
	r.next = a.head
	if a.head != nil {
		a.head.prev = r
	}
	a.head = r
	if a.tail == nil {
		a.tail = r
	}
}

// get returns key's value, made the most recently used, or nil.
func (a *lru[K, V]) get(key K) *V {
	r := a.byKey[key]
	if r == nil {
		return nil
	}
	if r != a.head {
		a.unlink(r)
		a.pushFront(r)
	}
	return &r.val
}

// add stores val under key as the most recently used (Cache.Add), and
// forgets the least recently used entry beyond the size.
func (a *lru[K, V]) add(key K, val V) *V {
	if a.byKey == nil {
		a.byKey = map[K]*lruEntry[K, V]{}
	}
	if old := a.byKey[key]; old != nil {
		old.val = val
		if old != a.head {
			a.unlink(old)
			a.pushFront(old)
		}
		return &old.val
	}
	r := &lruEntry[K, V]{key: key, val: val}
	a.pushFront(r)
	a.byKey[key] = r
	if len(a.byKey) > correlatorCacheSize {
		oldest := a.tail
		a.unlink(oldest)
		delete(a.byKey, oldest.key)
	}
	return &r.val
}

// len is the number of entries, counted along the list.
func (a *lru[K, V]) len() int {
	n := 0
	for r := a.head; r != nil; r = r.next {
		n++
	}
	return n
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

// aggregate returns the message the recorder would write for the event of
// key with msg and whether it is an aggregate one.
func (c *Client) aggregate(agg aggregateKey, msg string) (string, bool) {
	key := agg.hash()
	now := c.s.eng.Now()
	r := c.corr.similar.get(key)
	if r == nil || now-r.last > aggregateInterval {
		r = c.corr.similar.add(key, aggregateRecord{})
	}
	r.last = now
	mh := hashStrings(msg)
	if slices.Contains(r.messages, mh) {
		return msg, false
	}
	if len(r.messages)+1 < aggregateMaxEvents {
		r.messages = append(r.messages, mh)
		return msg, false
	}
	// Combined. Upstream inserts the message and then pops an arbitrary
	// one (localKeys.PopAny, map order) so the set stays at 9; popping the
	// one just inserted is the deterministic choice: the 9 remembered
	// messages stay the first 9.
	return CombinedPrefix + msg, true
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
	q := queuedEvent{phase: phase, kind: ResourceOf(regarding).Kind, ns: m.GetNamespace(), name: m.GetName(), uid: string(m.GetUID()),
		fieldPath: fieldPath, msg: msg, at: c.s.eng.Now()}
	q.agg = aggKey(q.uid, q.ns, q.name, typ, reason)
	q.nano = c.s.eventNano(q.at) // makeEvent names every event it makes
	c.s.eng.Soon(func() { c.recordToSink(q) })
}

// recordToSink correlates one queued event and writes it.
func (c *Client) recordToSink(q queuedEvent) {
	phase, kind, agg, fieldPath, typ, reason := q.phase, q.kind, q.agg, q.fieldPath, q.agg.typ, q.agg.reason
	msg, combined := c.aggregate(agg, q.msg)
	now := c.s.eng.Now()
	// The logger counts the event before the filter decides (eventObserve
	// runs before filterFunc in EventCorrelate).
	lk := logKey{agg: agg, combined: combined, fieldPath: fieldPath}
	if !combined {
		lk.msg = msg
	}
	lh := lk.hash()
	log := c.corr.logged.get(lh)
	if log != nil && log.count > 0 {
		log.count++
	} else {
		log = c.corr.logged.add(lh, eventLog{count: 1, first: q.at})
	}
	count := log.count

	sk := spamKey(lk.agg.uid, typ)
	bucket := c.corr.spam.get(sk)
	if bucket == nil {
		bucket = c.corr.spam.add(sk, tokenBucket{tokens: spamBurst, last: now})
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
			c.s.rec.Add(trace.Step{Phase: phase, Actor: c.Actor, Kind: "event.spam", Object: q.ref(),
				Fields: withFieldPath(trace.F("type", typ, "reason", reason, "message", msg, "kind", kind, "about", trace.EventTarget(kind, q.name)), fieldPath)})
		}
		return
	}

	component, _, _ := strings.Cut(c.Actor, "/")
	if c.Component != "" {
		component = c.Component
	}
	// What the recorder would write (makeEvent): built into a corev1.Event
	// only if the request goes through the pipeline (eventcount.go).
	b := &eventBody{kind: kind, objNS: q.ns, objName: q.name, objUID: q.uid, fieldPath: fieldPath,
		typ: typ, reason: reason, msg: msg, component: component, first: log.first, at: q.at, count: count,
		nano: q.nano, ns: q.ns}
	if b.ns == "" {
		b.ns = "default"
	}
	if count == 1 {
		c.s.EventsCreated++
		if !c.s.rec.Full() {
			c.s.rec.Add(trace.Step{Phase: phase, Actor: c.Actor, Kind: "event", Object: q.ref(),
				Fields: withFieldPath(trace.F("type", typ, "reason", reason, "message", msg, "kind", kind, "about", trace.EventTarget(kind, q.name)), fieldPath)})
		}
		c.createEvent(b, log)
		return
	}
	c.s.EventsPatched++
	if !c.s.rec.Full() {
		c.s.rec.Add(trace.Step{Phase: phase, Actor: c.Actor, Kind: "event.patch", Object: q.ref(),
			Fields: withFieldPath(trace.F("type", typ, "reason", reason, "message", msg, "kind", kind, "about", trace.EventTarget(kind, q.name), "count", count), fieldPath)})
	}
	if log.answered {
		c.patchEvent(b, log)
		return
	}
	if c.corr.waiting == nil {
		c.corr.waiting = map[*eventLog][]func(){}
	}
	c.corr.waiting[log] = append(c.corr.waiting[log], func() { c.patchEvent(b, log) })
}

// withFieldPath adds an event's involvedObject.fieldPath to its step, when
// it has one (kubectl describe prints it before the message).
func withFieldPath(f []trace.Field, fieldPath string) []trace.Field {
	if fieldPath == "" {
		return f
	}
	return append(f, trace.F("fieldpath", fieldPath)...)
}
