package cmd

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/k8sversion"
	"github.com/k8sexplain/k8sexplain/internal/live"
	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/sim"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	"github.com/k8sexplain/k8sexplain/internal/trace/explain"
	"github.com/spf13/cobra"
	corev1 "k8s.io/api/core/v1"
)

// LiveOptions are the flags of `trace apply --kubeconfig`: trace the apply
// on a real cluster instead of the simulator.
type LiveOptions struct {
	// On is set when --kubeconfig was given (even empty): only then does
	// anything talk to a cluster.
	On                 bool
	Kubeconfig         string
	Context            string
	Namespace          string
	Keep, Force        bool
	AllowClusterScoped bool
	DryRun             string
	Timeout            time.Duration
	Compare            bool
	// Changed are the live flags given (to refuse them without --kubeconfig).
	Changed []string
}

// maxLiveTimeout bounds --timeout: a real apply settles in minutes.
const maxLiveTimeout = time.Hour

// liveFlags are the flags that only mean something with --kubeconfig.
var liveFlags = []string{"context", "namespace", "keep", "force", "allow-cluster-scoped", "dry-run", "timeout", "compare"}

// bindLive adds the flags of a trace on a real cluster.
func bindLive(c *cobra.Command, l *LiveOptions) {
	fl := c.Flags()
	fl.StringVar(&l.Kubeconfig, "kubeconfig", "", "trace the apply on the real cluster of this kubeconfig (empty: $KUBECONFIG, then ~/.kube/config, as kubectl); without it nothing talks to a cluster")
	fl.StringVar(&l.Context, "context", "", "kubeconfig context to use (default: its current context)")
	fl.StringVarP(&l.Namespace, "namespace", "n", "", "apply into this existing namespace instead of a fresh k8sexplain-<random> one (refused if it holds objects of the same names, unless --force)")
	fl.BoolVar(&l.Keep, "keep", false, "keep what the trace created (by default it is deleted at the end, also on Ctrl-C)")
	fl.BoolVar(&l.Force, "force", false, "with --namespace: apply over objects of the same names")
	fl.BoolVar(&l.AllowClusterScoped, "allow-cluster-scoped", false, "apply cluster-scoped kinds too (refused by default)")
	fl.StringVar(&l.DryRun, "dry-run", "none", "server: trace admission, defaulting and validation only (dryRun=All); nothing is stored")
	fl.DurationVar(&l.Timeout, "timeout", 2*time.Minute, "stop waiting for Ready pods after this long")
	fl.BoolVar(&l.Compare, "compare", false, "add a side by side of the cluster with the simulator's trace of the same manifests")
}

// liveChanged copies which live flags were given.
func liveChanged(c *cobra.Command, l *LiveOptions) {
	l.On = c.Flags().Changed("kubeconfig")
	for _, name := range liveFlags {
		if c.Flags().Changed(name) {
			l.Changed = append(l.Changed, "--"+name)
		}
	}
}

// checkLive refuses live flags without --kubeconfig and values that make
// no sense.
func checkLive(l *LiveOptions) error {
	if !l.On {
		if len(l.Changed) > 0 {
			return exitcode.Inputf("%s: only with --kubeconfig (a trace on a real cluster); without it the apply is simulated", strings.Join(l.Changed, ", "))
		}
		return nil
	}
	switch l.DryRun {
	case "none", "server":
	default:
		return exitcode.Inputf("--dry-run %q: want none or server (a client dry run sends nothing, so there is nothing to trace)", l.DryRun)
	}
	if l.Timeout <= 0 || l.Timeout > maxLiveTimeout {
		return exitcode.Inputf("--timeout %s: want more than 0 and at most %s", l.Timeout, maxLiveTimeout)
	}
	if l.Compare && l.DryRun == "server" {
		return exitcode.Inputf("--compare with --dry-run=server: a dry run stores nothing, so there is nothing to compare after phase 3")
	}
	if l.Force && l.Namespace == "" {
		return exitcode.Inputf("--force: only with --namespace (the fresh namespace holds nothing to apply over)")
	}
	return nil
}

// traceApplyLive is `trace apply --kubeconfig`: the apply on a real
// cluster, traced from what the cluster reports (package live).
func traceApplyLive(o *TraceApplyOptions, objs []manifest.Object) error {
	l, g := o.Live, o.Settings
	t, err := live.LoadConfig(l.Kubeconfig, l.Context)
	if err != nil {
		return err
	}
	client, err := live.NewClient(t)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := live.Run(ctx, client, live.Options{Files: o.Files, Objects: objs, Namespace: l.Namespace, Keep: l.Keep, Force: l.Force,
		AllowClusterScoped: l.AllowClusterScoped, DryRun: l.DryRun == "server", ListNodes: l.Compare, Timeout: l.Timeout, Log: o.IO.ErrOut, Now: o.Clock})
	if err != nil {
		return err
	}
	tr := res.Trace
	if !k8sversion.SameMinor(res.Version) {
		fmt.Fprintf(o.IO.ErrOut, "k8sexplain: warning: the server is %s, the simulator models %s: defaults, event texts and feature gates that changed between them may differ\n", res.Version, k8sversion.MinorString)
	}
	tr.Command = fmt.Sprintf("k8sexplain trace apply %s on %s (context %s, Kubernetes %s)", strings.Join(o.Files, " "), t.Server, t.Context, res.Version)
	if l.Compare && ctx.Err() == nil {
		simulated, err := simulateLike(o, objs, live.Workers(res.Nodes))
		if err != nil {
			return err
		}
		tr.Tables = append(tr.Tables, live.Compare(tr, simulated)...)
	}
	if err := o.render(explain.Doc(tr, explain.Options{Lang: g.Lang, Verbose: g.Verbose})); err != nil {
		return err
	}
	switch {
	case ctx.Err() != nil:
		return &exitcode.Error{Code: exitcode.Interrupted, Err: fmt.Errorf("interrupted: what the trace created was deleted")}
	case tr.Failed != "" && !res.TimedOut:
		return exitcode.Inputf("%s", tr.Failed)
	case res.TimedOut:
		return exitcode.Timeoutf("%s", tr.Failed)
	}
	return nil
}

// simulateLike runs the simulator on the same manifests with the
// cluster's worker nodes (their names, labels, taints and capacity).
func simulateLike(o *TraceApplyOptions, objs []manifest.Object, workers []*corev1.Node) (*trace.Trace, error) {
	// Without the cluster's nodes (not allowed to list them) the
	// simulator runs on --nodes identical workers.
	cfg := sim.Config{Seed: o.Settings.Seed, Workers: o.Nodes, StepLimit: o.Limit}
	if len(workers) > 0 {
		var nodes []manifest.Object
		for _, n := range workers {
			nodes = append(nodes, manifest.Object{Obj: n, APIVersion: "v1", Kind: "Node", Name: n.Name, Pos: manifest.Pos{File: "cluster"}})
		}
		ns, err := sim.WorkerNodes(nodes)
		if err != nil {
			return nil, exitcode.AsInput(err)
		}
		cfg.Nodes, cfg.Workers = ns, len(ns)
	}
	var apply []manifest.Object
	for _, obj := range objs {
		if _, isNode := obj.Obj.(*corev1.Node); !isNode {
			apply = append(apply, obj)
		}
	}
	cl, err := sim.NewCluster(cfg)
	if err != nil {
		return nil, exitcode.AsInput(err)
	}
	cl.Apply(apply, o.Files)
	return cl.Run("k8sexplain trace apply " + strings.Join(o.Files, " ")), nil
}
