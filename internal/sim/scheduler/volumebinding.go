package scheduler

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
)

// VolumeBindingName is the plugin's upstream name.
const VolumeBindingName = "VolumeBinding"

// The plugin's texts (plugins/volumebinding/binder.go ConflictReason and
// volume_binding.go PreFilter; v1.37).
const (
	ReasonUnboundImmediate = "pod has unbound immediate PersistentVolumeClaims"
	ReasonBindConflict     = "node(s) didn't find available persistent volumes to bind"
	ReasonNodeConflict     = "node(s) had volume node affinity conflict"
	ReasonPVNotExist       = "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)"
)

// Annotations the scheduler and the PV controller exchange through a claim
// (k8s.io/component-helpers/storage/volume/helpers.go).
const (
	AnnSelectedNode   = "volume.kubernetes.io/selected-node"
	AnnBindCompleted  = "pv.kubernetes.io/bind-completed"
	NotSupportedClass = "kubernetes.io/no-provisioner"
)

// VolumeLister is what the plugin reads: the scheduler's informers for
// claims, volumes and classes (upstream's PVC/PV assume caches and the
// StorageClass lister). The simulator hands it over once the profile is
// built (SetVolumeLister); without one the plugin skips every pod.
type VolumeLister interface {
	Claim(ns, name string) (*corev1.PersistentVolumeClaim, bool)
	Volume(name string) (*corev1.PersistentVolume, bool)
	Class(name string) (*storagev1.StorageClass, bool)
}

// VolumeBinding is plugins/volumebinding: PreFilter sorts the pod's claims
// into bound ones, unbound ones whose class waits for the first consumer
// (WaitForFirstConsumer) and unbound "immediate" ones, which must have been
// bound by the PV controller already; Filter checks a bound claim's volume
// node affinity and, for a claim still to be provisioned, that its class
// has a provisioner and allows the node's topology. Reserve and PreBind —
// writing volume.kubernetes.io/selected-node on the claim and waiting for
// the PV controller to bind it — are the binding cycle's (sim's
// schedagent), as upstream's run beside the pod binding.
//
// Left out: matching pre-created PersistentVolumes to unbound claims
// (findMatchingVolumes: this simulator only provisions), CSIStorageCapacity
// (every node has room), the VolumeCapacityPriority score (off by default),
// generic ephemeral volumes.
type VolumeBinding struct {
	Lister VolumeLister
	last   *volumeState // the latest PreFilter's, for Reserve
}

var preFilterVolumeBindingKey = NewStateKey("PreFilter" + VolumeBindingName)

type volumeState struct {
	bound, delayed []*corev1.PersistentVolumeClaim
}

func newVolumeBinding(any) (Plugin, error) { return &VolumeBinding{}, nil }

// Name returns the plugin's name.
func (*VolumeBinding) Name() string { return VolumeBindingName }

// ClaimNames lists the claims a pod's volumes name, in volume order.
func ClaimNames(pod *corev1.Pod) []string {
	var out []string
	for i := range pod.Spec.Volumes {
		if c := pod.Spec.Volumes[i].PersistentVolumeClaim; c != nil {
			out = append(out, c.ClaimName)
		}
	}
	return out
}

// ClaimClass is GetPersistentVolumeClaimClass (k8s.io/component-helpers
// storage/volume helpers.go, v0.37): the beta annotation
// volume.beta.kubernetes.io/storage-class first, then
// spec.storageClassName, "" when neither is set.
func ClaimClass(c *corev1.PersistentVolumeClaim) string {
	if class, found := c.Annotations[corev1.BetaStorageClassAnnotation]; found {
		return class
	}
	if c.Spec.StorageClassName != nil {
		return *c.Spec.StorageClassName
	}
	return ""
}

// DelayBinding is IsDelayBindingMode: the claim's class exists and binds
// WaitForFirstConsumer. No class, or a class that does not exist, is
// immediate binding.
func DelayBinding(c *corev1.PersistentVolumeClaim, l VolumeLister) bool {
	name := ClaimClass(c)
	if name == "" {
		return false
	}
	sc, ok := l.Class(name)
	return ok && sc.VolumeBindingMode != nil && *sc.VolumeBindingMode == storagev1.VolumeBindingWaitForFirstConsumer
}

// FullyBound is isPVCFullyBound: the claim names its volume and the PV
// controller has marked the binding complete.
func FullyBound(c *corev1.PersistentVolumeClaim) bool {
	_, done := c.Annotations[AnnBindCompleted]
	return c.Spec.VolumeName != "" && done
}

// PreFilter is podHasPVCs then GetPodVolumeClaims: a missing or deleted
// claim, or an unbound immediate one, rejects the pod on every node.
func (pl *VolumeBinding) PreFilter(st *CycleState, pod *corev1.Pod) *Status {
	s := stateOf[volumeState](st, preFilterVolumeBindingKey)
	s.bound, s.delayed = s.bound[:0], s.delayed[:0]
	pl.last = s
	names := ClaimNames(pod)
	if len(names) == 0 || pl.Lister == nil {
		return statusSkip
	}
	immediate := false
	for _, name := range names {
		c, ok := pl.Lister.Claim(pod.Namespace, name)
		if !ok {
			return newStatus(UnschedulableAndUnresolvable, fmt.Sprintf("persistentvolumeclaim %q not found", name))
		}
		if c.DeletionTimestamp != nil {
			return newStatus(UnschedulableAndUnresolvable, fmt.Sprintf("persistentvolumeclaim %q is being deleted", name))
		}
		switch {
		case FullyBound(c):
			s.bound = append(s.bound, c)
		case DelayBinding(c, pl.Lister) && c.Spec.VolumeName == "":
			s.delayed = append(s.delayed, c)
		default:
			immediate = true
		}
	}
	if immediate {
		return newStatus(UnschedulableAndUnresolvable, ReasonUnboundImmediate)
	}
	return nil
}

// Filter is FindPodVolumes for one node.
func (pl *VolumeBinding) Filter(st *CycleState, _ *corev1.Pod, n *NodeInfo) *Status {
	s := readState[volumeState](st, preFilterVolumeBindingKey)
	for _, c := range s.bound {
		pv, ok := pl.Lister.Volume(c.Spec.VolumeName)
		if !ok {
			return newStatus(UnschedulableAndUnresolvable, ReasonPVNotExist)
		}
		if !volumeFitsNode(pv, n.Node) {
			return newStatus(UnschedulableAndUnresolvable, ReasonNodeConflict)
		}
	}
	for _, c := range s.delayed {
		if sel, ok := c.Annotations[AnnSelectedNode]; ok && sel != n.name {
			return newStatus(UnschedulableAndUnresolvable, ReasonBindConflict)
		}
		// checkVolumeProvisions: a class without a provisioner, or whose
		// allowedTopologies leave the node out, cannot provision here.
		sc, _ := pl.Lister.Class(ClaimClass(c))
		if sc.Provisioner == "" || sc.Provisioner == NotSupportedClass || !topologyAllows(sc.AllowedTopologies, n.Node) {
			return newStatus(UnschedulableAndUnresolvable, ReasonBindConflict)
		}
	}
	return nil
}

// Reserve is AssumePodVolumes: the claims the binding cycle must have
// provisioned for the pod (none when every claim is bound already). It
// reads the latest PreFilter's state, so call it right after the cycle.
func (pl *VolumeBinding) Reserve() []*corev1.PersistentVolumeClaim {
	if pl.last == nil || len(pl.last.delayed) == 0 {
		return nil
	}
	return append([]*corev1.PersistentVolumeClaim(nil), pl.last.delayed...)
}

// volumeFitsNode is volume.CheckNodeAffinity: a volume without node
// affinity fits anywhere; otherwise one of its required terms must match.
func volumeFitsNode(pv *corev1.PersistentVolume, node *corev1.Node) bool {
	na := pv.Spec.NodeAffinity
	if na == nil || na.Required == nil {
		return true
	}
	for i := range na.Required.NodeSelectorTerms {
		if termMatches(&na.Required.NodeSelectorTerms[i], node) {
			return true
		}
	}
	return false
}

// topologyAllows is MatchTopologySelectorTerms: no terms allow every node;
// otherwise one term's every expression must hold a node label value.
func topologyAllows(terms []corev1.TopologySelectorTerm, node *corev1.Node) bool {
	if len(terms) == 0 {
		return true
	}
	for _, t := range terms {
		ok := true
		for _, e := range t.MatchLabelExpressions {
			v, has := node.Labels[e.Key]
			if !has || !contains(e.Values, v) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func contains(vs []string, v string) bool {
	for _, x := range vs {
		if x == v {
			return true
		}
	}
	return false
}

// SetVolumeLister hands the profile's VolumeBinding plugin its lister.
func (p *Profile) SetVolumeLister(l VolumeLister) *VolumeBinding {
	for _, pl := range p.PreFilter {
		if vb, ok := pl.(*VolumeBinding); ok {
			vb.Lister = l
			return vb
		}
	}
	return nil
}

// preFilterRejected builds the result of a cycle a PreFilter plugin ended
// (findNodesThatFitPod: every node gets the plugin's status, and
// FitError.Error prints the PreFilter message instead of the per-node
// histogram: "0/N nodes are available: MSG." then preemption's sentence,
// where every node is UnschedulableAndUnresolvable, so "not helpful").
func (s *Scheduler) preFilterRejected(pod *corev1.Pod, nodes []*NodeInfo, st *Status, plugin string, res *Result) {
	for _, n := range nodes {
		s.buf.verdicts = append(s.buf.verdicts, NodeVerdict{Node: n.name, Plugin: plugin, Code: st.Code, Reasons: st.Reasons})
	}
	res.Filtered = s.buf.verdicts
	res.Evaluated = len(nodes) // every node carries the PreFilter's status
	msg := fmt.Sprintf("0/%d nodes are available: %s.", len(nodes), st.Message())
	post := fmt.Sprintf("preemption: 0/%d nodes are available: %d %s.", len(nodes), len(nodes), reasonPreemptionNotHelpful)
	if p := pod.Spec.PreemptionPolicy; p != nil && *p == corev1.PreemptNever {
		post = "preemption: not eligible due to preemptionPolicy=Never."
	}
	if s.profile.DRAPostFilter {
		post = "no new claims to deallocate, " + post
	}
	res.Message = msg + " " + post
}
