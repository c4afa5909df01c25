package grpclb

import (
	"math/rand/v2"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy"
)

// Run simulates the experiment in every mode.
func Run(cfg Config) *Result {
	r := &Result{Config: cfg, Killed: -1, Event: cfg.Duration / 2}
	for i := 0; i < cfg.Pods; i++ {
		r.Pods = append(r.Pods, Pod{Name: PodName(i), IP: PodIP(i)})
	}
	for i := cfg.Pods; i < cfg.Pods+cfg.ScaleUp; i++ {
		r.Pods = append(r.Pods, Pod{Name: PodName(i), IP: PodIP(i), Added: r.Event})
	}
	// The ClusterIP run decides which pod --kill-pod stops; the other modes
	// replay the same history of pods.
	r.Modes = append(r.Modes, runMode(r, &clusterIPClients{}))
	r.Modes = append(r.Modes, runMode(r, &roundRobinClients{}))
	if cfg.Envoy {
		r.Modes = append(r.Modes, runMode(r, &envoyClients{}))
	}
	return r
}

// clients is one mode's client-side behaviour.
type clients interface {
	mode() string
	start(w *world)
	// pick sends one RPC from client c and returns the pod that serves it.
	pick(w *world, c int) int
	// podStopped closes the connections to pod p.
	podStopped(w *world, p int)
	// scaled tells the clients that new pods are ready (only a proxy
	// watching EndpointSlices hears about it).
	scaled(w *world)
}

// world is one mode's run: the engine, the pods and the bookkeeping.
type world struct {
	e   *engine.Engine
	r   *Result
	res *ModeResult
}

func (w *world) now() time.Duration { return w.e.Now() }
func (w *world) rng() *rand.Rand    { return w.e.Rand() }
func (w *world) alive() []int       { return w.r.Alive(w.now()) }

// openConn records a new connection and returns its index.
func (w *world) openConn(c, pod int, chain string) int {
	w.res.Conns = append(w.res.Conns, Conn{Client: c, Pod: pod, Opened: w.now(), Chain: chain})
	return len(w.res.Conns) - 1
}

func (w *world) closeConn(i int, reason string) {
	if w.res.Conns[i].Reason == "" {
		w.res.Conns[i].Closed, w.res.Conns[i].Reason = w.now(), reason
	}
}

// goawayAfter is when the server drains a connection it just accepted:
// MaxConnectionAge plus a jitter in [-10 %, +10 %) (getJitter).
func (w *world) goawayAfter() time.Duration {
	age := w.r.Config.MaxConnectionAge
	j := int64(age / 10)
	return age + time.Duration(w.rng().Int64N(2*j)-j)
}

func runMode(r *Result, cl clients) ModeResult {
	cfg := r.Config
	n := len(r.Pods)
	res := ModeResult{Mode: cl.mode(), Counts: make([]int, n), Pickup: -1}
	res.PerInterval = make([][]int, Intervals)
	for i := range res.PerInterval {
		res.PerInterval[i] = make([]int, n)
	}
	w := &world{e: engine.New(cfg.Seed), r: r, res: &res}
	if cfg.ScaleUp > 0 {
		w.e.Background(r.Event, func() { cl.scaled(w) })
	}
	if cfg.KillPod {
		w.e.Background(r.Event, func() {
			if r.Killed < 0 {
				r.Killed = busiest(res.Conns, res.Counts)
				r.Pods[r.Killed].Stopped, r.Pods[r.Killed].Removed = true, r.Event
			}
			cl.podStopped(w, r.Killed)
		})
	}
	cl.start(w)
	var send func(g int)
	send = func(g int) {
		p := cl.pick(w, g%cfg.Clients)
		res.Counts[p]++
		iv := int(int64(w.now()) * Intervals / int64(cfg.Duration))
		res.PerInterval[min(iv, Intervals-1)][p]++
		if p >= cfg.Pods && res.Pickup < 0 {
			res.Pickup = w.now()
		}
		if g+1 < cfg.RPCs {
			w.e.After(rpcTime(cfg, g+1)-w.now(), func() { send(g + 1) })
		}
	}
	w.e.After(0, func() { send(0) })
	w.e.Run(cfg.Duration)
	for i := range res.Conns {
		if res.Conns[i].Reason == "" {
			res.Conns[i].Closed = cfg.Duration
		}
	}
	return res
}

// rpcTime spreads the RPCs evenly over the run; RPC g comes from client
// g mod clients, so the clients take turns.
func rpcTime(cfg Config, g int) time.Duration {
	return time.Duration(int64(cfg.Duration) / int64(cfg.RPCs) * int64(g))
}

// busiest is the pod with the most open connections, then the most RPCs
// so far (lowest index wins a tie).
func busiest(conns []Conn, counts []int) int {
	open := make([]int, len(counts))
	for _, c := range conns {
		if c.Reason == "" {
			open[c.Pod]++
		}
	}
	best := 0
	for p := range open {
		if open[p] > open[best] || (open[p] == open[best] && counts[p] > counts[best]) {
			best = p
		}
	}
	return best
}

// clusterIPClients: each client's channel (pick_first, target the Service
// name, which resolves to the cluster IP) holds one connection; kube-proxy's
// rules choose its pod when it opens.
type clusterIPClients struct {
	conn  []int // per client: open connection index, -1 when IDLE
	rs    kubeproxy.Ruleset
	byEP  map[string]int
	epoch time.Duration
}

func (m *clusterIPClients) mode() string { return ModeClusterIP }

func (m *clusterIPClients) start(w *world) {
	m.conn = make([]int, w.r.Config.Clients)
	for c := range m.conn {
		m.conn[c] = -1
	}
	m.sync(w)
}

// sync is kube-proxy rewriting the rules after an EndpointSlice change.
func (m *clusterIPClients) sync(w *world) {
	sp := ServicePort(w.r.Pods, w.now())
	m.rs = kubeproxy.BuildIPTables(kubeproxy.Config{ClusterCIDR: ClusterCIDR}, []kubeproxy.ServicePort{sp})
	m.byEP = map[string]int{}
	for _, p := range w.alive() {
		m.byEP[kubeproxy.Endpoint{IP: w.r.Pods[p].IP, Port: Port}.String()] = p
	}
}

func (m *clusterIPClients) pick(w *world, c int) int {
	if m.conn[c] < 0 {
		// pick_first leaves IDLE on the RPC: a new TCP connection, whose SYN
		// walks the nat rules (source port from ip_local_port_range).
		pkt := kubeproxy.Packet{Src: ClientIP(c), Dst: ClusterIP, SPort: 32768 + w.rng().IntN(60999-32768+1), DPort: Port, Proto: "tcp"}
		walk := m.rs.WalkNew(pkt, w.rng(), nil)
		p := m.byEP[walk.Endpoint]
		i := w.openConn(c, p, walk.SEP)
		m.conn[c] = i
		if w.r.Config.MaxConnectionAge > 0 {
			w.e.Background(w.goawayAfter(), func() {
				if m.conn[c] == i {
					// GOAWAY: the transport drains, the channel goes IDLE
					// and the next RPC reconnects (pickfirst.go).
					w.closeConn(i, "goaway")
					m.conn[c] = -1
				}
			})
		}
	}
	w.res.Conns[m.conn[c]].RPCs++
	return w.res.Conns[m.conn[c]].Pod
}

func (m *clusterIPClients) podStopped(w *world, p int) {
	m.sync(w) // the endpoint leaves the rules before the clients reconnect
	for c, i := range m.conn {
		if i >= 0 && w.res.Conns[i].Pod == p {
			w.closeConn(i, "stopped")
			m.conn[c] = -1
		}
	}
}

func (m *clusterIPClients) scaled(w *world) { m.sync(w) }

// envoyClients: each client talks to its sidecar proxy, which balances
// every request over the endpoints it learns from the control plane.
type envoyClients struct{ next []int }

func (m *envoyClients) mode() string { return ModeEnvoy }

func (m *envoyClients) start(w *world) {
	m.next = make([]int, w.r.Config.Clients)
	for c := range m.next {
		m.next[c] = w.rng().IntN(len(w.alive()))
	}
}

func (m *envoyClients) pick(w *world, c int) int {
	eps := w.alive()
	p := eps[m.next[c]%len(eps)]
	m.next[c]++
	return p
}

func (m *envoyClients) podStopped(*world, int) {}
func (m *envoyClients) scaled(*world)          {}
