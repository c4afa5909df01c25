package cmd

import (
	"slices"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/sim"
	"github.com/spf13/cobra"
	corev1 "k8s.io/api/core/v1"
)

// staticExample is the static pod manifest trace static-pod runs by default.
const staticExample = "examples/static-pod.yaml"

// TraceStaticPodOptions are the inputs of `trace static-pod [FILE]`.
type TraceStaticPodOptions struct {
	StoryOptions
	// Manifest is the static pod's manifest (the argument).
	Manifest string
	// Node is the node whose staticPodPath gets it (--node).
	Node string
}

// NewCmdTraceStaticPod is `trace static-pod`; runF, when not nil, gets the options instead of traceStaticPodRun.
func NewCmdTraceStaticPod(f *Factory, runF func(*TraceStaticPodOptions) error) *cobra.Command {
	o := &TraceStaticPodOptions{}
	c := &cobra.Command{
		Use:   "static-pod [FILE]",
		Short: "A static pod: the kubelet runs a manifest from its staticPodPath, creates the mirror pod, and recreates it after kubectl delete",
		Long: `Settles the scene (-f, default examples/app.yaml), then puts FILE (default examples/static-pod.yaml, one
kind: Pod) into --node's staticPodPath, /etc/kubernetes/manifests. The kubelet's file source names the pod
<name>-<node>, gives it a UID hashed from the manifest and kubernetes.io/config.source: file, and runs it
itself: no scheduler, no binding. Before the runtime starts the containers it creates the mirror pod, a copy
with the kubernetes.io/config.mirror annotation and the Node as its controlling owner, which is all the API
server knows of the pod and where the kubelet writes its status. Then kubectl delete pod removes the
mirror: the kubelet deletes what is left of it at once (grace period 0) and creates a new one with a new
UID, while the container keeps running. Only removing the file stops the pod.`,
		Example: `  k8sexplain trace static-pod                          # examples/static-pod.yaml on node-a
  k8sexplain trace static-pod examples/static-pod.yaml --node node-b -f examples/init.yaml`,
		Args: cobra.MaximumNArgs(1),
		RunE: runE(f, o, runF, traceStaticPodRun, func(_ *cobra.Command, args []string) {
			if len(args) == 1 {
				o.Manifest = args[0]
			}
		}),
	}
	o.bind(c)
	c.Flags().StringVar(&o.Node, "node", "node-a", "the node whose staticPodPath gets the manifest")
	return c
}

func traceStaticPodRun(o *TraceStaticPodOptions) error {
	if o.Manifest == "" {
		o.Manifest = staticExample
	}
	objs, err := loadManifests(o.IO, []string{o.Manifest})
	if err != nil {
		return err
	}
	pod, err := staticPodOf(o.Manifest, objs)
	if err != nil {
		return err
	}
	o.checkWorkers = func(names []string) error {
		if slices.Contains(names, o.Node) {
			return nil
		}
		if len(names) > 6 {
			names = append(names[:4:4], "…", names[len(names)-1])
		}
		return exitcode.Inputf("node %q is not in the cluster (nodes: %s)", o.Node, strings.Join(names, ", "))
	}
	cl, source, err := o.scene(sim.Config{})
	if err != nil {
		return err
	}
	file := o.Manifest[strings.LastIndex(o.Manifest, "/")+1:]
	name, err := cl.StaticPod(o.Node, pod, file)
	if err != nil {
		return exitcode.AsInput(err)
	}
	cl.RunFor(20 * time.Second)
	ns := pod.Namespace
	if ns == "" {
		ns = "default"
	}
	mirror := cl.Mirror(ns, name)
	if mirror == nil {
		return exitcode.Inputf("%s: the kubelet could not create the mirror pod %s/%s (see the trace with -v)", o.Manifest, ns, name)
	}
	cl.DeleteMirrorPod(mirror)
	cl.RunFor(time.Minute)
	command := "k8sexplain trace static-pod " + o.Manifest + " -f " + source + " --node " + o.Node
	return o.renderTrace(cl.Story(command, "static-pod"))
}

// staticPodOf is the one Pod a static pod manifest holds. The file source
// reads one object per file and only kind: Pod (config/common.go
// tryDecodeSinglePod: "invalid pod" otherwise).
func staticPodOf(file string, objs []manifest.Object) (*corev1.Pod, error) {
	if len(objs) != 1 {
		return nil, exitcode.Inputf("%s: a static pod manifest holds one object, kind: Pod; found %d", file, len(objs))
	}
	pod, ok := objs[0].Obj.(*corev1.Pod)
	if !ok {
		return nil, exitcode.Inputf("%s: a static pod manifest holds kind: Pod, not %s", file, objs[0].Obj.GetObjectKind().GroupVersionKind().Kind)
	}
	p := pod.DeepCopy()
	manifest.Default(p)
	if err := manifest.Validate(p); err != nil {
		return nil, exitcode.AsInput(err)
	}
	return pod, nil
}
