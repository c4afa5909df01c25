package sim

// The external provisioner behind kind's default StorageClass "standard":
// rancher/local-path-provisioner (provisioner rancher.io/local-path), built
// on kubernetes-sigs/sig-storage-lib-external-provisioner's controller
// (controller/controller.go shouldProvision, provisionClaimOperation). It
// provisions a claim once the PV controller has annotated it
// volume.kubernetes.io/storage-provisioner with its name and, for a
// WaitForFirstConsumer class, once the scheduler has written
// volume.kubernetes.io/selected-node: the Provisioning event, the
// directory made on that node (by a helper pod, here a fixed delay), then
// the PersistentVolume pvc-<claim UID> with its claimRef already set,
// hostPath /var/local-path-provisioner/<pv>_<namespace>_<claim>, node
// affinity to the selected node, and the ProvisioningSucceeded event. The
// PV controller then binds the two.
//
// Why this provisioner: it is what `kind create cluster` installs as the
// default class (kubernetes-sigs/kind images/base/files/kind/manifests/
// default-storage.yaml: "standard", rancher.io/local-path,
// WaitForFirstConsumer, reclaimPolicy Delete), the cluster a learner is
// most likely to try these manifests on; and a node-local volume shows why
// WaitForFirstConsumer exists: the volume must be made where the pod runs.

import (
	"fmt"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/controller"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/sim/informer"
	"github.com/k8sexplain/k8sexplain/internal/sim/scheduler"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
)

// The default class and its provisioner, as kind ships them.
const (
	DefaultStorageClass = "standard"
	LocalPathName       = "rancher.io/local-path"
	localPathBase       = "/var/local-path-provisioner"
	// provisionTime stands for local-path-provisioner's helper pod, which
	// makes the directory on the node before the volume is created: about
	// 3 s on kind between the Provisioning and ProvisioningSucceeded
	// events (an observation, not an upstream constant).
	provisionTime = 3 * time.Second
)

// defaultStorageClass is kind's "standard" class, marked default with
// storageclass.kubernetes.io/is-default-class.
func defaultStorageClass() *storagev1.StorageClass {
	wffc := storagev1.VolumeBindingWaitForFirstConsumer
	del := corev1.PersistentVolumeReclaimDelete
	sc := &storagev1.StorageClass{Provisioner: LocalPathName, VolumeBindingMode: &wffc, ReclaimPolicy: &del}
	sc.Name = DefaultStorageClass
	sc.Annotations = map[string]string{apiserver.AnnDefaultStorageClass: "true"}
	return sc
}

// addOns are the optional add-ons beside the control plane: metrics-server
// (Config.Autoscaling) and the local-path provisioner (Config.Volumes).
func (c *Cluster) addOns() []Component {
	var comps []Component
	if c.metrics != nil {
		comps = append(comps, c.metrics)
	}
	if c.cfg.Volumes {
		// The provisioner's events name it by provisioner and pod
		// (the library's identity "<provisioner>_<hostname>_<uuid>").
		lp := c.api.NewClient("local-path-provisioner", localPathIdentity(), trace.PhaseController)
		lp.Component = LocalPathName + "_local-path-provisioner"
		comps = append(comps, newLocalPathProvisioner(lp, c.eng, c.rec))
	}
	return comps
}

type localPathProvisioner struct {
	c       *apiserver.Client
	eng     *engine.Engine
	rec     *trace.Recorder
	claims  *informer.Informer[*corev1.PersistentVolumeClaim]
	classes *informer.Informer[*storagev1.StorageClass]
	started map[string]bool // claims whose provisioning began (by UID)
}

func newLocalPathProvisioner(c *apiserver.Client, eng *engine.Engine, rec *trace.Recorder) *localPathProvisioner {
	lp := &localPathProvisioner{c: c, eng: eng, rec: rec, started: map[string]bool{},
		claims:  informer.New[*corev1.PersistentVolumeClaim]("persistentvolumeclaims"),
		classes: informer.New[*storagev1.StorageClass]("storageclasses")}
	lp.claims.AddEventHandler(func(ev informer.Event[*corev1.PersistentVolumeClaim]) {
		if !ev.Deleted() && lp.shouldProvision(ev.Obj) {
			lp.started[string(ev.Obj.UID)] = true
			claim := ev.Obj
			eng.Go(func(p *engine.Proc) { lp.provision(p, claim) })
		}
	})
	return lp
}

func (lp *localPathProvisioner) Name() string { return lp.c.Actor }

func (lp *localPathProvisioner) Start() {
	lp.classes.Run(lp.c)
	lp.claims.Run(lp.c)
}

// shouldProvision is the library's shouldProvision: an unbound claim
// annotated for this provisioner, with a selected node when its class
// waits for the first consumer (local-path needs one in any case).
func (lp *localPathProvisioner) shouldProvision(c *corev1.PersistentVolumeClaim) bool {
	if c.Spec.VolumeName != "" || lp.started[string(c.UID)] || c.Annotations[controller.AnnStorageProvisioner] != LocalPathName {
		return false
	}
	_, ok := lp.classes.Get("", scheduler.ClaimClass(c))
	return ok && c.Annotations[scheduler.AnnSelectedNode] != ""
}

// provision is provisionClaimOperation with local-path's Provision.
func (lp *localPathProvisioner) provision(p *engine.Proc, claim *corev1.PersistentVolumeClaim) {
	key := claim.Namespace + "/" + claim.Name
	lp.c.Event(trace.PhaseController, claim, corev1.EventTypeNormal, "Provisioning",
		fmt.Sprintf("External provisioner is provisioning volume for claim %q", key))
	p.Sleep(provisionTime)
	class, _ := lp.classes.Get("", scheduler.ClaimClass(claim))
	node := claim.Annotations[scheduler.AnnSelectedNode]
	pv := &corev1.PersistentVolume{}
	pv.Name = "pvc-" + string(claim.UID) // getProvisionedVolumeNameForClaim
	pv.Annotations = map[string]string{controller.AnnDynamicallyProvisioned: LocalPathName}
	fs := corev1.PersistentVolumeFilesystem
	pv.Spec = corev1.PersistentVolumeSpec{
		Capacity:                      corev1.ResourceList{corev1.ResourceStorage: claim.Spec.Resources.Requests[corev1.ResourceStorage]},
		AccessModes:                   claim.Spec.AccessModes,
		PersistentVolumeReclaimPolicy: corev1.PersistentVolumeReclaimDelete,
		StorageClassName:              class.Name,
		VolumeMode:                    &fs,
		ClaimRef: &corev1.ObjectReference{Kind: "PersistentVolumeClaim", APIVersion: "v1", Namespace: claim.Namespace, Name: claim.Name,
			UID: claim.UID, ResourceVersion: claim.ResourceVersion},
		PersistentVolumeSource: corev1.PersistentVolumeSource{HostPath: &corev1.HostPathVolumeSource{
			Path: localPathBase + "/" + strings.Join([]string{pv.Name, claim.Namespace, claim.Name}, "_"), Type: ptrTo(corev1.HostPathDirectoryOrCreate)}},
		NodeAffinity: &corev1.VolumeNodeAffinity{Required: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
			MatchExpressions: []corev1.NodeSelectorRequirement{{Key: corev1.LabelHostname, Operator: corev1.NodeSelectorOpIn, Values: []string{node}}}}}}},
	}
	if class.ReclaimPolicy != nil {
		pv.Spec.PersistentVolumeReclaimPolicy = *class.ReclaimPolicy
	}
	size := pv.Spec.Capacity[corev1.ResourceStorage]
	lp.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: lp.c.Actor, To: "kube-apiserver", Kind: "provisioner.create", Object: "persistentvolumes/" + pv.Name,
		Fields: trace.F("volume", pv.Name, "claim", key, "size", size.String(), "path", pv.Spec.HostPath.Path, "node", node, "took", provisionTime)})
	if _, err := lp.c.In(p).Create(pv); err != nil {
		lp.c.Event(trace.PhaseController, claim, corev1.EventTypeWarning, "ProvisioningFailed", err.Message)
		return
	}
	lp.c.Event(trace.PhaseController, claim, corev1.EventTypeNormal, "ProvisioningSucceeded", "Successfully provisioned volume "+pv.Name)
}

func ptrTo[T any](v T) *T { return &v }

// localPathIdentity is the provisioner's service account in its own
// namespace (local-path-storage.yaml: local-path-provisioner-service-account).
func localPathIdentity() apiserver.Identity {
	return apiserver.Identity{User: "system:serviceaccount:local-path-storage:local-path-provisioner-service-account",
		Groups: []string{"system:serviceaccounts", "system:serviceaccounts:local-path-storage", "system:authenticated"}, Method: "service account token (JWT)"}
}
