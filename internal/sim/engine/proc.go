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
// Built on iter.Pull: each proc runs on a runtime coroutine, and switching
// to it and back is a direct hand-off, not a trip through the Go scheduler.
// A coroutine whose proc returned waits in a small pool for the next Go
// (runner), so a short proc costs neither a new goroutine and its closures
// nor the growth of a fresh stack.
//
// A Proc is 24 bytes, one made per Go: its engine is its runner's, and
// Sleep's timer is the proc itself (sleepTimer), not a closure.
type Proc struct {
	fn       func(*Proc)
	r        *runner // the coroutine it runs on, set for the proc's life
	idx      int32   // position in e.procs while alive
	queued   bool    // in e.ready (a Wake not yet acted on)
	exited   bool
	returned bool // fn returned; its runner went back to the pool or ended
	// rang is set by Sleep's timer: one per proc, since a sleep ends only
	// on its own timer (no earlier one is left pending).
	rang bool
}

// procState is what the engine keeps for its coroutines.
type procState struct {
	procs    []*Proc   // alive: started and not returned (Close ends them)
	idle     []*runner // coroutines waiting for a proc to run
	ready    []ready   // woken procs and Soon's functions, to run in this order
	running  *Proc
	draining bool
	closing  bool
	// soon stands for the running proc while a function Soon queued runs:
	// it cannot park, but what it starts or wakes is queued, as from a proc.
	soon Proc
}

// ready is one entry of the run queue: a proc woken, or a function Soon
// queued inside a proc. Such a function never parks (it has no Proc), so
// it runs on the engine's own stack instead of a coroutine of its own: a
// coroutine costs a goroutine, its closures and the growth of a fresh
// stack, once per Event an event recorder writes.
type ready struct {
	p  *Proc
	fn func()
}

// maxIdle bounds the pool of coroutines: enough for the procs a burst
// starts and ends together (a slow-start batch, a node's pod workers),
// while a thousand procs parked at once do not leave a thousand idle
// goroutines behind when they return.
const maxIdle = 256

// runner is a coroutine that runs procs one after another: between two
// procs it waits in the engine's pool, parked like a proc.
type runner struct {
	e     *Engine
	p     *Proc // the proc it runs
	next  func() (struct{}, bool)
	stop  func()
	yield func(struct{}) bool
}

// Go starts fn as a proc (see Proc for when it runs).
func (e *Engine) Go(fn func(*Proc)) {
	ps := &e.ps
	p := &Proc{fn: fn, idx: int32(len(ps.procs))}
	if k := len(ps.idle); k > 0 {
		p.r = ps.idle[k-1]
		ps.idle[k-1] = nil
		ps.idle = ps.idle[:k-1]
	} else {
		p.r = &runner{e: e}
		p.r.next, p.r.stop = iter.Pull(p.r.body)
	}
	p.r.p = p
	ps.procs = append(ps.procs, p)
	p.Wake()
}

// stopSignal unwinds a parked proc that Close ends.
type stopSignal struct{}

// body runs the runner's procs until Close stops it, or until its proc
// returns while the pool is full.
func (r *runner) body(yield func(struct{}) bool) {
	r.yield = yield
	for r.run() {
		ps := &r.e.ps
		if len(ps.idle) >= maxIdle || ps.closing {
			return
		}
		ps.idle = append(ps.idle, r)
		if !yield(struct{}{}) { // idle until Go hands it a proc
			return
		}
	}
}

// run runs r's proc to its end; false when Close stopped it.
func (r *runner) run() (ok bool) {
	p := r.p
	defer func() {
		if x := recover(); x != nil {
			if _, stop := x.(stopSignal); stop {
				ok = false
				return
			}
			panic(&PanicError{Value: x, Stack: debug.Stack()})
		}
	}()
	p.fn(p)
	p.returned, r.p = true, nil
	return true
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
func (p *Proc) Engine() *Engine { return p.r.e }

// Now is the virtual time.
func (p *Proc) Now() time.Duration { return p.r.e.now }

// Park blocks the proc until something calls Wake. A Wake that came first
// (while the proc still ran) is not lost: Park then returns at once, after
// the other ready procs had their turn. Only the running proc may park.
func (p *Proc) Park() {
	if p.r.e.ps.running != p {
		panic("engine: Park called outside its own proc")
	}
	if !p.r.yield(struct{}{}) {
		panic(stopSignal{})
	}
}

// Wake makes a parked proc runnable. Outside a proc (an engine event, a
// request's answer) it runs the proc now, up to its next park, together
// with every proc that one wakes; inside a proc it queues it. Waking a proc
// that is queued already or has returned does nothing.
func (p *Proc) Wake() {
	e := p.r.e
	ps := &e.ps
	if p.queued || p.exited || ps.closing {
		return
	}
	p.queued = true
	ps.ready = append(ps.ready, ready{p: p})
	if ps.running == nil && !ps.draining {
		e.drain()
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
			if q.p != nil {
				q.p.queued = false
			}
		}
		ps.draining, ps.running = false, nil
		clear(ps.ready)
		ps.ready = ps.ready[:0]
	}()
	for ; i < len(ps.ready); i++ {
		r := ps.ready[i]
		if r.fn != nil {
			ps.running = &ps.soon
			runSoon(r.fn)
			ps.running = nil
			continue
		}
		r.p.queued = false
		ps.running = r.p
		e.resume(r.p)
		ps.running = nil
	}
}

// runSoon runs a function Soon queued; its panic surfaces as a proc's does.
func runSoon(fn func()) {
	defer func() {
		if r := recover(); r != nil {
			panic(&PanicError{Value: r, Stack: debug.Stack()})
		}
	}()
	fn()
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
	_, alive = p.r.next()
	alive = alive && !p.returned
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
	p.rang = false
	p.r.e.AfterRun(d, (*sleepTimer)(p))
	// Only its own timer ends the sleep: an earlier wake (from something
	// else) parks it again, and the timer cannot reach a later park.
	for !p.rang {
		p.Park()
	}
}

// sleepTimer is a sleeping proc as the engine event that ends its sleep.
type sleepTimer Proc

func (t *sleepTimer) Run() {
	p := (*Proc)(t)
	p.rang = true
	p.Wake()
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
		p.r.stop()
		e.exit(p)
	}
	e.releaseIdle()
}

// releaseIdle ends the pooled coroutines, so that none outlives a run
// (Run and RunUntil call it before they return).
func (e *Engine) releaseIdle() {
	ps := &e.ps
	for _, r := range ps.idle {
		r.stop()
	}
	clear(ps.idle)
	ps.idle = ps.idle[:0]
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
// inside a proc, queued with the procs to run as soon as the running one
// parks, still inside the same engine event (after the request it parks on
// went out); called outside one, in a later engine event at the same
// virtual time. fn cannot park. client-go's event broadcasters hand events to such a goroutine
// (tools/record, tools/events), so an event trails the caller's own
// requests of the moment.
func (e *Engine) Soon(fn func()) {
	if ps := &e.ps; ps.running != nil {
		ps.ready = append(ps.ready, ready{fn: fn})
		return
	}
	e.After(0, fn)
}
