package nodeset

import (
	"fmt"

	"github.com/k8sexplain/k8sexplain/internal/k8sversion"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// nodeNames are node-a … node-z, then node-0027 …
func nodeName(i int) string {
	if i < 26 {
		return "node-" + string(rune('a'+i))
	}
	return fmt.Sprintf("node-%04d", i+1)
}

// DefaultNodes returns the default cluster: a control-plane node (tainted,
// as kubeadm does) and n workers with 4 CPU, 8Gi and 110 pods each. Their
// podCIDRs come from node-ipam when the cluster starts (AllocateNodeCIDRs).
func DefaultNodes(workers int, controlPlane bool) []*corev1.Node {
	var out []*corev1.Node
	nodeIndex := 0
	mk := func(name string) *corev1.Node {
		n := &corev1.Node{}
		n.Name = name
		n.Labels = map[string]string{"kubernetes.io/hostname": name, "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64"}
		res := corev1.ResourceList{
			corev1.ResourceCPU: resource.MustParse("4"), corev1.ResourceMemory: resource.MustParse("8Gi"),
			corev1.ResourcePods: resource.MustParse("110"), corev1.ResourceEphemeralStorage: resource.MustParse("100Gi"),
		}
		n.Status.Capacity, n.Status.Allocatable = res, res.DeepCopy()
		n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady"}}
		n.Status.Images = []corev1.ContainerImage{
			{Names: []string{k8sversion.PauseImage}, SizeBytes: 320 << 10},
			{Names: []string{k8sversion.KubeProxyImage}, SizeBytes: 30 << 20},
		}
		// The kubelet reports the node's addresses (InternalIP, Hostname;
		// kubelet_node_status.go setNodeAddress); pods' status.hostIP comes
		// from them. 10.0.0.0/16 as kubeadm clusters often use, in list order.
		n.Status.Addresses = []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: nodeAddress(nodeIndex)}, {Type: corev1.NodeHostName, Address: name}}
		nodeIndex++
		n.Status.NodeInfo = corev1.NodeSystemInfo{KubeletVersion: k8sversion.Version, OperatingSystem: "linux", Architecture: "amd64",
			ContainerRuntimeVersion: "containerd://" + k8sversion.ContainerdVersion}
		return n
	}
	if controlPlane {
		cp := mk("control-plane")
		cp.Labels["node-role.kubernetes.io/control-plane"] = ""
		cp.Spec.Taints = []corev1.Taint{{Key: "node-role.kubernetes.io/control-plane", Effect: corev1.TaintEffectNoSchedule}}
		out = append(out, cp)
	}
	for i := 0; i < workers; i++ {
		out = append(out, mk(nodeName(i)))
	}
	return out
}

// nodeAddress is the InternalIP of the i-th node (0-based): 10.0.0.10 on.
func nodeAddress(i int) string { return fmt.Sprintf("10.0.%d.%d", (i+10)/250, (i+10)%250) }
