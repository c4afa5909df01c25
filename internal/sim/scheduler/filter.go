package scheduler

import (
	"slices"

	corev1 "k8s.io/api/core/v1"
)

// Plugin names, as in pkg/scheduler/framework/plugins/names.
const (
	NodeUnschedulableName  = "NodeUnschedulable"
	NodeNameName           = "NodeName"
	TaintTolerationName    = "TaintToleration"
	NodeAffinityName       = "NodeAffinity"
	NodePortsName          = "NodePorts"
	NodeResourcesFitName   = "NodeResourcesFit"
	PodTopologySpreadName  = "PodTopologySpread"
	BalancedAllocationName = "NodeResourcesBalancedAllocation"
	ImageLocalityName      = "ImageLocality"
)

// Upstream reason texts; FitError.Error counts them per node.
const (
	ReasonUnschedulable    = "node(s) were unschedulable"
	ReasonNodeName         = "node(s) didn't match the requested node name"
	ReasonUntoleratedTaint = "node(s) had untolerated taint(s)"
	ReasonNodeAffinity     = "node(s) didn't match Pod's node affinity/selector"
	ReasonNodePorts        = "node(s) didn't have free ports for the requested pod ports"
	ReasonTooManyPods      = "Too many pods"
)

// NodeUnschedulable rejects a cordoned node unless the pod tolerates the
// node.kubernetes.io/unschedulable:NoSchedule taint (plugins/nodeunschedulable).
type NodeUnschedulable struct{}

func (NodeUnschedulable) Name() string { return NodeUnschedulableName }

var unschedulableTaint = corev1.Taint{Key: corev1.TaintNodeUnschedulable, Effect: corev1.TaintEffectNoSchedule}

func (NodeUnschedulable) Filter(_ *CycleState, pod *corev1.Pod, n *NodeInfo) *Status {
	if !n.unsched || toleratedBy(pod.Spec.Tolerations, &unschedulableTaint) {
		return nil
	}
	return newStatus(UnschedulableAndUnresolvable, ReasonUnschedulable)
}

// NodeName rejects every node but the one named in spec.nodeName, if set
// (plugins/nodename).
type NodeName struct{}

func (NodeName) Name() string { return NodeNameName }

func (NodeName) Filter(_ *CycleState, pod *corev1.Pod, n *NodeInfo) *Status {
	if pod.Spec.NodeName == "" || pod.Spec.NodeName == n.name {
		return nil
	}
	return newStatus(UnschedulableAndUnresolvable, ReasonNodeName)
}

// TaintToleration filters on NoSchedule/NoExecute taints and scores the
// untolerated PreferNoSchedule ones (plugins/tainttoleration). In
// recent releases the event no longer names the taint ("untolerated
// taint(s)"); Detail keeps it for the trace.
type TaintToleration struct{}

func (TaintToleration) Name() string { return TaintTolerationName }

func (TaintToleration) Filter(_ *CycleState, pod *corev1.Pod, n *NodeInfo) *Status {
	for i := range n.taints {
		t := &n.taints[i]
		if t.Effect != corev1.TaintEffectNoSchedule && t.Effect != corev1.TaintEffectNoExecute {
			continue
		}
		if !toleratedBy(pod.Spec.Tolerations, t) {
			s := newStatus(UnschedulableAndUnresolvable, ReasonUntoleratedTaint)
			s.Detail = "{" + t.Key + ": " + t.Value + "}"
			return s
		}
	}
	return nil
}

// NodeAffinity filters on spec.nodeSelector and the required node affinity,
// and scores the preferred terms (plugins/nodeaffinity).
type NodeAffinity struct{}

func (NodeAffinity) Name() string { return NodeAffinityName }

func (NodeAffinity) PreFilter(st *CycleState, pod *corev1.Pod) *Status {
	st.affinity = requiredNodeAffinity(pod)
	if st.affinity.empty() {
		return newStatus(Skip)
	}
	return nil
}

func (NodeAffinity) Filter(st *CycleState, _ *corev1.Pod, n *NodeInfo) *Status {
	if st.affinity.match(n.Node) {
		return nil
	}
	return newStatus(UnschedulableAndUnresolvable, ReasonNodeAffinity)
}

// NodePorts rejects nodes where a requested host port is taken (plugins/nodeports).
type NodePorts struct{}

func (NodePorts) Name() string { return NodePortsName }

func (NodePorts) PreFilter(st *CycleState, pod *corev1.Pod) *Status {
	st.hostPorts = podHostPorts(pod)
	if len(st.hostPorts) == 0 {
		return newStatus(Skip)
	}
	return nil
}

func (NodePorts) Filter(st *CycleState, _ *corev1.Pod, n *NodeInfo) *Status {
	for _, hp := range st.hostPorts {
		if !n.portFree(hp) {
			return newStatus(Unschedulable, ReasonNodePorts)
		}
	}
	return nil
}

// NodeResourcesFit filters on requests against allocatable minus what is
// already requested, and scores with LeastAllocated (plugins/noderesources
// fit.go, least_allocated.go).
type NodeResourcesFit struct {
	// Resources scored by LeastAllocated with their weights; the default is
	// cpu:1, memory:1.
	Resources []ResourceWeight
}

// ResourceWeight is one entry of NodeResourcesFitArgs.ScoringStrategy.Resources.
type ResourceWeight struct {
	Name   corev1.ResourceName
	Weight int64
}

func (*NodeResourcesFit) Name() string { return NodeResourcesFitName }

func (*NodeResourcesFit) PreFilter(st *CycleState, _ *corev1.Pod) *Status {
	st.scalarNames = st.scalarNames[:0]
	for name := range st.request.Scalar {
		st.scalarNames = append(st.scalarNames, name)
	}
	slices.Sort(st.scalarNames) // reasons in a stable order
	return nil
}

func (*NodeResourcesFit) Filter(st *CycleState, _ *corev1.Pod, n *NodeInfo) *Status {
	var reasons []string
	code := Unschedulable
	if len(n.Pods)+1 > n.Allocatable.AllowedPods {
		reasons = append(reasons, ReasonTooManyPods)
	}
	r := &st.request
	if r.isZero() {
		if reasons == nil {
			return nil
		}
		return newStatus(code, reasons...)
	}
	check := func(want, alloc, used int64, reason string) {
		if want > 0 && want > alloc-used {
			reasons = append(reasons, reason)
			if want > alloc { // preemption cannot free a node this small
				code = UnschedulableAndUnresolvable
			}
		}
	}
	check(r.MilliCPU, n.Allocatable.MilliCPU, n.Requested.MilliCPU, "Insufficient cpu")
	check(r.Memory, n.Allocatable.Memory, n.Requested.Memory, "Insufficient memory")
	check(r.EphemeralStorage, n.Allocatable.EphemeralStorage, n.Requested.EphemeralStorage, "Insufficient ephemeral-storage")
	for _, name := range st.scalarNames {
		check(r.Scalar[name], n.Allocatable.Scalar[name], n.Requested.Scalar[name], "Insufficient "+string(name))
	}
	if reasons == nil {
		return nil
	}
	return newStatus(code, reasons...)
}
