package engine

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// call is a request answered by an engine event after d, the shape of an
// API call: the proc parks, and the answer's event wakes it.
func call(p *Proc, d time.Duration) time.Duration {
	p.Engine().After(d, p.Wake)
	p.Park()
	return p.Now()
}

func TestProcGoRunsAtOnceOutsideAProc(t *testing.T) {
	e := New(1)
	var got []string
	e.After(time.Second, func() {
		got = append(got, "event before Go")
		e.Go(func(p *Proc) {
			got = append(got, "proc until its park")
			call(p, time.Second)
			got = append(got, fmt.Sprintf("proc resumed at %v", p.Now()))
		})
		got = append(got, "event after Go")
	})
	e.Run(time.Hour)
	want := []string{"event before Go", "proc until its park", "event after Go", "proc resumed at 2s"}
	if !slices.Equal(got, want) {
		t.Fatalf("order:\n got %q\nwant %q", got, want)
	}
	if e.Procs() != 0 {
		t.Fatalf("%d procs alive after they returned", e.Procs())
	}
}

// TestProcInterleaving runs procs whose answers come back at equal times:
// they resume in the order their requests were made (the engine's ties
// break by insertion), and procs started or woken by a proc run, in call
// order, once it parks.
func TestProcInterleaving(t *testing.T) {
	e := New(1)
	var got []string
	log := func(p *Proc, s string) { got = append(got, fmt.Sprintf("%v %s", p.Now(), s)) }
	e.Go(func(p *Proc) {
		log(p, "parent starts a, b")
		e.Go(func(a *Proc) {
			log(a, "a asks")
			call(a, time.Second)
			log(a, "a answered")
		})
		e.Go(func(b *Proc) {
			log(b, "b asks")
			call(b, time.Second)
			log(b, "b answered")
		})
		log(p, "parent asks")
		call(p, time.Second)
		log(p, "parent answered")
	})
	e.Run(time.Hour)
	want := []string{
		"0s parent starts a, b", "0s parent asks", "0s a asks", "0s b asks",
		"1s parent answered", "1s a answered", "1s b answered",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("order:\n got %q\nwant %q", got, want)
	}
}

func TestYieldRunsQueuedProcsFirst(t *testing.T) {
	e := New(1)
	var got []string
	e.After(time.Second, func() {
		e.Go(func(p *Proc) {
			e.Go(func(c *Proc) {
				got = append(got, "child until its park")
				call(c, time.Second)
			})
			p.Yield()
			got = append(got, fmt.Sprintf("parent after Yield at %v", p.Now()))
		})
	})
	e.Run(time.Hour)
	want := []string{"child until its park", "parent after Yield at 1s"}
	if !slices.Equal(got, want) {
		t.Fatalf("order:\n got %q\nwant %q", got, want)
	}
}

func TestProcSleepIsVirtualAndForeground(t *testing.T) {
	e := New(1)
	var at []time.Duration
	e.Go(func(p *Proc) {
		for range 3 {
			p.Sleep(time.Minute)
			at = append(at, p.Now())
		}
	})
	// The sleeping proc keeps the run alive: Run returns only when it is done.
	n := e.Run(time.Hour)
	if !slices.Equal(at, []time.Duration{time.Minute, 2 * time.Minute, 3 * time.Minute}) || n != 3 {
		t.Fatalf("woke at %v after %d events", at, n)
	}
}

func TestWaitGroup(t *testing.T) {
	e := New(1)
	var got []string
	e.Go(func(p *Proc) {
		var g WaitGroup
		for i, d := range []time.Duration{3, 1, 2} {
			g.Go(e, func(c *Proc) {
				call(c, d*time.Second)
				got = append(got, fmt.Sprintf("child %d at %v", i, c.Now()))
			})
		}
		g.Wait(p)
		got = append(got, fmt.Sprintf("parent at %v", p.Now()))
		g.Wait(p) // nothing left: returns at once
	})
	e.Run(time.Hour)
	want := []string{"child 1 at 1s", "child 2 at 2s", "child 0 at 3s", "parent at 3s"}
	if !slices.Equal(got, want) {
		t.Fatalf("order:\n got %q\nwant %q", got, want)
	}
}

func TestWakeBeforeParkIsKept(t *testing.T) {
	e := New(1)
	done := false
	e.Go(func(p *Proc) {
		p.Wake() // an answer that arrives before the proc parks
		p.Park()
		done = true
	})
	if !done || e.Procs() != 0 {
		t.Fatalf("a Wake before Park was lost: done=%v alive=%d", done, e.Procs())
	}
}

// TestProcsDeterministic replays a mix of procs that draw random delays:
// the same seed gives the same history.
func TestProcsDeterministic(t *testing.T) {
	history := func(seed int64) string {
		e := New(seed)
		var b strings.Builder
		for i := range 20 {
			e.Go(func(p *Proc) {
				for j := range 3 {
					call(p, time.Duration(e.Rand().IntN(5))*time.Millisecond)
					fmt.Fprintf(&b, "%d.%d@%v ", i, j, p.Now())
				}
			})
		}
		e.Run(time.Hour)
		return b.String()
	}
	a, b, c := history(3), history(3), history(4)
	if a != b {
		t.Fatalf("same seed, different histories:\n%s\n%s", a, b)
	}
	if a == c {
		t.Fatalf("different seeds, same history: the delays were not drawn")
	}
}

func TestProcPanicSurfaces(t *testing.T) {
	e := New(1)
	boom := errors.New("boom")
	e.Go(func(p *Proc) {
		call(p, time.Second)
		panic(boom)
	})
	var got any
	func() {
		defer func() { got = recover() }()
		e.Run(time.Hour)
	}()
	pe, ok := got.(*PanicError)
	if !ok {
		t.Fatalf("Run panicked with %T %v, want *PanicError", got, got)
	}
	if !errors.Is(pe, boom) || !strings.Contains(pe.Error(), "proc_test.go") {
		t.Fatalf("panic lost its value or the proc's stack: %v", pe)
	}
	if e.Procs() != 0 {
		t.Fatalf("the panicked proc is still counted alive")
	}
	// The engine still works after the panic was recovered.
	ran := false
	e.Go(func(p *Proc) { call(p, time.Second); ran = true })
	e.Run(time.Hour)
	if !ran {
		t.Fatal("engine stuck after a proc panicked")
	}
}

func TestParkOutsideItsProcPanics(t *testing.T) {
	e := New(1)
	var parked *Proc
	e.Go(func(p *Proc) { parked = p; call(p, time.Second) })
	defer func() {
		if recover() == nil {
			t.Fatal("Park from outside the proc did not panic")
		}
		e.Close()
	}()
	parked.Park()
}

// TestCloseLeavesNoGoroutines: procs parked when the run stops at its
// deadline end with Close, their deferred calls run, and no goroutine of
// theirs is left behind.
func TestCloseLeavesNoGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	e := New(1)
	unwound := 0
	for range 50 {
		e.Go(func(p *Proc) {
			defer func() { unwound++ }()
			call(p, time.Hour) // past the deadline below
			t.Error("resumed after Close")
		})
	}
	e.Run(time.Minute)
	if e.Procs() != 50 {
		t.Fatalf("%d procs alive, want 50 parked", e.Procs())
	}
	e.Close()
	if unwound != 50 || e.Procs() != 0 {
		t.Fatalf("Close unwound %d of 50, %d alive", unwound, e.Procs())
	}
	for i := 0; runtime.NumGoroutine() > before && i < 100; i++ {
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Fatalf("%d goroutines after Close, %d before", n, before)
	}
}

func TestReturnedProcsLeaveNoGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	e := New(1)
	for range 100 {
		e.Go(func(p *Proc) { call(p, time.Second) })
	}
	e.Run(time.Hour)
	for i := 0; runtime.NumGoroutine() > before && i < 100; i++ {
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Fatalf("%d goroutines after every proc returned, %d before", n, before)
	}
}

// BenchmarkProc is the cost of one proc that makes one call: a start, a
// park and a resume on top of the engine event.
func BenchmarkProc(b *testing.B) {
	e := New(1)
	b.ReportAllocs()
	for range b.N {
		e.Go(func(p *Proc) { call(p, time.Millisecond) })
		e.Run(e.Now() + time.Hour)
	}
}

// BenchmarkProcInARun is the same proc started over and over in one run,
// each after the previous one returned, as a component's procs come and
// go: its coroutine is reused from the pool.
func BenchmarkProcInARun(b *testing.B) {
	e := New(1)
	b.ReportAllocs()
	e.Go(func(d *Proc) {
		for range b.N {
			e.Go(func(p *Proc) { call(p, time.Millisecond) })
			d.Sleep(2 * time.Millisecond)
		}
	})
	e.Run(time.Duration(1 << 62))
}

// A proc that returned hands its coroutine to the next Go: the same
// goroutine runs both (fewer goroutines than procs), and the order of
// events is what fresh coroutines give.
func TestReturnedProcsReuseTheirCoroutine(t *testing.T) {
	e := New(1)
	var got []string
	runners := map[*runner]bool{}
	e.Go(func(d *Proc) {
		for i := range 5 {
			e.Go(func(p *Proc) {
				runners[p.r] = true
				got = append(got, fmt.Sprintf("%d asks at %v", i, p.Now()))
				call(p, time.Millisecond)
			})
			d.Sleep(2 * time.Millisecond)
		}
	})
	e.Run(time.Hour)
	want := []string{"0 asks at 0s", "1 asks at 2ms", "2 asks at 4ms", "3 asks at 6ms", "4 asks at 8ms"}
	if !slices.Equal(got, want) {
		t.Fatalf("order %q, want %q", got, want)
	}
	if len(runners) != 1 {
		t.Fatalf("5 procs one after another ran on %d coroutines, want 1", len(runners))
	}
	if len(e.ps.idle) != 0 {
		t.Fatalf("%d idle coroutines after Run returned", len(e.ps.idle))
	}
}

// A sleep ends on its own timer only: a wake from elsewhere parks it again,
// and the timer cannot cut a later park short (found in review: a call
// returned before its answer).
func TestSleepEndsOnItsOwnTimer(t *testing.T) {
	e := New(1)
	var p0 *Proc
	var slept, answered time.Duration
	e.Go(func(p *Proc) {
		p0 = p
		p.Sleep(2 * time.Second) // someone wakes it at 1 s
		slept = p.Now()
		got := false
		e.After(2*time.Second, func() { got = true; p.Wake() })
		for !got {
			p.Park()
		}
		answered = p.Now()
	})
	e.After(time.Second, func() { p0.Wake() })
	e.Run(time.Hour)
	if slept != 2*time.Second || answered != 4*time.Second {
		t.Fatalf("sleep ended at %v, answer at %v: want 2s and 4s", slept, answered)
	}
}

// After a panic is recovered, a proc that was queued behind the panicking
// one can be woken again (found in review: it stayed marked queued).
func TestPanicLeavesQueuedProcsWakeable(t *testing.T) {
	e := New(1)
	var w *Proc
	ran := false
	e.Go(func(p *Proc) { w = p; p.Park(); ran = true })
	e.After(time.Second, func() {
		e.Go(func(p *Proc) { w.Wake(); panic("boom") })
	})
	func() {
		defer func() { _ = recover() }()
		e.Run(time.Hour)
	}()
	w.Wake()
	if !ran {
		t.Fatal("the proc queued behind the panic never ran on a later Wake")
	}
}

// A WaitGroup has one waiter: a second one is a programming error, not a
// proc silently never woken.
func TestWaitGroupRefusesASecondWaiter(t *testing.T) {
	e := New(1)
	var g WaitGroup
	defer func() {
		if recover() == nil {
			t.Fatal("a second waiter was accepted")
		}
	}()
	e.Go(func(p *Proc) {
		g.Go(e, func(c *Proc) { call(c, time.Second) })
		e.Go(func(w *Proc) { g.Wait(w) })
		g.Wait(p)
	})
	e.Run(time.Hour)
}

// Soon inside a proc runs after the proc parks, in the same engine event;
// outside a proc, in a later engine event at the same virtual time, after
// the events already queued for it.
func TestSoonRunsAfterTheCallerParks(t *testing.T) {
	e := New(1)
	var got []string
	e.After(time.Millisecond, func() {
		e.Go(func(p *Proc) {
			e.Soon(func() { got = append(got, "soon@"+p.Now().String()) })
			got = append(got, "request")
			p.Sleep(time.Millisecond) // parks: the Soon proc runs now
			got = append(got, "woke@"+p.Now().String())
		})
		got = append(got, "event ends")
	})
	e.After(2*time.Millisecond, func() {
		e.Soon(func() { got = append(got, "callback soon") })
		got = append(got, "callback")
	})
	e.After(2*time.Millisecond, func() { got = append(got, "queued before") })
	e.Run(time.Second)
	want := []string{"request", "soon@1ms", "event ends", "callback", "queued before", "woke@2ms", "callback soon"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Fatalf("order %q, want %q", got, want)
	}
}

// A function Soon queued inside a proc starts and wakes procs as a proc
// would: they queue behind it and run, in call order, in the same engine
// event; a Soon inside it queues too. Its panic surfaces as a proc's.
func TestSoonQueuesWhatItStarts(t *testing.T) {
	e := New(1)
	var got []string
	var parked *Proc
	e.Go(func(p *Proc) {
		parked = p
		p.Park()
		got = append(got, "woken")
	})
	e.After(time.Millisecond, func() {
		e.Go(func(p *Proc) {
			e.Soon(func() {
				got = append(got, "soon")
				e.Go(func(*Proc) { got = append(got, "started") })
				parked.Wake()
				e.Soon(func() { got = append(got, "nested soon") })
				got = append(got, "soon ends")
			})
			p.Sleep(time.Millisecond)
			got = append(got, "slept")
		})
	})
	e.Run(time.Second)
	want := []string{"soon", "soon ends", "started", "woken", "nested soon", "slept"}
	if !slices.Equal(got, want) {
		t.Fatalf("order %q, want %q", got, want)
	}
	if e.Procs() != 0 {
		t.Fatalf("%d procs alive", e.Procs())
	}

	defer func() {
		pe, ok := recover().(*PanicError)
		if !ok || pe.Value != "boom" {
			t.Fatalf("recovered %v, want the PanicError of boom", pe)
		}
	}()
	e = New(1)
	e.Go(func(p *Proc) { // runs at once, up to its park: Soon's fn then
		e.Soon(func() { panic("boom") })
		p.Sleep(time.Millisecond)
	})
	t.Fatal("the panic did not surface")
}
