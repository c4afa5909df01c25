package scheduler

import (
	"maps"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
)

// NodeInfo is the scheduler's cached view of one node: the node object, the
// pods bound (or assumed) there, and the sums the plugins need, kept current
// incrementally so Filter and Score are O(1) per node
// (pkg/scheduler/framework/types.go NodeInfo).
type NodeInfo struct {
	// Hot fields first, copied from Node, so that Filter and Score touch
	// few cache lines and do not chase the Node pointer.
	name    string
	taints  []corev1.Taint
	taintSt []*Status // TaintToleration's rejection per taint, built on first use
	unsched bool
	hasZ    bool  // the node has the topology.kubernetes.io/zone label
	hasH    bool  // the node has the kubernetes.io/hostname label
	zoneID  int32 // the Cluster's ID of zone; -1 without the label
	slot    int32 // the Cluster's dense index of this node
	// balance caches BalancedAllocation's cpu/memory score of the node as
	// it is (S_without); balanceOK is cleared when pods or allocatable change.
	balance   int64
	balanceOK bool

	// Pods bound to the node. Order is not meaningful: RemovePod swaps the
	// last pod into the hole.
	Pods []*corev1.Pod

	Allocatable Resource
	// Requested sums the pods' actual requests (Fit's Filter, BalancedAllocation).
	Requested Resource
	// NonZeroRequested sums the requests with the 100m / 200Mi defaults
	// applied to containers that set none (LeastAllocated).
	NonZeroRequested Resource

	Node *corev1.Node

	zone   string              // zone label value
	host   string              // hostname label value
	index  map[string]int      // pod key → position in Pods
	ports  map[hostPort]int    // host ports in use, by exact ip
	anyIP  map[protoPort]int   // host ports in use, by protocol/port on any ip
	images map[string]int64    // normalised image name → size in bytes
	owners map[types.UID]int32 // live pods per controller (first ownerReference)
	c      *Cluster            // nil for a NodeInfo outside a Cluster
}

type protoPort struct {
	proto corev1.Protocol
	port  int32
}

type hostPort struct {
	ip string
	protoPort
}

// NewNodeInfo returns an empty NodeInfo for node.
func NewNodeInfo(node *corev1.Node) *NodeInfo {
	n := &NodeInfo{
		index:  map[string]int{},
		ports:  map[hostPort]int{},
		anyIP:  map[protoPort]int{},
		owners: map[types.UID]int32{},
		zoneID: -1,
	}
	n.setNode(node)
	return n
}

// Name returns the node's name.
func (n *NodeInfo) Name() string { return n.name }

func (n *NodeInfo) setNode(node *corev1.Node) {
	n.Node = node
	n.balanceOK = false
	n.name, n.unsched, n.taints, n.taintSt = node.Name, node.Spec.Unschedulable, node.Spec.Taints, nil
	n.Allocatable = resourceFromList(node.Status.Allocatable)
	n.zone, n.hasZ = node.Labels[corev1.LabelTopologyZone]
	n.host, n.hasH = node.Labels[corev1.LabelHostname]
	n.images = make(map[string]int64, 2*len(node.Status.Images))
	for _, img := range node.Status.Images {
		for _, name := range img.Names {
			n.images[normalizedImageName(name)] = img.SizeBytes
		}
	}
}

// podKey identifies a pod: its UID, or namespace/name when it has none.
func podKey(p *corev1.Pod) string {
	if p.UID != "" {
		return string(p.UID)
	}
	return p.Namespace + "/" + p.Name
}

// controllerUID is the UID PodTopologySpread counts a pod under: its first
// ownerReference, as upstream's PodsWithOwnerRef; "" for a bare pod.
func controllerUID(p *corev1.Pod) types.UID {
	if len(p.OwnerReferences) == 0 {
		return ""
	}
	return p.OwnerReferences[0].UID
}

// counted reports whether p counts toward topology spreading: terminating
// pods do not (podtopologyspread countPodsMatchSelector).
func counted(p *corev1.Pod) bool { return p.DeletionTimestamp == nil }

// AddPod accounts for a pod bound to this node. Adding a pod twice is a no-op.
func (n *NodeInfo) AddPod(p *corev1.Pod) {
	k := podKey(p)
	if _, ok := n.index[k]; ok {
		return
	}
	n.index[k] = len(n.Pods)
	n.Pods = append(n.Pods, p)
	n.account(p, 1)
}

// addRef is AddPod, and returns where the pod sits: the zero PodRef when
// it was there already (its position is then not looked up).
func (n *NodeInfo) addRef(p *corev1.Pod) PodRef {
	k := len(n.Pods)
	n.AddPod(p)
	if len(n.Pods) == k {
		return PodRef{}
	}
	return PodRef{n.slot, int32(k) + 1}
}

// replaceAt swaps the cached version of p, at position i, for p when they
// count the same (samePodFootprint) and reports whether it did.
func (n *NodeInfo) replaceAt(i int, p *corev1.Pod) bool {
	old := n.Pods[i]
	if old == p {
		return true
	}
	if !samePodFootprint(old, p) {
		return false
	}
	n.Pods[i] = p
	if n.c != nil {
		if e, ok := n.c.affinityPods[old]; ok {
			delete(n.c.affinityPods, old)
			n.c.affinityPods[p] = e
		}
	}
	return true
}

// samePodFootprint reports whether two versions of a pod count the same in
// a NodeInfo: same labels, owner, termination state, and the very same
// containers, overhead and affinity (a status write copies the pod's
// top-level struct and shares the rest; anything rebuilt counts as changed).
// The node is not compared: replace runs on the NodeInfo of the new
// version's node, which holds the pod only if it was bound or assumed
// there, and an assumed pod is the unbound version (Cluster.AssumePod).
func samePodFootprint(a, b *corev1.Pod) bool {
	return counted(a) == counted(b) &&
		controllerUID(a) == controllerUID(b) && a.Spec.Affinity == b.Spec.Affinity &&
		sameBacking(a.Spec.Containers, b.Spec.Containers) &&
		sameBacking(a.Spec.InitContainers, b.Spec.InitContainers) &&
		len(a.Spec.Overhead) == 0 && len(b.Spec.Overhead) == 0 &&
		maps.Equal(a.Labels, b.Labels)
}

// sameBacking reports whether a and b are the same slice (same elements in
// memory, same length), not merely equal ones.
func sameBacking[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// RemovePod forgets a pod; it must be the same object (or an equal spec) as
// the one added. Removing an unknown pod is a no-op.
func (n *NodeInfo) RemovePod(p *corev1.Pod) {
	k := podKey(p)
	i, ok := n.index[k]
	if !ok {
		return
	}
	old := n.Pods[i]
	last := len(n.Pods) - 1
	n.Pods[i] = n.Pods[last]
	n.index[podKey(n.Pods[i])] = i
	n.Pods[last] = nil
	n.Pods = n.Pods[:last]
	delete(n.index, k)
	n.account(old, -1)
}

func (n *NodeInfo) account(p *corev1.Pod, sign int64) {
	n.balanceOK = false
	req := PodRequests(p, false)
	nz := PodRequests(p, true)
	n.Requested.add(&req, sign)
	n.NonZeroRequested.add(&nz, sign)
	for _, hp := range podHostPorts(p) {
		n.ports[hp] += int(sign)
		n.anyIP[hp.protoPort] += int(sign)
		if n.ports[hp] <= 0 {
			delete(n.ports, hp)
		}
		if n.anyIP[hp.protoPort] <= 0 {
			delete(n.anyIP, hp.protoPort)
		}
	}
	if n.c != nil && hasPodAffinity(p) {
		if sign > 0 {
			e := &affinityEntry{node: n}
			e.reqAff, e.reqAnti, e.prefAff, e.prefAnti = podTerms(p)
			n.c.affinityPods[p] = e
		} else {
			delete(n.c.affinityPods, p)
		}
	}
	if uid := controllerUID(p); uid != "" && counted(p) {
		n.owners[uid] += int32(sign)
		if n.owners[uid] <= 0 {
			delete(n.owners, uid)
		}
		if n.c != nil {
			n.c.addOwnerCount(uid, n, int32(sign))
		}
	}
}

// OwnerPods returns how many live pods of the controller uid run here.
func (n *NodeInfo) OwnerPods(uid types.UID) int { return int(n.owners[uid]) }

// HasImage returns the size of an image the node reports, by normalised name.
func (n *NodeInfo) HasImage(name string) (int64, bool) {
	s, ok := n.images[normalizedImageName(name)]
	return s, ok
}

// podHostPorts lists the host ports the pod's containers ask for, with
// upstream's defaults: protocol TCP, host IP 0.0.0.0 (NodePorts plugin).
func podHostPorts(p *corev1.Pod) []hostPort {
	var out []hostPort
	for i := range p.Spec.Containers {
		for _, cp := range p.Spec.Containers[i].Ports {
			if cp.HostPort <= 0 {
				continue
			}
			hp := hostPort{ip: cp.HostIP, protoPort: protoPort{proto: cp.Protocol, port: cp.HostPort}}
			if hp.ip == "" {
				hp.ip = "0.0.0.0"
			}
			if hp.proto == "" {
				hp.proto = corev1.ProtocolTCP
			}
			out = append(out, hp)
		}
	}
	return out
}

// portFree reports whether hp can be bound: a wildcard IP conflicts with the
// port on any IP, a specific IP with the same IP or the wildcard
// (framework.HostPortInfo.CheckConflict).
func (n *NodeInfo) portFree(hp hostPort) bool {
	if hp.ip == "0.0.0.0" {
		return n.anyIP[hp.protoPort] == 0
	}
	return n.ports[hp] == 0 && n.ports[hostPort{ip: "0.0.0.0", protoPort: hp.protoPort}] == 0
}

// normalizedImageName appends ":latest" to an untagged name
// (imagelocality.normalizedImageName); a digest reference is left alone.
func normalizedImageName(name string) string {
	if strings.Contains(name, "@") {
		return name
	}
	if strings.LastIndex(name, ":") <= strings.LastIndex(name, "/") {
		return name + ":latest"
	}
	return name
}

// label reads a node label, from the cache for the two default spreading keys.
func (n *NodeInfo) label(key string) (string, bool) {
	switch key {
	case corev1.LabelHostname:
		return n.host, n.hasH
	case corev1.LabelTopologyZone:
		return n.zone, n.hasZ
	}
	v, ok := n.Node.Labels[key]
	return v, ok
}
