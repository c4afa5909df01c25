package apiserver

import "github.com/k8sexplain/k8sexplain/internal/trace"

// delivery is one watch event on its way to one watcher.
type delivery struct {
	w  *watch
	ev Event
}

// deliverAll hands a change to its watchers one watch latency later, in
// order, from one engine event: the watchers' handlers run back to back
// exactly as one event each would (they are queued at the same instant
// with consecutive sequence numbers, so nothing can run between them),
// without a closure and a queue entry per watcher.
//
// b.ev goes to every watch in b.ws, then each delivery in b.ds carries its
// own event (node-scoped watches, the initial list). b.ws may be the
// server's own list of watches: it is read, never changed, and a watch
// added later is beyond its length. The batch is the engine event itself
// (a Runner), and goes back to the server's free list once delivered.
func (s *Server) deliverAll(b *batch) {
	if len(b.ws)+len(b.ds) == 0 {
		s.freeBatch(b)
		return
	}
	for _, w := range b.ws {
		w.events++
	}
	for _, d := range b.ds {
		d.w.events++
	}
	s.WatchEvents += len(b.ws) + len(b.ds)
	s.eng.AfterRun(WatchLatency, b)
}

// batch is one change on its way to its watchers (deliverAll).
type batch struct {
	s  *Server
	ev Event
	ws []*watch
	ds []delivery
}

// newBatch is a batch of ev to ws, from the free list when one is there.
func (s *Server) newBatch(ev Event, ws []*watch) *batch {
	var b *batch
	if k := len(s.batches); k > 0 {
		b = s.batches[k-1]
		s.batches[k-1] = nil
		s.batches = s.batches[:k-1]
	} else {
		b = &batch{s: s}
	}
	b.ev, b.ws = ev, ws
	return b
}

// maxBatchCap is the largest deliveries buffer a freed batch keeps: a
// node's watches take a few, an initial list may take every object.
const maxBatchCap = 64

// freeBatch drops what b refers to and keeps it for the next change.
func (s *Server) freeBatch(b *batch) {
	b.ev, b.ws = Event{}, nil
	if cap(b.ds) > maxBatchCap {
		b.ds = nil
	} else {
		clear(b.ds)
		b.ds = b.ds[:0]
	}
	s.batches = append(s.batches, b)
}

// Run delivers the batch (the engine event deliverAll queued).
func (b *batch) Run() {
	s := b.s
	for _, w := range b.ws {
		s.deliver(w, b.ev)
	}
	for _, d := range b.ds {
		s.deliver(d.w, d.ev)
	}
	s.freeBatch(b)
}

func (s *Server) deliver(w *watch, ev Event) {
	if !s.rec.Full() {
		if w.shared != "" {
			s.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: w.actor, Kind: "watch.shared", Verbose: true,
				Object: objectRef(ev.Obj), Fields: trace.F("type", ev.Type, "rev", ev.Rev, "handlers", w.shared)})
		} else {
			s.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: w.actor, Kind: "watch.event", Verbose: true,
				Object: objectRef(ev.Obj), Fields: trace.F("type", ev.Type, "rev", ev.Rev)})
		}
	}
	w.handler(ev)
}
