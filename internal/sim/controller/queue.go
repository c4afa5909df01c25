package controller

import (
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
)

// Rate limiting of failed syncs: client-go's DefaultControllerRateLimiter
// retries a key after 5 ms × 2^(failures so far), up to 1000 s
// (workqueue.NewTypedItemExponentialFailureRateLimiter(5ms, 1000s)).
const (
	retryBase = 5 * time.Millisecond
	retryMax  = 1000 * time.Second
)

// maxRetries is how often the deployment controller retries a key before
// it drops it (deployment_controller.go maxRetries = 15); upstream's
// ReplicaSet controller never drops one (replica_set.go AddRateLimited on
// every error), a difference kept here.
const maxRetries = 15

// workQueue is the controllers' work queue (client-go workqueue in
// miniature): a key added while it is waiting is not added twice; a key is
// synced by one worker at a time, and one added during its sync is synced
// again afterwards; a failed sync is retried with exponential back-off.
type workQueue struct {
	eng        *engine.Engine
	queued     map[string]bool
	processing map[string]bool
	dirty      map[string]bool
	waiting    map[string]bool // added with a delay that has not run out
	failures   map[string]int
	sync       func(key string, done func(error))
	// OnRetry hears a failed sync and the back-off before the retry.
	onRetry func(key string, err error, after time.Duration, attempt int)
}

func newWorkQueue(eng *engine.Engine, sync func(string, func(error))) *workQueue {
	return &workQueue{eng: eng, queued: map[string]bool{}, processing: map[string]bool{},
		dirty: map[string]bool{}, waiting: map[string]bool{}, failures: map[string]int{}, sync: sync}
}

// procSync runs a sync written as client-go writes it, func(p, key) error,
// on a proc of its own: started from the queue's engine event, it runs at
// once up to its first API call, where the callback form would have run.
func procSync(eng *engine.Engine, sync func(*engine.Proc, string) error) func(string, func(error)) {
	return func(key string, done func(error)) {
		eng.Go(func(p *engine.Proc) { done(sync(p, key)) })
	}
}

// add queues key for a sync unless it is queued already.
func (q *workQueue) add(key string) {
	if q.processing[key] {
		q.dirty[key] = true
		return
	}
	if q.queued[key] {
		return
	}
	q.queued[key] = true
	q.eng.After(0, func() { q.run(key) })
}

// addAfter is AddAfter: key is added once d has passed; adding it again
// while it waits changes nothing (the delaying queue keeps the earliest).
func (q *workQueue) addAfter(key string, d time.Duration) {
	if d <= 0 {
		q.add(key)
		return
	}
	if q.waiting[key] {
		return
	}
	q.waiting[key] = true
	q.eng.After(d, func() {
		delete(q.waiting, key)
		q.add(key)
	})
}

// addAfterQuietly is addAfter on a background timer: a requeue that only
// re-checks (the Deployment's progress deadline) does not keep the
// simulation running by itself.
func (q *workQueue) addAfterQuietly(key string, d time.Duration) {
	if q.waiting[key] {
		return
	}
	q.waiting[key] = true
	q.eng.Background(d, func() {
		delete(q.waiting, key)
		q.add(key)
	})
}

func (q *workQueue) run(key string) {
	delete(q.queued, key)
	q.processing[key] = true
	q.sync(key, func(err error) {
		delete(q.processing, key)
		if err != nil {
			q.retry(key, err)
		} else {
			delete(q.failures, key) // Forget
		}
		if q.dirty[key] {
			delete(q.dirty, key)
			q.add(key)
		}
	})
}

// retry is AddRateLimited: the key comes back after its back-off.
func (q *workQueue) retry(key string, err error) {
	n := q.failures[key]
	if n >= maxRetries {
		delete(q.failures, key)
		return
	}
	q.failures[key] = n + 1
	d := RetryBackoff(n)
	if q.onRetry != nil {
		q.onRetry(key, err, d, n+1)
	}
	q.eng.After(d, func() { q.add(key) })
}

// RetryBackoff is the delay before retry n+1 of a key that failed n times.
func RetryBackoff(n int) time.Duration {
	d := retryBase
	for i := 0; i < n && d < retryMax; i++ {
		d *= 2
	}
	return min(d, retryMax)
}
