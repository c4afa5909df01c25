package watchload

import (
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
)

// list sends one LIST through the controller's token bucket: it waits for a
// token, the server takes a snapshot when the request arrives and holds the
// encoded response while it serves it; p resumes when the response is
// served, with the snapshot time.
func list(p *engine.Proc, m *meter, b *bucket, size int64, count *int) (snapshot time.Duration) {
	wait := b.take(p.Now())
	p.Sleep(wait)
	now := p.Now()
	m.request(now, wait)
	if m.counts(now) {
		*count++
	}
	m.send(now, size, 1) // every LIST is serialised anew
	m.hold(now, size)
	p.Sleep(ServeTime(size))
	m.release(p.Now(), size)
	return now
}

// runPolling plays controllers that LIST pods and nodes, then sleep the
// poll interval (wait.Until: the period starts when the work ends), until
// the run is over and each has seen the pod change.
func runPolling(cfg Config, s Sizes, changeAt time.Duration) Design {
	eng := engine.New(cfg.Seed)
	defer eng.Close() // loops still polling when the run stops
	m := newMeter(cfg)
	// The loops have been running for a while: each is at a random point
	// of its loop when the run starts.
	loop := cfg.PollInterval + ServeTime(s.PodList) + ServeTime(s.NodeList)
	for _, at := range starts(eng.Rand(), cfg.Controllers, loop) {
		eng.Go(func(p *engine.Proc) {
			p.Sleep(at)
			poll(p, m, newBucket(), cfg, s, changeAt)
		})
	}
	eng.Run(cfg.Duration + 2*cfg.PollInterval + time.Hour)
	return m.finish()
}

// poll is one polling controller's loop.
func poll(p *engine.Proc, m *meter, b *bucket, cfg Config, s Sizes, changeAt time.Duration) {
	seen := false
	for p.Now() < cfg.Duration || !seen {
		if snapshot := list(p, m, b, s.PodList, &m.d.PodLists); !seen && snapshot >= changeAt {
			seen = true
			m.notice(p.Now() - changeAt)
		}
		list(p, m, b, s.NodeList, &m.d.NodeLists)
		if m.counts(p.Now()) {
			m.d.Loops++
		}
		p.Sleep(cfg.PollInterval)
	}
}

// informer is one controller's pair of Reflectors (pods and nodes).
type informer struct {
	b       *bucket
	podRV   time.Duration // snapshot time of the pod LIST
	watched bool          // its pod watch is open
	seen    bool
}

// streamList is a Reflector's streaming list (client-go reflector.go
// watchList, WatchListClient on by default since v1.35): one WATCH with
// sendInitialEvents=true, resourceVersionMatch=NotOlderThan and
// allowWatchBookmarks=true, through the token bucket; the watch cache
// sends every object as an ADDED event, encoded for this watcher, then the
// BOOKMARK annotated k8s.io/initial-events-end, and the same watch goes
// on. The server holds one event at a time, never a whole list. p resumes
// when the bookmark has been sent, with the snapshot time.
func streamList(p *engine.Proc, m *meter, b *bucket, objects int, size, event int64) (snapshot time.Duration) {
	wait := b.take(p.Now())
	p.Sleep(wait)
	now := p.Now()
	m.request(now, wait)
	if m.counts(now) {
		m.d.Watches++
		m.d.StreamingLists++
		m.d.InitialEvents += objects
		m.d.Events += objects + 1
		m.d.Bookmarks++
	}
	m.send(now, size, 1) // each watcher's initial events are its own
	m.hold(now, event)
	p.Sleep(ServeTime(size))
	m.release(p.Now(), event)
	return now
}

// runInformers plays controllers whose Reflectors LIST (resourceVersion=0,
// from the watch cache) and then WATCH from the list's resourceVersion —
// or, streaming, start with one WATCH that streams the current objects
// (streamList) and go on with it.
func runInformers(cfg Config, s Sizes, changeAt time.Duration, streaming bool) Design {
	eng := engine.New(cfg.Seed)
	defer eng.Close() // watches still open when the run stops
	m := newMeter(cfg)
	nodeWatchers := 0
	var infs []*informer
	for _, at := range starts(eng.Rand(), cfg.Controllers, StartWindow) {
		inf := &informer{b: newBucket(), podRV: -1}
		infs = append(infs, inf)
		eng.Go(func(p *engine.Proc) {
			p.Sleep(at)
			// The node Reflector starts beside the pod one and takes its
			// token from the same bucket once this one waits.
			eng.Go(func(np *engine.Proc) { reflectNodes(np, m, inf.b, cfg, s, &nodeWatchers, streaming) })
			inf.reflectPods(p, m, cfg, s, changeAt, streaming)
		})
	}
	// The pod change: one MODIFIED event, serialised once (the watch cache
	// caches an event's encoding for all its watchers), sent to each open
	// pod watch.
	eng.After(changeAt, func() {
		watchers := 0
		for _, inf := range infs {
			if !inf.watched || inf.seen {
				continue
			}
			inf.seen = true
			watchers++
			m.notice(apiserver.WatchLatency)
		}
		m.d.Events += watchers
		m.send(eng.Now(), s.PodEvent, watchers)
	})
	// Kubelets re-post node status every NodeStatusReport, each at its own
	// phase: one event per node watcher.
	for j := 0; j < cfg.Nodes; j++ {
		phase := time.Duration(eng.Rand().Int64N(int64(NodeStatusReport))).Truncate(time.Millisecond)
		for t := phase; t < cfg.Duration; t += NodeStatusReport {
			eng.After(t, func() {
				if m.counts(eng.Now()) {
					m.d.Events += nodeWatchers
				}
				m.send(eng.Now(), s.NodeEvent, nodeWatchers)
			})
		}
	}
	eng.Run(cfg.Duration + time.Hour)
	return m.finish()
}

// reflectPods is the pod Reflector: LIST, then WATCH from the list's
// resourceVersion; the controller sees the change in the list, in the
// watch's replay from that resourceVersion, or as a watch event.
func (inf *informer) reflectPods(p *engine.Proc, m *meter, cfg Config, s Sizes, changeAt time.Duration, streaming bool) {
	var snapshot time.Duration
	if streaming {
		snapshot = streamList(p, m, inf.b, cfg.Pods, s.PodStream, s.PodEvent)
	} else {
		snapshot = list(p, m, inf.b, s.PodList, &m.d.PodLists)
	}
	inf.podRV = snapshot
	if snapshot >= changeAt && !inf.seen { // the LIST already has the change
		inf.seen = true
		m.notice(p.Now() - changeAt)
	}
	watch(p, m, inf.b, cfg, s, streaming, func() {
		inf.watched = true
		if !inf.seen && p.Now() >= changeAt { // replayed from the list's resourceVersion
			inf.seen = true
			m.notice(p.Now() + apiserver.WatchLatency - changeAt)
		}
	})
}

// reflectNodes is the node Reflector: LIST, then WATCH; watchers counts
// the open node watches.
func reflectNodes(p *engine.Proc, m *meter, b *bucket, cfg Config, s Sizes, watchers *int, streaming bool) {
	if streaming {
		streamList(p, m, b, cfg.Nodes, s.NodeStream, s.NodeEvent)
	} else {
		list(p, m, b, s.NodeList, &m.d.NodeLists)
	}
	watch(p, m, b, cfg, s, streaming, func() { *watchers++ })
}

// watch opens a WATCH (through the token bucket) and keeps it open: the
// server ends it after the timeout the Reflector asked for, and the
// Reflector re-opens it from its last resourceVersion, with no LIST.
// Bookmarks arrive about once a minute while it is open. opened runs when
// the first one opens. open says the first watch is already open: the
// streaming list's, which goes on after its initial events.
func watch(p *engine.Proc, m *meter, b *bucket, cfg Config, s Sizes, open bool, opened func()) {
	eng := p.Engine()
	for {
		now := p.Now()
		if !open {
			wait := b.take(now)
			p.Sleep(wait)
			now = p.Now()
			m.request(now, wait)
			if m.counts(now) {
				m.d.Watches++
			}
		}
		open = false
		if opened != nil {
			opened()
			opened = nil
		}
		timeout := MinWatchTimeout + time.Duration(eng.Rand().Int64N(int64(MinWatchTimeout))).Truncate(time.Second)
		for t := BookmarkEvery; t < timeout && now+t < cfg.Duration; t += BookmarkEvery {
			eng.After(t, func() {
				m.d.Events++
				m.d.Bookmarks++
				m.send(eng.Now(), s.Bookmark, 1) // each watcher's own resourceVersion
			})
		}
		if now+timeout >= cfg.Duration {
			return
		}
		p.Sleep(timeout)
	}
}
