package controller

import "github.com/k8sexplain/k8sexplain/internal/sim/engine"

// workQueue is the controllers' work queue (client-go workqueue in
// miniature): a key added while it is already waiting is not added again,
// and each key is synced once per turn of the engine.
type workQueue struct {
	eng     *engine.Engine
	pending map[string]bool
	sync    func(key string)
}

func newWorkQueue(eng *engine.Engine, sync func(string)) *workQueue {
	return &workQueue{eng: eng, pending: map[string]bool{}, sync: sync}
}

// add queues key for a sync unless it is queued already.
func (q *workQueue) add(key string) {
	if q.pending[key] {
		return
	}
	q.pending[key] = true
	q.eng.After(0, func() { delete(q.pending, key); q.sync(key) })
}
