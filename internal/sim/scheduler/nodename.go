package scheduler

import corev1 "k8s.io/api/core/v1"

// NodeNameName is the plugin's upstream name.
const NodeNameName = "NodeName"

// ReasonNodeName is the plugin's reason text.
const ReasonNodeName = "node(s) didn't match the requested node name"

// NodeName rejects every node but the one named in spec.nodeName, if set
// (plugins/nodename).
type NodeName struct{}

func newNodeName(any) (Plugin, error) { return NodeName{}, nil }

func (NodeName) Name() string { return NodeNameName }

func (NodeName) Filter(_ *CycleState, pod *corev1.Pod, n *NodeInfo) *Status {
	if pod.Spec.NodeName == "" || pod.Spec.NodeName == n.name {
		return nil
	}
	return newStatus(UnschedulableAndUnresolvable, ReasonNodeName)
}
