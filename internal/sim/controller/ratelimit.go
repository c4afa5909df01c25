package controller

import "time"

// itemBackoff is client-go's ItemExponentialFailureRateLimiter as
// DefaultControllerRateLimiter configures it: a key that failed n times in
// a row is requeued after 5 ms × 2^n, at most 1000 s; a success forgets it
// (workqueue AddRateLimited / Forget).
type itemBackoff struct{ failures map[string]int }

func (b *itemBackoff) next(key string) time.Duration {
	if b.failures == nil {
		b.failures = map[string]int{}
	}
	n := b.failures[key]
	b.failures[key] = n + 1
	d := 5 * time.Millisecond
	for i := 0; i < n && d < 1000*time.Second; i++ {
		d *= 2
	}
	return min(d, 1000*time.Second)
}

func (b *itemBackoff) forget(key string) { delete(b.failures, key) }
