package apiserver

import (
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
)

// Event aggregation of client-go's core/v1 recorder
// (tools/record/events_cache.go EventAggregator): events that share source,
// object, type and reason but differ in message count as "similar"; from
// the 10th distinct message within 10 minutes on, the recorder writes one
// aggregate event whose message starts "(combined from similar events): "
// (EventAggregate inserts the message into the record's set, then combines
// unless the set is still smaller than defaultAggregateMaxEvents, 10).
const (
	aggregateMaxEvents = 10
	aggregateInterval  = 600 * time.Second
	// aggregateCacheSize is the recorder's LRU of aggregate records
	// (events_cache.go maxLruCacheEntries): the least recently used record
	// is forgotten beyond it, so memory stays bounded however many objects
	// a component reports on.
	aggregateCacheSize = 4096
)

// aggregateKey is what makes events similar (EventAggregatorByReasonFunc:
// source, involved object, type and reason). The source is the client's
// own and the object's UID names it; the strings are shared with the
// object and the caller, not concatenated.
type aggregateKey struct {
	uid, typ, reason string
}

type aggregateRecord struct {
	key        aggregateKey
	messages   []string // distinct messages seen, at most aggregateMaxEvents-1
	last       time.Duration
	prev, next *aggregateRecord // LRU order: most recently used at the head
}

// aggregateCache is the LRU of aggregate records (golang-lru in upstream),
// a map and an intrusive doubly linked list.
type aggregateCache struct {
	byKey      map[aggregateKey]*aggregateRecord
	head, tail *aggregateRecord
}

func (a *aggregateCache) unlink(r *aggregateRecord) {
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

func (a *aggregateCache) pushFront(r *aggregateRecord) {
	r.next = a.head
	if a.head != nil {
		a.head.prev = r
	}
	a.head = r
	if a.tail == nil {
		a.tail = r
	}
}

func (a *aggregateCache) get(key aggregateKey) *aggregateRecord {
	r := a.byKey[key]
	if r != nil && r != a.head {
		a.unlink(r)
		a.pushFront(r)
	}
	return r
}

func (a *aggregateCache) add(r *aggregateRecord) {
	if a.byKey == nil {
		a.byKey = map[aggregateKey]*aggregateRecord{}
	}
	if old := a.byKey[r.key]; old != nil {
		a.unlink(old)
	}
	a.pushFront(r)
	a.byKey[r.key] = r
	if len(a.byKey) > aggregateCacheSize {
		oldest := a.tail
		a.unlink(oldest)
		delete(a.byKey, oldest.key)
	}
}

// len is the number of records, counted along the list.
func (a *aggregateCache) len() int {
	n := 0
	for r := a.head; r != nil; r = r.next {
		n++
	}
	return n
}

// aggregate returns the message the recorder would write for this event.
func (c *Client) aggregate(regarding runtime.Object, typ, reason, msg string) string {
	m := Meta(regarding)
	key := aggregateKey{uid: string(m.GetUID()), typ: typ, reason: reason}
	if key.uid == "" { // not stored yet: the name stands for it
		key.uid = m.GetNamespace() + "/" + m.GetName()
	}
	now := c.s.eng.Now()
	r := c.similar.get(key)
	if r == nil || now-r.last > aggregateInterval {
		r = &aggregateRecord{key: key}
		c.similar.add(r)
	}
	r.last = now
	if slices.Contains(r.messages, msg) {
		return msg
	}
	if len(r.messages)+1 < aggregateMaxEvents {
		r.messages = append(r.messages, msg)
		return msg
	}
	// Combined. Upstream inserts the message and then pops an arbitrary
	// one (localKeys.PopAny, map order) so the set stays at 9; popping the
	// one just inserted is the deterministic choice: the 9 remembered
	// messages stay the first 9.
	return "(combined from similar events): " + msg
}
