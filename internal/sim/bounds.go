package sim

import (
	"fmt"
	"math"
	"net/netip"
	"sort"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/clip"
	"github.com/k8sexplain/k8sexplain/internal/l10n"
	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/sim/scheduler"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Scale bounds of a simulation, from Kubernetes' own limits
// (kubernetes.io/docs/setup/best-practices/cluster-large, "Considerations
// for large clusters": at most 110 pods per node, 5,000 nodes, 150,000 pods
// in total and 300,000 containers in total). A manifest past them is
// refused before anything is simulated; below them memory grows with what
// is simulated (about 25 KB per pod).
const (
	// MaxPods is the most pods a run may create, cluster-wide.
	MaxPods = 150_000
	// MaxContainers is the most containers (init containers included).
	MaxContainers = 300_000
	// MaxNodes is the most worker nodes (--nodes or kind: Node objects).
	MaxNodes = 10_000
	// MaxPending is how many pods beyond what the nodes can hold (their
	// allocatable pods, 110 each by default) a run may leave Pending: enough
	// for the "Too many pods" story, not a billion objects nobody can place.
	MaxPending = 1_000
)

// podDemand is what one object asks the cluster to run.
type podDemand struct {
	where, kind, name string
	pods, containers  int64
	surge             int64 // pods above replicas during a rolling update
	spec              *corev1.PodSpec
}

// demands lists what each workload object asks for; rollout counts the
// maxSurge pods a rolling update adds on top of spec.replicas.
func demands(objs []manifest.Object, rollout bool) []podDemand {
	var out []podDemand
	for _, o := range objs {
		d := podDemand{where: fmt.Sprintf("%s:%d", o.Pos.File, o.Pos.Line), kind: o.Kind, name: o.Name}
		var spec *corev1.PodSpec
		switch obj := o.Obj.(type) {
		case *corev1.Pod:
			d.pods, spec = 1, &obj.Spec
		case *appsv1.ReplicaSet:
			d.pods, spec = replicas(obj.Spec.Replicas), &obj.Spec.Template.Spec
		case *appsv1.Deployment:
			d.pods, spec = replicas(obj.Spec.Replicas), &obj.Spec.Template.Spec
			if rollout && d.pods <= MaxPods { // past the limit the replicas alone say it
				d.surge = surge(obj, d.pods)
			}
		default:
			continue
		}
		d.containers = (d.pods + d.surge) * int64(len(spec.Containers)+len(spec.InitContainers))
		d.spec = spec
		out = append(out, d)
	}
	return out
}

func replicas(r *int32) int64 {
	if r == nil {
		return 1 // the API server's default
	}
	return int64(max(*r, 0))
}

// surge resolves maxSurge as the Deployment controller does (percentages
// round up; default 25%) for a RollingUpdate Deployment.
func surge(d *appsv1.Deployment, replicas int64) int64 {
	if d.Spec.Strategy.Type == appsv1.RecreateDeploymentStrategyType {
		return 0
	}
	v := intstr.FromString("25%")
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil && ru.MaxSurge != nil {
		v = *ru.MaxSurge
	}
	n, err := intstr.GetScaledValueFromIntOrPercent(&v, int(replicas), true)
	if err != nil || n < 0 {
		return 0
	}
	return int64(n)
}

// CheckScale refuses, before simulating, manifests that ask for more than
// the bounds above on this cluster's nodes. rollout adds each Deployment's
// maxSurge (trace rollout).
func (c *Cluster) CheckScale(objs []manifest.Object, rollout bool) error {
	ds := demands(objs, rollout)
	var pods, containers int64
	var biggest podDemand
	for _, d := range ds {
		pods += d.pods + d.surge
		containers += d.containers
		if d.pods+d.surge > biggest.pods+biggest.surge {
			biggest = d
		}
	}
	asks := func(d podDemand) string {
		s := fmt.Sprintf("%s: %s %q asks for %s pods", d.where, d.kind, clip.Value(d.name), l10n.Int("en", d.pods+d.surge))
		if d.kind != "Pod" {
			s += " (spec.replicas)"
			if d.surge > 0 {
				s = fmt.Sprintf("%s: %s %q asks for %s pods (spec.replicas %s + maxSurge %s during the rollout)", d.where, d.kind, clip.Value(d.name),
					l10n.Int("en", d.pods+d.surge), l10n.Int("en", d.pods), l10n.Int("en", d.surge))
			}
		}
		return s
	}
	switch {
	case pods > MaxPods && biggest.pods+biggest.surge > MaxPods:
		return fmt.Errorf("%s: more than the %s pods per cluster Kubernetes supports (kubernetes.io/docs/setup/best-practices/cluster-large), the most k8sexplain simulates",
			asks(biggest), l10n.Int("en", MaxPods))
	case pods > MaxPods:
		return fmt.Errorf("the manifests ask for %s pods in all (the largest, %s): more than the %s pods per cluster Kubernetes supports (kubernetes.io/docs/setup/best-practices/cluster-large), the most k8sexplain simulates",
			l10n.Int("en", pods), asks(biggest), l10n.Int("en", MaxPods))
	case containers > MaxContainers:
		return fmt.Errorf("the manifests ask for %s containers in all: more than the %s containers per cluster Kubernetes supports (kubernetes.io/docs/setup/best-practices/cluster-large), the most k8sexplain simulates",
			l10n.Int("en", containers), l10n.Int("en", MaxContainers))
	}
	capacity, perNode := c.podCapacity()
	if pods > capacity+MaxPending {
		need := (pods + perNode - 1) / perNode
		return fmt.Errorf("%s, but the %d nodes hold at most %s pods (their allocatable pods: %d per node by default, the kubelet's --max-pods), so %s would stay Pending (\"Too many pods\"); k8sexplain leaves at most %s pods Pending: run it on about %d nodes (--nodes), or with fewer replicas",
			asks(biggest), len(c.nodes), l10n.Int("en", capacity), DefaultMaxPods, l10n.Int("en", pods-capacity), l10n.Int("en", MaxPending), need)
	}
	// Pods that do not fit by their requests stay Pending too
	// ("Insufficient cpu"): the same allowance holds (issue 29: 150,000
	// replicas of 8 CPUs left 128,176 Pending).
	for _, d := range ds {
		want := d.pods + d.surge
		if want <= MaxPending || d.spec == nil {
			continue
		}
		req := podRequests(d.spec)
		fit := c.fitCount(d.spec, req)
		switch {
		case want <= fit+MaxPending:
		case len(req) == 0 || fit == c.fitCount(d.spec, nil):
			return fmt.Errorf("%s, but the nodes it may run on (schedulable, their taints tolerated) hold at most %s of them; k8sexplain leaves at most %s pods Pending: run it on more nodes (--nodes) or with fewer replicas",
				asks(d), l10n.Int("en", fit), l10n.Int("en", MaxPending))
		default:
			return fmt.Errorf("%s, but each pod requests %s, so the nodes it may run on fit at most %s of them (\"Insufficient ...\"); k8sexplain leaves at most %s pods Pending: run it on more nodes (--nodes), with smaller requests or with fewer replicas",
				asks(d), describeRequests(req), l10n.Int("en", fit), l10n.Int("en", MaxPending))
		}
	}
	return nil
}

// podRequests is what one pod of spec asks the scheduler for, per resource
// with a non-zero request, in the milli-units fitCount divides: the
// scheduler's own PodRequests (sidecars counted as running beside the later
// init containers and the regular ones, and pod overhead, as
// k8s.io/component-helpers/resource PodRequests in v1.37).
func podRequests(spec *corev1.PodSpec) map[corev1.ResourceName]int64 {
	r := scheduler.PodRequests(&corev1.Pod{Spec: *spec}, false)
	out := map[corev1.ResourceName]int64{}
	put := func(name corev1.ResourceName, milli int64) {
		if milli > 0 {
			out[name] = milli
		}
	}
	put(corev1.ResourceCPU, r.MilliCPU)
	put(corev1.ResourceMemory, r.Memory*1000)
	put(corev1.ResourceEphemeralStorage, r.EphemeralStorage*1000)
	for name, v := range r.Scalar {
		put(name, v*1000)
	}
	return out
}

// describeRequests writes requests as "cpu 8, memory 16Gi" in name order.
func describeRequests(req map[corev1.ResourceName]int64) string {
	names := make([]string, 0, len(req))
	for r := range req {
		names = append(names, string(r))
	}
	sort.Strings(names)
	for i, n := range names {
		q := resource.NewMilliQuantity(req[corev1.ResourceName(n)], resource.DecimalSI)
		if n == string(corev1.ResourceMemory) || n == string(corev1.ResourceEphemeralStorage) {
			q = resource.NewQuantity(q.Value(), resource.BinarySI)
		}
		names[i] = n + " " + q.String()
	}
	return strings.Join(names, ", ")
}

// fitCount is an upper bound of how many pods of spec the nodes hold: per
// node that accepts them (schedulable, every NoSchedule/NoExecute taint
// tolerated), the fewest that fit by any requested resource or by its
// allocatable pods. Other pods, node selectors and affinity only lower it.
func (c *Cluster) fitCount(spec *corev1.PodSpec, req map[corev1.ResourceName]int64) int64 {
	var total int64
	for _, n := range c.nodes {
		if n.Spec.Unschedulable || !toleratesAll(spec.Tolerations, n.Spec.Taints) {
			continue
		}
		fit := int64(math.MaxInt64)
		if q, ok := n.Status.Allocatable[corev1.ResourcePods]; ok {
			fit = q.Value()
		}
		for r, v := range req {
			q := n.Status.Allocatable[r]
			fit = min(fit, q.MilliValue()/v)
		}
		total += max(fit, 0)
	}
	return total
}

// toleratesAll: every taint that keeps pods off (NoSchedule, NoExecute) is
// tolerated.
func toleratesAll(tols []corev1.Toleration, taints []corev1.Taint) bool {
	for i := range taints {
		if taints[i].Effect != corev1.TaintEffectPreferNoSchedule && !scheduler.ToleratedBy(tols, &taints[i]) {
			return false
		}
	}
	return true
}

// DefaultMaxPods is the kubelet's default --max-pods.
const DefaultMaxPods = 110

// podCapacity sums the allocatable pods of the nodes that accept pods and
// returns the typical per-node figure (for advice).
func (c *Cluster) podCapacity() (total, perNode int64) {
	perNode = DefaultMaxPods
	for _, n := range c.nodes {
		if n.Spec.Unschedulable {
			continue
		}
		q, ok := n.Status.Allocatable[corev1.ResourcePods]
		if !ok {
			continue
		}
		v := q.Value()
		if v > 0 {
			total += v
			perNode = v
		}
	}
	return total, max(perNode, 1)
}

// checkNodes refuses nodes the simulator cannot run: too many, or a pod
// network that is not IPv4. Pod IPs come from the node's podCIDR; the
// simulator models an IPv4 single-stack cluster (kubeadm's default), so an
// IPv6 or dual-stack podCIDR is refused with a message rather than
// half-simulated.
func checkNodes(nodes []*corev1.Node) error {
	if len(nodes) > MaxNodes+1 {
		return tooManyNodes(len(nodes))
	}
	for _, n := range nodes {
		cidrs := n.Spec.PodCIDRs
		if n.Spec.PodCIDR != "" && (len(cidrs) == 0 || cidrs[0] != n.Spec.PodCIDR) {
			cidrs = append([]string{n.Spec.PodCIDR}, cidrs...)
		}
		for _, s := range cidrs {
			p, err := netip.ParsePrefix(s)
			if err != nil {
				return fmt.Errorf("node %q: spec.podCIDR %q is not a CIDR (e.g. 10.244.1.0/24)", clip.Value(n.Name), clip.Value(s))
			}
			if !p.Addr().Is4() {
				return fmt.Errorf("node %q: spec.podCIDR %q is IPv6: k8sexplain simulates an IPv4 single-stack cluster (kubeadm's default), so IPv6 and dual-stack pod networks are not modelled; give the node an IPv4 podCIDR such as 10.244.1.0/24", clip.Value(n.Name), s)
			}
		}
		if len(cidrs) > 1 {
			return fmt.Errorf("node %q: spec.podCIDRs %v: k8sexplain simulates an IPv4 single-stack cluster, one podCIDR per node", clip.Value(n.Name), cidrs)
		}
	}
	return nil
}

// tooManyNodes refuses n nodes past MaxNodes.
func tooManyNodes(n int) error {
	return fmt.Errorf("%s nodes: k8sexplain simulates at most %s (Kubernetes supports 5,000 per cluster)", l10n.Int("en", int64(n)), l10n.Int("en", MaxNodes))
}
