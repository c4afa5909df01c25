package scheduler

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Cluster is the scheduler's cache: one NodeInfo per node, in the order the
// scheduler walks them, plus the cluster-wide indexes that keep scoring O(1)
// per node (how many nodes hold each image, how many pods of each controller
// run in each zone). The simulator keeps it current from its watches.
type Cluster struct {
	byName map[string]*NodeInfo
	added  []*NodeInfo // insertion order
	order  []*NodeInfo // node-tree order, rebuilt when nodes change
	images map[string]int
	zones  map[ownerZone]int32
}

type ownerZone struct {
	uid  types.UID
	zone string
}

// NewCluster returns an empty cache.
func NewCluster() *Cluster {
	return &Cluster{
		byName: map[string]*NodeInfo{},
		images: map[string]int{},
		zones:  map[ownerZone]int32{},
	}
}

// Nodes returns the nodes in the order Filter walks them: zones interleaved
// round-robin, zones in first-seen order, nodes in insertion order within a
// zone (backend/cache/node_tree.go). The slice is shared; do not modify it.
func (c *Cluster) Nodes() []*NodeInfo { return c.order }

// Node returns the NodeInfo of the named node, or nil.
func (c *Cluster) Node(name string) *NodeInfo { return c.byName[name] }

// AddNode adds a node, or updates it when one with that name exists.
func (c *Cluster) AddNode(node *corev1.Node) *NodeInfo {
	if n := c.byName[node.Name]; n != nil {
		c.UpdateNode(node)
		return n
	}
	n := NewNodeInfo(node)
	n.c = c
	c.byName[node.Name] = n
	c.added = append(c.added, n)
	c.indexImages(n, 1)
	c.rebuildOrder()
	return n
}

// UpdateNode replaces the node object (labels, taints, allocatable, images,
// unschedulable) and keeps its pods.
func (c *Cluster) UpdateNode(node *corev1.Node) {
	n := c.byName[node.Name]
	if n == nil {
		c.AddNode(node)
		return
	}
	c.indexImages(n, -1)
	c.indexZone(n, -1)
	oldZone, oldHas := n.zone, n.hasZ
	n.setNode(node)
	c.indexImages(n, 1)
	c.indexZone(n, 1)
	if oldZone != n.zone || oldHas != n.hasZ {
		c.rebuildOrder()
	}
}

// RemoveNode forgets a node and the pods on it.
func (c *Cluster) RemoveNode(name string) {
	n := c.byName[name]
	if n == nil {
		return
	}
	c.indexImages(n, -1)
	c.indexZone(n, -1)
	n.c = nil
	delete(c.byName, name)
	for i, m := range c.added {
		if m == n {
			c.added = append(c.added[:i], c.added[i+1:]...)
			break
		}
	}
	c.rebuildOrder()
}

// AddPod accounts for a pod bound (or assumed) to pod.Spec.NodeName.
func (c *Cluster) AddPod(pod *corev1.Pod) error {
	n := c.byName[pod.Spec.NodeName]
	if n == nil {
		return fmt.Errorf("add pod %s/%s: node %q not found", pod.Namespace, pod.Name, pod.Spec.NodeName)
	}
	n.AddPod(pod)
	return nil
}

// RemovePod forgets a pod (deleted, or its binding failed).
func (c *Cluster) RemovePod(pod *corev1.Pod) {
	if n := c.byName[pod.Spec.NodeName]; n != nil {
		n.RemovePod(pod)
	}
}

// UpdatePod replaces old with new (e.g. when the pod starts terminating, it
// stops counting for topology spreading but keeps its resources).
func (c *Cluster) UpdatePod(old, new *corev1.Pod) {
	c.RemovePod(old)
	if new.Spec.NodeName != "" {
		_ = c.AddPod(new)
	}
}

// imageNodes returns how many nodes report the (normalised) image.
func (c *Cluster) imageNodes(name string) int { return c.images[name] }

// zonePods returns how many live pods of controller uid run in zone.
func (c *Cluster) zonePods(uid types.UID, zone string) int32 {
	return c.zones[ownerZone{uid, zone}]
}

func (c *Cluster) addZoneCount(uid types.UID, zone string, d int32) {
	k := ownerZone{uid, zone}
	c.zones[k] += d
	if c.zones[k] <= 0 {
		delete(c.zones, k)
	}
}

func (c *Cluster) indexImages(n *NodeInfo, d int) {
	for name := range n.images {
		c.images[name] += d
		if c.images[name] <= 0 {
			delete(c.images, name)
		}
	}
}

func (c *Cluster) indexZone(n *NodeInfo, d int32) {
	if !n.hasZ {
		return
	}
	for uid, cnt := range n.owners {
		c.addZoneCount(uid, n.zone, d*cnt)
	}
}

// rebuildOrder interleaves the zones round-robin like node_tree.go's list().
func (c *Cluster) rebuildOrder() {
	var zoneNames []string
	byZone := map[string][]*NodeInfo{}
	for _, n := range c.added {
		z := zoneKey(n.Node)
		if _, ok := byZone[z]; !ok {
			zoneNames = append(zoneNames, z)
		}
		byZone[z] = append(byZone[z], n)
	}
	c.order = c.order[:0]
	for i := 0; len(c.order) < len(c.added); i++ {
		for _, z := range zoneNames {
			if ns := byZone[z]; i < len(ns) {
				c.order = append(c.order, ns[i])
			}
		}
	}
}

// zoneKey is region and zone together, "" when the node has neither
// (k8s.io/component-helpers/node/topology GetZoneKey).
func zoneKey(node *corev1.Node) string {
	region, zone := node.Labels[corev1.LabelTopologyRegion], node.Labels[corev1.LabelTopologyZone]
	if region == "" && zone == "" {
		return ""
	}
	return region + ":\x00:" + zone
}
