package apiserver

import (
	"container/list"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
)

// Event aggregation of client-go's core/v1 recorder
// (tools/record/events_cache.go EventAggregator): events that share source,
// object, type and reason but differ in message count as "similar"; from
// the 11th distinct message within 10 minutes on, the recorder writes one
// aggregate event whose message starts "(combined from similar events): ".
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
// source, involved object, type and reason; the source is the client's).
// Its strings are shared with the object and the caller, not concatenated.
type aggregateKey struct {
	uid, ns, name, typ, reason string
}

type aggregateRecord struct {
	key      aggregateKey
	messages []string // distinct messages seen, at most aggregateMaxEvents
	last     time.Duration
	elem     *list.Element // place in the LRU order
}

// aggregateCache is the LRU of aggregate records (golang-lru in upstream).
type aggregateCache struct {
	byKey map[aggregateKey]*aggregateRecord
	order list.List // most recently used at the front
}

func (a *aggregateCache) get(key aggregateKey) *aggregateRecord {
	r := a.byKey[key]
	if r != nil {
		a.order.MoveToFront(r.elem)
	}
	return r
}

func (a *aggregateCache) add(r *aggregateRecord) {
	if a.byKey == nil {
		a.byKey = map[aggregateKey]*aggregateRecord{}
	}
	if old := a.byKey[r.key]; old != nil {
		a.order.Remove(old.elem)
	}
	r.elem = a.order.PushFront(r)
	a.byKey[r.key] = r
	if a.order.Len() > aggregateCacheSize {
		oldest := a.order.Back()
		a.order.Remove(oldest)
		delete(a.byKey, oldest.Value.(*aggregateRecord).key)
	}
}

// aggregate returns the message the recorder would write for this event.
func (c *Client) aggregate(regarding runtime.Object, typ, reason, msg string) string {
	m := Meta(regarding)
	key := aggregateKey{uid: string(m.GetUID()), ns: m.GetNamespace(), name: m.GetName(), typ: typ, reason: reason}
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
	if len(r.messages) < aggregateMaxEvents {
		r.messages = append(r.messages, msg)
		return msg
	}
	return "(combined from similar events): " + msg
}
