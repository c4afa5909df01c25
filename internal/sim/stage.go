package sim

import (
	"maps"
	"slices"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/controller"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubelet"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// What the stories (package sim/story) drive a settled cluster with and
// read from it: the recorder for their own steps, the kubelets they make
// fail, the clock, the Deployment controller's rollout history, the node
// controller's verdicts and the clients' kube-proxy.

// MinSyncPeriod is kube-proxy's --iptables-min-sync-period here.
const MinSyncPeriod = minSyncPeriod

// Recorder is where the cluster's steps go; a story adds its own.
func (c *Cluster) Recorder() *trace.Recorder { return c.rec }

// Now is the virtual time.
func (c *Cluster) Now() time.Duration { return c.eng.Now() }

// Kubelet is the kubelet of node, or nil.
func (c *Cluster) Kubelet(node string) *kubelet.Kubelet { return c.kubelets[node] }

// Kubelets are every node's kubelet, by node name.
func (c *Cluster) Kubelets() []*kubelet.Kubelet {
	var ks []*kubelet.Kubelet
	for _, name := range slices.Sorted(maps.Keys(c.kubelets)) {
		ks = append(ks, c.kubelets[name])
	}
	return ks
}

// NodeNames are the nodes' names, in the order they were built.
func (c *Cluster) NodeNames() []string {
	names := make([]string, 0, len(c.nodes))
	for _, n := range c.nodes {
		names = append(names, n.Name)
	}
	return names
}

// RolloutHistory is the Deployment's ReplicaSet sizes after every scaling.
func (c *Cluster) RolloutHistory(ns, name string) []controller.RolloutRow {
	return c.deploy.History[ns+"/"+name]
}

// MarkedUnknown is when the node controller marked node Unknown, if it did.
func (c *Cluster) MarkedUnknown(node string) (time.Duration, bool) {
	at, ok := c.nodeLife.Marked[node]
	return at, ok
}

// ClientProxy names the clients' kube-proxy (the first worker's, the one
// the simulator runs in full): its node and actor; ok is false when none runs.
func (c *Cluster) ClientProxy() (node, actor string, ok bool) {
	if c.proxy == nil {
		return "", "", false
	}
	return c.proxy.node, c.proxy.c.Actor, true
}

// RoutedIPs is how many endpoint IPs the clients' kube-proxy routed at its
// last sync.
func (c *Cluster) RoutedIPs() int {
	if c.proxy == nil {
		return 0
	}
	return c.proxy.routed
}

// OnRouteRemoved has f called when an IP leaves the clients' kube-proxy's
// rules.
func (c *Cluster) OnRouteRemoved(f func(ip string)) {
	if c.proxy != nil {
		c.proxy.onRemoved = f
	}
}

// Observer is an API client with its own identity that no component uses:
// a test watches through it to see what every watcher is handed.
func (c *Cluster) Observer(name string) *apiserver.Client {
	return c.api.NewClient(name, apiserver.Identity{User: name}, trace.PhaseController)
}

// PowerOff stops a node as a power loss does: its kubelet and its kube-proxy
// see nothing more and write nothing more (a sync already planned does not
// run). The API server still holds the node until the node lifecycle
// controller notices the missing heartbeats.
func (c *Cluster) PowerOff(node string) {
	if k := c.kubelets[node]; k != nil {
		k.Dead = true
	}
	if p := c.proxies[node]; p != nil {
		p.dead = true
	}
}

// SetCPULoad sets the CPU demand metrics-server reports for the pods l
// selects (Config.Autoscaling); a later call replaces it.
func (c *Cluster) SetCPULoad(l CPULoad) {
	if c.metrics != nil {
		c.metrics.load = &l
	}
}

// HPAHistory is every sync of the HorizontalPodAutoscaler ns/name so far
// (Config.Autoscaling).
func (c *Cluster) HPAHistory(ns, name string) []controller.HPASync {
	if c.hpa == nil {
		return nil
	}
	return c.hpa.History[ns+"/"+name]
}

// StoryStart is the virtual time the story began (the last Settle).
func (c *Cluster) StoryStart() time.Duration { return c.start }

// NeedsStatefulSets reports whether objs hold a StatefulSet, for
// Config.StatefulSets: the statefulset controller runs only then, so the
// other traces keep their watches and requests.
func NeedsStatefulSets(objs []manifest.Object) bool {
	for _, o := range objs {
		if _, ok := o.Obj.(*appsv1.StatefulSet); ok {
			return true
		}
	}
	return false
}

// NeedsVolumes reports whether objs use PersistentVolumeClaims (a claim,
// a StatefulSet's volumeClaimTemplates, a pod template's claim volume), for
// Config.Volumes: the default StorageClass, the PV controller and the
// provisioner exist only then, so the other traces keep their watches.
func NeedsVolumes(objs []manifest.Object) bool {
	for _, o := range objs {
		switch x := o.Obj.(type) {
		case *corev1.PersistentVolumeClaim:
			return true
		case *appsv1.StatefulSet:
			if len(x.Spec.VolumeClaimTemplates) > 0 {
				return true
			}
		}
		if spec := podSpecOf(o.Obj); spec != nil {
			for i := range spec.Volumes {
				if spec.Volumes[i].PersistentVolumeClaim != nil {
					return true
				}
			}
		}
	}
	return false
}

// OnCommit has f told every committed change after the state log is: the
// object as stored and whether it was deleted. A task grades what the
// cluster went through (the fewest pods available during a rollout), not
// only where it ended. f must not change the object.
func (c *Cluster) OnCommit(f func(obj runtime.Object, deleted bool)) {
	c.addCommitHook(func(ev apiserver.Event) { f(ev.Obj, ev.Type == apiserver.Deleted) })
}

// addCommitHook chains f after the API server's commit hooks already set
// (the state log, Config.OnCommit, a task's history), in that order.
func (c *Cluster) addCommitHook(f func(apiserver.Event)) {
	prev := c.api.OnCommit
	if prev == nil {
		c.api.OnCommit = f
		return
	}
	c.api.OnCommit = func(ev apiserver.Event) {
		prev(ev)
		f(ev)
	}
}
