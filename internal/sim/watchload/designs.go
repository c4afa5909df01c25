package watchload

import (
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
)

// list sends one LIST through the controller's token bucket: it waits for a
// token, the server takes a snapshot when the request arrives and holds the
// encoded response while it serves it; done gets the snapshot time.
func list(eng *engine.Engine, m *meter, b *bucket, size int64, count *int, done func(snapshot time.Duration)) {
	wait := b.take(eng.Now())
	eng.After(wait, func() {
		now := eng.Now()
		m.request(now, wait)
		if m.counts(now) {
			*count++
		}
		m.send(now, size, 1) // every LIST is serialised anew
		m.hold(now, size)
		eng.After(ServeTime(size), func() {
			m.release(eng.Now(), size)
			done(now)
		})
	})
}

// runPolling plays controllers that LIST pods and nodes, then sleep the
// poll interval (wait.Until: the period starts when the work ends), until
// the run is over and each has seen the pod change.
func runPolling(cfg Config, s Sizes, changeAt time.Duration) Design {
	eng := engine.New(cfg.Seed)
	m := newMeter(cfg)
	// The loops have been running for a while: each is at a random point
	// of its loop when the run starts.
	loop := cfg.PollInterval + ServeTime(s.PodList) + ServeTime(s.NodeList)
	for _, at := range starts(eng.Rand(), cfg.Controllers, loop) {
		b := newBucket()
		seen := false
		var again func()
		again = func() {
			if eng.Now() >= cfg.Duration && seen {
				return
			}
			list(eng, m, b, s.PodList, &m.d.PodLists, func(snapshot time.Duration) {
				if !seen && snapshot >= changeAt {
					seen = true
					m.notice(eng.Now() - changeAt)
				}
				list(eng, m, b, s.NodeList, &m.d.NodeLists, func(time.Duration) {
					if m.counts(eng.Now()) {
						m.d.Loops++
					}
					eng.After(cfg.PollInterval, again)
				})
			})
		}
		eng.After(at, again)
	}
	eng.Run(cfg.Duration + 2*cfg.PollInterval + time.Hour)
	return m.finish()
}

// informer is one controller's pair of Reflectors (pods and nodes).
type informer struct {
	b       *bucket
	podRV   time.Duration // snapshot time of the pod LIST
	watched bool          // its pod watch is open
	seen    bool
}

// runInformers plays controllers whose Reflectors LIST (resourceVersion=0,
// from the watch cache) and then WATCH from the list's resourceVersion.
func runInformers(cfg Config, s Sizes, changeAt time.Duration) Design {
	eng := engine.New(cfg.Seed)
	m := newMeter(cfg)
	nodeWatchers := 0
	var infs []*informer
	for _, at := range starts(eng.Rand(), cfg.Controllers, StartWindow) {
		inf := &informer{b: newBucket(), podRV: -1}
		infs = append(infs, inf)
		eng.After(at, func() {
			list(eng, m, inf.b, s.PodList, &m.d.PodLists, func(snapshot time.Duration) {
				inf.podRV = snapshot
				if snapshot >= changeAt && !inf.seen { // the LIST already has the change
					inf.seen = true
					m.notice(eng.Now() - changeAt)
				}
				watch(eng, m, inf.b, cfg, s, func() {
					inf.watched = true
					if !inf.seen && eng.Now() >= changeAt { // replayed from the list's resourceVersion
						inf.seen = true
						m.notice(eng.Now() + apiserver.WatchLatency - changeAt)
					}
				})
			})
			list(eng, m, inf.b, s.NodeList, &m.d.NodeLists, func(time.Duration) {
				watch(eng, m, inf.b, cfg, s, func() { nodeWatchers++ })
			})
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

// watch opens a WATCH (through the token bucket) and keeps it open: the
// server ends it after the timeout the Reflector asked for, and the
// Reflector re-opens it from its last resourceVersion, with no LIST.
// Bookmarks arrive about once a minute while it is open.
func watch(eng *engine.Engine, m *meter, b *bucket, cfg Config, s Sizes, opened func()) {
	wait := b.take(eng.Now())
	eng.After(wait, func() {
		now := eng.Now()
		m.request(now, wait)
		if m.counts(now) {
			m.d.Watches++
		}
		if opened != nil {
			opened()
		}
		timeout := MinWatchTimeout + time.Duration(eng.Rand().Int64N(int64(MinWatchTimeout))).Truncate(time.Second)
		for t := BookmarkEvery; t < timeout && now+t < cfg.Duration; t += BookmarkEvery {
			eng.After(t, func() {
				m.d.Events++
				m.d.Bookmarks++
				m.send(eng.Now(), s.Bookmark, 1) // each watcher's own resourceVersion
			})
		}
		if now+timeout < cfg.Duration {
			eng.After(timeout, func() { watch(eng, m, b, cfg, s, nil) })
		}
	})
}
