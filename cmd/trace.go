package cmd

import (
	"errors"
	"fmt"
	"github.com/k8sexplain/k8sexplain/internal/render"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/examples"
	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/iostreams"
	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/sim"
	"github.com/k8sexplain/k8sexplain/internal/sim/scheduler/schedconfig"
	"github.com/k8sexplain/k8sexplain/internal/sim/story"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	"github.com/k8sexplain/k8sexplain/internal/trace/explain"
	"github.com/spf13/cobra"
	"golang.org/x/term"
	corev1 "k8s.io/api/core/v1"
)

// observeCommits, set only by tests, is told every change a trace's cluster
// commits (TestTraceObjects compares them with the recorded ones).
var observeCommits sim.CommitFunc

// traceShort is the summary root --help lists.
const traceShort = "Trace what the cluster does, step by step, from a deterministic simulation"

// NewCmdTrace is the group of trace commands: apply, and the stories that
// start from a settled cluster.
func NewCmdTrace(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "trace",
		Short: traceShort,
		Example: `  k8sexplain trace apply examples/app.yaml
  k8sexplain trace apply -v --format markdown -f examples/app.yaml -f examples/unschedulable.yaml`,
		Args: noArgs,
	}
	c.AddCommand(
		NewCmdTraceApply(f, nil),
		NewCmdTraceRollout(f, nil),
		NewCmdTraceNodeFailure(f, nil),
		NewCmdTraceDrain(f, nil),
		NewCmdTracePreempt(f, nil),
		NewCmdTraceDelete(f, nil),
		NewCmdTraceCrash(f, nil),
		NewCmdTraceAutoscale(f, nil),
		NewCmdTraceWatch(f, nil),
		NewCmdTraceStaticPod(f, nil),
		NewCmdTraceApplyModes(f, nil),
	)
	return c
}

// TraceApplyOptions are the inputs of `trace apply`.
type TraceApplyOptions struct {
	Common
	Files   []string
	Nodes   int
	Cluster string
	Summary bool
	Limit   int
	// BatchPeriod is the endpointslice controller's --endpoint-updates-batch-period.
	BatchPeriod time.Duration
	// ClusterCIDR and NodeCIDRMaskSize shape node podCIDRs (node-ipam).
	ClusterCIDR      string
	NodeCIDRMaskSize int
	// SchedulerConfig is a KubeSchedulerConfiguration file (--scheduler-config).
	SchedulerConfig string
	// At, when set, prints the cluster's state at that time (00:01.500) or
	// step number instead of the steps.
	At string
	// Live traces the apply on a real cluster (--kubeconfig).
	Live LiveOptions
	// Webhook registers an admission webhook on pod CREATE whose backend
	// does not answer (--webhook mutating|validating, --failure-policy,
	// --webhook-timeout-seconds).
	Webhook WebhookOptions
}

// NewCmdTraceApply is `trace apply`; runF, when not nil, gets the options instead of traceApplyRun.
func NewCmdTraceApply(f *Factory, runF func(*TraceApplyOptions) error) *cobra.Command {
	o := &TraceApplyOptions{}
	c := &cobra.Command{
		Use:   "apply [FILE|DIR|-]...",
		Short: "Every step after `kubectl apply`: API server, etcd, controllers, scheduler, kubelet, runtime, endpoints",
		Long: `Runs the manifests through a simulated cluster (one control-plane node and 3 workers by default) and
prints what each component did, grouped under the eight phases of the apply story, with virtual timestamps.
Files come as arguments or with -f (repeatable): a file, a directory (its *.yaml, *.yml, *.json, sorted) or
- for stdin. With no file, the built-in example (examples/app.yaml) is traced.
With --kubeconfig the manifests are applied to that real cluster instead (server-side, into a fresh
namespace deleted at the end) and what the cluster reports is traced with the same explanations;
--compare adds a side by side with the simulation.`,
		Example: `  k8sexplain trace apply                          # the built-in example
  k8sexplain trace apply examples/app.yaml
  k8sexplain trace apply -v examples/app.yaml       # every API request and watch delivery
  k8sexplain trace apply --lang ru --format markdown examples/app.yaml > notes.md
  k8sexplain trace apply --nodes 5 -f examples/app.yaml
  k8sexplain trace apply --cluster examples/tainted-nodes.yaml examples/app.yaml
  k8sexplain trace apply --scheduler-config examples/scheduler-mostallocated.yaml examples/app.yaml
  k8sexplain trace apply --webhook mutating --failure-policy Ignore   # a sidecar injector that times out
  helm template ./chart | k8sexplain trace apply -
  k8sexplain trace apply app.yaml --kubeconfig ~/.kube/config --compare   # your own cluster, beside the simulation`,
		RunE: runE(f, o, runF, traceApplyRun, func(c *cobra.Command, args []string) {
			o.Files = append(o.Files, args...)
			liveChanged(c, &o.Live)
		}),
	}
	c.Flags().StringArrayVarP(&o.Files, "filename", "f", nil, "manifest file, directory or - (repeatable)")
	c.Flags().IntVar(&o.Nodes, "nodes", 3, "number of identical worker nodes (1 to 10000)")
	bindIPAM(c, &o.ClusterCIDR, &o.NodeCIDRMaskSize)
	c.Flags().StringVar(&o.Cluster, "cluster", "", "file with kind: Node manifests to use as the worker nodes")
	c.Flags().BoolVar(&o.Summary, "summary", false, "print only the summary (for large clusters)")
	c.Flags().StringVar(&o.At, "at", "", "print the cluster at a moment instead of the steps, as kubectl get -A lists it: a time as the trace prints it (00:01.500) or a step number (as the HTML page numbers them)")
	c.Flags().IntVar(&o.Limit, "max-steps", 50000, "record at most this many steps, 1 to 200000 (more are counted)")
	bindSchedulerConfig(c, &o.SchedulerConfig)
	c.Flags().DurationVar(&o.BatchPeriod, "endpoint-updates-batch-period", 0, "the EndpointSlice controller's batch period: pod changes within it are written together (kube-controller-manager flag, default 0)")
	bindLive(c, &o.Live)
	o.Webhook.bind(c)
	return c
}

func traceApplyRun(o *TraceApplyOptions) error {
	g := o.Settings
	if err := checkNodes(o.Nodes); err != nil {
		return err
	}
	// 0 used to mean "unlimited" silently, and 30,000 pods with -v then
	// ran out of memory (issue 29). A kept step costs about 6 KB of peak RSS
	// once rendered: 219,937 steps of -v -o json took 1.4 GB, 1 step 85 MB.
	if o.Limit < 1 || o.Limit > maxSteps {
		return exitcode.Inputf("invalid --max-steps %d: want 1 to %d steps kept (more are counted)", o.Limit, maxSteps)
	}
	if err := checkLive(&o.Live); err != nil {
		return err
	}
	builtin := len(o.Files) == 0
	objs, err := loadManifests(o.IO, o.Files)
	if err != nil {
		return err
	}
	if builtin {
		o.Files = []string{builtinExample}
	}
	if o.Live.On && o.At != "" {
		return exitcode.Inputf("--at replays the simulation's record; a real cluster (--kubeconfig) keeps none")
	}
	webhooks, err := o.Webhook.webhooks()
	if err != nil {
		return err
	}
	if o.Live.On && webhooks != nil {
		return exitcode.Inputf("--webhook simulates a webhook that does not answer; a real cluster (--kubeconfig) has its own")
	}
	if o.Live.On {
		return traceApplyLive(o, objs)
	}
	if err := refuseUnmodelled(objs); err != nil {
		return err
	}
	cfg := sim.Config{Seed: g.Seed, Workers: o.Nodes, StepLimit: o.Limit, ClusterCIDR: o.ClusterCIDR, NodeCIDRMaskSize: o.NodeCIDRMaskSize,
		EndpointUpdatesBatchPeriod: o.BatchPeriod, StatefulSets: sim.NeedsStatefulSets(objs), Volumes: sim.NeedsVolumes(objs)}
	if o.BatchPeriod < 0 {
		return exitcode.Inputf("--endpoint-updates-batch-period %s: must not be negative", o.BatchPeriod)
	}
	// The HTML page's player shows the cluster's state at every step.
	cfg.RecordState = g.Format == render.HTML || o.At != ""
	if o.At != "" && o.Summary {
		return exitcode.Inputf("--at and --summary: choose one")
	}
	if o.Summary {
		// Only the summary is printed: count the steps, build none, and
		// report the scale section.
		cfg.StepLimit, cfg.ScaleReport = -1, true
	}
	if err := loadSchedulerConfig(o.SchedulerConfig, &cfg); err != nil {
		return err
	}
	var done func()
	cfg.Progress, done = progress(o.IO, g.Lang)
	limitMemory(o.IO)
	if o.Cluster != "" {
		nodes, err := loadNodes(o.Cluster, o.IO)
		if err != nil {
			return err
		}
		cfg.Nodes = nodes
	}
	var apply []manifest.Object
	var inlineNodes []*corev1.Node
	for _, obj := range objs {
		if n, isNode := obj.Obj.(*corev1.Node); isNode {
			// Nodes are the cluster's shape, not workload: with no --cluster,
			// the Nodes in the input become the workers.
			inlineNodes = append(inlineNodes, n)
			continue
		}
		apply = append(apply, obj)
	}
	if o.Cluster == "" && len(inlineNodes) > 0 {
		nodes, err := sim.WorkerNodes(objs)
		if err != nil {
			return exitcode.AsInput(err)
		}
		cfg.Nodes = nodes
	}
	if len(apply) == 0 {
		return exitcode.Inputf("%s: no objects to apply", strings.Join(o.Files, ", "))
	}
	cfg.OnCommit = observeCommits
	cfg.Webhooks = webhooks
	cl, err := sim.NewCluster(cfg)
	if err != nil {
		return exitcode.AsInput(err)
	}
	if err := cl.CheckScale(apply, false); err != nil {
		return exitcode.AsInput(err)
	}
	cl.Apply(apply, o.Files)
	command := "k8sexplain trace apply " + strings.Join(o.Files, " ")
	if builtin {
		command = "k8sexplain trace apply"
	}
	command += o.Webhook.args()
	start := o.Clock()
	tr := cl.Run(command)
	done()
	opts := explain.Options{Lang: g.Lang, Verbose: g.Verbose, Builtin: builtin}
	if o.Summary {
		tr.Steps = nil
		wallClock(o.IO, tr, o.Clock().Sub(start))
	} else if pods := cl.Pods(); len(pods) > 0 {
		tr.Tables = append(tr.Tables, story.DescribeEvents(tr, pods[0].Namespace+"/"+pods[0].Name))
		// A StatefulSet's pods with their nodes, claims and volumes.
		for _, set := range cl.StatefulSets() {
			tr.Tables = append(tr.Tables, story.New(cl).StatefulSetTable(set.Namespace, set.Name))
		}
	}
	doc := explain.Doc(tr, opts)
	if o.At != "" {
		if doc, err = explain.StateAt(tr, opts, o.At); err != nil {
			return exitcode.Inputf("%s", err)
		}
	}
	if err := o.render(doc); err != nil {
		return err
	}
	if tr.Failed != "" {
		return exitcode.Inputf("%s", tr.Failed)
	}
	return nil
}

func loadNodes(path string, io *iostreams.Streams) ([]*corev1.Node, error) {
	objs, err := manifest.Load([]string{path}, io.In)
	if err != nil {
		return nil, exitcode.AsInput(err)
	}
	nodes, err := sim.WorkerNodes(objs)
	if err != nil {
		return nil, exitcode.AsInput(err)
	}
	if len(nodes) == 0 {
		return nil, exitcode.Inputf("--cluster %s: no kind: Node objects in it", path)
	}
	return nodes, nil
}

// builtinExample names the embedded manifest traced when no file is given.
const builtinExample = "examples/app.yaml"

// loadManifests reads the files (a file, a directory or - each), or the
// built-in example when there are none.
func loadManifests(io *iostreams.Streams, files []string) ([]manifest.Object, error) {
	var objs []manifest.Object
	var err error
	if len(files) == 0 {
		objs, err = manifest.Parse(builtinExample, examples.App)
		return objs, exitcode.AsInput(err)
	}
	// A bundled example named by its path in the repository
	// (examples/unschedulable.yaml) is read from the binary when no such
	// file exists here: quiz `see:` lines and the docs work in any directory.
	var rest []string
	for _, name := range files {
		if data, ok := bundledExample(name); ok {
			more, err := manifest.Parse(name, data)
			if err != nil {
				return nil, exitcode.AsInput(err)
			}
			objs = append(objs, more...)
			continue
		}
		rest = append(rest, name)
	}
	if len(rest) > 0 {
		more, err := manifest.Load(rest, io.In)
		if err != nil {
			return nil, exitcode.AsInput(err)
		}
		objs = append(objs, more...)
	}
	return objs, nil
}

// bundledExample returns the embedded copy of examples/<name>.yaml when
// path names it and no such file exists in the current directory.
func bundledExample(path string) ([]byte, bool) {
	base, ok := strings.CutPrefix(filepath.ToSlash(path), "examples/")
	if !ok || strings.Contains(base, "/") {
		return nil, false
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	data, err := examples.FS.ReadFile(base)
	return data, err == nil
}

// bindIPAM adds node-ipam's two flags.
func bindIPAM(c *cobra.Command, cidr *string, mask *int) {
	c.Flags().StringVar(cidr, "cluster-cidr", "", "pod network of the cluster, cut into node podCIDRs as node-ipam does (default 10.244.0.0/16, wider for more than 255 nodes)")
	c.Flags().IntVar(mask, "node-cidr-mask-size", sim.DefaultNodeCIDRMaskSize, "prefix length of each node's podCIDR (kube-controller-manager --node-cidr-mask-size)")
}

// bindSchedulerConfig adds --scheduler-config.
func bindSchedulerConfig(c *cobra.Command, path *string) {
	c.Flags().StringVar(path, "scheduler-config", "", "KubeSchedulerConfiguration file (kube-scheduler --config): plugins, weights, NodeResourcesFit scoringStrategy (LeastAllocated, MostAllocated, RequestedToCapacityRatio)")
}

// loadSchedulerConfig reads --scheduler-config into cfg.
func loadSchedulerConfig(path string, cfg *sim.Config) error {
	if path == "" {
		return nil
	}
	var sc *schedconfig.Config
	var err error
	if data, ok := bundledExample(path); ok {
		sc, err = schedconfig.Parse(path, data)
	} else {
		sc, err = schedconfig.Load(path)
	}
	if err != nil {
		return exitcode.AsInput(err)
	}
	cfg.Scheduler, cfg.SchedulerSource = &sc.Profile, path
	return nil
}

// maxSteps bounds --max-steps: the steps a trace keeps for printing.
const maxSteps = 200_000

// checkNodes bounds --nodes.
func checkNodes(n int) error {
	if n < 1 || n > sim.MaxNodes {
		return exitcode.Inputf("invalid --nodes %d: want 1 to %d workers", n, sim.MaxNodes)
	}
	return nil
}

// wallClock tells a person at a terminal what the run cost in real time
// and the scheduler's wall-clock rate; stdout keeps only virtual time, so
// the same seed gives the same bytes.
func wallClock(io *iostreams.Streams, tr *trace.Trace, wall time.Duration) {
	file, ok := io.ErrOut.(*os.File)
	if !ok || !term.IsTerminal(int(file.Fd())) || tr.Summary.Scale == nil {
		return
	}
	rate := float64(tr.Summary.Scale.Scheduled) / wall.Seconds()
	fmt.Fprintf(io.ErrOut, "wall clock %.2f s for %d simulation events; scheduler %.0f pods/s of wall time (upstream scheduler_perf: ≥ 790 pods/s at 5,000 nodes)\n",
		wall.Seconds(), tr.Summary.Events, rate)
}
