package kubelet

import (
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/trace"
)

// volumeMountWait is how long a pod with claim volumes waits before its
// sandbox: SyncPod calls volumeManager.WaitForAttachAndMount
// (pkg/kubelet/volumemanager/volume_manager.go), which checks at once and
// then every podAttachAndMountRetryInterval, 300 ms. The first check
// fails — the desired-state populator and the reconciler (100 ms loops)
// have not mounted the volume yet — and the second finds it mounted.
const volumeMountWait = 300 * time.Millisecond

// mountVolumes is WaitForAttachAndMount for a pod whose volumes name
// PersistentVolumeClaims: the Pending status first (the status manager has
// it before SyncPod waits), then the wait, then the step. It reports
// whether it did anything; a pod without claims goes straight on.
func (k *Kubelet) mountVolumes(p *engine.Proc, ps *podState) bool {
	pod := ps.pod
	var claims []string
	for i := range pod.Spec.Volumes {
		if c := pod.Spec.Volumes[i].PersistentVolumeClaim; c != nil {
			claims = append(claims, c.ClaimName)
		}
	}
	if len(claims) == 0 {
		return false
	}
	k.pending(ps)
	p.Sleep(volumeMountWait)
	if k.alive(ps) {
		k.step(trace.PhaseKubelet, "kubelet.volumes", pod, "pod", pod.Name, "claims", strings.Join(claims, ", "), "waited", volumeMountWait)
	}
	return true
}
