package scheduler

import corev1 "k8s.io/api/core/v1"

// NodePortsName is the plugin's upstream name.
const NodePortsName = "NodePorts"

// ReasonNodePorts is the plugin's reason text.
const ReasonNodePorts = "node(s) didn't have free ports for the requested pod ports"

// NodePorts rejects nodes where a requested host port is taken (plugins/nodeports).
type NodePorts struct{}

func newNodePorts(any) (Plugin, error) { return NodePorts{}, nil }

func (NodePorts) Name() string { return NodePortsName }

var preFilterNodePortsKey = NewStateKey("PreFilter" + NodePortsName)

type nodePortsState struct{ hostPorts []hostPort }

func (NodePorts) PreFilter(st *CycleState, pod *corev1.Pod) *Status {
	s := stateOf[nodePortsState](st, preFilterNodePortsKey)
	s.hostPorts = podHostPorts(pod)
	if len(s.hostPorts) == 0 {
		return statusSkip
	}
	return nil
}

func (NodePorts) Filter(st *CycleState, _ *corev1.Pod, n *NodeInfo) *Status {
	for _, hp := range readState[nodePortsState](st, preFilterNodePortsKey).hostPorts {
		if !n.portFree(hp) {
			return newStatus(Unschedulable, ReasonNodePorts)
		}
	}
	return nil
}
