package grpclb

import (
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/dns"
)

// roundRobinClients: each client's channel targets
// dns:///echo-headless.default.svc.cluster.local:50051 with the round_robin
// policy: one subchannel (one connection) per address in the DNS answer, and
// a picker that cycles over the READY ones.
type roundRobinClients struct {
	ch []*rrChannel
}

// rrChannel is one client's channel.
type rrChannel struct {
	c    int
	subs map[int]*subchannel // by pod
	// picker is the READY pods in address order, rotated by start.
	picker []int
	next   int
	// lastResolve is when the resolver last answered; pending is set while
	// a ResolveNow waits for the 30 s floor.
	lastResolve time.Duration
	pending     bool
}

// subchannel is the connection to one address.
type subchannel struct {
	ready  bool
	failed bool // the pod is gone: reconnects fail until DNS drops it
	conn   int
}

func (m *roundRobinClients) mode() string { return ModeHeadless }

func (m *roundRobinClients) start(w *world) {
	for c := 0; c < w.r.Config.Clients; c++ {
		ch := &rrChannel{c: c, subs: map[int]*subchannel{}}
		m.ch = append(m.ch, ch)
		// The simulation starts with every subchannel connected: the cold
		// start (RPCs only on the first READY ones) is what --live shows.
		for _, p := range m.answer(w) {
			ch.subs[p] = &subchannel{ready: true, conn: w.openConn(c, p, "")}
			m.armGoaway(w, ch, p)
		}
		ch.rebuild(w)
	}
}

// answer is the DNS answer for the headless Service, as pod indices.
func (m *roundRobinClients) answer(w *world) []int {
	a := dns.Lookup(Headless(w.r.Pods, w.now()), "cluster.local", dns.DefaultTTL)
	byIP := map[string]int{}
	for i, p := range w.r.Pods {
		byIP[p.IP] = i
	}
	var out []int
	for _, rec := range a.Records {
		out = append(out, byIP[rec.Data])
	}
	return out
}

// rebuild makes a new picker over the READY subchannels, starting at a
// random index (endpointsharding: next = randIntN(len(pickers))).
func (ch *rrChannel) rebuild(w *world) {
	ch.picker = ch.picker[:0]
	for _, p := range w.r.Alive(w.now()) {
		if s := ch.subs[p]; s != nil && s.ready {
			ch.picker = append(ch.picker, p)
		}
	}
	if len(ch.picker) > 0 {
		ch.next = w.rng().IntN(len(ch.picker))
	}
}

// connect makes subchannel s (to pod p) READY unless it already is, was
// replaced, or its pod is gone.
func (m *roundRobinClients) connect(w *world, ch *rrChannel, p int, s *subchannel) {
	if ch.subs[p] != s || s.ready || s.failed {
		return
	}
	s.ready, s.conn = true, w.openConn(ch.c, p, "")
	ch.rebuild(w)
	m.armGoaway(w, ch, p)
}

func (m *roundRobinClients) pick(w *world, c int) int {
	ch := m.ch[c]
	if len(ch.picker) == 0 {
		// No READY subchannel: the RPC waits (the picker returns
		// ErrNoSubConnAvailable) until the first one connects.
		for _, p := range sortedPods(ch.subs) {
			m.connect(w, ch, p, ch.subs[p])
			if len(ch.picker) > 0 {
				break
			}
		}
	}
	p := ch.picker[ch.next%len(ch.picker)]
	ch.next++
	w.res.Conns[ch.subs[p].conn].RPCs++
	return p
}

// armGoaway schedules the server's GOAWAY on the subchannel's connection.
func (m *roundRobinClients) armGoaway(w *world, ch *rrChannel, p int) {
	if w.r.Config.MaxConnectionAge <= 0 {
		return
	}
	conn := ch.subs[p].conn
	w.e.Background(w.goawayAfter(), func() {
		s := ch.subs[p]
		if s == nil || s.conn != conn || !s.ready {
			return
		}
		// The transport is gone: the subchannel goes IDLE, the channel asks
		// the resolver to refresh (clientconn.go), and endpointsharding
		// exits IDLE at once, so the child reconnects to the same address.
		w.closeConn(conn, "goaway")
		s.ready = false
		ch.rebuild(w)
		m.resolveNow(w, ch)
		w.e.Background(connectDelay, func() { m.connect(w, ch, p, s) })
	})
}

// resolveNow is the dns resolver's watcher: it answers a ResolveNow at
// once if the last answer is at least 30 s old, else when it becomes so.
func (m *roundRobinClients) resolveNow(w *world, ch *rrChannel) {
	if ch.pending {
		return
	}
	ch.pending = true
	wait := ch.lastResolve + MinResolutionInterval - w.now()
	w.e.Background(max(wait, 0), func() {
		ch.pending = false
		ch.lastResolve = w.now()
		w.res.Resolutions = append(w.res.Resolutions, w.now())
		in := map[int]bool{}
		for _, p := range m.answer(w) {
			in[p] = true
			if ch.subs[p] == nil {
				s := &subchannel{conn: -1}
				ch.subs[p] = s
				w.e.Background(connectDelay, func() { m.connect(w, ch, p, s) })
			}
		}
		for _, p := range sortedPods(ch.subs) {
			if !in[p] {
				delete(ch.subs, p) // the address left the answer
			}
		}
		ch.rebuild(w)
	})
}

func (m *roundRobinClients) podStopped(w *world, p int) {
	for _, ch := range m.ch {
		s := ch.subs[p]
		if s == nil {
			continue
		}
		if s.ready {
			w.closeConn(s.conn, "stopped")
		}
		s.ready, s.failed = false, true
		ch.rebuild(w)
		m.resolveNow(w, ch)
	}
}

// scaled: nothing tells a gRPC client that the answer changed; it learns of
// new pods only at its next resolution.
func (m *roundRobinClients) scaled(*world) {}

func sortedPods(subs map[int]*subchannel) []int {
	var out []int
	for p := range subs {
		out = append(out, p)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
