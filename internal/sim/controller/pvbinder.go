package controller

// The PersistentVolume controller of kube-controller-manager, the
// "persistentvolume-binder" (pkg/controller/volume/persistentvolume/
// pv_controller.go syncClaim → syncUnboundClaim, bind, provisionClaim →
// provisionClaimOperationExternal; pv_controller_base.go; v1.37). It binds
// claims to volumes; it provisions nothing itself for a CSI or external
// provisioner: it marks the claim for it and waits for the volume.
//
// An unbound claim without a volume for it (this simulator has no
// pre-created volumes to match) goes one of three ways:
//   - its class binds WaitForFirstConsumer and the scheduler has not yet
//     picked a node (no volume.kubernetes.io/selected-node): the event
//     WaitForFirstConsumer, and the claim stays Pending;
//   - it names a class: provisionClaim. A class that does not exist is a
//     ProvisioningFailed event; an external provisioner's class gets the
//     claim annotated volume.kubernetes.io/storage-provisioner (and the
//     beta key) and the ExternalProvisioning event;
//   - no class at all: FailedBinding, "no persistent volumes available for
//     this claim and no storage class is set".
//
// When a volume appears whose claimRef names the claim (the provisioner
// writes it so), syncVolume queues the claim and bind runs in upstream's
// order: the volume's phase Bound, then the claim's spec.volumeName with
// pv.kubernetes.io/bound-by-controller and pv.kubernetes.io/bind-completed,
// then the claim's phase Bound with its capacity and access modes.
//
// Left out: the 15 s periodic resync (each repeats the claim's event, which
// `kubectl describe` shows as "(x4 over 60s)"), matching pre-created
// volumes, in-tree provisioners, reclaiming released volumes.

import (
	"fmt"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/sim/informer"
	"github.com/k8sexplain/k8sexplain/internal/sim/scheduler"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
)

// The claim annotations the PV controller writes
// (k8s.io/component-helpers/storage/volume/helpers.go).
const (
	AnnBoundByController      = "pv.kubernetes.io/bound-by-controller"
	AnnStorageProvisioner     = "volume.kubernetes.io/storage-provisioner"
	AnnBetaStorageProvisioner = "volume.beta.kubernetes.io/storage-provisioner"
	AnnDynamicallyProvisioned = "pv.kubernetes.io/provisioned-by"
)

// PVBinder is the PersistentVolume controller.
type PVBinder struct {
	c       *apiserver.Client
	rec     *trace.Recorder
	claims  *informer.Informer[*corev1.PersistentVolumeClaim]
	volumes *informer.Informer[*corev1.PersistentVolume]
	classes *informer.Informer[*storagev1.StorageClass]
	queue   *workQueue
	own     *informer.Factory
	told    map[string]string // claim key → the last reason evented, so a sync repeats none
}

// NewPVBinder builds the controller on its client; Start opens its watches.
func NewPVBinder(f *informer.Factory, c *apiserver.Client, eng *engine.Engine, rec *trace.Recorder) *PVBinder {
	f, own := informer.Or(f, c)
	b := &PVBinder{c: c, rec: rec, own: own, told: map[string]string{},
		claims:  informer.For[*corev1.PersistentVolumeClaim](f, "persistentvolumeclaims"),
		volumes: informer.For[*corev1.PersistentVolume](f, "persistentvolumes"),
		classes: informer.For[*storagev1.StorageClass](f, "storageclasses")}
	b.queue = newWorkQueue(eng, b.syncClaim)
	b.claims.AddEventHandlerFor(c.Actor, func(ev informer.Event[*corev1.PersistentVolumeClaim]) {
		if !ev.Deleted() {
			b.queue.add(ev.Obj.Namespace + "/" + ev.Obj.Name)
		}
	})
	// syncVolume: a volume bound to a claim that is not yet bound to it
	// queues the claim ("this speeds up binding of provisioned volumes").
	b.volumes.AddEventHandlerFor(c.Actor, func(ev informer.Event[*corev1.PersistentVolume]) {
		if ref := ev.Obj.Spec.ClaimRef; !ev.Deleted() && ref != nil {
			b.queue.add(ref.Namespace + "/" + ref.Name)
		}
	})
	return b
}

// Name is the controller's client name.
func (b *PVBinder) Name() string { return b.c.Actor }

// Start opens the controller's own watches; on shared informers
// kube-controller-manager opens them.
func (b *PVBinder) Start() { b.own.Start() }

// syncClaim is syncClaim: a bound claim needs nothing here.
func (b *PVBinder) syncClaim(p *engine.Proc, key string) error {
	ns, name, _ := strings.Cut(key, "/")
	claim, ok := b.claims.Get(ns, name)
	if !ok || scheduler.FullyBound(claim) || claim.Spec.VolumeName != "" {
		return nil
	}
	if pv := b.volumeFor(claim); pv != nil {
		return b.bind(p, pv, claim)
	}
	className := scheduler.ClaimClass(claim)
	class, hasClass := b.classes.Get("", className)
	switch {
	case hasClass && class.VolumeBindingMode != nil && *class.VolumeBindingMode == storagev1.VolumeBindingWaitForFirstConsumer &&
		claim.Annotations[scheduler.AnnSelectedNode] == "":
		// emitEventForUnboundDelayBindingClaim (no pod is waiting yet: the
		// StatefulSet controller creates the claim before the pod).
		b.once(claim, "WaitForFirstConsumer", "waiting for first consumer to be created before binding", func() {
			b.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: b.c.Actor, Kind: "pv.wait", Object: apiserver.ObjectRef(claim),
				Fields: trace.F("claim", claim.Name, "class", className)})
		})
	case className != "" && !hasClass:
		// provisionClaim → findProvisionablePlugin: the class lister's
		// NotFound, as the event's message.
		b.once(claim, "ProvisioningFailed", fmt.Sprintf("storageclass.storage.k8s.io %q not found", className), b.stepFor(claim, "pv.noclass", className))
	case className != "":
		return b.provisionExternal(p, claim, class)
	default:
		b.once(claim, "FailedBinding", "no persistent volumes available for this claim and no storage class is set", b.stepFor(claim, "pv.classless", ""))
	}
	return nil
}

// once records the claim's event unless the last sync recorded the same.
func (b *PVBinder) once(claim *corev1.PersistentVolumeClaim, reason, msg string, step func()) {
	key := claim.Namespace + "/" + claim.Name
	if b.told[key] == reason {
		return
	}
	b.told[key] = reason
	if step != nil {
		step()
	}
	typ := corev1.EventTypeNormal
	if reason == "ProvisioningFailed" {
		typ = corev1.EventTypeWarning
	}
	b.c.Event(trace.PhaseController, claim, typ, reason, msg)
}

// stepFor records why an unbound claim cannot be provisioned.
func (b *PVBinder) stepFor(claim *corev1.PersistentVolumeClaim, kind trace.Kind, class string) func() {
	return func() {
		b.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: b.c.Actor, Kind: kind, Object: apiserver.ObjectRef(claim),
			Fields: trace.F("claim", claim.Name, "class", class)})
	}
}

// volumeFor is findBestMatchForClaim reduced to what this simulator has:
// the volume pre-bound to the claim (claimRef with its UID).
func (b *PVBinder) volumeFor(claim *corev1.PersistentVolumeClaim) *corev1.PersistentVolume {
	for _, pv := range b.volumes.List() {
		if ref := pv.Spec.ClaimRef; ref != nil && ref.UID == claim.UID && ref.Namespace == claim.Namespace && ref.Name == claim.Name {
			return pv
		}
	}
	return nil
}

// provisionExternal is provisionClaimOperationExternal: setClaimProvisioner
// (both annotations, one update) and the ExternalProvisioning event.
func (b *PVBinder) provisionExternal(p *engine.Proc, claim *corev1.PersistentVolumeClaim, class *storagev1.StorageClass) error {
	if claim.Annotations[AnnStorageProvisioner] == class.Provisioner {
		return nil
	}
	upd := claim.DeepCopy()
	if upd.Annotations == nil {
		upd.Annotations = map[string]string{}
	}
	upd.Annotations[AnnBetaStorageProvisioner] = class.Provisioner
	upd.Annotations[AnnStorageProvisioner] = class.Provisioner
	b.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: b.c.Actor, To: "kube-apiserver", Kind: "pv.provision", Object: apiserver.ObjectRef(claim),
		Fields: trace.F("claim", claim.Name, "class", class.Name, "provisioner", class.Provisioner, "node", claim.Annotations[scheduler.AnnSelectedNode])})
	obj, err := b.c.In(p).Update(upd)
	if err != nil {
		return err
	}
	b.told[claim.Namespace+"/"+claim.Name] = "ExternalProvisioning"
	b.c.Event(trace.PhaseController, obj, corev1.EventTypeNormal, "ExternalProvisioning", fmt.Sprintf(
		"Waiting for a volume to be created either by the external provisioner '%s' or manually by the system administrator. "+
			"If volume creation is delayed, please verify that the provisioner is running and correctly registered.", class.Provisioner))
	return nil
}

// bind is bind: bindVolumeToClaim (nothing to write: the provisioner set
// the claimRef), updateVolumePhase Bound, bindClaimToVolume,
// updateClaimStatus Bound.
func (b *PVBinder) bind(p *engine.Proc, pv *corev1.PersistentVolume, claim *corev1.PersistentVolumeClaim) error {
	b.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: b.c.Actor, To: "kube-apiserver", Kind: "pv.bind", Object: apiserver.ObjectRef(claim),
		Fields: trace.F("claim", claim.Name, "volume", pv.Name)})
	if pv.Status.Phase != corev1.VolumeBound {
		v := pv.DeepCopy()
		v.Status.Phase = corev1.VolumeBound
		if _, err := b.c.In(p).UpdateStatus(v); err != nil {
			return err
		}
	}
	upd := claim.DeepCopy()
	upd.Spec.VolumeName = pv.Name
	if upd.Annotations == nil {
		upd.Annotations = map[string]string{}
	}
	upd.Annotations[AnnBoundByController] = "yes"
	upd.Annotations[scheduler.AnnBindCompleted] = "yes"
	obj, err := b.c.In(p).Update(upd)
	if err != nil {
		return err
	}
	st := obj.(*corev1.PersistentVolumeClaim).DeepCopy()
	st.Status.Phase = corev1.ClaimBound
	st.Status.AccessModes = pv.Spec.AccessModes
	st.Status.Capacity = pv.Spec.Capacity
	_, err = b.c.In(p).UpdateStatus(st)
	return err
}
