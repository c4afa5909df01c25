// Package grpclive runs the grpc-skew experiment with the real
// google.golang.org/grpc library, entirely on 127.0.0.1: N backend servers
// that count the calls they serve, a TCP proxy that picks a backend once per
// new connection the way kube-proxy's DNAT does, pick_first clients through
// the proxy (a ClusterIP Service), and round_robin clients given every
// backend's address by a manual resolver (the headless Service's DNS
// answer).
//
// The RPC is grpc.health.v1.Health/Check from google.golang.org/grpc/health
// (no code generation needed); a unary interceptor on each backend counts
// it per calling client, named in the "k8sexplain-client" metadata key.
// A run is bounded by its RPC count and a deadline, listens on ephemeral
// loopback ports only, and closes every listener, connection and goroutine
// it started before returning.
//
// Left out compared with the simulation: --scale-up, --max-connection-age,
// --kill-pod and the Envoy mode; time is the wall clock, so counts of the
// round_robin clients vary from run to run (see Result).
package grpclive

import (
	"context"
	"fmt"
	"net"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/resolver"
	"google.golang.org/grpc/resolver/manual"
)

// Config sizes a run.
type Config struct {
	Backends, Clients int
	// RPCs is the total number of calls per policy, shared by the clients.
	RPCs int
	Seed int64
	// Timeout bounds the whole run (0: 10 s).
	Timeout time.Duration
	// MaxConnectionAge, when set, is the servers' keepalive
	// MaxConnectionAge; the calls are then paced over five ages per policy,
	// so every connection gets its GOAWAY several times.
	MaxConnectionAge time.Duration
}

// Result is what the backends counted.
type Result struct {
	// Backends are the listening addresses, backend i serving pod i.
	Backends []string
	// PickFirst and RoundRobin are calls per [client][backend].
	PickFirst, RoundRobin [][]int
	// Proxy is the DNAT-like proxy's address; ProxyChoices the backend it
	// chose for each connection it accepted, in order.
	Proxy        string
	ProxyChoices []int
	Elapsed      time.Duration
}

// ServiceConfig is the round_robin clients' default service config.
const ServiceConfig = `{"loadBalancingConfig":[{"round_robin":{}}]}`

const clientKey = "k8sexplain-client"

// counter counts calls per client and backend.
type counter struct {
	mu    sync.Mutex
	calls map[string][]int
	n     int
}

func (k *counter) interceptor(backend int) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		md, _ := metadata.FromIncomingContext(ctx)
		id := "?"
		if v := md.Get(clientKey); len(v) > 0 {
			id = v[0]
		}
		k.mu.Lock()
		if k.calls[id] == nil {
			k.calls[id] = make([]int, k.n)
		}
		k.calls[id][backend]++
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

// Run performs the experiment.
func Run(ctx context.Context, cfg Config) (res *Result, err error) {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	start := time.Now()
	k := &counter{calls: map[string][]int{}, n: cfg.Backends}
	res = &Result{}
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
			return nil, err
		}
		opts := []grpc.ServerOption{grpc.UnaryInterceptor(k.interceptor(b))}
		if cfg.MaxConnectionAge > 0 {
			// GOAWAY at the age ±10 %, close a grace period later
			// (internal/transport/http2_server.go keepalive).
			opts = append(opts, grpc.KeepaliveParams(keepalive.ServerParameters{
				MaxConnectionAge: cfg.MaxConnectionAge, MaxConnectionAgeGrace: cfg.MaxConnectionAge}))
		}
		s := grpc.NewServer(opts...)
		healthpb.RegisterHealthServer(s, health.NewServer()) // "" is SERVING
		servers = append(servers, s)
		res.Backends = append(res.Backends, lis.Addr().String())
		wg.Add(1)
		go func() { defer wg.Done(); _ = s.Serve(lis) }()
	}
	px, err := newProxy(res.Backends, cfg.Seed)
	if err != nil {
		return nil, err
	}
	defer func() {
		choices := px.close()
		if res != nil {
			res.ProxyChoices = choices
		}
	}()
	res.Proxy = px.addr()

	// pick_first (the default) to the "cluster IP": the proxy's address. The
	// dns resolver returns an IP literal as is, without a lookup.
	err = calls(ctx, cfg, "pick-first", func(int) (*grpc.ClientConn, error) {
		return grpc.NewClient("dns:///"+px.addr(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	})
	if err != nil {
		return nil, err
	}
	// round_robin over every backend, as a headless Service's answer lists
	// them; real code would target dns:///svc.ns.svc.cluster.local:port.
	err = calls(ctx, cfg, "round-robin", func(int) (*grpc.ClientConn, error) {
		r := manual.NewBuilderWithScheme("k8sexplain")
		var st resolver.State
		for _, a := range res.Backends {
			st.Addresses = append(st.Addresses, resolver.Address{Addr: a})
		}
		r.InitialState(st)
		return grpc.NewClient("k8sexplain:///echo-headless", grpc.WithResolvers(r),
			grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithDefaultServiceConfig(ServiceConfig))
	})
	if err != nil {
		return nil, err
	}
	res.PickFirst, res.RoundRobin = k.of("pick-first", cfg.Clients), k.of("round-robin", cfg.Clients)
	res.Elapsed = time.Since(start)
	return res, nil
}

// calls makes one channel per client and sends the RPCs, the clients
// taking turns, one call at a time; then closes the channels.
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
	var pace time.Duration
	if cfg.MaxConnectionAge > 0 {
		pace = 5 * cfg.MaxConnectionAge / time.Duration(cfg.RPCs)
	}
	start := time.Now()
	for g := 0; g < cfg.RPCs; g++ {
		if wait := time.Until(start.Add(pace * time.Duration(g))); wait > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(wait):
			}
		}
		c := g % cfg.Clients
		cctx := metadata.AppendToOutgoingContext(ctx, clientKey, fmt.Sprintf("%s-%d", prefix, c))
		if _, err := healthpb.NewHealthClient(ccs[c]).Check(cctx, &healthpb.HealthCheckRequest{}); err != nil {
			return fmt.Errorf("live run: %s client %d, call %d: %w", prefix, c, g+1, err)
		}
	}
	return nil
}
