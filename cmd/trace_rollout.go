package cmd

import (
	"fmt"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/sim"
	"github.com/k8sexplain/k8sexplain/internal/sim/story"
	"github.com/spf13/cobra"
	appsv1 "k8s.io/api/apps/v1"
)

// TraceRolloutOptions are the inputs of `trace rollout`.
type TraceRolloutOptions struct {
	StoryOptions
	// Image is CONTAINER=IMAGE.
	Image      string
	Deployment string
	// Broken makes the new image impossible to pull (--broken-image).
	Broken bool
	// StatefulSet updates a StatefulSet instead (--statefulset), with
	// Partition (--partition, -1: leave it) set first.
	StatefulSet string
	Partition   int
}

// NewCmdTraceRollout is `trace rollout`; runF, when not nil, gets the options instead of traceRolloutRun.
func NewCmdTraceRollout(f *Factory, runF func(*TraceRolloutOptions) error) *cobra.Command {
	o := &TraceRolloutOptions{StoryOptions: StoryOptions{rollout: true}}
	c := &cobra.Command{
		Use:   "rollout --image CONTAINER=IMAGE [FILE…]",
		Short: "A rolling update step by step: new ReplicaSet, scale up, scale down, endpoints switching",
		Long: `Applies the manifests (files as arguments or -f; default examples/app.yaml), waits until every pod
is Ready, then runs ` + "`kubectl set image`" + ` and traces the Deployment controller's rolling update: maxSurge rounded up, maxUnavailable rounded down, the new
ReplicaSet grown and the old ones shrunk within the availability budget, old pods terminating and
endpoints switching, with a table of ReplicaSet sizes after every scaling. --broken-image makes the
new image impossible to pull: the rollout stalls at ProgressDeadlineExceeded and ` + "`kubectl rollout undo`" + `
brings the old template back.`,
		Example: `  k8sexplain trace rollout examples/app.yaml --image web=nginx:1.28
  k8sexplain trace rollout -f examples/app.yaml --image web=nginx:1.28
  k8sexplain trace rollout --image web=nginx:1.28 --broken-image
  k8sexplain trace rollout -f examples/app.yaml --deployment web --image web=registry.example.com/web:v2 --format markdown
  k8sexplain trace rollout -f examples/statefulset.yaml --statefulset web --image nginx=registry.k8s.io/nginx-slim:0.28 --partition 1`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.filesFromArgs(cmd, args)
			if o.Image == "" {
				return exitcode.Usagef("required flag --image CONTAINER=IMAGE not set, e.g. --image web=nginx:1.28 (see %s --help)", cmd.CommandPath())
			}
			return runE(f, o, runF, traceRolloutRun)(cmd, args)
		},
	}
	o.bind(c)
	c.Flags().StringVar(&o.Image, "image", "", "new image as CONTAINER=IMAGE (required)")
	c.Flags().StringVar(&o.Image, "set-image", "", "alias of --image")
	c.Flags().StringVar(&o.Deployment, "deployment", "", "the Deployment to update when the manifest has several")
	c.Flags().BoolVar(&o.Broken, "broken-image", false, "the new image does not exist in the registry: the rollout stalls")
	c.Flags().StringVar(&o.StatefulSet, "statefulset", "", "update this StatefulSet instead of a Deployment: pods replaced from the highest ordinal down")
	c.Flags().IntVar(&o.Partition, "partition", -1, "with --statefulset: set updateStrategy.rollingUpdate.partition first (ordinals below it keep the old revision)")
	return c
}

func traceRolloutRun(o *TraceRolloutOptions) error {
	container, img, ok := strings.Cut(o.Image, "=")
	if !ok || container == "" || img == "" {
		return exitcode.Inputf("invalid --image %q: want CONTAINER=IMAGE, e.g. web=nginx:1.28", o.Image)
	}
	cfg := sim.Config{}
	if o.Broken {
		cfg.MissingImages = map[string]bool{img: true}
	}
	if o.Partition >= 0 && o.StatefulSet == "" {
		return exitcode.Inputf("--partition %d: a StatefulSet's setting; name the StatefulSet with --statefulset", o.Partition)
	}
	cl, source, err := o.scene(cfg)
	if err != nil {
		return err
	}
	if o.StatefulSet != "" {
		return statefulSetRollout(o, cl, source, container, img)
	}
	dep, err := pickDeployment(cl.Cluster, o.Deployment)
	if err != nil {
		return err
	}
	cl.MarkHistory(dep.Namespace, dep.Name)
	if err := cl.SetImage(dep, container, img); err != nil {
		return exitcode.AsInput(err)
	}
	limit := 10 * time.Minute
	if o.Broken {
		deadline := time.Duration(*dep.Spec.ProgressDeadlineSeconds) * time.Second
		cl.RunFor(deadline + 30*time.Second)
		cl.Undo(cl.Deployment(dep.Namespace, dep.Name))
		limit = deadline + 10*time.Minute
	}
	cl.RunFor(limit)
	command := "k8sexplain trace rollout -f " + source + " --image " + o.Image
	if o.Broken {
		command += " --broken-image"
	}
	tr := cl.Story(command, "rollout")
	tr.Tables = append(tr.Tables, cl.RolloutTable(dep.Namespace, dep.Name))
	if dep.Spec.Strategy.Type != appsv1.RecreateDeploymentStrategyType {
		tr.Tables = append(tr.Tables, cl.RolloutPlan(dep)) // the textbook table is the rolling update's
	}
	return o.renderTrace(tr)
}

// statefulSetRollout is `trace rollout --statefulset`: the rolling update
// of a StatefulSet, highest ordinal first down to the partition.
func statefulSetRollout(o *TraceRolloutOptions, cl *story.Scene, source, container, img string) error {
	var set *appsv1.StatefulSet
	var names []string
	for _, s := range cl.StatefulSets() {
		names = append(names, s.Name)
		if s.Name == o.StatefulSet {
			set = s
		}
	}
	if set == nil {
		return exitcode.Inputf("statefulset %q is not in the manifest (StatefulSets: %s)", o.StatefulSet, strings.Join(append(names, "none")[:max(len(names), 1)], ", "))
	}
	if set.Spec.Replicas != nil && o.Partition > int(*set.Spec.Replicas) {
		return exitcode.Inputf("--partition %d: above the %d replicas of statefulset %s (nothing would be updated)", o.Partition, *set.Spec.Replicas, set.Name)
	}
	if err := cl.SetStatefulSetImage(set, container, img, int32(o.Partition)); err != nil {
		return exitcode.AsInput(err)
	}
	cl.RunFor(10 * time.Minute)
	command := "k8sexplain trace rollout -f " + source + " --statefulset " + set.Name + " --image " + o.Image
	if o.Partition >= 0 {
		command += fmt.Sprintf(" --partition %d", o.Partition)
	}
	tr := cl.Story(command, "rollout")
	tr.Tables = append(tr.Tables, cl.StatefulSetTable(set.Namespace, set.Name))
	return o.renderTrace(tr)
}
