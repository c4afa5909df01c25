package apiserver

import (
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
)

type aggregateRecord struct {
	messages map[string]bool
	last     time.Duration
}

// aggregate returns the message the recorder would write for this event.
func (c *Client) aggregate(regarding runtime.Object, typ, reason, msg string) string {
	m := Meta(regarding)
	key := c.Actor + "\x00" + string(m.GetUID()) + "\x00" + m.GetNamespace() + "/" + m.GetName() + "\x00" + typ + "\x00" + reason
	now := c.s.eng.Now()
	if c.similar == nil {
		c.similar = map[string]*aggregateRecord{}
	}
	r := c.similar[key]
	if r == nil || now-r.last > aggregateInterval {
		r = &aggregateRecord{messages: map[string]bool{}}
		c.similar[key] = r
	}
	r.last = now
	if r.messages[msg] || len(r.messages) < aggregateMaxEvents {
		r.messages[msg] = true
		return msg
	}
	return "(combined from similar events): " + msg
}
