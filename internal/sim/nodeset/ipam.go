package nodeset

import (
	"fmt"
	"math/big"
	"net"

	corev1 "k8s.io/api/core/v1"
)

// Node CIDRs are handed out as kube-controller-manager's node-ipam
// controller does with --allocate-node-cidrs (pkg/controller/nodeipam,
// range allocator over a cidrset): the cluster CIDR (--cluster-cidr) is cut
// into blocks of --node-cidr-mask-size (24 by default for IPv4), podCIDRs a
// node already has are marked used, and every other node gets the next free
// block in order. When none is left the node gets no podCIDR (its
// CIDRNotAvailable event) — here the run refuses to start.
const (
	DefaultClusterCIDR      = "10.244.0.0/16" // flannel's, the kubeadm docs' --pod-network-cidr
	DefaultNodeCIDRMaskSize = 24
)

// ClusterCIDRFor is the cluster CIDR used when none is given: 10.244.0.0/16,
// or for a cluster of more nodes than its 256 blocks of /24 the smallest
// wider block around it that fits them all (10.240.0.0/12 for 4096, up to
// 10.192.0.0/10), as whoever sized a cluster that large would have chosen.
func ClusterCIDRFor(nodes int) string {
	prefix := 16
	for prefix > 10 && 1<<(DefaultNodeCIDRMaskSize-prefix) < nodes {
		prefix--
	}
	ip := net.IPv4(10, 244, 0, 0).Mask(net.CIDRMask(prefix, 32))
	return fmt.Sprintf("%s/%d", ip, prefix)
}

// AllocateNodeCIDRs gives every node without spec.podCIDR the next free
// block of the cluster CIDR, and checks that each node's podCIDR can hold
// its maxPods (status.allocatable pods), so that pod IPs never repeat.
func AllocateNodeCIDRs(nodes []*corev1.Node, clusterCIDR string, maskSize int) error {
	_, cluster, err := net.ParseCIDR(clusterCIDR)
	if err != nil || cluster.IP.To4() == nil {
		return fmt.Errorf("invalid cluster CIDR %q: want an IPv4 CIDR such as %s", clusterCIDR, DefaultClusterCIDR)
	}
	ones, _ := cluster.Mask.Size()
	if maskSize < ones || maskSize > 30 {
		return fmt.Errorf("invalid --node-cidr-mask-size %d: want %d (the cluster CIDR's prefix) to 30", maskSize, ones)
	}
	total := 1 << (maskSize - ones)
	used := map[int]bool{}
	base := new(big.Int).SetBytes(cluster.IP.To4()).Int64()
	block := int64(1) << (32 - maskSize)
	index := func(cidr *net.IPNet) (int, bool) {
		if !cluster.Contains(cidr.IP) {
			return 0, false
		}
		return int((new(big.Int).SetBytes(cidr.IP.To4()).Int64() - base) / block), true
	}
	for _, n := range nodes {
		if n.Spec.PodCIDR == "" {
			continue
		}
		_, c, err := net.ParseCIDR(n.Spec.PodCIDR)
		if err != nil {
			return fmt.Errorf("node %s: invalid podCIDR %q", n.Name, n.Spec.PodCIDR)
		}
		if i, ok := index(c); ok {
			used[i] = true // occupied, as the allocator's occupyCIDRs does on start
		}
	}
	next := 0
	for _, n := range nodes {
		if n.Spec.PodCIDR != "" {
			continue
		}
		for next < total && used[next] {
			next++
		}
		if next >= total {
			return fmt.Errorf("cluster CIDR %s is exhausted: it holds %d node CIDRs of /%d and the cluster has %d nodes "+
				"(node-ipam: CIDR allocation failed; there are no remaining CIDRs left to allocate in the accepted range); "+
				"give a wider --cluster-cidr or a longer --node-cidr-mask-size", clusterCIDR, total, maskSize, len(nodes))
		}
		v := base + int64(next)*block
		n.Spec.PodCIDR = fmt.Sprintf("%s/%d", net.IPv4(byte(v>>24), byte(v>>16), byte(v>>8), byte(v)), maskSize)
		n.Spec.PodCIDRs = []string{n.Spec.PodCIDR}
		used[next] = true
	}
	for _, n := range nodes {
		_, c, _ := net.ParseCIDR(n.Spec.PodCIDR)
		mo, bits := c.Mask.Size()
		// host-local IPAM: not the network address, the gateway (.1) or
		// the broadcast address.
		room := int64(1)<<(bits-mo) - 3
		pods := n.Status.Allocatable[corev1.ResourcePods]
		if max := pods.Value(); max > room {
			return fmt.Errorf("node %s: podCIDR %s has %d pod IPs, fewer than its maxPods %d: pod IPs would repeat (give a shorter --node-cidr-mask-size)",
				n.Name, n.Spec.PodCIDR, room, max)
		}
	}
	return nil
}
