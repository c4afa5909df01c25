package sim

import (
	"strings"
	"testing"
)

// node-ipam hands out blocks in order, keeps podCIDRs nodes already have,
// widens the default cluster CIDR for large clusters and says clearly when
// the cluster CIDR is full or a podCIDR cannot hold maxPods.
func TestNodeCIDRs(t *testing.T) {
	nodes := DefaultNodes(3, true)
	nodes[2].Spec.PodCIDR = "10.244.1.0/24" // node-b brings its own: node-a and node-c skip it
	if err := AllocateNodeCIDRs(nodes, DefaultClusterCIDR, 24); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range nodes {
		got = append(got, n.Spec.PodCIDR)
	}
	if want := "10.244.0.0/24 10.244.2.0/24 10.244.1.0/24 10.244.3.0/24"; strings.Join(got, " ") != want {
		t.Errorf("podCIDRs %q, want %q", strings.Join(got, " "), want)
	}
	for n, want := range map[int]string{3: "10.244.0.0/16", 256: "10.244.0.0/16", 257: "10.244.0.0/15", 3073: "10.240.0.0/12", 10001: "10.192.0.0/10"} {
		if got := ClusterCIDRFor(n); got != want {
			t.Errorf("ClusterCIDRFor(%d) = %s, want %s", n, got, want)
		}
	}
	// --nodes 3072 (3073 nodes with the control plane) works with the default.
	big := DefaultNodes(3072, true)
	if err := AllocateNodeCIDRs(big, ClusterCIDRFor(len(big)), 24); err != nil {
		t.Fatal(err)
	}
	if last := big[len(big)-1].Spec.PodCIDR; last != "10.252.0.0/24" {
		t.Errorf("node 3073 got %s, want 10.252.0.0/24", last)
	}
	err := AllocateNodeCIDRs(DefaultNodes(300, true), DefaultClusterCIDR, 24)
	if err == nil || !strings.Contains(err.Error(), "cluster CIDR 10.244.0.0/16 is exhausted: it holds 256 node CIDRs of /24 and the cluster has 301 nodes") {
		t.Errorf("exhausted: %v", err)
	}
	err = AllocateNodeCIDRs(DefaultNodes(1, false), DefaultClusterCIDR, 26)
	if err == nil || !strings.Contains(err.Error(), "has 61 pod IPs, fewer than its maxPods 110") {
		t.Errorf("maxPods: %v", err)
	}
}
