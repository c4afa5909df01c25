package kubelet

import (
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Node heartbeats (pkg/kubelet/nodelease): the kubelet keeps a Lease named
// after its node in kube-node-lease, leaseDurationSeconds 40, renewed every
// 10 s (a quarter of the duration).
const (
	LeaseDuration = 40 * time.Second
	RenewInterval = 10 * time.Second
)

// StartHeartbeat creates the node's Lease and renews it until the node dies.
func (k *Kubelet) StartHeartbeat() {
	dur := int32(LeaseDuration / time.Second)
	holder := k.Node
	lease := &coordinationv1.Lease{}
	lease.Name, lease.Namespace = k.Node, "kube-node-lease"
	lease.Spec.HolderIdentity = &holder
	lease.Spec.LeaseDurationSeconds = &dur
	var renew func(obj runtime.Object)
	renew = func(obj runtime.Object) {
		k.eng.Background(RenewInterval, func() {
			if k.Dead {
				return
			}
			l := obj.(*coordinationv1.Lease).DeepCopy()
			now := metav1.NewMicroTime(apiserver.Epoch.Add(k.eng.Now()))
			l.Spec.RenewTime = &now
			k.rec.Add(trace.Step{Phase: trace.PhaseKubelet, Actor: k.c.Actor, Kind: "kubelet.lease", Verbose: true,
				Object: "leases/kube-node-lease/" + k.Node, Fields: trace.F("node", k.Node)})
			k.c.Update(l, func(o runtime.Object, err *apiserver.Status) {
				if err == nil {
					renew(o)
				}
			})
		})
	}
	now := metav1.NewMicroTime(apiserver.Epoch.Add(k.eng.Now()))
	lease.Spec.RenewTime = &now
	k.c.Create(lease, func(o runtime.Object, err *apiserver.Status) {
		if err == nil {
			renew(o)
		}
	})
}
