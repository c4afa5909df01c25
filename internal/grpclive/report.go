package grpclive

import (
	"google.golang.org/grpc"

	"github.com/k8sexplain/k8sexplain/internal/sim/grpclb"
)

// Report turns a live run into the shape the simulation reports, so both
// print through the same explanation: backend i is pod echo-i, its address
// the loopback one it listened on.
func Report(cfg Config, res *Result) *grpclb.Result {
	r := &grpclb.Result{
		Config: grpclb.Config{Clients: cfg.Clients, Pods: cfg.Backends, RPCs: cfg.RPCs, Seed: cfg.Seed, MaxConnectionAge: cfg.MaxConnectionAge},
		Killed: -1,
		Live:   &grpclb.Live{Version: grpc.Version, Proxy: res.Proxy, Elapsed: res.Elapsed, ProxyChoices: res.ProxyChoices},
	}
	for i, a := range res.Backends {
		r.Pods = append(r.Pods, grpclb.Pod{Name: grpclb.PodName(i), IP: a})
	}
	mode := func(name string, calls [][]int) grpclb.ModeResult {
		m := grpclb.ModeResult{Mode: name, Counts: make([]int, len(res.Backends)), Pickup: -1}
		for c, row := range calls {
			for b, n := range row {
				m.Counts[b] += n
				if n > 0 {
					// What a backend served from one client came over one
					// connection: pick_first has one, round_robin one per
					// backend (a connection that carried no call is not
					// counted).
					m.Conns = append(m.Conns, grpclb.Conn{Client: c, Pod: b, RPCs: n})
				}
			}
		}
		return m
	}
	r.Modes = []grpclb.ModeResult{mode(grpclb.ModeClusterIP, res.PickFirst), mode(grpclb.ModeHeadless, res.RoundRobin)}
	return r
}
