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
	// sync is the controller's sync, written as client-go writes it; each
	// runs on a proc of its own, started from the queue's engine event (it
	// runs at once up to its first API call).
	sync func(p *engine.Proc, key string) error
	// fifo holds the added keys whose engine event has not run yet, in the
	// order added; every such event is runNext (one func value for all), so
	// an add allocates no closure. Events at the same virtual time run in
	// the order they were scheduled, so the i-th runNext takes the i-th key.
	fifo    []string
	head    int
	runNext func()
	syncers map[string]func(*engine.Proc) // syncer's, by key
	// OnRetry hears a failed sync and the back-off before the retry.
	onRetry func(key string, err error, after time.Duration, attempt int)
}

func newWorkQueue(eng *engine.Engine, sync func(*engine.Proc, string) error) *workQueue {
	q := &workQueue{eng: eng, queued: map[string]bool{}, processing: map[string]bool{},
		dirty: map[string]bool{}, waiting: map[string]bool{}, failures: map[string]int{}, sync: sync, syncers: map[string]func(*engine.Proc){}}
	q.runNext = q.next
	return q
}

// next runs the oldest added key's sync.
func (q *workQueue) next() {
	key := q.fifo[q.head]
	q.fifo[q.head] = ""
	q.head++
	switch {
	case q.head == len(q.fifo):
		q.fifo, q.head = q.fifo[:0], 0
	case q.head >= 64 && 2*q.head >= len(q.fifo): // keep the array from growing while it never empties
		n := copy(q.fifo, q.fifo[q.head:])
		clear(q.fifo[n:])
		q.fifo, q.head = q.fifo[:n], 0
	}
	q.run(key)
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
	q.fifo = append(q.fifo, key)
	q.eng.After(0, q.runNext)
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
	q.eng.Go(q.syncer(key))
}

// syncer is the proc body that syncs key, made once per key: a queue
// syncs the same few keys (its objects) over and over.
func (q *workQueue) syncer(key string) func(*engine.Proc) {
	fn := q.syncers[key]
	if fn == nil {
		fn = func(p *engine.Proc) { q.done(key, q.sync(p, key)) }
		q.syncers[key] = fn
	}
	return fn
}

// done is Done: the key's sync returned err.
func (q *workQueue) done(key string, err error) {
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
