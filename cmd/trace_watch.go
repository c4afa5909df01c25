package cmd

import (
	"time"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/sim/watchload"
	"github.com/k8sexplain/k8sexplain/internal/sim/watchload/explain"
	"github.com/spf13/cobra"
)

// TraceWatchOptions are the inputs of `trace watch`.
type TraceWatchOptions struct {
	Common
	Controllers  int
	Pods         int
	Nodes        int
	PollInterval time.Duration
	Duration     time.Duration
}

// NewCmdTraceWatch is `trace watch`; runF, when not nil, gets the options instead of traceWatchRun.
func NewCmdTraceWatch(f *Factory, runF func(*TraceWatchOptions) error) *cobra.Command {
	o := &TraceWatchOptions{}
	c := &cobra.Command{
		Use:   "watch",
		Short: "Controllers that LIST in a loop versus informers that LIST once and WATCH: the API server's load",
		Long: `Plays three designs of the same controllers on a simulated cluster for a virtual minute: a loop that
LISTs all pods and nodes and sleeps --poll-interval, client-go informers (a Reflector that LISTs once
with resourceVersion=0 and then WATCHes), and informers on a streaming list, v1.37's default (one WATCH
with sendInitialEvents=true instead of the first LIST). It prints the requests per second, the bytes the API server
serialises (measured from the JSON of k8s.io/api Pod and Node objects built as the simulator builds them),
the memory the API server holds for LIST responses, client-side throttling (client-go's QPS 5 / burst 10),
and how long after a pod changes each design notices it.`,
		Example: `  k8sexplain trace watch                                   # 50 controllers, 10,000 pods, 500 nodes
  k8sexplain trace watch --controllers 50 --pods 10000 --nodes 500
  k8sexplain trace watch --poll-interval 5s                 # less load, slower to notice
  k8sexplain trace watch --controllers 10 --pods 1000 --nodes 20 --poll-interval 100ms   # throttled
  k8sexplain trace watch --lang ru --format markdown > watch.md
  k8sexplain trace watch --format mermaid`,
		Args: noArgs,
		RunE: runE(f, o, runF, traceWatchRun),
	}
	fl := c.Flags()
	fl.IntVar(&o.Controllers, "controllers", 50, "number of controllers that need every pod and node")
	fl.IntVar(&o.Pods, "pods", 10000, "number of pods in the cluster")
	fl.IntVar(&o.Nodes, "nodes", 500, "number of worker nodes")
	fl.DurationVar(&o.PollInterval, "poll-interval", time.Second, "how long a LIST-in-a-loop controller sleeps between loops")
	fl.DurationVar(&o.Duration, "duration", time.Minute, "virtual time to play")
	return c
}

func traceWatchRun(o *TraceWatchOptions) error {
	if err := o.validate(); err != nil {
		return err
	}
	r, err := watchload.Run(watchload.Config{Controllers: o.Controllers, Pods: o.Pods, Nodes: o.Nodes,
		PollInterval: o.PollInterval, Duration: o.Duration, Seed: o.Settings.Seed})
	if err != nil {
		return exitcode.AsInput(err)
	}
	return o.render(versioned("k8sexplain.trace-watch/v1", explain.Doc(r, o.Settings.Lang)))
}

// validate rejects values that parse but make no sense, in one line.
func (o *TraceWatchOptions) validate() error {
	switch {
	case o.Controllers < 1 || o.Controllers > watchload.MaxControllers:
		return exitcode.Inputf("invalid --controllers %d: want 1 to %d", o.Controllers, watchload.MaxControllers)
	case o.Pods < 1 || o.Pods > watchload.MaxPods:
		return exitcode.Inputf("invalid --pods %d: want 1 to %d", o.Pods, watchload.MaxPods)
	case o.Nodes < 1 || o.Nodes > watchload.MaxNodes:
		return exitcode.Inputf("invalid --nodes %d: want 1 to %d", o.Nodes, watchload.MaxNodes)
	case o.Pods > o.Nodes*watchload.MaxPodsPerNode:
		return exitcode.Inputf("--pods %d do not fit on --nodes %d: a node runs at most %d pods (the kubelet's maxPods), so at least %d nodes are needed",
			o.Pods, o.Nodes, watchload.MaxPodsPerNode, (o.Pods+watchload.MaxPodsPerNode-1)/watchload.MaxPodsPerNode)
	case o.PollInterval < watchload.MinPollInterval || o.PollInterval > watchload.MaxPollInterval:
		return exitcode.Inputf("invalid --poll-interval %s: want %s to %s", o.PollInterval, watchload.MinPollInterval, watchload.MaxPollInterval)
	case o.Duration < watchload.MinDuration || o.Duration > watchload.MaxDuration:
		return exitcode.Inputf("invalid --duration %s: want %s to %s", o.Duration, watchload.MinDuration, watchload.MaxDuration)
	}
	if loops := float64(o.Controllers) * o.Duration.Seconds() / o.PollInterval.Seconds(); loops > watchload.MaxLoops {
		return exitcode.Inputf("--controllers %d polling every %s for %s is %.0f loops, more than the %d this command plays: raise --poll-interval or shorten --duration",
			o.Controllers, o.PollInterval, o.Duration, loops, watchload.MaxLoops)
	}
	return nil
}
