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
	// Calls per backend from the servers' counts; connections from what
	// the clients' channels really dialed: pick_first one per (re)connect,
	// round_robin one subchannel per backend address per client (plus its
	// reconnects), whether or not it carried a call.
	mode := func(name string, calls [][]int, conns []Conn) grpclb.ModeResult {
		m := grpclb.ModeResult{Mode: name, Counts: make([]int, len(res.Backends)), Pickup: -1}
		for _, row := range calls {
			for b, n := range row {
				m.Counts[b] += n
			}
		}
		for _, cn := range conns {
			m.Conns = append(m.Conns, grpclb.Conn{Client: cn.Client, Pod: cn.Backend, RPCs: cn.RPCs})
		}
		return m
	}
	r.Modes = []grpclb.ModeResult{mode(grpclb.ModeClusterIP, res.PickFirst, res.PickFirstConns),
		mode(grpclb.ModeHeadless, res.RoundRobin, res.RoundRobinConns)}
	return r
}
