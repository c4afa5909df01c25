package cmd

import (
	"errors"
	"fmt"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/grpclive"
	"github.com/k8sexplain/k8sexplain/internal/sim/grpclb"
	"github.com/k8sexplain/k8sexplain/internal/sim/grpclb/explain"
	"github.com/spf13/cobra"
)

func init() { register(newCmdGRPCSkew) }

// grpcSkewOptions are the grpc-skew flags as given.
type grpcSkewOptions struct {
	clients, pods, rpcs, scaleUp int
	duration, maxAge             time.Duration
	proxy                        string
	killPod, live                bool
	// liveDeadline overrides the deadline sized from the flags (hidden,
	// for tests).
	liveDeadline time.Duration
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

func newCmdGRPCSkew(f *Factory) *cobra.Command {
	o := &grpcSkewOptions{}
	cmd := &cobra.Command{
		Use:   "grpc-skew",
		Short: "Show why gRPC through a ClusterIP Service loads one pod, and what spreads the load",
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
--max-connection-age too, 50ms to 2s there).`,
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
		RunE: func(cmd *cobra.Command, args []string) error {
			g, err := f.Globals()
			if err != nil {
				return err
			}
			if err := o.validate(cmd); err != nil {
				return err
			}
			var r *grpclb.Result
			if o.live {
				cfg := grpclive.Config{Backends: o.pods, Clients: o.clients, RPCs: o.rpcs, Seed: g.Seed, MaxConnectionAge: o.maxAge}
				cfg.Timeout = grpclive.Deadline(cfg)
				if o.liveDeadline > 0 {
					cfg.Timeout = o.liveDeadline
				}
				res, err := grpclive.Run(cmd.Context(), cfg)
				switch {
				case errors.Is(err, grpclive.ErrTimeout):
					return exitcode.Timeoutf("grpc-skew --live: timed out after %v (the deadline for %d pods, %d clients, %d RPCs%s): the machine is too busy for this size; try fewer --rpcs or --clients", cfg.Timeout, o.pods, o.clients, o.rpcs, ageNote(o.maxAge))
				case err != nil:
					return fmt.Errorf("grpc-skew --live: %w", err)
				}
				r = grpclive.Report(cfg, res)
			} else {
				r = grpclb.Run(grpclb.Config{Clients: o.clients, Pods: o.pods, RPCs: o.rpcs, Duration: o.duration,
					ScaleUp: o.scaleUp, MaxConnectionAge: o.maxAge, Envoy: o.proxy == "envoy", KillPod: o.killPod, Seed: g.Seed})
			}
			return f.Render(explain.Build(r, g.Lang))
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&o.clients, "clients", 1, "client pods, each with its own gRPC channel")
	fl.IntVar(&o.pods, "pods", 3, "server pods behind the Service")
	fl.IntVar(&o.rpcs, "rpcs", 3000, "unary RPCs in all, sent by the clients in turn")
	fl.DurationVar(&o.duration, "duration", 5*time.Minute, "virtual length of the simulated run")
	fl.IntVar(&o.scaleUp, "scale-up", 0, "add this many pods at half time")
	fl.DurationVar(&o.maxAge, "max-connection-age", 0, "servers' keepalive MaxConnectionAge: GOAWAY after this long (0: never, grpc-go's default)")
	fl.StringVar(&o.proxy, "proxy", "none", "also balance through a proxy: none or envoy (per request)")
	fl.BoolVar(&o.killPod, "kill-pod", false, "stop the busiest pod (most ClusterIP connections) at half time")
	fl.BoolVar(&o.live, "live", false, "run real grpc-go servers, a DNAT-like proxy and clients on 127.0.0.1 instead of simulating")
	fl.DurationVar(&o.liveDeadline, "live-deadline", 0, "override the --live deadline sized from the flags (for tests)")
	_ = fl.MarkHidden("live-deadline")
	_ = cmd.RegisterFlagCompletionFunc("proxy", fixedCompletion("none", "envoy"))
	return cmd
}

// validate checks the flags: one clear line per mistake.
func (o *grpcSkewOptions) validate(cmd *cobra.Command) error {
	changed := cmd.Flags().Changed
	positive := func(name string, v, max int) error {
		if v < 1 {
			return exitcode.Inputf("invalid --%s %d: want at least 1", name, v)
		}
		if v > max {
			return exitcode.Inputf("--%s %d is more than this command simulates sensibly: at most %d", name, v, max)
		}
		return nil
	}
	if err := positive("clients", o.clients, maxSkewClients); err != nil {
		return err
	}
	if err := positive("pods", o.pods, maxSkewPods); err != nil {
		return err
	}
	if err := positive("rpcs", o.rpcs, maxSkewRPCs); err != nil {
		return err
	}
	if o.rpcs < o.clients {
		return exitcode.Inputf("--rpcs %d is fewer than --clients %d: every client needs at least one RPC", o.rpcs, o.clients)
	}
	if o.scaleUp < 0 {
		return exitcode.Inputf("invalid --scale-up %d: want 0 or more pods to add", o.scaleUp)
	}
	if o.pods+o.scaleUp > maxSkewPods {
		return exitcode.Inputf("--pods %d plus --scale-up %d is more than this command simulates sensibly: at most %d pods in all", o.pods, o.scaleUp, maxSkewPods)
	}
	if o.duration < time.Second || o.duration > 24*time.Hour {
		return exitcode.Inputf("invalid --duration %v: want 1s to 24h", o.duration)
	}
	if o.live && o.maxAge != 0 && (o.maxAge < 50*time.Millisecond || o.maxAge > 2*time.Second) {
		return exitcode.Inputf("invalid --max-connection-age %v with --live: want 50ms to 2s (the calls are paced over five ages)", o.maxAge)
	}
	if !o.live && (o.maxAge < 0 || (o.maxAge > 0 && o.maxAge < time.Second)) {
		return exitcode.Inputf("invalid --max-connection-age %v: want 0 (never) or at least 1s", o.maxAge)
	}
	if o.maxAge > 0 && !o.live {
		// Every GOAWAY is a reconnection to simulate, for every round_robin
		// subchannel: keep a run to a couple of seconds.
		work := int64(o.clients) * int64(o.pods+o.scaleUp+1) * int64(o.duration/o.maxAge)
		if work > maxSkewReconnects {
			return exitcode.Inputf("--max-connection-age %v over --duration %v with %d clients and %d pods means about %d reconnections to simulate (at most %d): raise the age, shorten the duration or use fewer clients or pods",
				o.maxAge, o.duration, o.clients, o.pods+o.scaleUp, work, maxSkewReconnects)
		}
	}
	if o.proxy != "none" && o.proxy != "envoy" {
		return exitcode.Inputf("invalid --proxy %q: want none or envoy", o.proxy)
	}
	if o.killPod && o.pods < 2 {
		return exitcode.Inputf("--kill-pod needs at least 2 --pods: someone has to take over")
	}
	if !o.live {
		return nil
	}
	for _, name := range []string{"scale-up", "kill-pod", "duration"} {
		if changed(name) {
			return exitcode.Inputf("--%s is simulated only: --live runs the basic experiment (pick_first through a proxy, round_robin over every backend)", name)
		}
	}
	if o.proxy != "none" {
		return exitcode.Inputf("--proxy is simulated only: --live has no Envoy")
	}
	if o.pods > maxLiveBackends || o.clients > maxLiveClients || o.rpcs > maxLiveRPCs {
		return exitcode.Inputf("--live starts real servers: at most %d --pods, %d --clients and %d --rpcs", maxLiveBackends, maxLiveClients, maxLiveRPCs)
	}
	return nil
}
