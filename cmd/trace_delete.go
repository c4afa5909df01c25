package cmd

import (
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/sim"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubelet"
	"github.com/k8sexplain/k8sexplain/internal/sim/story"
	"github.com/spf13/cobra"
	corev1 "k8s.io/api/core/v1"
)

// TraceDeleteOptions are the inputs of `trace delete pod [NAME]`.
type TraceDeleteOptions struct {
	StoryOptions
	// Pod is NAME, "" for the first pod.
	Pod     string
	App     string
	PreStop time.Duration
	// argFiles are the manifests given as arguments after the pod name.
	argFiles []string
}

// NewCmdTraceDelete is `trace delete pod`; runF, when not nil, gets the options instead of traceDeleteRun.
func NewCmdTraceDelete(f *Factory, runF func(*TraceDeleteOptions) error) *cobra.Command {
	o := &TraceDeleteOptions{}
	c := &cobra.Command{
		Use:   "delete pod [NAME] [FILE…]",
		Short: "Graceful shutdown: deletionTimestamp, preStop, SIGTERM, SIGKILL, and the race with endpoint removal",
		Long: `Applies the manifests (files as arguments or -f; default examples/app.yaml; an argument that names no
file or directory is the pod), waits until every pod is Ready, then runs ` + "`kubectl delete pod NAME`" + ` (the first
pod when no name is given) and traces graceful termination: the API server sets deletionTimestamp and
the grace period; in parallel the EndpointSlice controller marks the endpoint terminating and
kube-proxy removes it, while the kubelet runs preStop and sends SIGTERM. Clients send 100 requests per
second through the Service; the trace counts those that reach a pod that no longer accepts them.`,
		Example: `  k8sexplain trace delete pod examples/app.yaml
  k8sexplain trace delete pod -f examples/app.yaml
  k8sexplain trace delete pod web-6c64cbcbb9-lt5xd -f examples/app.yaml --app ignores-sigterm
  k8sexplain trace delete pod --app slow-drain
  k8sexplain trace delete pod --prestop-sleep 5s      # the fix: endpoints go first, then SIGTERM`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 || args[0] != "pod" {
				return exitcode.Usagef("usage: %s delete pod [NAME] [FILE…]", cmd.Parent().CommandPath())
			}
			pod, files, err := podAndFiles(args[1:])
			if err != nil {
				return exitcode.Usagef("usage: %s delete pod [NAME] [FILE…]: %v", cmd.Parent().CommandPath(), err)
			}
			o.Pod, o.argFiles = pod, files
			return nil
		},
		RunE: runE(f, o, runF, traceDeleteRun, func(_ *cobra.Command, _ []string) {
			o.Files = append(o.Files, o.argFiles...)
		}),
	}
	o.bind(c)
	c.Flags().StringVar(&o.App, "app", string(kubelet.AppHandlesSigterm), "how the process reacts to SIGTERM: handles-sigterm, ignores-sigterm or slow-drain")
	c.Flags().DurationVar(&o.PreStop, "prestop-sleep", 0, "give every container a preStop sleep of this long (the fix for the race)")
	_ = c.RegisterFlagCompletionFunc("app", fixedCompletion("handles-sigterm", "ignores-sigterm", "slow-drain"))
	return c
}

// pickPod finds the pod a story is about: the named one, or the first.
func pickPod(cl *sim.Cluster, args []string) (*corev1.Pod, error) {
	pods := cl.Pods()
	if len(pods) == 0 {
		return nil, exitcode.Inputf("the manifest creates no pods")
	}
	if len(args) == 0 || args[0] == "" {
		return pods[0], nil
	}
	for _, p := range pods {
		if p.Name == args[0] || p.Namespace+"/"+p.Name == args[0] {
			return p, nil
		}
	}
	var names []string
	for _, p := range pods {
		names = append(names, p.Name)
	}
	return nil, exitcode.Inputf("pod %q is not in the cluster (pods: %s)", args[0], strings.Join(names, ", "))
}

func traceDeleteRun(o *TraceDeleteOptions) error {
	a := kubelet.App(o.App)
	if a != kubelet.AppHandlesSigterm && a != kubelet.AppIgnoresSigterm && a != kubelet.AppSlowDrain {
		return exitcode.Inputf("invalid --app %q: want handles-sigterm, ignores-sigterm or slow-drain", o.App)
	}
	if o.PreStop < 0 || o.PreStop > time.Hour {
		return exitcode.Inputf("invalid --prestop-sleep %s: want 0 to 1h", o.PreStop)
	}
	cfg := sim.Config{App: a}
	if o.PreStop > 0 {
		cfg.Mutate = func(spec *corev1.PodSpec) { story.InjectPreStopSleep(spec, o.PreStop) }
	}
	cl, source, err := o.scene(cfg)
	if err != nil {
		return err
	}
	pod, err := pickPod(cl.Cluster, []string{o.Pod})
	if err != nil {
		return err
	}
	cl.Idle(10 * time.Second) // the service has been up a while: kube-proxy's sync runner is idle
	cl.DeletePod(pod)
	cl.RunFor(5 * time.Minute)
	cl.ReportRace()
	command := "k8sexplain trace delete pod " + pod.Name + " -f " + source + " --app " + o.App
	if o.PreStop > 0 {
		command += " --prestop-sleep " + o.PreStop.String()
	}
	return o.renderTrace(cl.Story(command, "delete"))
}
