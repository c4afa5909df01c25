package cmd

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/grpclive"
	"github.com/k8sexplain/k8sexplain/internal/sim/grpclb"
	"github.com/k8sexplain/k8sexplain/internal/sim/grpclb/explain"
	"github.com/spf13/cobra"
)

// GRPCSkewOptions are the inputs of `grpc-skew`: the flags as given.
type GRPCSkewOptions struct {
	Common
	Clients, Pods, RPCs, ScaleUp int
	Duration, MaxConnectionAge   time.Duration
	Proxy                        string
	KillPod, Live                bool
	// LiveDeadline overrides the deadline sized from the flags (hidden,
	// for tests).
	LiveDeadline time.Duration
	// Changed names the flags given (--live refuses the simulated-only ones).
	Changed map[string]bool
	// Context ends a --live run early (Ctrl-C).
	Context context.Context
}

func ageNote(age time.Duration) string {
	if age == 0 {
		return ""
	}
	return fmt.Sprintf(", calls paced over %d × %v", grpclive.PacedAges, age)
}

// Limits: the point shows with a handful of pods; beyond these the output
// stops being readable and --live stops being quick.
const (
	maxSkewClients, maxSkewPods, maxSkewRPCs = 100, 200, 1_000_000
	maxLiveBackends, maxLiveClients          = 20, 20
	maxLiveRPCs                              = 20_000
	maxSkewReconnects                        = 250_000
)

// grpcSkewShort is the summary root --help lists.
const grpcSkewShort = "Show why gRPC through a ClusterIP Service loads one pod, and what spreads the load"

// NewCmdGRPCSkew is `grpc-skew`; runF, when not nil, gets the options instead of grpcSkewRun.
func NewCmdGRPCSkew(f *Factory, runF func(*GRPCSkewOptions) error) *cobra.Command {
	o := &GRPCSkewOptions{}
	cmd := &cobra.Command{
		Use:   "grpc-skew",
		Short: grpcSkewShort,
		Long: `grpc-skew answers the interview question "we scaled the gRPC service to 10 pods and one of them
still takes all the traffic — why?". HTTP/2 keeps one long-lived connection per channel, kube-proxy's
DNAT balances connections, not requests, so with the default pick_first policy one client loads one
pod. Side by side: clients through the ClusterIP (each connection's pod chosen by the same rules and
seeded draws the dnat command prints) and clients with round_robin over a headless Service's DNS
answer; optionally an Envoy proxy balancing per request.

--scale-up adds pods at half time (neither grpc-go nor the ClusterIP path notices them until a
connection breaks), --max-connection-age makes servers send GOAWAY so connections are re-drawn,
--kill-pod stops the busiest pod at half time. --live runs the experiment with real
google.golang.org/grpc servers, a DNAT-like proxy and clients on 127.0.0.1 (with
--max-connection-age too, 50ms to 2s there, and at most 1,000 reconnections a second: clients ×
(pods + 1) / age; the servers keep grpc-go's default MaxConnectionAgeGrace, infinity, so no call
is cut).`,
		Example: `  k8sexplain grpc-skew
  k8sexplain grpc-skew --clients 6 --pods 10 --rpcs 10000
  k8sexplain grpc-skew --scale-up 3
  k8sexplain grpc-skew --scale-up 3 --max-connection-age 30s
  k8sexplain grpc-skew --max-connection-age 30s --clients 6 --pods 10
  k8sexplain grpc-skew --proxy envoy --kill-pod --clients 4
  k8sexplain grpc-skew --live
  k8sexplain grpc-skew --live --clients 3 --max-connection-age 200ms
  k8sexplain grpc-skew --lang ru --format markdown > grpc-skew.md`,
		Args: noArgs,
		RunE: runE(f, o, runF, grpcSkewRun, func(cmd *cobra.Command, _ []string) {
			o.Changed, o.Context = changedFlags(cmd), cmd.Context()
		}),
	}
	fl := cmd.Flags()
	fl.IntVar(&o.Clients, "clients", 1, "client pods, each with its own gRPC channel")
	fl.IntVar(&o.Pods, "pods", 3, "server pods behind the Service")
	fl.IntVar(&o.RPCs, "rpcs", 3000, "unary RPCs in all, sent by the clients in turn")
	fl.DurationVar(&o.Duration, "duration", 5*time.Minute, "virtual length of the simulated run")
	fl.IntVar(&o.ScaleUp, "scale-up", 0, "add this many pods at half time")
	fl.DurationVar(&o.MaxConnectionAge, "max-connection-age", 0, "servers' keepalive MaxConnectionAge: GOAWAY after this long (0: never, grpc-go's default)")
	fl.StringVar(&o.Proxy, "proxy", "none", "also balance through a proxy: none or envoy (per request)")
	fl.BoolVar(&o.KillPod, "kill-pod", false, "stop the busiest pod (most ClusterIP connections) at half time")
	fl.BoolVar(&o.Live, "live", false, "run real grpc-go servers, a DNAT-like proxy and clients on 127.0.0.1 instead of simulating")
	fl.DurationVar(&o.LiveDeadline, "live-deadline", 0, "override the --live deadline sized from the flags (for tests)")
	_ = fl.MarkHidden("live-deadline")
	_ = cmd.RegisterFlagCompletionFunc("proxy", fixedCompletion("none", "envoy"))
	return cmd
}

func grpcSkewRun(o *GRPCSkewOptions) error {
	g := o.Settings
	if err := o.validate(); err != nil {
		return err
	}
	var r *grpclb.Result
	if o.Live {
		cfg := grpclive.Config{Backends: o.Pods, Clients: o.Clients, RPCs: o.RPCs, Seed: g.Seed, MaxConnectionAge: o.MaxConnectionAge}
		cfg.Timeout = grpclive.Deadline(cfg)
		if o.LiveDeadline > 0 {
			cfg.Timeout = o.LiveDeadline
		}
		ctx := o.Context
		if ctx == nil {
			ctx = context.Background()
		}
		res, err := grpclive.Run(ctx, cfg)
		switch {
		case errors.Is(err, grpclive.ErrTimeout):
			return exitcode.Timeoutf("grpc-skew --live: timed out after %v (the deadline for %d pods, %d clients, %d RPCs%s): the machine is too busy for this size; try fewer --rpcs or --clients", cfg.Timeout, o.Pods, o.Clients, o.RPCs, ageNote(o.MaxConnectionAge))
		case errors.Is(err, grpclive.ErrEnvironment):
			return exitcode.Environmentf("grpc-skew --live: %v", err)
		case err != nil:
			return fmt.Errorf("grpc-skew --live: %w", err)
		}
		r = grpclive.Report(cfg, res)
	} else {
		r = grpclb.Run(grpclb.Config{Clients: o.Clients, Pods: o.Pods, RPCs: o.RPCs, Duration: o.Duration,
			ScaleUp: o.ScaleUp, MaxConnectionAge: o.MaxConnectionAge, Envoy: o.Proxy == "envoy", KillPod: o.KillPod, Seed: g.Seed})
	}
	return o.render(explain.Build(r, g.Lang))
}

// validate checks the flags: one clear line per mistake.
func (o *GRPCSkewOptions) validate() error {
	positive := func(name string, v, max int) error {
		if v < 1 {
			return exitcode.Inputf("invalid --%s %d: want at least 1", name, v)
		}
		if v > max {
			return exitcode.Inputf("--%s %d is more than this command simulates sensibly: at most %d", name, v, max)
		}
		return nil
	}
	if err := positive("clients", o.Clients, maxSkewClients); err != nil {
		return err
	}
	if err := positive("pods", o.Pods, maxSkewPods); err != nil {
		return err
	}
	if err := positive("rpcs", o.RPCs, maxSkewRPCs); err != nil {
		return err
	}
	if o.RPCs < o.Clients {
		return exitcode.Inputf("--rpcs %d is fewer than --clients %d: every client needs at least one RPC", o.RPCs, o.Clients)
	}
	if o.ScaleUp < 0 {
		return exitcode.Inputf("invalid --scale-up %d: want 0 or more pods to add", o.ScaleUp)
	}
	if o.Pods+o.ScaleUp > maxSkewPods {
		return exitcode.Inputf("--pods %d plus --scale-up %d is more than this command simulates sensibly: at most %d pods in all", o.Pods, o.ScaleUp, maxSkewPods)
	}
	if o.Duration < time.Second || o.Duration > 24*time.Hour {
		return exitcode.Inputf("invalid --duration %v: want 1s to 24h", o.Duration)
	}
	if o.Live && o.MaxConnectionAge != 0 && (o.MaxConnectionAge < 50*time.Millisecond || o.MaxConnectionAge > 2*time.Second) {
		return exitcode.Inputf("invalid --max-connection-age %v with --live: want 50ms to 2s (the calls are paced over five ages)", o.MaxConnectionAge)
	}
	if !o.Live && (o.MaxConnectionAge < 0 || (o.MaxConnectionAge > 0 && o.MaxConnectionAge < time.Second)) {
		return exitcode.Inputf("invalid --max-connection-age %v: want 0 (never) or at least 1s", o.MaxConnectionAge)
	}
	if o.MaxConnectionAge > 0 && !o.Live {
		// Every GOAWAY is a reconnection to simulate, for every round_robin
		// subchannel: keep a run to a couple of seconds.
		work := int64(o.Clients) * int64(o.Pods+o.ScaleUp+1) * int64(o.Duration/o.MaxConnectionAge)
		if work > maxSkewReconnects {
			return exitcode.Inputf("--max-connection-age %v over --duration %v with %d clients and %d pods means about %d reconnections to simulate (at most %d): raise the age, shorten the duration or use fewer clients or pods",
				o.MaxConnectionAge, o.Duration, o.Clients, o.Pods+o.ScaleUp, work, maxSkewReconnects)
		}
	}
	if o.Proxy != "none" && o.Proxy != "envoy" {
		return exitcode.Inputf("invalid --proxy %q: want none or envoy", o.Proxy)
	}
	if o.KillPod && o.Pods < 2 {
		return exitcode.Inputf("--kill-pod needs at least 2 --pods: someone has to take over")
	}
	if !o.Live {
		return nil
	}
	for _, name := range []string{"scale-up", "kill-pod", "duration"} {
		if o.Changed[name] {
			return exitcode.Inputf("--%s is simulated only: --live runs the basic experiment (pick_first through a proxy, round_robin over every backend)", name)
		}
	}
	if o.Proxy != "none" {
		return exitcode.Inputf("--proxy is simulated only: --live has no Envoy")
	}
	if o.Pods > maxLiveBackends || o.Clients > maxLiveClients || o.RPCs > maxLiveRPCs {
		return exitcode.Inputf("--live starts real servers: at most %d --pods, %d --clients and %d --rpcs", maxLiveBackends, maxLiveClients, maxLiveRPCs)
	}
	cfg := grpclive.Config{Backends: o.Pods, Clients: o.Clients, MaxConnectionAge: o.MaxConnectionAge}
	if rate := grpclive.ReconnectRate(cfg); rate > grpclive.MaxReconnectRate {
		least := time.Duration(float64(grpclive.Channels(cfg)) / grpclive.MaxReconnectRate * float64(time.Second)).Round(time.Millisecond)
		return exitcode.Inputf("--max-connection-age %v with --live, %d clients and %d pods means about %.0f reconnections a second (each round_robin channel reconnects to every pod once per age); --live keeps to %d a second: raise the age to at least %v or use fewer clients or pods",
			o.MaxConnectionAge, o.Clients, o.Pods, rate, grpclive.MaxReconnectRate, least+time.Millisecond)
	}
	return nil
}
