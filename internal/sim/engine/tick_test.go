package engine

import (
	"testing"
	"time"
)

// Tick reports every TickEvery events and changes nothing: the same run
// with and without it ends at the same time with the same random draws.
func TestTickReportsWithoutChangingTheRun(t *testing.T) {
	run := func(tick bool) (int, time.Duration, int64) {
		e := New(7)
		ticks := 0
		if tick {
			e.Tick = func() { ticks++ }
		}
		for i := 0; i < 3*TickEvery+5; i++ {
			e.After(time.Duration(e.Rand().IntN(1000))*time.Millisecond, func() {})
		}
		e.Run(time.Hour)
		return ticks, e.Now(), e.Rand().Int64()
	}
	n, at1, r1 := run(true)
	_, at2, r2 := run(false)
	if n != 3 || at1 != at2 || r1 != r2 {
		t.Errorf("ticks %d (want 3), end %v vs %v, next draw %d vs %d", n, at1, at2, r1, r2)
	}
}
