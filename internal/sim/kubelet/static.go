package kubelet

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// Static pods, checked against kubernetes/kubernetes v1.37: the kubelet's
// file source (pkg/kubelet/config/file.go) reads the manifests in its
// staticPodPath and runs them itself, without the scheduler or the API
// server; it tells the API server about each one with a mirror pod
// (pkg/kubelet/pod/mirror_client.go), which it owns and recreates, and to
// which the status manager writes the static pod's status.

// StaticPodPath is kubeadm's staticPodPath (KubeletConfiguration), where
// the control plane's own manifests live.
const StaticPodPath = "/etc/kubernetes/manifests"

// The annotations a static pod carries (pkg/kubelet/types/pod_update.go).
const (
	annConfigSource = "kubernetes.io/config.source"
	annConfigHash   = "kubernetes.io/config.hash"
	annConfigSeen   = "kubernetes.io/config.seen"
	annConfigMirror = corev1.MirrorPodAnnotationKey // kubernetes.io/config.mirror
)

// statusSyncPeriod is the status manager's reconcile period
// (pkg/kubelet/status/status_manager.go syncPeriod: every 10 s, syncBatch
// writes a status the API server's copy does not have).
const statusSyncPeriod = 10 * time.Second

// staticState is what the kubelet keeps of a static pod besides its
// worker's podState: the pod as the file source made it, and whether a
// mirror is being replaced.
type staticState struct {
	file      string
	pod       *corev1.Pod // the static pod (UID from the hash)
	mirror    *corev1.Pod // its mirror as the API server stored it, nil before
	replacing bool
}

// RunStatic is the file source finding file in the staticPodPath: pod,
// decoded and defaulted, gets the file source's defaults (config/common.go
// applyDefaults) and a pod worker, as any pod the kubelet admits. It
// returns the pod's name, <name>-<node>.
func (k *Kubelet) RunStatic(pod *corev1.Pod, file string) string {
	p := pod.DeepCopy()
	src := path.Join(StaticPodPath, file)
	// The UID is a hash of the pod, the node and the file (applyDefaults:
	// DeepHashObject, then "host:" and "file:"); the simulator hashes the
	// JSON form, so the value differs from the real one but not its
	// meaning: the same manifest on the same node keeps its UID.
	h := md5.New()
	body, _ := json.Marshal(p)
	h.Write(body)
	fmt.Fprintf(h, "host:%s", k.Node)
	fmt.Fprintf(h, "file:%s", src)
	p.UID = types.UID(hex.EncodeToString(h.Sum(nil)))
	// generatePodName: <name>-<node name, lower case>.
	p.Name = p.Name + "-" + strings.ToLower(k.Node)
	if p.Namespace == "" {
		p.Namespace = metav1.NamespaceDefault
	}
	p.Spec.NodeName = k.Node
	if p.Annotations == nil {
		p.Annotations = map[string]string{}
	}
	p.Annotations[annConfigHash] = string(p.UID)
	p.Annotations[annConfigSource] = "file"
	p.Annotations[annConfigSeen] = apiTime(k.eng.Now()).UTC().Format(time.RFC3339Nano)
	// Static pods tolerate every NoExecute taint, so node problems never
	// evict them.
	p.Spec.Tolerations = append(p.Spec.Tolerations, corev1.Toleration{Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute})
	p.Status = corev1.PodStatus{Phase: corev1.PodPending}
	k.step(trace.PhaseKubelet, "kubelet.static", p, "path", src, "pod", p.Name, "uid", string(p.UID))
	ps := &podState{pod: p, static: &staticState{file: src, pod: p}}
	k.pods[p.UID] = ps
	if k.statics == nil {
		k.statics = map[string]*podState{}
	}
	k.statics[p.Namespace+"/"+p.Name] = ps
	k.syncPod(ps)
	return p.Name
}

// createMirror is SyncPod's "Create Mirror Pod for Static Pod if it doesn't
// already exist", before the runtime's SyncPod: a copy of the static pod
// with the kubernetes.io/config.mirror annotation and the node as its
// controlling owner (MirrorPodNodeRestriction: NodeRestriction admits a
// kubelet's pod create only for such a mirror pod bound to its own node).
// It parks until the API server answers; the stored mirror is what the
// status manager writes the static pod's status to.
func (k *Kubelet) createMirror(p *engine.Proc, ps *podState) {
	st := ps.static
	m := st.pod.DeepCopy()
	m.UID, m.ResourceVersion, m.Status = "", "", corev1.PodStatus{}
	m.Annotations[annConfigMirror] = st.pod.Annotations[annConfigHash]
	controller := true
	m.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: "Node", Name: k.Node, UID: k.nodeUID, Controller: &controller}}
	k.step(trace.PhaseKubelet, "kubelet.mirror", m, "pod", m.Name, "hash", m.Annotations[annConfigMirror], "node", k.Node)
	var answered bool
	k.c.Create(m, func(obj runtime.Object, err *apiserver.Status) {
		answered = true
		if pod, ok := obj.(*corev1.Pod); ok && err == nil {
			st.mirror = pod
		}
		p.Wake()
	})
	for !answered {
		p.Park()
	}
}

// sendsStatus is false for a static pod that has no mirror yet: the status
// manager skips it ("Static pod does not have a corresponding mirror pod")
// and writes the status once the mirror exists.
func (ps *podState) sendsStatus() bool {
	return ps.static == nil || ps.static.mirror != nil
}

// statusBase is what a status PATCH is computed against and sent to: the
// pod, or a static pod's mirror (the status manager translates the static
// pod's UID to its mirror's, TranslatePodUID).
func (ps *podState) statusBase() *corev1.Pod {
	if ps.static != nil {
		return ps.static.mirror
	}
	return ps.pod
}

// storeStatic keeps a status write's answer for a static pod: the stored
// mirror, and its status on the kubelet's own static pod.
func (ps *podState) storeStatic(mirror *corev1.Pod) {
	ps.static.mirror = mirror
	p := *ps.pod
	p.Status = mirror.Status
	ps.pod = &p
}

// mirrorEvent is the kubelet's pod manager hearing about a mirror pod
// (HandlePodUpdates, HandlePodRemoves: handleMirrorPod): nothing runs for
// it; a mirror that is being deleted, or is gone, makes the static pod's
// worker replace it. The static pod and its containers are not touched.
func (k *Kubelet) mirrorEvent(deleted bool, pod *corev1.Pod) {
	ps := k.statics[pod.Namespace+"/"+pod.Name]
	if ps == nil || ps.static.replacing || ps.static.mirror == nil || pod.UID != ps.static.mirror.UID || (!deleted && pod.DeletionTimestamp == nil) {
		return
	}
	ps.static.replacing = true
	k.eng.Go(func(p *engine.Proc) { k.replaceMirror(p, ps, deleted) })
}

// replaceMirror is SyncPod for a static pod whose mirror is being deleted:
// DeleteMirrorPod (gracePeriodSeconds 0, a UID precondition) — the old
// mirror is gone at once, so `kubectl delete` returns — then
// CreateMirrorPod again. The status manager writes the static pod's status
// to the new mirror at its next reconcile.
func (k *Kubelet) replaceMirror(p *engine.Proc, ps *podState, gone bool) {
	old := ps.static.mirror
	k.step(trace.PhaseKubelet, "kubelet.mirror.replace", old, "pod", old.Name, "uid", string(old.UID), "ip", ps.ip)
	if !gone {
		var answered bool
		k.c.DeleteGrace(apiserver.ResourceOf(old), old.Namespace, old.Name, 0, func(runtime.Object, *apiserver.Status) {
			answered = true
			p.Wake()
		})
		for !answered {
			p.Park()
		}
	}
	ps.static.mirror = nil
	k.createMirror(p, ps)
	ps.static.replacing = false
	if ps.static.mirror == nil {
		return // the create failed
	}
	now := k.eng.Now()
	p.Sleep(statusSyncPeriod - now%statusSyncPeriod)
	k.step(trace.PhaseKubelet, "kubelet.mirror.status", ps.pod, "pod", ps.pod.Name, "period", statusSyncPeriod)
	k.writeStatus(p, ps, k.statusCopy(ps.pod))
}
