package apiserver

import (
	"container/list"
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

type aggregateRecord struct {
	key      string
	messages map[string]bool
	last     time.Duration
	elem     *list.Element // place in the LRU order
}

// aggregateCache is the LRU of aggregate records (golang-lru in upstream).
type aggregateCache struct {
	byKey map[string]*aggregateRecord
	order list.List // most recently used at the front
}

func (a *aggregateCache) get(key string) *aggregateRecord {
	r := a.byKey[key]
	if r != nil {
		a.order.MoveToFront(r.elem)
	}
	return r
}

func (a *aggregateCache) add(r *aggregateRecord) {
	if a.byKey == nil {
		a.byKey = map[string]*aggregateRecord{}
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
	key := c.Actor + "\x00" + string(m.GetUID()) + "\x00" + m.GetNamespace() + "/" + m.GetName() + "\x00" + typ + "\x00" + reason
	now := c.s.eng.Now()
	r := c.similar.get(key)
	if r == nil || now-r.last > aggregateInterval {
		r = &aggregateRecord{key: key, messages: map[string]bool{}}
		c.similar.add(r)
	}
	r.last = now
	if r.messages[msg] || len(r.messages) < aggregateMaxEvents {
		r.messages[msg] = true
		return msg
	}
	return "(combined from similar events): " + msg
}
