package sim

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/sim/informer"
	"github.com/k8sexplain/k8sexplain/internal/sim/scheduler"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
)

// kube-scheduler's side of volume binding (pkg/scheduler/framework/plugins/
// volumebinding, v1.37): the informers its VolumeBinding plugin reads, and
// the binding cycle's Reserve and PreBind.

// bindPollInterval and bindTimeout are BindPodVolumes' wait: it polls the
// claims every second (wait.PollUntilContextTimeout, not immediately) for
// up to bindTimeoutSeconds, 600 by default (VolumeBindingArgs).
const (
	bindPollInterval = time.Second
	bindTimeout      = 600 * time.Second
)

// volumeInformers are the scheduler's PVC, PV and StorageClass informers,
// the scheduler.VolumeLister its plugin reads.
type volumeInformers struct {
	claims  *informer.Informer[*corev1.PersistentVolumeClaim]
	volumes *informer.Informer[*corev1.PersistentVolume]
	classes *informer.Informer[*storagev1.StorageClass]
}

func (v *volumeInformers) Claim(ns, name string) (*corev1.PersistentVolumeClaim, bool) {
	return v.claims.Get(ns, name)
}
func (v *volumeInformers) Volume(name string) (*corev1.PersistentVolume, bool) {
	return v.volumes.Get("", name)
}
func (v *volumeInformers) Class(name string) (*storagev1.StorageClass, bool) {
	return v.classes.Get("", name)
}

// enableVolumes gives the scheduler its volume informers and hands them to
// the profile's VolumeBinding plugin (Config.Volumes; call it after
// useProfile).
func (s *schedAgent) enableVolumes() {
	s.volumes = &volumeInformers{
		claims:  informer.New[*corev1.PersistentVolumeClaim]("persistentvolumeclaims"),
		volumes: informer.New[*corev1.PersistentVolume]("persistentvolumes"),
		classes: informer.New[*storagev1.StorageClass]("storageclasses"),
	}
	s.binder = s.fw.Profile().SetVolumeLister(s.volumes)
	// EventsToRegister: a claim added or updated may make the pods that
	// use it schedulable (isSchedulableAfterPersistentVolumeClaimChange),
	// as may a new StorageClass.
	s.volumes.claims.AddEventHandler(func(ev informer.Event[*corev1.PersistentVolumeClaim]) {
		if !ev.Deleted() && s.failedUse(ev.Obj) {
			s.retryFailed()
		}
	})
	s.volumes.classes.AddEventHandler(func(ev informer.Event[*storagev1.StorageClass]) {
		if !ev.Deleted() {
			s.retryFailed()
		}
	})
}

// failedUse reports whether an unschedulable pod uses the claim.
func (s *schedAgent) failedUse(c *corev1.PersistentVolumeClaim) bool {
	for _, p := range s.failed {
		if p.Namespace == c.Namespace && slices.Contains(scheduler.ClaimNames(p), c.Name) {
			return true
		}
	}
	return false
}

func (s *schedAgent) startVolumes() {
	if v := s.volumes; v != nil {
		v.classes.Run(s.c)
		v.volumes.Run(s.c)
		v.claims.Run(s.c)
	}
}

// reserveVolumes is the VolumeBinding plugin's Reserve for the pod just
// placed: the claims its binding cycle has to get provisioned.
func (s *schedAgent) reserveVolumes() []*corev1.PersistentVolumeClaim {
	if s.binder == nil {
		return nil
	}
	return s.binder.Reserve()
}

// preBindVolumes is VolumeBinding's PreBind (BindPodVolumes): PUT each
// claim with volume.kubernetes.io/selected-node (bindAPIUpdate), then poll
// every second until the PV controller has bound them all (checkBindings:
// spec.volumeName and pv.kubernetes.io/bind-completed). Only then does the
// pod's binding go out. It reports whether it may.
func (s *schedAgent) preBindVolumes(p *engine.Proc, pod *corev1.Pod, node string, claims []*corev1.PersistentVolumeClaim) bool {
	names := make([]string, len(claims))
	for i, c := range claims {
		names[i] = c.Name
	}
	s.rec.Add(trace.Step{Phase: trace.PhaseScheduler, Actor: s.c.Actor, To: "kube-apiserver", Kind: "scheduler.prebind", Object: apiserver.ObjectRef(pod),
		Fields: trace.F("pod", pod.Name, "claims", strings.Join(names, ", "), "node", node, "annotation", scheduler.AnnSelectedNode)})
	for _, c := range claims {
		upd := c.DeepCopy()
		if upd.Annotations == nil {
			upd.Annotations = map[string]string{}
		}
		upd.Annotations[scheduler.AnnSelectedNode] = node
		if _, err := s.c.In(p).Update(upd); err != nil {
			s.preBindFailed(pod, err.Message)
			return false
		}
	}
	start := s.eng.Now()
	for {
		p.Sleep(bindPollInterval)
		if _, ok := s.pods.Get(pod.Namespace, pod.Name); !ok {
			return false // checkBindings: "pod does not exist any more"
		}
		if s.claimsBound(pod.Namespace, names) {
			break
		}
		if s.eng.Now()-start >= bindTimeout {
			s.preBindFailed(pod, "binding volumes: context deadline exceeded")
			return false
		}
	}
	s.rec.Add(trace.Step{Phase: trace.PhaseScheduler, Actor: s.c.Actor, Kind: "scheduler.volumesbound", Object: apiserver.ObjectRef(pod),
		Fields: trace.F("pod", pod.Name, "claims", strings.Join(names, ", "), "waited", s.eng.Now()-start)})
	return true
}

func (s *schedAgent) claimsBound(ns string, names []string) bool {
	for _, n := range names {
		c, ok := s.volumes.claims.Get(ns, n)
		if !ok || !scheduler.FullyBound(c) {
			return false
		}
	}
	return true
}

// preBindFailed is handleBindingCycleError's event for a PreBind error
// (schedule_one.go: `running PreBind plugin "VolumeBinding": …`).
func (s *schedAgent) preBindFailed(pod *corev1.Pod, msg string) {
	s.c.EventV1(trace.PhaseScheduler, pod, "Warning", "FailedScheduling", "Scheduling",
		fmt.Sprintf("running PreBind plugin %q: %s", scheduler.VolumeBindingName, msg))
}
