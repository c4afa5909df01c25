package trace

import (
	"math"
	"testing"
	"time"
)

// Seconds saturates instead of wrapping, with room to add any run's time.
func TestSecondsSaturates(t *testing.T) {
	for _, n := range []int64{math.MaxInt64, math.MaxInt64 / int64(time.Second), 1 << 40} {
		d := Seconds(n)
		if d <= 0 || d+24*time.Hour < d {
			t.Errorf("Seconds(%d) = %v", n, d)
		}
	}
	if d := Seconds(math.MinInt64); d >= 0 {
		t.Errorf("Seconds(min) = %v", d)
	}
	if d := Seconds(30); d != 30*time.Second {
		t.Errorf("Seconds(30) = %v", d)
	}
}
