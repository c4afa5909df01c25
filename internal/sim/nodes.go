package sim

import (
	"fmt"
	"net/netip"

	"github.com/k8sexplain/k8sexplain/internal/clip"
	"github.com/k8sexplain/k8sexplain/internal/manifest"
	corev1 "k8s.io/api/core/v1"
)

// WorkerNodes turns the kind: Node objects among objs into ready worker
// nodes (trace apply --cluster, or Nodes in the applied manifests): the
// hostname label the kubelet would set, allocatable from capacity when the
// manifest gives only capacity, and the Ready condition. Other objects are
// skipped.
func WorkerNodes(objs []manifest.Object) ([]*corev1.Node, error) {
	var nodes []*corev1.Node
	for _, o := range objs {
		n, ok := o.Obj.(*corev1.Node)
		if !ok {
			continue
		}
		// The API server's own rules for a Node (name, capacity and
		// allocatable quantities), with its message.
		if err := manifest.Validate(n); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", o.Pos.File, o.Pos.Line, err)
		}
		n = n.DeepCopy()
		if n.Labels == nil {
			n.Labels = map[string]string{}
		}
		if n.Labels["kubernetes.io/hostname"] == "" {
			n.Labels["kubernetes.io/hostname"] = n.Name
		}
		if len(n.Status.Allocatable) == 0 {
			n.Status.Allocatable = n.Status.Capacity.DeepCopy()
		}
		if len(n.Status.Allocatable) == 0 {
			return nil, fmt.Errorf("%s:%d: node %q has no status.capacity or status.allocatable", o.Pos.File, o.Pos.Line, n.Name)
		}
		n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}
		nodes = append(nodes, n)
	}
	if err := overlappingPodCIDRs(nodes); err != nil {
		return nil, err
	}
	return nodes, nil
}

// overlappingPodCIDRs refuses two nodes whose pod ranges overlap: their
// kubelets would give pods the same IPs. The API server accepts such
// Nodes, but the node IPAM controller never hands out overlapping ranges
// (pkg/controller/nodeipam/ipam/cidrset marks each range used), so a
// cluster that has them is broken, not a story to trace.
func overlappingPodCIDRs(nodes []*corev1.Node) error {
	type owned struct {
		node string
		p    netip.Prefix
	}
	var seen []owned
	for _, n := range nodes {
		p, err := netip.ParsePrefix(n.Spec.PodCIDR)
		if err != nil {
			continue // none, or checkNodes says what is wrong
		}
		p = p.Masked()
		for _, o := range seen {
			if o.p.Overlaps(p) {
				return fmt.Errorf("node %q: spec.podCIDR %s overlaps node %q's %s: pods on both would get the same IPs (the node IPAM controller never hands out overlapping ranges)",
					clip.Value(n.Name), p, clip.Value(o.node), o.p)
			}
		}
		seen = append(seen, owned{n.Name, p})
	}
	return nil
}
