package cmd

import (
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/sim"
	"github.com/spf13/cobra"
	appsv1 "k8s.io/api/apps/v1"
)

func init() { registerTrace(newCmdTraceRollout) }

func newCmdTraceRollout(f *Factory) *cobra.Command {
	o := &storyOptions{rollout: true}
	var image, deployment string
	var broken bool
	c := &cobra.Command{
		Use:   "rollout --image CONTAINER=IMAGE",
		Short: "A rolling update step by step: new ReplicaSet, scale up, scale down, endpoints switching",
		Long: `Applies the manifest, waits until every pod is Ready, then runs ` + "`kubectl set image`" + ` and traces the
Deployment controller's rolling update: maxSurge rounded up, maxUnavailable rounded down, the new
ReplicaSet grown and the old ones shrunk within the availability budget, old pods terminating and
endpoints switching, with a table of ReplicaSet sizes after every scaling. --broken-image makes the
new image impossible to pull: the rollout stalls at ProgressDeadlineExceeded and ` + "`kubectl rollout undo`" + `
brings the old template back.`,
		Example: `  k8sexplain trace rollout -f examples/app.yaml --image web=nginx:1.28
  k8sexplain trace rollout --image web=nginx:1.28 --broken-image
  k8sexplain trace rollout -f examples/app.yaml --deployment web --image web=registry.example.com/web:v2 --format markdown`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if image == "" {
				return exitcode.Usagef("required flag --image CONTAINER=IMAGE not set, e.g. --image web=nginx:1.28 (see %s --help)", cmd.CommandPath())
			}
			container, img, ok := strings.Cut(image, "=")
			if !ok || container == "" || img == "" {
				return exitcode.Inputf("invalid --image %q: want CONTAINER=IMAGE, e.g. web=nginx:1.28", image)
			}
			cfg := sim.Config{}
			if broken {
				cfg.MissingImages = map[string]bool{img: true}
			}
			cl, source, err := o.scene(f, cfg)
			if err != nil {
				return err
			}
			dep, err := pickDeployment(cl.Cluster, deployment)
			if err != nil {
				return err
			}
			cl.MarkHistory(dep.Namespace, dep.Name)
			if err := cl.SetImage(dep, container, img); err != nil {
				return exitcode.AsInput(err)
			}
			limit := 10 * time.Minute
			if broken {
				deadline := time.Duration(*dep.Spec.ProgressDeadlineSeconds) * time.Second
				cl.RunFor(deadline + 30*time.Second)
				cl.Undo(cl.Deployment(dep.Namespace, dep.Name))
				limit = deadline + 10*time.Minute
			}
			cl.RunFor(limit)
			command := "k8sexplain trace rollout -f " + source + " --image " + image
			if broken {
				command += " --broken-image"
			}
			tr := cl.Story(command, "rollout")
			tr.Tables = append(tr.Tables, cl.RolloutTable(dep.Namespace, dep.Name))
			if dep.Spec.Strategy.Type != appsv1.RecreateDeploymentStrategyType {
				tr.Tables = append(tr.Tables, cl.RolloutPlan(dep)) // the textbook table is the rolling update's
			}
			return renderStory(f, tr)
		},
	}
	o.bind(c)
	c.Flags().StringVar(&image, "image", "", "new image as CONTAINER=IMAGE (required)")
	c.Flags().StringVar(&image, "set-image", "", "alias of --image")
	c.Flags().StringVar(&deployment, "deployment", "", "the Deployment to update when the manifest has several")
	c.Flags().BoolVar(&broken, "broken-image", false, "the new image does not exist in the registry: the rollout stalls")
	return c
}
