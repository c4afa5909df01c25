package cmd

import (
	"time"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/sim"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubelet"
	"github.com/k8sexplain/k8sexplain/internal/sim/story"
	"github.com/spf13/cobra"
)

// TraceCrashOptions are the inputs of `trace crash`.
type TraceCrashOptions struct {
	StoryOptions
	Pod, Reason string
	Times       int
}

// NewCmdTraceCrash is `trace crash`; runF, when not nil, gets the options instead of traceCrashRun.
func NewCmdTraceCrash(f *Factory, runF func(*TraceCrashOptions) error) *cobra.Command {
	o := &TraceCrashOptions{}
	c := &cobra.Command{
		Use:   "crash [FILE…]",
		Short: "A container crashes: only it restarts, with CrashLoopBackOff delays, and the pod IP stays (pause)",
		Long: `Applies the manifests (files as arguments or -f, as trace apply takes them; default
examples/app.yaml), waits until every pod is Ready, then makes one pod's container fail and traces the
kubelet's answer: a panic (exit code 2) or an OOM kill (137, OOMKilled) restarts only that container,
after a back-off of 0 s, then 10 s doubling to 5 minutes (CrashLoopBackOff); the pause container keeps
the network namespace, so the pod IP does not change. --reason liveness shows a failing liveness probe
leading to the same restart; --reason readiness only takes the pod out of the endpoints.`,
		Example: `  k8sexplain trace crash examples/app.yaml
  k8sexplain trace crash -f examples/app.yaml
  k8sexplain trace crash --reason oom --times 6
  k8sexplain trace crash --pod web-6c64cbcbb9-lt5xd --reason liveness
  k8sexplain trace crash --reason readiness --lang ru`,
		Args: cobra.ArbitraryArgs,
		RunE: runE(f, o, runF, traceCrashRun, o.filesFromArgs),
	}
	o.bind(c)
	c.Flags().StringVar(&o.Pod, "pod", "", "the pod whose container fails (default: the first pod)")
	c.Flags().StringVar(&o.Reason, "reason", kubelet.CrashPanic, "how it fails: panic, oom, liveness or readiness")
	c.Flags().IntVar(&o.Times, "times", 4, "how many times it fails in a row (shows the back-off growing)")
	_ = c.RegisterFlagCompletionFunc("reason", fixedCompletion("panic", "oom", "liveness", "readiness"))
	return c
}

func traceCrashRun(o *TraceCrashOptions) error {
	switch o.Reason {
	case kubelet.CrashPanic, kubelet.CrashOOM, kubelet.CrashLiveness, kubelet.CrashReadiness:
	default:
		return exitcode.Inputf("invalid --reason %q: want panic, oom, liveness or readiness", o.Reason)
	}
	if o.Times < 1 || o.Times > 10 {
		return exitcode.Inputf("invalid --times %d: want 1 to 10 crashes", o.Times)
	}
	cl, source, err := o.scene(sim.Config{})
	if err != nil {
		return err
	}
	var names []string
	if o.Pod != "" {
		names = []string{o.Pod}
	}
	p, err := pickPod(cl.Cluster, names)
	if err != nil {
		return err
	}
	if err := cl.Crash(p, o.Reason, o.Times); err != nil {
		return exitcode.AsInput(err)
	}
	cl.RunFor(20 * time.Minute)
	tr := cl.Story("k8sexplain trace crash -f "+source+" --pod "+p.Name+" --reason "+o.Reason, "crash")
	tr.Tables = append(tr.Tables, story.DescribeEvents(tr, p.Namespace+"/"+p.Name))
	if o.Reason != kubelet.CrashReadiness {
		tr.Tables = append(tr.Tables, story.BackOffTable(8))
	}
	return o.renderTrace(tr)
}
