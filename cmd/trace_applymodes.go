package cmd

import (
	"fmt"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/sim"
	"github.com/k8sexplain/k8sexplain/internal/sim/story"
	"github.com/spf13/cobra"
	appsv1 "k8s.io/api/apps/v1"
)

// TraceApplyModesOptions are the inputs of `trace apply-modes`.
type TraceApplyModesOptions struct {
	StoryOptions
	Mode       string // server or client
	Scale      int    // kubectl scale --replicas
	Deployment string
	dep        *appsv1.Deployment
	file       string
}

// NewCmdTraceApplyModes is `trace apply-modes`; runF, when not nil, gets the options instead of traceApplyModesRun.
func NewCmdTraceApplyModes(f *Factory, runF func(*TraceApplyModesOptions) error) *cobra.Command {
	o := &TraceApplyModesOptions{}
	c := &cobra.Command{
		Use:   "apply-modes [FILE…]",
		Short: "Server-side apply's field ownership and 409 conflicts, client-side apply's three-way merge, on one Deployment",
		Long: `Applies the manifests (files as arguments or -f; default examples/app.yaml) except one Deployment,
which the story then applies itself and changes with a second writer, ` + "`kubectl scale`" + `.

--mode server (the default): kubectl apply --server-side sends a PATCH of type
application/apply-patch+yaml with ?fieldManager=kubectl; the API server merges it and records in
metadata.managedFields who owns which field. After ` + "`kubectl scale --replicas=N`" + ` (manager "kubectl",
subresource scale) owns spec.replicas, re-applying the manifest's own value is refused with 409 Conflict
("Apply failed with 1 conflict: conflict with "kubectl" with subresource "scale" using apps/v1:
.spec.replicas"); applying the live value shares the field; removing replicas from the manifest
releases it (the value stays while another manager owns it); --force-conflicts takes it over; removing it
again, with no other owner, deletes it and the default, 1, comes back.

--mode client: kubectl apply keeps the manifest in the kubectl.kubernetes.io/last-applied-configuration
annotation and PATCHes the three-way strategic merge of that annotation, the manifest and the live
object. Removing replicas from the manifest deletes spec.replicas even after ` + "`kubectl scale`" + ` (it
goes back to 1), while a label only ` + "`kubectl label`" + ` set is kept.`,
		Example: `  k8sexplain trace apply-modes
  k8sexplain trace apply-modes -f examples/app.yaml --scale 5
  k8sexplain trace apply-modes --mode client
  k8sexplain trace apply-modes examples/app.yaml --mode client --lang ru --format markdown`,
		Args: cobra.ArbitraryArgs,
		RunE: runE(f, o, runF, traceApplyModesRun, o.filesFromArgs),
	}
	o.bind(c)
	c.Flags().StringVar(&o.Mode, "mode", "server", "which apply: server (kubectl apply --server-side, managedFields) or client (last-applied annotation, three-way merge)")
	c.Flags().IntVar(&o.Scale, "scale", 5, "the replicas `kubectl scale` sets, the second writer (1 to 50, not the manifest's own value)")
	c.Flags().StringVar(&o.Deployment, "deployment", "", "the Deployment the story applies when the manifests hold several")
	_ = c.RegisterFlagCompletionFunc("mode", fixedCompletion("server", "client"))
	o.addObjects, o.noPods = o.takeDeployment, true
	return c
}

// takeDeployment keeps the story's Deployment out of the scene: the story
// applies it.
func (o *TraceApplyModesOptions) takeDeployment(objs []manifest.Object) ([]manifest.Object, error) {
	var deps []manifest.Object
	for _, obj := range objs {
		if d, ok := obj.Obj.(*appsv1.Deployment); ok && (o.Deployment == "" || d.Name == o.Deployment) {
			deps = append(deps, obj)
		}
	}
	switch {
	case len(deps) == 0 && o.Deployment != "":
		return nil, exitcode.Inputf("deployment %q is not in the manifest", o.Deployment)
	case len(deps) == 0:
		return nil, exitcode.Inputf("the manifest has no Deployment")
	case len(deps) > 1:
		var names []string
		for _, d := range deps {
			names = append(names, d.Name)
		}
		return nil, exitcode.Inputf("the manifest has %d Deployments (%s): pick one with --deployment", len(deps), strings.Join(names, ", "))
	}
	d := deps[0].Obj.(*appsv1.Deployment)
	where := fmt.Sprintf("%s:%d", deps[0].Pos.File, deps[0].Pos.Line)
	if d.Spec.Replicas == nil {
		return nil, exitcode.Inputf("%s: deployment %q sets no spec.replicas: the story changes it, so the manifest must set it", where, d.Name)
	}
	if int(*d.Spec.Replicas) == o.Scale {
		return nil, exitcode.Inputf("--scale %d: deployment %q already asks for %d replicas; pick another value", o.Scale, d.Name, o.Scale)
	}
	if *d.Spec.Replicas > 50 {
		return nil, exitcode.Inputf("%s: deployment %q asks for %d replicas; the story allows at most 50", where, d.Name, *d.Spec.Replicas)
	}
	o.dep, o.file = d, deps[0].Pos.File
	var rest []manifest.Object
	for _, obj := range objs {
		if obj.Obj != deps[0].Obj {
			rest = append(rest, obj)
		}
	}
	return rest, nil
}

func traceApplyModesRun(o *TraceApplyModesOptions) error {
	if o.Mode != "server" && o.Mode != "client" {
		return exitcode.Inputf("invalid --mode %q: want server or client", o.Mode)
	}
	if o.Scale < 1 || o.Scale > 50 {
		return exitcode.Inputf("invalid --scale %d: want 1 to 50 replicas", o.Scale)
	}
	cl, source, err := o.scene(sim.Config{FieldManagement: true})
	if err != nil {
		return err
	}
	cl.ApplyModes(o.Mode, o.dep, o.file, int32(o.Scale))
	cl.RunFor(4 * time.Minute)
	tr := cl.Story(fmt.Sprintf("k8sexplain trace apply-modes -f %s --mode %s --scale %d", source, o.Mode, o.Scale), "apply-modes")
	tr.Tables = append(tr.Tables, story.ApplyModesTable(tr))
	return o.renderTrace(tr)
}
