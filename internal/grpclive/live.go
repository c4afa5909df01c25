// Package grpclive runs the grpc-skew experiment with the real
// google.golang.org/grpc library, entirely on 127.0.0.1: N backend servers
// that count the calls they serve, a TCP proxy that picks a backend once per
// new connection the way kube-proxy's DNAT does, pick_first clients through
// the proxy (a ClusterIP Service), and round_robin clients given every
// backend's address by a manual resolver (the headless Service's DNS
// answer).
//
// The RPC is grpc.health.v1.Health/Check, served and called by a few lines
// of our own (check.go) with the bytes google.golang.org/grpc/health would
// send; a unary interceptor on each backend counts
// it per calling client, named in the "k8sexplain-client" metadata key.
// A run is bounded by its RPC count and a deadline, listens on ephemeral
// loopback ports only, and closes every listener, connection and goroutine
// it started before returning.
//
// Left out compared with the simulation: --scale-up, --kill-pod and the
// Envoy mode; time is the wall clock, so counts of the
// round_robin clients vary from run to run (see Result).
package grpclive

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/resolver"
	"google.golang.org/grpc/resolver/manual"
	"google.golang.org/grpc/status"
)

// Config sizes a run.
type Config struct {
	Backends, Clients int
	// RPCs is the total number of calls per policy, shared by the clients.
	RPCs int
	Seed int64
	// Timeout bounds the whole run (0: Deadline(cfg)).
	Timeout time.Duration
	// MaxConnectionAge, when set, is the servers' keepalive
	// MaxConnectionAge; the calls are then paced over five ages per policy,
	// so every connection gets its GOAWAY several times.
	MaxConnectionAge time.Duration
	// serveDelay, in tests, makes every call take this long on the server,
	// as a starved machine does.
	serveDelay time.Duration
}

// Budgets Deadline sizes a run from: a fixed start-up allowance, the
// paced time of each policy, and a per-call allowance several times what a
// loopback unary call costs on a busy 2-core machine (≈0.3 ms measured).
const (
	StartupBudget = 10 * time.Second
	PerCallBudget = 2 * time.Millisecond
	// PerConnBudget is the allowance per reconnection after a GOAWAY.
	PerConnBudget = 5 * time.Millisecond
	// PacedAges is how many MaxConnectionAges each policy's calls span.
	PacedAges = 5
)

// Deadline is the time a run of cfg is allowed: StartupBudget, plus for
// each of the two policies its paced span (PacedAges × MaxConnectionAge),
// PerCallBudget per call and PerConnBudget per reconnection.
func Deadline(cfg Config) time.Duration {
	per := time.Duration(cfg.RPCs) * PerCallBudget
	if cfg.MaxConnectionAge > 0 {
		per += PacedAges*cfg.MaxConnectionAge + time.Duration(PacedAges*Channels(cfg))*PerConnBudget
	}
	return StartupBudget + 2*per
}

// Channels is how many connections the clients keep open at once: a
// round_robin channel has one per backend, a pick_first channel one. With
// MaxConnectionAge each of them is made again once per age.
func Channels(cfg Config) int { return cfg.Clients * (cfg.Backends + 1) }

// ReconnectRate is how many connections a second the servers' GOAWAYs make
// the clients open again: Channels / MaxConnectionAge (0 without an age).
func ReconnectRate(cfg Config) float64 {
	if cfg.MaxConnectionAge <= 0 {
		return 0
	}
	return float64(Channels(cfg)) / cfg.MaxConnectionAge.Seconds()
}

// MaxReconnectRate bounds ReconnectRate. Each reconnection is a TCP
// connection, an HTTP/2 handshake and two goroutines per side; past about a
// thousand a second a busy 2-core machine spends the run reconnecting and
// the calls fall behind their pace, which makes the storm last longer
// (load average 10: 20 clients × 20 pods at 50 ms, 8,400 a second, took
// 4–20 s for 2,000 calls; 2,100 a second 2–5 s, and up to 43 s with a
// core kept busy beside it).
const MaxReconnectRate = 1000

// ErrTimeout is returned (wrapped) when a run did not finish within its
// deadline.
var ErrTimeout = errors.New("the live run did not finish within its deadline")

// ErrEnvironment is returned (wrapped) when the machine refuses what the
// run needs: a loopback listener, a connection to one (no 127.0.0.1, too
// few file descriptors under `ulimit -n`). Every call is made on loopback
// to servers the run started, so a call that fails Unavailable means the
// same.
var ErrEnvironment = errors.New("the machine refused the live run's loopback connections (is 127.0.0.1 up? is `ulimit -n` large enough?)")

// Result is what the backends counted.
type Result struct {
	// Backends are the listening addresses, backend i serving pod i.
	Backends []string
	// PickFirst and RoundRobin are calls per [client][backend].
	PickFirst, RoundRobin [][]int
	// PickFirstConns and RoundRobinConns are the TCP connections the
	// clients' channels really opened (their subchannels' transports, from
	// the clients' dialers), in dial order, with the calls each carried.
	PickFirstConns, RoundRobinConns []Conn
	// Proxy is the DNAT-like proxy's address; ProxyChoices the backend it
	// chose for each connection it accepted, in order.
	Proxy        string
	ProxyChoices []int
	Elapsed      time.Duration
	Deadline     time.Duration
}

// Conn is one connection a client's channel dialed.
type Conn struct {
	Client, Backend, RPCs int
}

// ServiceConfig is the round_robin clients' default service config.
const ServiceConfig = `{"loadBalancingConfig":[{"round_robin":{}}]}`

const clientKey = "k8sexplain-client"

// counter counts calls per client and backend, and per connection (the
// backend and the caller's address as the server sees it).
type counter struct {
	mu     sync.Mutex
	calls  map[string][]int
	byConn map[string]int // backend index + "|" + peer address
	n      int
}

func (k *counter) interceptor(backend int, delay time.Duration) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		if delay > 0 {
			time.Sleep(delay)
		}
		md, _ := metadata.FromIncomingContext(ctx)
		id := "?"
		if v := md.Get(clientKey); len(v) > 0 {
			id = v[0]
		}
		from := ""
		if p, ok := peer.FromContext(ctx); ok && p.Addr != nil {
			from = p.Addr.String()
		}
		k.mu.Lock()
		if k.calls[id] == nil {
			k.calls[id] = make([]int, k.n)
		}
		k.calls[id][backend]++
		k.byConn[strconv.Itoa(backend)+"|"+from]++
		k.mu.Unlock()
		return h(ctx, req)
	}
}

func (k *counter) of(prefix string, clients int) [][]int {
	k.mu.Lock()
	defer k.mu.Unlock()
	out := make([][]int, clients)
	for c := range out {
		out[c] = make([]int, k.n)
		copy(out[c], k.calls[fmt.Sprintf("%s-%d", prefix, c)])
	}
	return out
}

func (k *counter) onConn(backend int, from string) int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.byConn[strconv.Itoa(backend)+"|"+from]
}

// dialLog records every connection the clients' channels dial.
type dialLog struct {
	mu    sync.Mutex
	dials []dial
}

type dial struct {
	client      int
	local, addr string
}

// dialer returns client c's dialer: a plain TCP dial, logged.
func (l *dialLog) dialer(c int) func(context.Context, string) (net.Conn, error) {
	return func(ctx context.Context, addr string) (net.Conn, error) {
		conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
		if err != nil {
			return nil, err
		}
		l.mu.Lock()
		l.dials = append(l.dials, dial{client: c, local: conn.LocalAddr().String(), addr: addr})
		l.mu.Unlock()
		return conn, nil
	}
}

func (l *dialLog) list() []dial {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]dial(nil), l.dials...)
}

// Run performs the experiment. It returns an error wrapping ErrTimeout
// when the run outlives its deadline.
func Run(ctx context.Context, cfg Config) (res *Result, err error) {
	if cfg.Timeout <= 0 {
		cfg.Timeout = Deadline(cfg)
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	deadline, _ := ctx.Deadline()
	defer func() {
		// A call can see the deadline pass (grpc checks the clock) before
		// the context's own timer has fired and set ctx.Err(): both mean
		// the run timed out.
		if err != nil && (errors.Is(ctx.Err(), context.DeadlineExceeded) || !time.Now().Before(deadline)) {
			err = fmt.Errorf("%w (%v for %d backends, %d clients, %d calls per policy): %v", ErrTimeout, cfg.Timeout, cfg.Backends, cfg.Clients, cfg.RPCs, err)
		}
	}()
	start := time.Now()
	k := &counter{calls: map[string][]int{}, byConn: map[string]int{}, n: cfg.Backends}
	res = &Result{Deadline: cfg.Timeout}
	var servers []*grpc.Server
	var wg sync.WaitGroup
	defer func() {
		for _, s := range servers {
			s.Stop() // closes its listener and connections
		}
		wg.Wait()
	}()
	for b := 0; b < cfg.Backends; b++ {
		lis, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrEnvironment, err)
		}
		opts := []grpc.ServerOption{grpc.UnaryInterceptor(k.interceptor(b, cfg.serveDelay)), grpc.ForceServerCodec(wireCodec{})}
		if cfg.MaxConnectionAge > 0 {
			// GOAWAY at the age ±10 % (grpc-go v1.85.0
			// internal/transport/http2_server.go keepalive). The grace
			// stays grpc-go's default, infinity: the connection closes
			// when its last RPC ends, so no call is cut however short the
			// age and however busy the machine (issue 29, issue 23 §4:
			// a grace equal to a 50 ms age cut calls that a loaded
			// machine had not finished in time).
			opts = append(opts, grpc.KeepaliveParams(keepalive.ServerParameters{MaxConnectionAge: cfg.MaxConnectionAge}))
		}
		s := grpc.NewServer(opts...)
		s.RegisterService(&healthService, nil)
		servers = append(servers, s)
		res.Backends = append(res.Backends, lis.Addr().String())
		wg.Add(1)
		go func() { defer wg.Done(); _ = s.Serve(lis) }()
	}
	px, err := newProxy(res.Backends, cfg.Seed)
	if err != nil {
		return nil, err
	}
	pxClosed := false
	defer func() {
		if !pxClosed {
			px.close()
		}
	}()
	res.Proxy = px.addr()

	// pick_first (the default) to the "cluster IP": the proxy's address. The
	// dns resolver returns an IP literal as is, without a lookup.
	pf := &dialLog{}
	err = calls(ctx, cfg, "pick-first", func(c int) (*grpc.ClientConn, error) {
		return grpc.NewClient("dns:///"+px.addr(), grpc.WithTransportCredentials(insecure.NewCredentials()),
			grpc.WithContextDialer(pf.dialer(c)))
	})
	if err != nil {
		return nil, err
	}
	// round_robin over every backend, as a headless Service's answer lists
	// them; real code would target dns:///svc.ns.svc.cluster.local:port.
	rr := &dialLog{}
	err = calls(ctx, cfg, "round-robin", func(c int) (*grpc.ClientConn, error) {
		r := manual.NewBuilderWithScheme("k8sexplain")
		var st resolver.State
		for _, a := range res.Backends {
			st.Addresses = append(st.Addresses, resolver.Address{Addr: a})
		}
		r.InitialState(st)
		return grpc.NewClient("k8sexplain:///echo-headless", grpc.WithResolvers(r),
			grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithDefaultServiceConfig(ServiceConfig),
			grpc.WithContextDialer(rr.dialer(c)))
	})
	if err != nil {
		return nil, err
	}
	res.PickFirst, res.RoundRobin = k.of("pick-first", cfg.Clients), k.of("round-robin", cfg.Clients)
	// Every channel is closed: the proxy's log is complete once it is.
	pxClosed = true
	var pxLog []proxied
	res.ProxyChoices, pxLog = px.close()
	res.Elapsed = time.Since(start)
	// Attribute each dialed connection to its backend and count its calls
	// by the address the server saw: for pick_first the proxy's upstream
	// connection, for round_robin the client's own.
	byLocal := map[string]proxied{}
	for _, p := range pxLog {
		byLocal[p.client] = p
	}
	for _, d := range pf.list() {
		if p, ok := byLocal[d.local]; ok {
			res.PickFirstConns = append(res.PickFirstConns, Conn{Client: d.client, Backend: p.backend, RPCs: k.onConn(p.backend, p.upstream)})
		}
	}
	index := map[string]int{}
	for i, a := range res.Backends {
		index[a] = i
	}
	for _, d := range rr.list() {
		if b, ok := index[d.addr]; ok {
			res.RoundRobinConns = append(res.RoundRobinConns, Conn{Client: d.client, Backend: b, RPCs: k.onConn(b, d.local)})
		}
	}
	return res, nil
}

// calls makes one channel per client and sends the RPCs: first one call
// per client in turn (so connections are made, and drawn by the proxy, in
// client order), then each client sends the rest of its share on its own
// goroutine, one call at a time, paced over PacedAges ages when servers
// send GOAWAY. Then it closes the channels.
func calls(ctx context.Context, cfg Config, prefix string, dial func(int) (*grpc.ClientConn, error)) error {
	var ccs []*grpc.ClientConn
	defer func() {
		for _, cc := range ccs {
			cc.Close()
		}
	}()
	for c := 0; c < cfg.Clients; c++ {
		cc, err := dial(c)
		if err != nil {
			return err
		}
		ccs = append(ccs, cc)
	}
	call := func(c, g int) error {
		cctx := metadata.AppendToOutgoingContext(ctx, clientKey, fmt.Sprintf("%s-%d", prefix, c))
		if err := check(cctx, ccs[c]); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			// Unavailable without a GOAWAY is a connection the machine
			// refused; one after a GOAWAY would be a call cut by the
			// servers, a bug of this run.
			if status.Code(err) == codes.Unavailable && !strings.Contains(err.Error(), "goaway") {
				return fmt.Errorf("%w: %s client %d, call %d: %v", ErrEnvironment, prefix, c, g+1, err)
			}
			return fmt.Errorf("live run: %s client %d, call %d: %w", prefix, c, g+1, err)
		}
		return nil
	}
	// Client c sends calls c, c+Clients, c+2·Clients, … of the RPCs.
	for c := 0; c < cfg.Clients; c++ {
		if err := call(c, c); err != nil {
			return err
		}
	}
	var pace time.Duration
	if cfg.MaxConnectionAge > 0 {
		pace = PacedAges * cfg.MaxConnectionAge / time.Duration(cfg.RPCs)
	}
	start := time.Now()
	errs := make(chan error, cfg.Clients)
	var wg sync.WaitGroup
	for c := 0; c < cfg.Clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := c + cfg.Clients; g < cfg.RPCs; g += cfg.Clients {
				if wait := time.Until(start.Add(pace * time.Duration(g))); wait > 0 {
					t := time.NewTimer(wait)
					select {
					case <-ctx.Done():
						t.Stop()
						errs <- ctx.Err()
						return
					case <-t.C:
					}
				}
				if err := call(c, g); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs
}
