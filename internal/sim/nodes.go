package sim

import (
	"fmt"

	"github.com/k8sexplain/k8sexplain/internal/manifest"
	corev1 "k8s.io/api/core/v1"
)

// WorkerNodes turns the kind: Node objects among objs into ready worker
// nodes (trace apply --cluster, or Nodes in the applied manifests): the
// hostname label the kubelet would set, allocatable from capacity when the
// manifest gives only capacity, and the Ready condition. Other objects are
// skipped.
func WorkerNodes(objs []manifest.Object) ([]*corev1.Node, error) {
	var nodes []*corev1.Node
	for _, o := range objs {
		n, ok := o.Obj.(*corev1.Node)
		if !ok {
			continue
		}
		n = n.DeepCopy()
		if n.Labels == nil {
			n.Labels = map[string]string{}
		}
		if n.Labels["kubernetes.io/hostname"] == "" {
			n.Labels["kubernetes.io/hostname"] = n.Name
		}
		if len(n.Status.Allocatable) == 0 {
			n.Status.Allocatable = n.Status.Capacity.DeepCopy()
		}
		if len(n.Status.Allocatable) == 0 {
			return nil, fmt.Errorf("%s:%d: node %q has no status.capacity or status.allocatable", o.Pos.File, o.Pos.Line, n.Name)
		}
		n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}
		nodes = append(nodes, n)
	}
	return nodes, nil
}
