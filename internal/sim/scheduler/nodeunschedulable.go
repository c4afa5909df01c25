package scheduler

import corev1 "k8s.io/api/core/v1"

// NodeUnschedulableName is the plugin's upstream name.
const NodeUnschedulableName = "NodeUnschedulable"

// ReasonUnschedulable is the plugin's reason text.
const ReasonUnschedulable = "node(s) were unschedulable"

// NodeUnschedulable rejects a cordoned node unless the pod tolerates the
// node.kubernetes.io/unschedulable:NoSchedule taint (plugins/nodeunschedulable).
type NodeUnschedulable struct{}

func newNodeUnschedulable(any) (Plugin, error) { return NodeUnschedulable{}, nil }

func (NodeUnschedulable) Name() string { return NodeUnschedulableName }

var unschedulableTaint = corev1.Taint{Key: corev1.TaintNodeUnschedulable, Effect: corev1.TaintEffectNoSchedule}

func (NodeUnschedulable) Filter(_ *CycleState, pod *corev1.Pod, n *NodeInfo) *Status {
	if !n.unsched || toleratedBy(pod.Spec.Tolerations, &unschedulableTaint) {
		return nil
	}
	return newStatus(UnschedulableAndUnresolvable, ReasonUnschedulable)
}
