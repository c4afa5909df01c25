package engine

import (
	"testing"
	"time"

	_ "github.com/k8sexplain/k8sexplain/internal/golden"
)

func TestOrderAndBackground(t *testing.T) {
	e := New(1)
	var got []string
	e.After(2*time.Second, func() { got = append(got, "b") })
	e.After(time.Second, func() { got = append(got, "a1") })
	e.After(time.Second, func() { got = append(got, "a2") })
	e.Background(500*time.Millisecond, func() {
		got = append(got, "bg")
		e.Background(time.Hour, func() { got = append(got, "never") })
	})
	e.Run(time.Minute)
	want := []string{"bg", "a1", "a2", "b"}
	if len(got) != len(want) {
		t.Fatalf("got %v want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v want %v", got, want)
		}
	}
	if e.Now() != 2*time.Second {
		t.Fatalf("now %v", e.Now())
	}
}

func TestSeeded(t *testing.T) {
	a, b, c := New(7), New(7), New(8)
	x, y, z := a.Rand().Uint64(), b.Rand().Uint64(), c.Rand().Uint64()
	if x != y || x == z {
		t.Fatalf("seeding: %d %d %d", x, y, z)
	}
}

func TestDeadline(t *testing.T) {
	e := New(1)
	var tick func()
	n := 0
	tick = func() { n++; e.After(time.Second, tick) }
	e.After(0, tick)
	e.Run(10 * time.Second)
	if n != 11 {
		t.Fatalf("ran %d ticks, want 11", n)
	}
}
