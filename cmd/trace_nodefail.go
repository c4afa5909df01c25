package cmd

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/sim"
	"github.com/spf13/cobra"
)

// standalonePod is the bare Pod the node-failure story pins to the failing
// node, to contrast with the Deployment's pods: nobody recreates it.
const standalonePod = `apiVersion: v1
kind: Pod
metadata:
  name: standalone
  labels: {app: standalone}
spec:
  nodeName: %s
  containers:
  - name: main
    image: busybox:1.36
    command: ["sleep", "infinity"]
`

// TraceNodeFailureOptions are the inputs of `trace node-failure`.
type TraceNodeFailureOptions struct {
	StoryOptions
	Node string
	// BarePod adds a bare Pod on the node (--bare-pod).
	BarePod bool
}

// NewCmdTraceNodeFailure is `trace node-failure`; runF, when not nil, gets the options instead of traceNodeFailureRun.
func NewCmdTraceNodeFailure(f *Factory, runF func(*TraceNodeFailureOptions) error) *cobra.Command {
	o := &TraceNodeFailureOptions{}
	c := &cobra.Command{
		Use:   "node-failure --node NAME [FILE…]",
		Short: "A node dies: Lease expiry, NotReady/Unknown, the unreachable taint, eviction after 300 s, replacements",
		Long: `Applies the manifests (files as arguments or -f; default examples/app.yaml), plus a bare Pod pinned to
the node unless --bare-pod=false, waits until every pod is Ready, then cuts the node's power. Its kubelet stops renewing its Lease; the node lifecycle controller
marks it Ready=Unknown after the grace period and taints it node.kubernetes.io/unreachable; pods carry
the 300 s toleration DefaultTolerationSeconds admission gave them and are evicted when it runs out; the
ReplicaSet controller creates replacements and the scheduler places them on surviving nodes. The bare
Pod is evicted too, and nobody recreates it.`,
		Example: `  k8sexplain trace node-failure examples/app.yaml --node node-b
  k8sexplain trace node-failure -f examples/statefulset.yaml --node node-a --bare-pod=false
  k8sexplain trace node-failure --node node-a --bare-pod=false --format markdown`,
		Args: cobra.ArbitraryArgs,
		RunE: runE(f, o, runF, traceNodeFailureRun, o.filesFromArgs),
	}
	o.bind(c)
	c.Flags().StringVar(&o.Node, "node", "node-b", "the node that fails")
	c.Flags().BoolVar(&o.BarePod, "bare-pod", true, "also run a bare Pod on that node, to show that nobody recreates it")
	return c
}

func traceNodeFailureRun(o *TraceNodeFailureOptions) error {
	// The count is checked before the node list is made from it.
	if err := checkNodes(o.Nodes); err != nil {
		return err
	}
	o.checkWorkers = func(names []string) error {
		if slices.Contains(names, o.Node) {
			return nil
		}
		if len(names) > 6 {
			// A list of 10,000 names helps nobody: the first few and the last.
			names = append(names[:4:4], "…", names[len(names)-1])
		}
		return exitcode.Inputf("node %q is not in the cluster (nodes: %s)", o.Node, strings.Join(names, ", "))
	}
	cfg := sim.Config{Heartbeats: true}
	if o.BarePod {
		// The bare pod joins the scene through the same loader.
		extra, err := manifest.Parse("standalone-pod.yaml", []byte(fmt.Sprintf(standalonePod, o.Node)))
		if err != nil {
			return err
		}
		cfg.Extra = extra
	}
	cl, source, err := o.scene(cfg)
	if err != nil {
		return err
	}
	if err := cl.FailNode(o.Node); err != nil {
		return exitcode.AsInput(err)
	}
	cl.RunThrough(6 * time.Minute)
	tr := cl.Story("k8sexplain trace node-failure -f "+source+" --node "+o.Node, "node-failure")
	tr.Tables = append(tr.Tables, cl.NodeFailureTable(o.Node))
	return o.renderTrace(tr)
}
