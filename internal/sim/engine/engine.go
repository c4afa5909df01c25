// Package engine is the discrete-event core of the simulator: a virtual
// clock, an event queue whose ties break by insertion order, and the one
// seeded random source every component draws from. It imports nothing of
// ours, does no I/O and never reads the wall clock, so the same seed and the
// same input always replay the same history.
//
// Events are foreground (work the cluster still has to do: a request in
// flight, a container starting) or background (periodic chores such as a
// probe after the pod is Ready or a lease renewal). A run ends when no
// foreground event is left, or at a virtual deadline.
package engine

import (
	"container/heap"
	"math/rand/v2"
	"time"
)

// Engine owns virtual time, event order and randomness.
type Engine struct {
	// Tick, when set, is called every TickEvery events of Run: a progress
	// report for the user. It must not touch the simulation.
	Tick       func()
	now        time.Duration
	q          queue
	seq        uint64
	foreground int
	rng        *rand.Rand
	processed  int
}

// New returns an engine at time zero whose randomness comes only from seed.
func New(seed int64) *Engine {
	return &Engine{rng: rand.New(rand.NewPCG(uint64(seed), 0x6b38736578706c61))}
}

// Now is the virtual time since the start of the run.
func (e *Engine) Now() time.Duration { return e.now }

// Rand is the run's seeded random source.
func (e *Engine) Rand() *rand.Rand { return e.rng }

// After runs fn at Now()+d as foreground work.
func (e *Engine) After(d time.Duration, fn func()) { e.push(d, fn, false) }

// Background runs fn at Now()+d without keeping the run alive.
func (e *Engine) Background(d time.Duration, fn func()) { e.push(d, fn, true) }

func (e *Engine) push(d time.Duration, fn func(), bg bool) {
	if d < 0 {
		d = 0
	}
	e.seq++
	if !bg {
		e.foreground++
	}
	heap.Push(&e.q, &event{at: e.now + d, seq: e.seq, fn: fn, bg: bg})
}

// Run processes events in time order until no foreground work remains or
// the virtual clock would pass deadline. It returns the number of events run.
func (e *Engine) Run(deadline time.Duration) int {
	n := 0
	for e.q.Len() > 0 && e.foreground > 0 {
		ev := e.q[0]
		if ev.at > deadline {
			break
		}
		heap.Pop(&e.q)
		if !ev.bg {
			e.foreground--
		}
		e.now = ev.at
		ev.fn()
		n++
		e.processed++
		if e.Tick != nil && e.processed%TickEvery == 0 {
			e.Tick()
		}
	}
	return n
}

// RunUntil processes every event, background ones included, up to the
// virtual time until, and leaves the clock there.
func (e *Engine) RunUntil(until time.Duration) {
	for e.q.Len() > 0 && e.q[0].at <= until {
		ev := heap.Pop(&e.q).(*event)
		if !ev.bg {
			e.foreground--
		}
		e.now = ev.at
		ev.fn()
		e.processed++
	}
	if until > e.now {
		e.now = until
	}
}

// TickEvery is how many events pass between two calls of Tick.
const TickEvery = 4096

// Processed is the number of events run since the engine started.
func (e *Engine) Processed() int { return e.processed }

// Pending reports how many foreground events are still queued.
func (e *Engine) Pending() int { return e.foreground }

type event struct {
	at  time.Duration
	seq uint64
	fn  func()
	bg  bool
}

type queue []*event

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].seq < q[j].seq
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)   { *q = append(*q, x.(*event)) }
func (q *queue) Pop() any {
	old := *q
	ev := old[len(old)-1]
	old[len(old)-1] = nil
	*q = old[:len(old)-1]
	return ev
}
