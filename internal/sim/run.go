package sim

import (
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// Settle runs the cluster until it is quiet and starts a new story: the
// steps and counters so far are dropped, and the time is remembered as the
// story's start. It reports whether every pod became Ready.
func (c *Cluster) Settle() bool {
	tr := c.Run("")
	c.start = c.eng.Now()
	c.rec.Reset()
	c.api.Requests = map[string]int{}
	c.api.WatchEvents = 0
	c.api.ResetFirstRevision()
	c.readyAt = 0
	c.eventsBefore = c.eng.Processed()
	if c.state != nil {
		c.startStateLog()
	}
	return tr.Failed == "" && tr.Summary.AllReady
}

// Failed is the first error that stopped the apply ("" if none): the API
// server's message for an object it rejected.
func (c *Cluster) Failed() string { return c.failed }

// Pods lists the stored pods (namespace/name → pod), for choosing targets.
func (c *Cluster) Pods() []*corev1.Pod { return c.api.Pods() }

// Deployment returns a stored Deployment, or nil.
func (c *Cluster) Deployment(ns, name string) *appsv1.Deployment {
	o := c.api.Get(apiserver.ResourceOf(&appsv1.Deployment{}), ns, name)
	if o == nil {
		return nil
	}
	return o.(*appsv1.Deployment)
}

// RunFor drives the story for at most d of virtual time after its start
// (periodic work such as image-pull retries would otherwise never end).
func (c *Cluster) RunFor(d time.Duration) {
	c.eng.Run(c.start + d)
}

// Story returns the trace of the story since Settle.
func (c *Cluster) Story(command, story string) *trace.Trace {
	tr := c.Run(command)
	tr.Story = story
	tr.Start = c.start
	if tr.Summary.ReadyAt > 0 {
		tr.Summary.ReadyAt -= c.start
	}
	tr.Summary.End -= c.start
	return tr
}

// RunThrough drives the story to d after its start, periodic background
// work (heartbeats, the node monitor) included.
func (c *Cluster) RunThrough(d time.Duration) { c.eng.RunUntil(c.start + d) }

// Idle lets the settled cluster run quietly for d and starts the story
// afresh: a delete then meets kube-proxy's sync runner idle, as in a
// cluster that has been up for a while, not just after the last pod of the
// scene became Ready.
func (c *Cluster) Idle(d time.Duration) bool {
	c.eng.RunUntil(c.eng.Now() + d)
	return c.Settle()
}
