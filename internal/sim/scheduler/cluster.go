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
	zones  []string               // node tree: zones in first-seen order
	tree   map[string][]*NodeInfo // zone key → nodes in insertion order
	order  []*NodeInfo            // the tree flattened, rebuilt when nodes change
	images map[string]int
	// zone IDs: zone label value → small int, so a cycle counts per zone in
	// a slice; IDs are never reused.
	zoneIDs   map[string]int32
	zoneNames []string
	counts    map[ownerZone]int32
	// owners: controller UID → nodes running its live pods → how many. A
	// cycle reads one small map, which stays in cache across the nodes.
	owners map[types.UID]map[*NodeInfo]int32
	// slots gives each node a dense index for per-cycle scratch arrays;
	// freed slots are reused.
	slots     []*NodeInfo
	freeSlots []int32
	// imageSlots: for images a pod has asked about, the size each node
	// holds, by slot (0: not there); kept current once built.
	imageSlots map[string][]int64
	// ownerSlots: for controllers spread over many nodes, owners[uid] by
	// node slot, built on first use and kept current, so a cycle reads a
	// dense array instead of a large map.
	ownerSlots map[types.UID][]int32
	// affinityPods are the bound pods with pod affinity or anti-affinity.
	affinityPods map[*corev1.Pod]*affinityEntry
}

type ownerZone struct {
	uid  types.UID
	zone string
}

// NewCluster returns an empty cache.
func NewCluster() *Cluster {
	return &Cluster{
		byName:     map[string]*NodeInfo{},
		tree:       map[string][]*NodeInfo{},
		images:     map[string]int{},
		zoneIDs:    map[string]int32{},
		counts:     map[ownerZone]int32{},
		owners:     map[types.UID]map[*NodeInfo]int32{},
		imageSlots: map[string][]int64{},
		ownerSlots: map[types.UID][]int32{},

		affinityPods: map[*corev1.Pod]*affinityEntry{},
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
	c.assignZoneID(n)
	if k := len(c.freeSlots); k > 0 {
		n.slot = c.freeSlots[k-1]
		c.freeSlots = c.freeSlots[:k-1]
		c.slots[n.slot] = n
	} else {
		n.slot = int32(len(c.slots))
		c.slots = append(c.slots, n)
	}
	c.byName[node.Name] = n
	c.treeAdd(n)
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
	oldKey := zoneKey(n.Node)
	if n.hasZ {
		c.indexZone(n, -1)
	}
	n.setNode(node)
	c.assignZoneID(n)
	c.indexImages(n, 1)
	if n.hasZ {
		c.indexZone(n, 1)
	}
	if zoneKey(node) != oldKey { // moves to the end of its new zone, as node_tree.go
		c.treeRemove(n, oldKey)
		c.treeAdd(n)
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
	for uid, cnt := range n.owners {
		c.addOwnerCount(uid, n, -cnt)
	}
	n.c = nil
	c.slots[n.slot] = nil
	c.freeSlots = append(c.freeSlots, n.slot)
	delete(c.byName, name)
	c.treeRemove(n, zoneKey(n.Node))
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

// AssumePod accounts for a pod the scheduler has just placed on node, before
// its binding lands (upstream's cache.AssumePod), and returns where the pod
// now sits. The pod is the informer's unbound object itself: nothing in the
// cache reads a cached pod's spec.nodeName (a NodeInfo knows its node), so
// no copy with nodeName set is made. The binding's update then replaces it
// (UpdatePodAt).
func (c *Cluster) AssumePod(pod *corev1.Pod, node string) (PodRef, error) {
	n := c.byName[node]
	if n == nil {
		return PodRef{}, fmt.Errorf("assume pod %s/%s: node %q not found", pod.Namespace, pod.Name, node)
	}
	return n.addRef(pod), nil
}

// ForgetPod forgets a pod assumed on node whose binding failed
// (upstream's cache.ForgetPod).
func (c *Cluster) ForgetPod(pod *corev1.Pod, node string) {
	if n := c.byName[node]; n != nil {
		n.RemovePod(pod)
	}
}

// RemovePod forgets a pod (deleted, or its binding failed).
func (c *Cluster) RemovePod(pod *corev1.Pod) {
	if n := c.byName[pod.Spec.NodeName]; n != nil {
		n.RemovePod(pod)
	}
}

// UpdatePod replaces old with new (e.g. when the pod starts terminating, it
// stops counting for topology spreading but keeps its resources), as
// upstream's cache does on every update of a bound pod
// (pkg/scheduler/backend/cache/cache.go updatePod; an assumed pod is
// replaced by the informer's when its binding is confirmed, AddPod there).
// Most updates are status writes that change nothing the plugins count:
// then only the cached pointer moves to the new object, and the previous
// version, or the assumed copy, is no longer held.
func (c *Cluster) UpdatePod(old, new *corev1.Pod) { c.UpdatePodAt(PodRef{}, old, new) }

// PodRef says where a cached pod sits: its node's slot and its position in
// the node's Pods plus one (the zero PodRef says nothing). It is a hint,
// checked before use (RemovePod moves another pod into a hole), that lets
// an update skip the node-name and pod-UID map lookups. It holds no
// pointer, so a map of them costs the collector nothing to scan.
type PodRef struct{ slot, pos int32 }

// AddPodAt is AddPod, and returns where the pod now sits.
func (c *Cluster) AddPodAt(pod *corev1.Pod) (PodRef, error) {
	n := c.byName[pod.Spec.NodeName]
	if n == nil {
		return PodRef{}, c.AddPod(pod)
	}
	return n.addRef(pod), nil
}

// UpdatePodAt is UpdatePod for a pod last seen at ref, and returns where
// the new version sits (the zero PodRef when not known).
func (c *Cluster) UpdatePodAt(ref PodRef, old, new *corev1.Pod) PodRef {
	if n, i := c.at(ref, new); n != nil {
		if n.replaceAt(i, new) {
			return ref
		}
	} else if n := c.byName[new.Spec.NodeName]; n != nil {
		if i, ok := n.index[podKey(new)]; ok && n.replaceAt(i, new) {
			return PodRef{n.slot, int32(i) + 1}
		}
	}
	c.RemovePod(old)
	if new.Spec.NodeName != "" {
		ref, _ = c.AddPodAt(new)
		return ref
	}
	return PodRef{}
}

// at returns the node and position ref points at when the pod cached
// there is p (same UID) on p's node, else nil.
func (c *Cluster) at(ref PodRef, p *corev1.Pod) (*NodeInfo, int) {
	i := int(ref.pos) - 1
	if i < 0 || p.UID == "" || int(ref.slot) >= len(c.slots) {
		return nil, 0
	}
	n := c.slots[ref.slot]
	if n == nil || i >= len(n.Pods) || n.Pods[i].UID != p.UID || n.name != p.Spec.NodeName {
		return nil, 0
	}
	return n, i
}

func (c *Cluster) assignZoneID(n *NodeInfo) {
	n.zoneID = -1
	if !n.hasZ {
		return
	}
	id, ok := c.zoneIDs[n.zone]
	if !ok {
		id = int32(len(c.zoneNames))
		c.zoneIDs[n.zone] = id
		c.zoneNames = append(c.zoneNames, n.zone)
	}
	n.zoneID = id
}

// imageNodes returns how many nodes report the (normalised) image.
func (c *Cluster) imageNodes(name string) int { return c.images[name] }

// zonePods returns how many live pods of controller uid run in zone.
func (c *Cluster) zonePods(uid types.UID, zone string) int32 {
	return c.counts[ownerZone{uid, zone}]
}

func (c *Cluster) addOwnerCount(uid types.UID, n *NodeInfo, d int32) {
	m := c.owners[uid]
	if m == nil {
		m = map[*NodeInfo]int32{}
		c.owners[uid] = m
	}
	m[n] += d
	if arr, ok := c.ownerSlots[uid]; ok {
		for int(n.slot) >= len(arr) {
			arr = append(arr, 0)
		}
		arr[n.slot] = m[n]
		c.ownerSlots[uid] = arr
	}
	if m[n] <= 0 {
		delete(m, n)
		if len(m) == 0 {
			delete(c.owners, uid)
			delete(c.ownerSlots, uid)
		}
	}
	if n.hasZ {
		c.addZoneCount(uid, n.zone, d)
	}
}

func (c *Cluster) addZoneCount(uid types.UID, zone string, d int32) {
	k := ownerZone{uid, zone}
	c.counts[k] += d
	if c.counts[k] <= 0 {
		delete(c.counts, k)
	}
}

func (c *Cluster) indexImages(n *NodeInfo, d int) {
	for name, size := range n.images {
		c.images[name] += d
		if c.images[name] <= 0 {
			delete(c.images, name)
		}
		if arr, ok := c.imageSlots[name]; ok {
			if d < 0 {
				size = 0
			}
			c.imageSlots[name] = setSlot(arr, n.slot, size)
		}
	}
}

// ownerCounts returns the live pods of controller uid by node slot,
// building the index the first time.
func (c *Cluster) ownerCounts(uid types.UID) []int32 {
	arr, ok := c.ownerSlots[uid]
	if !ok {
		arr = make([]int32, len(c.slots))
		for n, cnt := range c.owners[uid] {
			arr[n.slot] = cnt
		}
		c.ownerSlots[uid] = arr
	}
	return arr
}

// imageSizes returns the per-slot sizes of an image, building the index the
// first time a pod asks for that image.
func (c *Cluster) imageSizes(name string) []int64 {
	arr, ok := c.imageSlots[name]
	if !ok {
		arr = make([]int64, len(c.slots))
		for _, n := range c.slots {
			if n != nil {
				arr[n.slot] = n.images[name]
			}
		}
		c.imageSlots[name] = arr
	}
	return arr
}

func setSlot(arr []int64, slot int32, v int64) []int64 {
	for int(slot) >= len(arr) {
		arr = append(arr, 0)
	}
	arr[slot] = v
	return arr
}

func (c *Cluster) indexZone(n *NodeInfo, d int32) {
	if !n.hasZ {
		return
	}
	for uid, cnt := range n.owners {
		c.addZoneCount(uid, n.zone, d*cnt)
	}
}

func (c *Cluster) treeAdd(n *NodeInfo) {
	k := zoneKey(n.Node)
	if _, ok := c.tree[k]; !ok {
		c.zones = append(c.zones, k)
	}
	c.tree[k] = append(c.tree[k], n)
}

func (c *Cluster) treeRemove(n *NodeInfo, k string) {
	list := c.tree[k]
	for i, m := range list {
		if m == n {
			list = append(list[:i], list[i+1:]...)
			break
		}
	}
	if len(list) > 0 {
		c.tree[k] = list
		return
	}
	delete(c.tree, k)
	for i, z := range c.zones {
		if z == k {
			c.zones = append(c.zones[:i], c.zones[i+1:]...)
			break
		}
	}
}

// rebuildOrder interleaves the zones round-robin like node_tree.go's list().
func (c *Cluster) rebuildOrder() {
	c.order = c.order[:0]
	for i := 0; len(c.order) < len(c.byName); i++ {
		for _, z := range c.zones {
			if ns := c.tree[z]; i < len(ns) {
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
