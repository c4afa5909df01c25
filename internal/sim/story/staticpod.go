package story

import (
	"fmt"

	"github.com/k8sexplain/k8sexplain/internal/manifest"
	corev1 "k8s.io/api/core/v1"
)

// StaticPod puts pod's manifest, as file, into node's staticPodPath: the
// kubelet's file source decodes it with the API's defaults
// (pkg/kubelet/config/common.go tryDecodeSinglePod) and runs it
// (kubelet.RunStatic). It returns the name the pod runs under.
func (c *Scene) StaticPod(node string, pod *corev1.Pod, file string) (string, error) {
	k := c.Kubelet(node)
	if k == nil {
		return "", fmt.Errorf("node %q has no kubelet", node)
	}
	p := pod.DeepCopy()
	manifest.Default(p)
	return k.RunStatic(p, file), nil
}

// Mirror is the stored mirror pod namespace/name, or nil.
func (c *Scene) Mirror(ns, name string) *corev1.Pod {
	for _, p := range c.Pods() {
		if p.Namespace == ns && p.Name == name && p.Annotations[corev1.MirrorPodAnnotationKey] != "" {
			return p
		}
	}
	return nil
}
