package kubelet

import (
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Node heartbeats (pkg/kubelet/nodelease): the kubelet keeps a Lease named
// after its node in kube-node-lease, leaseDurationSeconds 40, renewed every
// 10 s (a quarter of the duration).
const (
	LeaseDuration = 40 * time.Second
	RenewInterval = 10 * time.Second
)

// StartHeartbeat creates the node's Lease and renews it until the node dies
// (nodelease controller.go Run: ensureLease, then retryUpdateLease every
// renewInterval).
func (k *Kubelet) StartHeartbeat() { k.eng.Go(k.heartbeat) }

// heartbeat is the node lease controller's loop. Its timer is a background
// one: a run does not wait for the next renewal.
func (k *Kubelet) heartbeat(p *engine.Proc) {
	dur := int32(LeaseDuration / time.Second)
	holder := k.Node
	lease := &coordinationv1.Lease{}
	lease.Name, lease.Namespace = k.Node, "kube-node-lease"
	lease.Spec.HolderIdentity = &holder
	lease.Spec.LeaseDurationSeconds = &dur
	now := metav1.NewMicroTime(apiserver.Epoch.Add(k.eng.Now()))
	lease.Spec.RenewTime = &now
	obj, err := k.c.In(p).Create(lease)
	for err == nil {
		k.sleepBackground(p, RenewInterval)
		if k.Dead {
			return
		}
		l := obj.(*coordinationv1.Lease).DeepCopy()
		now := metav1.NewMicroTime(apiserver.Epoch.Add(k.eng.Now()))
		l.Spec.RenewTime = &now
		k.rec.Add(trace.Step{Phase: trace.PhaseKubelet, Actor: k.c.Actor, Kind: "kubelet.lease", Verbose: true,
			Object: "leases/kube-node-lease/" + k.Node, Fields: trace.F("node", k.Node)})
		obj, err = k.c.In(p).Update(l)
	}
}

// sleepBackground is Sleep on a background timer.
func (k *Kubelet) sleepBackground(p *engine.Proc, d time.Duration) {
	rang := false
	k.eng.Background(d, func() { rang = true; p.Wake() })
	for !rang {
		p.Park()
	}
}
