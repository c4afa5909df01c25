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
//
// Components run as callbacks on events, or as coroutines (Proc, proc.go)
// that park where a client-go component would block and resume inside the
// event that answers them; either way at most one piece of code runs at a
// time and the order is the engine's.
package engine

import (
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
	ps         procState // coroutines (proc.go)
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
func (e *Engine) After(d time.Duration, fn func()) { e.push(d, funcRunner(fn), false) }

// Background runs fn at Now()+d without keeping the run alive.
func (e *Engine) Background(d time.Duration, fn func()) { e.push(d, funcRunner(fn), true) }

// A Runner is an event's work held as a value: a record the caller already
// has (a request on its way, a batch of watch deliveries) runs as the
// event with no closure made for it.
type Runner interface{ Run() }

// AfterRun runs r.Run at Now()+d as foreground work: After without the
// closure, in the same order (one sequence number per event either way).
func (e *Engine) AfterRun(d time.Duration, r Runner) { e.push(d, r, false) }

// funcRunner is a func as a Runner: a func value is one pointer, so it sits in
// the interface without an allocation.
type funcRunner func()

func (f funcRunner) Run() { f() }

func (e *Engine) push(d time.Duration, r Runner, bg bool) {
	if d < 0 {
		d = 0
	}
	e.seq++
	k := e.seq << 1 // the low bit marks background work (see event)
	if bg {
		k |= 1
	} else {
		e.foreground++
	}
	e.q.push(event{at: e.now + d, key: k, r: r})
}

// Run processes events in time order until no foreground work remains or
// the virtual clock would pass deadline. It returns the number of events run.
// Procs still parked stay alive; the idle coroutines of the procs that
// returned end.
func (e *Engine) Run(deadline time.Duration) int {
	n := 0
	for len(e.q) > 0 && e.foreground > 0 {
		if e.q[0].at > deadline {
			break
		}
		ev := e.q.pop()
		if !ev.bg() {
			e.foreground--
		}
		e.now = ev.at
		ev.r.Run()
		n++
		e.processed++
		if e.Tick != nil && e.processed%TickEvery == 0 {
			e.Tick()
		}
	}
	e.releaseIdle()
	return n
}

// RunUntil processes every event, background ones included, up to the
// virtual time until, and leaves the clock there.
func (e *Engine) RunUntil(until time.Duration) {
	for len(e.q) > 0 && e.q[0].at <= until {
		ev := e.q.pop()
		if !ev.bg() {
			e.foreground--
		}
		e.now = ev.at
		ev.r.Run()
		e.processed++
	}
	if until > e.now {
		e.now = until
	}
	e.releaseIdle()
}

// TickEvery is how many events pass between two calls of Tick.
const TickEvery = 4096

// Processed is the number of events run since the engine started.
func (e *Engine) Processed() int { return e.processed }

// Pending reports how many foreground events are still queued.
func (e *Engine) Pending() int { return e.foreground }

// event is one queued piece of work, 32 bytes: key is the sequence number
// shifted left by one with the background flag in the low bit, so
// comparing keys compares sequence numbers (each is unique).
type event struct {
	at  time.Duration
	key uint64
	r   Runner
}

func (ev *event) bg() bool { return ev.key&1 != 0 }

// queue is a binary min-heap of events by (at, seq), held by value: no
// allocation per event beyond the slice's growth, and no interface boxing
// (container/heap would need both).
type queue []event

func (q queue) less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].key < q[j].key
}

func (q *queue) push(ev event) {
	*q = append(*q, ev)
	h := *q
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(i, p) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (q *queue) pop() event {
	h := *q
	ev := h[0]
	n := len(h) - 1
	h[0] = h[n]
	h[n] = event{} // drop the work for the GC
	h = h[:n]
	*q = h
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	return ev
}
