package sim

import (
	"github.com/k8sexplain/k8sexplain/internal/sim/nodeset"
	corev1 "k8s.io/api/core/v1"
)

// The default nodes and their podCIDRs live in package nodeset, which the
// other models use without importing the cluster; these are its names here.
const (
	DefaultClusterCIDR      = nodeset.DefaultClusterCIDR
	DefaultNodeCIDRMaskSize = nodeset.DefaultNodeCIDRMaskSize
)

// DefaultNodes is nodeset.DefaultNodes.
func DefaultNodes(workers int, controlPlane bool) []*corev1.Node {
	return nodeset.DefaultNodes(workers, controlPlane)
}

// ClusterCIDRFor is nodeset.ClusterCIDRFor.
func ClusterCIDRFor(nodes int) string { return nodeset.ClusterCIDRFor(nodes) }

// AllocateNodeCIDRs is nodeset.AllocateNodeCIDRs.
func AllocateNodeCIDRs(nodes []*corev1.Node, clusterCIDR string, maskSize int) error {
	return nodeset.AllocateNodeCIDRs(nodes, clusterCIDR, maskSize)
}
