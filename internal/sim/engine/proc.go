package engine

import (
	"fmt"
	"iter"
	"runtime/debug"
	"time"
)

// A Proc is a coroutine on the engine: a component's code written straight
// down, as a client-go worker is written, that parks where the real one
// would block (an API call, a sleep) and resumes inside the engine event
// that answers it. Procs never run in parallel and never leave virtual time:
// at most one runs at a time, while the engine waits for it to park or
// return, so a run replays byte for byte whatever mix of procs and plain
// callbacks it has.
//
// Ordering, which decides every trace:
//   - Go called outside a proc (in an engine event) runs the new proc at
//     once, up to its first park, before Go returns: exactly where a callback
//     would have run.
//   - Go or Wake called inside a proc queues that proc; the queue runs, in
//     the order of the calls, as soon as the running proc parks or returns,
//     still inside the same engine event (a goroutine started by a goroutine
//     runs later too).
//
// Built on iter.Pull: each proc is a runtime coroutine, and switching to it
// and back is a direct hand-off, not a trip through the Go scheduler.
type Proc struct {
	e      *Engine
	fn     func(*Proc)
	next   func() (struct{}, bool)
	stop   func()
	yield  func(struct{}) bool
	idx    int  // position in e.procs while alive
	queued bool // in e.ready (a Wake not yet acted on)
	exited bool
}

// procState is what the engine keeps for its coroutines.
type procState struct {
	procs    []*Proc // alive: started and not returned (Close ends them)
	ready    []*Proc // woken, to run in this order
	running  *Proc
	draining bool
	closing  bool
}

// Go starts fn as a proc (see Proc for when it runs).
func (e *Engine) Go(fn func(*Proc)) {
	p := &Proc{e: e, fn: fn, idx: len(e.ps.procs)}
	p.next, p.stop = iter.Pull(p.body)
	e.ps.procs = append(e.ps.procs, p)
	p.Wake()
}

// stopSignal unwinds a parked proc that Close ends.
type stopSignal struct{}

func (p *Proc) body(yield func(struct{}) bool) {
	p.yield = yield
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(stopSignal); ok {
				return
			}
			panic(&PanicError{Value: r, Stack: debug.Stack()})
		}
	}()
	p.fn(p)
}

// PanicError is a proc's panic, surfaced by the engine call that resumed it
// (Run, RunUntil, Go or Wake outside a proc) with the proc's own stack.
type PanicError struct {
	Value any
	Stack []byte
}

func (pe *PanicError) Error() string {
	return fmt.Sprintf("engine: proc panicked: %v\n%s", pe.Value, pe.Stack)
}

// Unwrap gives the panic's value when it was an error.
func (pe *PanicError) Unwrap() error {
	err, _ := pe.Value.(error)
	return err
}

// Engine is the engine the proc runs on.
func (p *Proc) Engine() *Engine { return p.e }

// Now is the virtual time.
func (p *Proc) Now() time.Duration { return p.e.now }

// Park blocks the proc until something calls Wake. A Wake that came first
// (while the proc still ran) is not lost: Park then returns at once, after
// the other ready procs had their turn. Only the running proc may park.
func (p *Proc) Park() {
	if p.e.ps.running != p {
		panic("engine: Park called outside its own proc")
	}
	if !p.yield(struct{}{}) {
		panic(stopSignal{})
	}
}

// Wake makes a parked proc runnable. Outside a proc (an engine event, a
// request's answer) it runs the proc now, up to its next park, together
// with every proc that one wakes; inside a proc it queues it. Waking a proc
// that is queued already or has returned does nothing.
func (p *Proc) Wake() {
	ps := &p.e.ps
	if p.queued || p.exited || ps.closing {
		return
	}
	p.queued = true
	ps.ready = append(ps.ready, p)
	if ps.running == nil && !ps.draining {
		p.e.drain()
	}
}

// drain runs ready procs, in the order they were woken, until none is left.
func (e *Engine) drain() {
	ps := &e.ps
	ps.draining = true
	i := 0
	defer func() {
		// After a panic, the procs still queued behind the one that
		// panicked must be wakeable again.
		for _, q := range ps.ready[min(i+1, len(ps.ready)):] {
			q.queued = false
		}
		ps.draining, ps.running = false, nil
		clear(ps.ready)
		ps.ready = ps.ready[:0]
	}()
	for ; i < len(ps.ready); i++ {
		p := ps.ready[i]
		p.queued = false
		ps.running = p
		e.resume(p)
		ps.running = nil
	}
}

// resume switches to p until it parks or returns; a panic of p's passes
// on, p forgotten.
func (e *Engine) resume(p *Proc) {
	alive := false
	defer func() {
		if !alive {
			e.exit(p)
		}
	}()
	_, alive = p.next()
}

// exit forgets a proc that returned.
func (e *Engine) exit(p *Proc) {
	if p.exited {
		return
	}
	p.exited = true
	ps := &e.ps
	last := ps.procs[len(ps.procs)-1]
	ps.procs[p.idx] = last
	last.idx = p.idx
	ps.procs[len(ps.procs)-1] = nil
	ps.procs = ps.procs[:len(ps.procs)-1]
}

// Yield lets the procs queued to run (those this one started or woke) run
// first, up to their parks, then goes on, in the same engine event
// (runtime.Gosched).
func (p *Proc) Yield() {
	p.Wake()
	p.Park()
}

// Sleep parks the proc for d of virtual time (a foreground timer: the run
// waits for it).
func (p *Proc) Sleep(d time.Duration) {
	rang := false
	p.e.After(d, func() { rang = true; p.Wake() })
	// Only its own timer ends the sleep: an earlier wake (from something
	// else) parks it again, and the timer cannot reach a later park.
	for !rang {
		p.Park()
	}
}

// Procs is how many procs are alive: started and not yet returned (parked,
// or queued to run).
func (e *Engine) Procs() int { return len(e.ps.procs) }

// Close ends every proc still alive (parked on an answer that will not come
// before the run stops, or never started): each unwinds from its Park,
// running its deferred calls, so no goroutine outlives the engine. The
// engine must not run again afterwards. Close is for the end of a run that
// stopped at a deadline, and for tests.
func (e *Engine) Close() {
	ps := &e.ps
	if ps.running != nil || ps.draining {
		panic("engine: Close called inside a proc")
	}
	ps.closing = true
	for len(ps.procs) > 0 {
		p := ps.procs[len(ps.procs)-1]
		p.stop()
		e.exit(p)
	}
}

// WaitGroup waits for procs it started, as sync.WaitGroup waits for
// goroutines (upstream's slowStartBatch starts each creation on a goroutine
// and waits for the batch).
type WaitGroup struct {
	n      int
	waiter *Proc
}

// Go starts fn as a proc counted by the group.
func (g *WaitGroup) Go(e *Engine, fn func(*Proc)) {
	g.n++
	e.Go(func(p *Proc) {
		fn(p)
		g.n--
		if g.n == 0 && g.waiter != nil {
			w := g.waiter
			g.waiter = nil
			w.Wake()
		}
	})
}

// Wait parks p until every proc of the group has returned. A group has one
// waiter at a time, as every caller here needs.
func (g *WaitGroup) Wait(p *Proc) {
	if g.waiter != nil && g.waiter != p {
		panic("engine: a second proc waits on the same WaitGroup")
	}
	for g.n > 0 {
		g.waiter = p
		p.Park()
	}
}

// Soon runs fn as a goroutine started at this point would run: called
// inside a proc, on a proc queued to run as soon as the running one parks,
// still inside the same engine event (after the request it parks on went
// out); called outside one, in a later engine event at the same virtual
// time. client-go's event broadcasters hand events to such a goroutine
// (tools/record, tools/events), so an event trails the caller's own
// requests of the moment.
func (e *Engine) Soon(fn func()) {
	if e.ps.running != nil {
		e.Go(func(*Proc) { fn() })
		return
	}
	e.After(0, fn)
}
