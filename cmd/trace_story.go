package cmd

import (
	"fmt"
	"os"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/render"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/sim"
	"github.com/k8sexplain/k8sexplain/internal/sim/story"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	"github.com/k8sexplain/k8sexplain/internal/trace/explain"
	"github.com/spf13/cobra"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// StoryOptions are the inputs every "what happens when…" trace shares: the
// manifests that set the scene and the cluster they run on.
type StoryOptions struct {
	Common
	Files []string
	Nodes int
	// ClusterCIDR and NodeCIDRMaskSize shape node podCIDRs (node-ipam).
	ClusterCIDR      string
	NodeCIDRMaskSize int
	// SchedulerConfig is a KubeSchedulerConfiguration file (--scheduler-config).
	SchedulerConfig string
	// rollout counts each Deployment's maxSurge in the scale check.
	rollout bool
	// checkWorkers, when set, vets the worker names before anything runs
	// (node-failure's --node).
	checkWorkers func(names []string) error
	// addObjects, when set, adds objects to the loaded manifests before
	// the scene is applied (drain's --pdb).
	addObjects func(objs []manifest.Object) ([]manifest.Object, error)
	// noPods lets the scene settle without any pod (apply-modes keeps the
	// manifests' only Deployment for its own story).
	noPods bool
}

func (o *StoryOptions) bind(c *cobra.Command) {
	c.Flags().StringArrayVarP(&o.Files, "filename", "f", nil, "manifest that sets the scene (repeatable; default: the built-in example, examples/app.yaml)")
	c.Flags().IntVar(&o.Nodes, "nodes", 3, "number of identical worker nodes (1 to 10000)")
	bindIPAM(c, &o.ClusterCIDR, &o.NodeCIDRMaskSize)
	bindSchedulerConfig(c, &o.SchedulerConfig)
}

// scene applies the manifests to a fresh cluster and waits until it
// settles; the story starts from there.
func (o *StoryOptions) scene(cfg sim.Config) (*story.Scene, string, error) {
	g := o.Settings
	if err := checkNodes(o.Nodes); err != nil {
		return nil, "", err
	}
	objs, err := loadManifests(o.IO, o.Files)
	if err != nil {
		return nil, "", err
	}
	if err := refuseUnmodelled(objs); err != nil {
		return nil, "", err
	}
	source := strings.Join(o.Files, " ")
	if len(o.Files) == 0 {
		source = builtinExample
	}
	if o.addObjects != nil {
		if objs, err = o.addObjects(objs); err != nil {
			return nil, "", err
		}
	}
	cfg.Seed, cfg.Workers, cfg.StepLimit = g.Seed, o.Nodes, 50000
	cfg.StatefulSets = sim.NeedsStatefulSets(objs)
	cfg.Volumes = sim.NeedsVolumes(objs)
	cfg.ClusterCIDR, cfg.NodeCIDRMaskSize = o.ClusterCIDR, o.NodeCIDRMaskSize
	// The HTML page's player shows the cluster's state at every step.
	cfg.RecordState = g.Format == render.HTML
	if err := loadSchedulerConfig(o.SchedulerConfig, &cfg); err != nil {
		return nil, "", err
	}
	var done func()
	cfg.Progress, done = progress(o.IO, g.Lang)
	defer done()
	limitMemory(o.IO)
	// Nodes in the manifests are the cluster's shape, as in trace apply:
	// they become the workers instead of --nodes (issue 29: four story
	// commands applied them as bare objects nobody ran).
	var apply []manifest.Object
	for _, obj := range objs {
		if _, isNode := obj.Obj.(*corev1.Node); !isNode {
			apply = append(apply, obj)
		}
	}
	if len(apply) < len(objs) {
		nodes, err := sim.WorkerNodes(objs)
		if err != nil {
			return nil, "", exitcode.AsInput(err)
		}
		cfg.Nodes, objs = nodes, apply
	}
	if o.checkWorkers != nil {
		var names []string
		for _, n := range cfg.Nodes {
			names = append(names, n.Name)
		}
		if len(cfg.Nodes) == 0 {
			for _, n := range sim.DefaultNodes(o.Nodes, true) {
				names = append(names, n.Name)
			}
		}
		if err := o.checkWorkers(names); err != nil {
			return nil, "", err
		}
	}
	cfg.OnCommit = observeCommits
	cl, err := sim.NewCluster(cfg)
	if err != nil {
		return nil, "", exitcode.AsInput(err)
	}
	if err := cl.CheckScale(append(objs, cfg.Extra...), o.rollout); err != nil {
		return nil, "", exitcode.AsInput(err)
	}
	cl.Apply(append(objs, cfg.Extra...), []string{source})
	if !cl.Settle() && (!o.noPods || len(cl.Pods()) > 0 || cl.Failed() != "") {
		if msg := cl.Failed(); msg != "" {
			return nil, "", exitcode.Inputf("%s", msg)
		}
		return nil, "", exitcode.Inputf("%s: the cluster did not settle with every pod Ready (see `k8sexplain trace apply %s`)", source, source)
	}
	return story.New(cl), source, nil
}

// renderTrace prints a story's trace.
func (c *Common) renderTrace(tr *trace.Trace) error {
	g := c.Settings
	return c.render(explain.Doc(tr, explain.Options{Lang: g.Lang, Verbose: g.Verbose}))
}

// pickDeployment finds the Deployment a story is about.
func pickDeployment(cl *sim.Cluster, name string) (*appsv1.Deployment, error) {
	var found []*appsv1.Deployment
	seen := map[string]bool{}
	for _, p := range cl.Pods() {
		if d := deploymentOf(cl, p); d != nil && !seen[d.Name] {
			seen[d.Name] = true
			found = append(found, d)
		}
	}
	if name != "" {
		for _, d := range found {
			if d.Name == name {
				return d, nil
			}
		}
		return nil, exitcode.Inputf("deployment %q is not in the manifest", name)
	}
	switch len(found) {
	case 0:
		return nil, exitcode.Inputf("the manifest has no Deployment")
	case 1:
		return found[0], nil
	}
	var names []string
	for _, d := range found {
		names = append(names, d.Name)
	}
	return nil, exitcode.Inputf("the manifest has %d Deployments (%s): pick one with --deployment", len(found), strings.Join(names, ", "))
}

// deploymentOf follows pod → ReplicaSet → Deployment by name convention
// (<deployment>-<hash>-<suffix>) and checks it exists.
func deploymentOf(cl *sim.Cluster, p *corev1.Pod) *appsv1.Deployment {
	for _, ref := range p.OwnerReferences {
		if ref.Kind != "ReplicaSet" {
			continue
		}
		if i := strings.LastIndex(ref.Name, "-"); i > 0 {
			return cl.Deployment(p.Namespace, ref.Name[:i])
		}
	}
	return nil
}

// filesFromArgs adds the manifests given as arguments to those of -f, as
// trace apply takes them (both forms, in that order: -f first).
func (o *StoryOptions) filesFromArgs(_ *cobra.Command, args []string) {
	o.Files = append(o.Files, args...)
}

// podAndFiles splits what follows `trace delete pod`: an argument that is
// - or names an existing file or directory is a manifest, any other is the
// pod's name, of which there may be one.
func podAndFiles(args []string) (pod string, files []string, err error) {
	for _, a := range args {
		if a == "-" {
			files = append(files, a)
			continue
		}
		if _, statErr := os.Stat(a); statErr == nil {
			files = append(files, a)
			continue
		}
		if pod != "" {
			return "", nil, fmt.Errorf("%q and %q: one pod name, and files that exist", pod, a)
		}
		pod = a
	}
	return pod, files, nil
}
