package cmd

import (
	"fmt"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/sim"
	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/api/resource"
)

// preemptorPod is the pod the preemption story creates once the scene is
// settled: its priority class and CPU request come from the flags.
const preemptorPod = `apiVersion: v1
kind: Pod
metadata:
  name: critical
  labels: {app: critical}
spec:
  priorityClassName: %s
  containers:
  - name: main
    image: nginx:1.27
    resources:
      requests: {cpu: "%s", memory: 128Mi}
`

// preemptExample is the scene trace preempt plays on by default.
const preemptExample = "examples/preemption.yaml"

// TracePreemptOptions are the inputs of `trace preempt [FILE…]`.
type TracePreemptOptions struct {
	StoryOptions
	// PriorityClass and CPU shape the preemptor (--priority-class, --cpu).
	PriorityClass string
	CPU           string
	// PDB is --pdb minAvailable=N|maxUnavailable=N for the first Deployment.
	PDB string
}

// NewCmdTracePreempt is `trace preempt`; runF, when not nil, gets the options instead of tracePreemptRun.
func NewCmdTracePreempt(f *Factory, runF func(*TracePreemptOptions) error) *cobra.Command {
	o := &TracePreemptOptions{}
	c := &cobra.Command{
		Use:   "preempt [FILE…]",
		Short: "Preemption: a high-priority pod fits nowhere, DefaultPreemption picks a node and victims, nominatedNodeName, graceful eviction, bind",
		Long: `Applies the manifests (default examples/preemption.yaml: PriorityClasses low, medium and high, and
Deployments that fill every worker), waits until every pod is Ready, then creates pod "critical" with
--priority-class (default high) asking for --cpu. The Priority admission plugin resolves the class to
spec.priority; no node fits, so the scheduler's PostFilter, DefaultPreemption, looks on every node for the
fewest lower-priority pods whose removal makes room (reprieving as many as it can, budget violators
first) and picks the node by upstream's criteria in order: fewest PodDisruptionBudget violations, the
lowest highest-priority victim, the smallest sum of priorities, the fewest victims, the latest start. It
writes status.nominatedNodeName, gives each victim the DisruptionTarget condition
(PreemptionByScheduler) and deletes it gracefully; the pod is bound when the room is free. --pdb adds a
budget for the first Deployment: preemption respects it only as far as it can (best effort).`,
		Example: `  k8sexplain trace preempt                                  # the batch pod with the latest start goes
  k8sexplain trace preempt --pdb minAvailable=2             # the budget steers preemption to the api pod
  k8sexplain trace preempt --priority-class medium --cpu 2  # only batch pods are lower: same node choice rules`,
		Args: cobra.ArbitraryArgs,
		RunE: runE(f, o, runF, tracePreemptRun, func(_ *cobra.Command, args []string) {
			o.Files = append(o.Files, args...)
		}),
	}
	o.bind(c)
	c.Flags().Lookup("filename").Usage = "manifest that sets the scene (repeatable; default: the built-in example, " + preemptExample + ")"
	c.Flags().StringVar(&o.PriorityClass, "priority-class", "high", "the preemptor's priorityClassName (a class of the manifests, or system-cluster-critical / system-node-critical)")
	c.Flags().StringVar(&o.CPU, "cpu", "2", "the preemptor's CPU request")
	c.Flags().StringVar(&o.PDB, "pdb", "", "add a PodDisruptionBudget for the first Deployment's pods: minAvailable=N or maxUnavailable=N (N or N%)")
	return c
}

func tracePreemptRun(o *TracePreemptOptions) error {
	q, err := resource.ParseQuantity(o.CPU)
	if err != nil || q.Sign() <= 0 {
		return exitcode.Inputf("invalid --cpu %q: want a positive CPU quantity such as 2 or 1500m", o.CPU)
	}
	if o.PriorityClass == "" || strings.ContainsAny(o.PriorityClass, " \n\"") {
		return exitcode.Inputf("invalid --priority-class %q: want a PriorityClass name", o.PriorityClass)
	}
	pdbSpec, err := parsePDBFlag(o.PDB)
	if err != nil {
		return err
	}
	if len(o.Files) == 0 {
		o.Files = []string{preemptExample}
	}
	if pdbSpec != "" {
		o.addObjects = func(objs []manifest.Object) ([]manifest.Object, error) { return addPDB(objs, pdbSpec) }
	}
	cl, source, err := o.scene(sim.Config{Disruption: true})
	if err != nil {
		return err
	}
	pod, err := manifest.Parse("preemptor.yaml", []byte(fmt.Sprintf(preemptorPod, o.PriorityClass, q.String())))
	if err != nil {
		return exitcode.AsInput(err)
	}
	cl.Apply(pod, []string{"preemptor.yaml"})
	cl.RunFor(2 * time.Minute)
	if msg := cl.Failed(); msg != "" {
		return exitcode.Inputf("%s", msg)
	}
	command := "k8sexplain trace preempt " + source + " --priority-class " + o.PriorityClass + " --cpu " + q.String()
	if o.PDB != "" {
		command += " --pdb " + o.PDB
	}
	return o.renderTrace(cl.Story(command, "preempt"))
}
