package engine

import (
	"strings"
	"testing"
	"time"
)

type note struct {
	got  *[]string
	name string
}

func (n note) Run() { *n.got = append(*n.got, n.name) }

// A Runner and a func queued for the same instant run in the order they
// were queued: both take one sequence number, as before.
func TestAfterRunOrder(t *testing.T) {
	e := New(1)
	var got []string
	e.After(time.Second, func() { got = append(got, "f1") })
	e.AfterRun(time.Second, note{&got, "r1"})
	e.Background(time.Second, func() { got = append(got, "bg") })
	e.AfterRun(time.Second, note{&got, "r2"})
	e.After(time.Second, func() { got = append(got, "f2") })
	e.Run(time.Minute)
	want := "f1 r1 bg r2 f2"
	if s := strings.Join(got, " "); s != want {
		t.Fatalf("got %q, want %q", s, want)
	}
	if e.Pending() != 0 {
		t.Fatalf("pending %d", e.Pending())
	}
}

// A proc's sleeps allocate nothing once the proc runs: its timer is the
// proc itself (sleepTimer), and an event is 32 bytes in the queue's array.
func TestSleepAllocs(t *testing.T) {
	e := New(1)
	n := 0
	e.Go(func(p *Proc) {
		for {
			p.Sleep(time.Second)
			n++
		}
	})
	e.RunUntil(10 * time.Second) // grow the queue and the coroutine first
	at := e.Now()
	allocs := testing.AllocsPerRun(100, func() {
		at += time.Second
		e.RunUntil(at)
	})
	e.Close()
	if allocs != 0 || n < 100 {
		t.Fatalf("%v allocations a sleep (%d sleeps)", allocs, n)
	}
}
