package cmd

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/sim"
	"github.com/spf13/cobra"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// TraceDrainOptions are the inputs of `trace drain NODE [FILE…]`.
type TraceDrainOptions struct {
	StoryOptions
	sim.DrainOptions
	// PDB is --pdb minAvailable=N|maxUnavailable=N ("" for none).
	PDB string
}

// NewCmdTraceDrain is `trace drain`; runF, when not nil, gets the options instead of traceDrainRun.
func NewCmdTraceDrain(f *Factory, runF func(*TraceDrainOptions) error) *cobra.Command {
	o := &TraceDrainOptions{}
	c := &cobra.Command{
		Use:   "drain NODE [FILE…]",
		Short: "kubectl drain: cordon, the Eviction API against a PodDisruptionBudget (429 and retry), replacements elsewhere",
		Long: `Applies the manifests (files after NODE, or -f; default examples/app.yaml), waits until every pod is
Ready, then runs ` + "`kubectl drain NODE`" + ` as kubectl v1.37 does: it cordons the node (PATCH
spec.unschedulable; the node lifecycle controller adds the node.kubernetes.io/unschedulable:NoSchedule
taint), lists the node's pods and filters them (DaemonSet pods, pods with emptyDir, pods no controller
manages — refused unless --ignore-daemonsets, --delete-emptydir-data, --force), then POSTs an Eviction
for each pod. The API server asks the pod's PodDisruptionBudget, whose status the disruption controller
keeps: with no disruption left it answers 429 TooManyRequests and kubectl retries every 5 s, until the
ReplicaSet's replacement — scheduled on another node — is Ready. --pdb adds a budget for the
Deployment's pods; --disable-eviction deletes instead, past every budget.`,
		Example: `  k8sexplain trace drain node-a --nodes 2 --pdb minAvailable=2    # 429, retry, then success
  k8sexplain trace drain node-b examples/app.yaml --pdb maxUnavailable=0 --timeout 30s
  k8sexplain trace drain node-a --nodes 2 --pdb minAvailable=2 --disable-eviction`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return exitcode.Usagef("usage: %s drain NODE [FILE…]", cmd.Parent().CommandPath())
			}
			return nil
		},
		RunE: runE(f, o, runF, traceDrainRun, func(_ *cobra.Command, args []string) {
			o.Node = args[0]
			o.Files = append(o.Files, args[1:]...)
		}),
	}
	o.bind(c)
	c.Flags().StringVar(&o.PDB, "pdb", "", "add a PodDisruptionBudget for the Deployment's pods: minAvailable=N or maxUnavailable=N (N or N%)")
	c.Flags().BoolVar(&o.DisableEviction, "disable-eviction", false, "delete the pods instead of evicting them (kubectl drain --disable-eviction: no budget is asked)")
	c.Flags().BoolVar(&o.IgnoreDaemonSets, "ignore-daemonsets", false, "leave DaemonSet-managed pods (kubectl drain --ignore-daemonsets)")
	c.Flags().BoolVar(&o.DeleteEmptyDirData, "delete-emptydir-data", false, "let pods with emptyDir volumes go (kubectl drain --delete-emptydir-data)")
	c.Flags().BoolVar(&o.Force, "force", false, "also delete pods no controller manages (kubectl drain --force)")
	c.Flags().DurationVar(&o.Timeout, "timeout", 0, "give up after this long (kubectl drain --timeout; 0: wait for ever, the story stops after 10 minutes)")
	return c
}

// drainHorizon is how long the story runs after the drain began.
const drainHorizon = 10 * time.Minute

func traceDrainRun(o *TraceDrainOptions) error {
	if o.Timeout < 0 || o.Timeout > drainHorizon {
		return exitcode.Inputf("invalid --timeout %s: want 0 to %s", o.Timeout, drainHorizon)
	}
	pdbSpec, err := parsePDBFlag(o.PDB)
	if err != nil {
		return err
	}
	o.checkWorkers = func(names []string) error {
		if slices.Contains(names, o.Node) || o.Node == "control-plane" {
			return nil
		}
		if len(names) > 6 {
			names = append(names[:4:4], "…", names[len(names)-1])
		}
		return exitcode.Inputf("node %q is not in the cluster (nodes: %s)", o.Node, strings.Join(names, ", "))
	}
	if pdbSpec != "" {
		o.addObjects = func(objs []manifest.Object) ([]manifest.Object, error) { return addPDB(objs, pdbSpec) }
	}
	cl, source, err := o.scene(sim.Config{Heartbeats: true, Disruption: true})
	if err != nil {
		return err
	}
	cl.Drain(o.DrainOptions) // the story shows how the command ended: drained, or its error
	cl.RunFor(drainHorizon)
	return o.renderTrace(cl.Story(drainCommand(o, source), "drain"))
}

// drainCommand is the command line the trace's title shows.
func drainCommand(o *TraceDrainOptions, source string) string {
	cmd := "k8sexplain trace drain " + o.Node + " " + source
	if o.Nodes != 3 {
		cmd += fmt.Sprintf(" --nodes %d", o.Nodes)
	}
	if o.PDB != "" {
		cmd += " --pdb " + o.PDB
	}
	for _, f := range []struct {
		on   bool
		flag string
	}{{o.DisableEviction, "--disable-eviction"}, {o.IgnoreDaemonSets, "--ignore-daemonsets"}, {o.DeleteEmptyDirData, "--delete-emptydir-data"}, {o.Force, "--force"}} {
		if f.on {
			cmd += " " + f.flag
		}
	}
	if o.Timeout > 0 {
		cmd += " --timeout " + o.Timeout.String()
	}
	return cmd
}

// parsePDBFlag checks --pdb and returns it as a YAML spec line ("" for none).
func parsePDBFlag(v string) (string, error) {
	if v == "" {
		return "", nil
	}
	field, val, ok := strings.Cut(v, "=")
	if !ok || (field != "minAvailable" && field != "maxUnavailable") {
		return "", exitcode.Inputf("invalid --pdb %q: want minAvailable=N or maxUnavailable=N", v)
	}
	n := intstr.Parse(val)
	if n.Type == intstr.String {
		pct := strings.TrimSuffix(val, "%")
		var p int
		if _, err := fmt.Sscanf(pct, "%d", &p); err != nil || pct+"%" != val || fmt.Sprint(p) != pct || p < 0 || p > 100 {
			return "", exitcode.Inputf("invalid --pdb %q: %s must be a number or a percentage (0%% to 100%%)", v, field)
		}
		return fmt.Sprintf("%s: %q", field, val), nil
	}
	if n.IntVal < 0 {
		return "", exitcode.Inputf("invalid --pdb %q: %s must not be negative", v, field)
	}
	return fmt.Sprintf("%s: %d", field, n.IntVal), nil
}

// addPDB adds a policy/v1 PodDisruptionBudget named after the manifests'
// first Deployment, selecting its pods.
func addPDB(objs []manifest.Object, spec string) ([]manifest.Object, error) {
	for _, o := range objs {
		dep, ok := o.Obj.(*appsv1.Deployment)
		if !ok || dep.Spec.Selector == nil || len(dep.Spec.Selector.MatchLabels) == 0 {
			continue
		}
		ns := dep.Namespace
		if ns == "" {
			ns = "default"
		}
		var labels []string
		for _, k := range slices.Sorted(maps.Keys(dep.Spec.Selector.MatchLabels)) {
			labels = append(labels, fmt.Sprintf("%s: %q", k, dep.Spec.Selector.MatchLabels[k]))
		}
		src := fmt.Sprintf("apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: %s\n  namespace: %s\nspec:\n  %s\n  selector:\n    matchLabels: {%s}\n",
			dep.Name, ns, spec, strings.Join(labels, ", "))
		pdb, err := manifest.Parse("--pdb", []byte(src))
		if err != nil {
			return nil, exitcode.AsInput(err)
		}
		return append(objs, pdb...), nil
	}
	return nil, exitcode.Inputf("--pdb: the manifests have no Deployment with spec.selector.matchLabels to protect")
}
