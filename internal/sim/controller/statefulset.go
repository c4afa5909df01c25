package controller

// The statefulset controller of kube-controller-manager
// (pkg/controller/statefulset: stateful_set.go, stateful_set_control.go
// UpdateStatefulSet/updateStatefulSet, stateful_pod_control.go
// CreateStatefulPod and its event texts, stateful_set_utils.go
// newStatefulSetPod, getPersistentVolumeClaimName; v1.37). A sync makes
// sure the current revision is stored as a ControllerRevision, then walks
// the ordinals 0…replicas−1: a missing pod gets its claims
// (<template>-<set>-<ordinal>) and is created; under OrderedReady the walk
// stops at the first pod that is not Running and Ready, so web-1 is
// created only once web-0 is Ready. Parallel creates every missing pod at
// once. Pods above replicas are deleted from the highest ordinal down.
//
// A new template is a new revision: RollingUpdate replaces the pods from
// the highest ordinal down to the partition, one at a time (rollingUpdate);
// pods below the partition stay on the current revision.
//
// Left out: minReadySeconds, the PVC retention policy, maxUnavailable
// (beta), OnDelete's details and revision history clean-up.

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"strconv"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/sim/informer"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
)

// Labels the statefulset controller puts on its pods (apps/v1 types.go).
const (
	StatefulSetPodNameLabel = "statefulset.kubernetes.io/pod-name"
	PodIndexLabel           = "apps.kubernetes.io/pod-index"
	RevisionHashLabel       = "controller-revision-hash"
	// ControllerRevisionHashLabel is a ControllerRevision's own hash label
	// (pkg/controller/history controller_history.go).
	ControllerRevisionHashLabel = "controller.kubernetes.io/hash"
)

// StatefulSet is the statefulset controller.
type StatefulSet struct {
	c         *apiserver.Client
	eng       *engine.Engine
	rec       *trace.Recorder
	sets      *informer.Informer[*appsv1.StatefulSet]
	pods      *informer.Informer[*corev1.Pod] // indexed by controller UID
	queue     *workQueue
	revisions map[string]string                  // set key → the ControllerRevision stored
	templates map[string]*corev1.PodTemplateSpec // by revision name
	claims    map[string]bool                    // claims created (namespace/name)
	waiting   map[string]string                  // set key → the pod the last sync waited for
	deleted   map[string]bool                    // pods this controller deleted (an update, a scale-down)
	informers *informer.Factory
}

// NewStatefulSet builds the controller on its client; Start opens its
// watches.
func NewStatefulSet(f *informer.Factory, c *apiserver.Client, eng *engine.Engine, rec *trace.Recorder) *StatefulSet {
	f, own := informer.Or(f, c)
	s := &StatefulSet{c: c, eng: eng, rec: rec, informers: own,
		sets:      informer.For[*appsv1.StatefulSet](f, "statefulsets"),
		pods:      informer.For[*corev1.Pod](f, "pods").EnsureIndexer(informer.ControllerIndex, informer.ByController[*corev1.Pod]),
		revisions: map[string]string{}, templates: map[string]*corev1.PodTemplateSpec{}, claims: map[string]bool{}, waiting: map[string]string{}, deleted: map[string]bool{}}
	s.queue = newWorkQueue(eng, s.sync)
	s.queue.onRetry = retryStep(rec, c.Actor, "statefulsets")
	s.sets.AddEventHandlerFor(c.Actor, observeAndQueue[*appsv1.StatefulSet](rec, c.Actor, "StatefulSet", s.queue))
	s.pods.AddEventHandlerFor(c.Actor, func(ev informer.Event[*corev1.Pod]) {
		if ref := metav1.GetControllerOfNoCopy(ev.Obj); ref != nil && ref.Kind == "StatefulSet" {
			s.queue.add(ev.Obj.Namespace + "/" + ref.Name)
		}
	})
	return s
}

// Name is the controller's client name.
func (s *StatefulSet) Name() string { return s.c.Actor }

// Start opens the controller's own watches; on shared informers
// kube-controller-manager opens them.
func (s *StatefulSet) Start() { s.informers.Start() }

// ClaimName is getPersistentVolumeClaimName: <template>-<set>-<ordinal>.
func ClaimName(set *appsv1.StatefulSet, claim *corev1.PersistentVolumeClaim, ordinal int) string {
	return fmt.Sprintf("%s-%s-%d", claim.Name, set.Name, ordinal)
}

func ordinalOf(set *appsv1.StatefulSet, pod *corev1.Pod) (int, bool) {
	rest, ok := strings.CutPrefix(pod.Name, set.Name+"-")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil && n >= 0
}

func runningAndReady(p *corev1.Pod) bool {
	return p.Status.Phase == corev1.PodRunning && PodReady(p) && p.DeletionTimestamp == nil
}

// setSync is what one sync knows about its set: the revisions, the
// partition, and its pods by ordinal, those above replicas condemned
// (updateStatefulSet's replicas and condemned slices).
type setSync struct {
	set          *appsv1.StatefulSet
	key          string
	rev, current string
	partition    int
	replicas     int
	ordered      bool
	byOrdinal    map[int]*corev1.Pod
	condemned    []*corev1.Pod
}

// revFor is the revision the pod at ordinal o is created from: the update
// revision at or above the partition, the current one below it.
func (st *setSync) revFor(o int) string {
	if o >= st.partition {
		return st.rev
	}
	return st.current
}

// sync is updateStatefulSet: the revision stored, then processReplica for
// each ordinal in order, the rolling update, and processCondemned for the
// pods above replicas from the highest ordinal down.
func (s *StatefulSet) sync(p *engine.Proc, key string) error {
	ns, name, _ := strings.Cut(key, "/")
	set, ok := s.sets.Get(ns, name)
	if !ok {
		return nil
	}
	rev, err := s.ensureRevision(p, set)
	if err != nil {
		return err
	}
	st := s.newSetSync(set, key, rev)
	for o := 0; o < st.replicas; o++ {
		exit, err := s.processReplica(p, st, o)
		if err != nil {
			return err
		}
		if exit {
			break
		}
	}
	if done, err := s.rollingUpdate(p, set, rev, st.partition, st.replicas, st.byOrdinal); done || err != nil {
		return errOrNil(err, s.updateStatus(p, set, st.current, rev, st.byOrdinal))
	}
	// Scale down: the highest ordinal first, one at a time when ordered.
	for i := len(st.condemned) - 1; i >= 0; i-- {
		exit, err := s.processCondemned(p, st, st.condemned[i])
		if err != nil {
			return err
		}
		if exit {
			break
		}
	}
	return s.updateStatus(p, set, st.current, rev, st.byOrdinal)
}

// newSetSync sorts the set's pods into ordinals below replicas and the
// condemned above them.
func (s *StatefulSet) newSetSync(set *appsv1.StatefulSet, key, rev string) *setSync {
	st := &setSync{set: set, key: key, rev: rev, current: rev, replicas: 1,
		ordered: set.Spec.PodManagementPolicy != appsv1.ParallelPodManagement, byOrdinal: map[int]*corev1.Pod{}}
	// The current revision is the one status names while pods of it
	// remain; a new template is the update revision.
	if cr := set.Status.CurrentRevision; cr != "" && s.templates[cr] != nil {
		st.current = cr
	}
	if u := set.Spec.UpdateStrategy; u.Type == appsv1.RollingUpdateStatefulSetStrategyType && u.RollingUpdate != nil && u.RollingUpdate.Partition != nil {
		st.partition = int(*u.RollingUpdate.Partition)
	}
	if set.Spec.Replicas != nil {
		st.replicas = int(*set.Spec.Replicas)
	}
	for _, pod := range s.pods.ByIndex(informer.ControllerIndex, string(set.UID)) {
		if o, ok := ordinalOf(set, pod); ok {
			if o < st.replicas {
				st.byOrdinal[o] = pod
			} else {
				st.condemned = append(st.condemned, pod)
			}
		}
	}
	return st
}

// processReplica handles the ordinal o: a missing pod is created, a
// terminating one waited for, and under OrderedReady the walk stops
// (exit) at the first pod that is not Running and Ready.
func (s *StatefulSet) processReplica(p *engine.Proc, st *setSync, o int) (exit bool, err error) {
	set, key := st.set, st.key
	pod := st.byOrdinal[o]
	if pod == nil {
		delete(s.deleted, set.Namespace+"/"+fmt.Sprintf("%s-%d", set.Name, o))
		created, err := s.createPod(p, set, st.revFor(o), o)
		if err != nil {
			return true, err
		}
		st.byOrdinal[o] = created
		return st.ordered, nil // ordered: wait for it to be Running and Ready
	}
	if pod.DeletionTimestamp != nil {
		// isTerminating: the replacement keeps the name, so it can
		// only be created once this object is gone — on a dead node,
		// when someone force-deletes it or the Node object goes.
		if !s.deleted[pod.Namespace+"/"+pod.Name] && s.waiting[key] != pod.Name+"/terminating" {
			s.waiting[key] = pod.Name + "/terminating"
			s.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: s.c.Actor, Kind: "statefulset.terminating", Object: "pods/" + set.Namespace + "/" + pod.Name,
				Fields: trace.F("set", set.Name, "pod", pod.Name)})
		}
		return st.ordered, nil
	}
	if st.ordered && !runningAndReady(pod) {
		if s.waiting[key] != pod.Name {
			s.waiting[key] = pod.Name
			s.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: s.c.Actor, Kind: "statefulset.wait", Object: "statefulsets/" + key,
				Fields: trace.F("set", set.Name, "pod", pod.Name, "next", fmt.Sprintf("%s-%d", set.Name, o+1))})
		}
		return true, nil
	}
	return false, nil
}

// processCondemned deletes one pod above replicas unless it is already
// terminating; under OrderedReady one at a time (exit).
func (s *StatefulSet) processCondemned(p *engine.Proc, st *setSync, pod *corev1.Pod) (exit bool, err error) {
	if pod.DeletionTimestamp != nil {
		return st.ordered, nil
	}
	set := st.set
	s.deleted[pod.Namespace+"/"+pod.Name] = true
	if _, err := s.c.In(p).Delete(apiserver.ResourceOf(pod), pod.Namespace, pod.Name); err != nil {
		s.c.Event(trace.PhaseController, set, corev1.EventTypeWarning, "FailedDelete", fmt.Sprintf("Delete Pod %s in StatefulSet %s failed error: %s", pod.Name, set.Name, err.Message))
		return true, err
	}
	s.c.Event(trace.PhaseController, set, corev1.EventTypeNormal, "SuccessfulDelete", fmt.Sprintf("Delete Pod %s in StatefulSet %s successful", pod.Name, set.Name))
	return st.ordered, nil
}

func errOrNil(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// rollingUpdate is the RollingUpdate part of updateStatefulSet: once every
// ordinal exists and is healthy, the pod with the largest ordinal at or
// above the partition that is not of the update revision is deleted (and
// recreated from the update revision by a later sync); one at a time, each
// waiting for the one before to be Running and Ready. done is true when
// the sync did (or waited for) something.
func (s *StatefulSet) rollingUpdate(p *engine.Proc, set *appsv1.StatefulSet, rev string, partition, replicas int, pods map[int]*corev1.Pod) (bool, error) {
	if set.Spec.UpdateStrategy.Type == appsv1.OnDeleteStatefulSetStrategyType {
		return false, nil
	}
	for o := 0; o < replicas; o++ {
		if pods[o] == nil || !runningAndReady(pods[o]) {
			return false, nil // still creating or waiting
		}
	}
	for o := replicas - 1; o >= partition; o-- {
		pod := pods[o]
		if pod.Labels[RevisionHashLabel] == rev {
			continue
		}
		s.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: s.c.Actor, Kind: "statefulset.update", Object: "pods/" + set.Namespace + "/" + pod.Name,
			Fields: trace.F("set", set.Name, "pod", pod.Name, "from", pod.Labels[RevisionHashLabel], "to", rev, "partition", partition)})
		s.deleted[pod.Namespace+"/"+pod.Name] = true
		if _, err := s.c.In(p).Delete(apiserver.ResourceOf(pod), pod.Namespace, pod.Name); err != nil {
			s.c.Event(trace.PhaseController, set, corev1.EventTypeWarning, "FailedDelete", fmt.Sprintf("Delete Pod %s in StatefulSet %s failed error: %s", pod.Name, set.Name, err.Message))
			return true, err
		}
		s.c.Event(trace.PhaseController, set, corev1.EventTypeNormal, "SuccessfulDelete", fmt.Sprintf("Delete Pod %s in StatefulSet %s successful", pod.Name, set.Name))
		return true, nil
	}
	return false, nil
}

// ensureRevision stores the set's template as a ControllerRevision named
// <set>-<hash> (stateful_set_utils.go newRevision, history
// NewControllerRevision): its data is the patch that re-applies the
// template, its name the hash of that patch, which the pods'
// controller-revision-hash label carries.
func (s *StatefulSet) ensureRevision(p *engine.Proc, set *appsv1.StatefulSet) (string, error) {
	key := set.Namespace + "/" + set.Name
	data := revisionPatch(&set.Spec.Template)
	// getStatefulSetRevisions hashes with a copy of the collision count,
	// 0 when the status has none: the probe is never nil
	// (stateful_set_control.go; the oracle's statefulset recording)
	rev := set.Name + "-" + revisionHash(data, ptr.Deref(set.Status.CollisionCount, 0))
	if s.revisions[key] == rev {
		return rev, nil
	}
	s.templates[rev] = set.Spec.Template.DeepCopy()
	cr := &appsv1.ControllerRevision{}
	cr.Name, cr.Namespace = rev, set.Namespace
	// history.NewControllerRevision labels it with the template's labels and
	// controller.kubernetes.io/hash; newRevision copies the set's annotations
	cr.Labels = map[string]string{ControllerRevisionHashLabel: strings.TrimPrefix(rev, set.Name+"-")}
	if len(set.Annotations) > 0 {
		cr.Annotations = maps.Clone(set.Annotations)
	}
	for k, v := range set.Spec.Template.Labels {
		cr.Labels[k] = v
	}
	cr.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(set, appsv1.SchemeGroupVersion.WithKind("StatefulSet"))}
	cr.Data = runtime.RawExtension{Raw: data}
	cr.Revision = int64(len(s.templates))
	if _, err := s.c.In(p).Create(cr); err != nil && err.Reason != "AlreadyExists" {
		return "", err
	}
	s.revisions[key] = rev
	s.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: s.c.Actor, Kind: "statefulset.revision", Object: "controllerrevisions/" + set.Namespace + "/" + rev,
		Fields: trace.F("set", set.Name, "revision", rev)})
	return rev, nil
}

// createPod is CreateStatefulPod: the claims first, then the pod.
func (s *StatefulSet) createPod(p *engine.Proc, set *appsv1.StatefulSet, rev string, ordinal int) (*corev1.Pod, error) {
	tmpl := s.templates[rev]
	if tmpl == nil {
		tmpl = &set.Spec.Template
	}
	pod := newStatefulSetPod(set, tmpl, rev, ordinal)
	for i := range set.Spec.VolumeClaimTemplates {
		tmpl := &set.Spec.VolumeClaimTemplates[i]
		claim := &corev1.PersistentVolumeClaim{}
		claim.Name, claim.Namespace = ClaimName(set, tmpl, ordinal), set.Namespace
		if s.claims[claim.Namespace+"/"+claim.Name] {
			continue
		}
		claim.Labels = map[string]string{}
		for k, v := range set.Spec.Selector.MatchLabels {
			claim.Labels[k] = v
		}
		claim.Spec = *tmpl.Spec.DeepCopy()
		if _, err := s.c.In(p).Create(claim); err != nil && err.Reason != "AlreadyExists" {
			s.c.Event(trace.PhaseController, set, corev1.EventTypeWarning, "FailedCreate",
				fmt.Sprintf("Create Claim %s for Pod %s in StatefulSet %s failed error: %s", claim.Name, pod.Name, set.Name, err.Message))
			return nil, err
		}
		s.claims[claim.Namespace+"/"+claim.Name] = true
		s.c.Event(trace.PhaseController, set, corev1.EventTypeNormal, "SuccessfulCreate",
			fmt.Sprintf("Create Claim %s Pod %s in StatefulSet %s success", claim.Name, pod.Name, set.Name))
	}
	s.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: s.c.Actor, Kind: "statefulset.create", Object: "pods/" + set.Namespace + "/" + pod.Name,
		Fields: trace.F("set", set.Name, "pod", pod.Name, "ordinal", ordinal, "policy", string(set.Spec.PodManagementPolicy))})
	obj, err := s.c.In(p).Create(pod)
	// v1.37's recordPodEvent/recordClaimEvent title-case the verb in the
	// message too ("Create Pod web-0 in StatefulSet web successful":
	// stateful_pod_control.go, cases.Title; the oracle's statefulset recording)
	if err != nil {
		s.c.Event(trace.PhaseController, set, corev1.EventTypeWarning, "FailedCreate",
			fmt.Sprintf("Create Pod %s in StatefulSet %s failed error: %s", pod.Name, set.Name, err.Message))
		return nil, err
	}
	s.c.Event(trace.PhaseController, set, corev1.EventTypeNormal, "SuccessfulCreate",
		fmt.Sprintf("Create Pod %s in StatefulSet %s successful", pod.Name, set.Name))
	return obj.(*corev1.Pod), nil
}

// newStatefulSetPod is newVersionedStatefulSetPod: the template with a
// stable name, the identity labels, hostname and subdomain, and each
// claim template's volume pointing at the ordinal's claim.
func newStatefulSetPod(set *appsv1.StatefulSet, tmpl *corev1.PodTemplateSpec, rev string, ordinal int) *corev1.Pod {
	pod := &corev1.Pod{}
	pod.Name, pod.Namespace = fmt.Sprintf("%s-%d", set.Name, ordinal), set.Namespace
	// GetPodFromTemplate names the set as the prefix before initIdentity
	// gives the ordinal name (controller_utils.go getPodsPrefix)
	pod.GenerateName = set.Name + "-"
	pod.Labels = map[string]string{}
	for k, v := range tmpl.Labels {
		pod.Labels[k] = v
	}
	pod.Labels[StatefulSetPodNameLabel] = pod.Name
	pod.Labels[PodIndexLabel] = strconv.Itoa(ordinal)
	pod.Labels[RevisionHashLabel] = rev
	pod.Annotations = tmpl.Annotations
	pod.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(set, appsv1.SchemeGroupVersion.WithKind("StatefulSet"))}
	pod.Spec = *tmpl.Spec.DeepCopy()
	pod.Spec.Hostname, pod.Spec.Subdomain = pod.Name, set.Spec.ServiceName
	for i := range set.Spec.VolumeClaimTemplates {
		tmpl := &set.Spec.VolumeClaimTemplates[i]
		vol := corev1.Volume{Name: tmpl.Name, VolumeSource: corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: ClaimName(set, tmpl, ordinal)}}}
		replaced := false
		for j := range pod.Spec.Volumes {
			if pod.Spec.Volumes[j].Name == tmpl.Name {
				pod.Spec.Volumes[j], replaced = vol, true
			}
		}
		if !replaced {
			pod.Spec.Volumes = append(pod.Spec.Volumes, vol)
		}
	}
	return pod
}

// updateStatus is updateStatefulSetStatus: counts written only when they
// changed.
func (s *StatefulSet) updateStatus(p *engine.Proc, set *appsv1.StatefulSet, current, rev string, pods map[int]*corev1.Pod) error {
	// updateStatefulSet writes the collision count it hashed with, 0 when
	// the set had none (stateful_set_control.go: status.CollisionCount =
	// &collisionCount)
	st := appsv1.StatefulSetStatus{ObservedGeneration: set.Generation, CurrentRevision: current, UpdateRevision: rev,
		CollisionCount: ptr.To(ptr.Deref(set.Status.CollisionCount, 0))}
	for _, pod := range pods {
		st.Replicas++
		if pod.Labels[RevisionHashLabel] == current {
			st.CurrentReplicas++
		}
		if pod.Labels[RevisionHashLabel] == rev {
			st.UpdatedReplicas++
		}
		if runningAndReady(pod) {
			st.ReadyReplicas++
			st.AvailableReplicas++
		}
	}
	// Every replica updated: the update revision becomes the current one
	// (updateStatefulSetStatus / completeRollingUpdate).
	replicas := int32(1)
	if set.Spec.Replicas != nil {
		replicas = *set.Spec.Replicas
	}
	if st.UpdatedReplicas == replicas && st.ReadyReplicas == replicas {
		st.CurrentRevision, st.CurrentReplicas = rev, st.UpdatedReplicas
	}
	if equality.Semantic.DeepEqual(st, set.Status) {
		return nil
	}
	upd := set.DeepCopy()
	upd.Status = st
	_, err := s.c.In(p).UpdateStatus(upd)
	if err != nil {
		return err
	}
	return nil
}

// revisionPatch is the ControllerRevision's data (stateful_set_utils.go
// getPatch): the set encoded as JSON, decoded into maps, and only
// spec.template kept with "$patch": "replace", marshalled again, so every
// object's keys come out sorted.
func revisionPatch(tmpl *corev1.PodTemplateSpec) []byte {
	b, err := json.Marshal(tmpl)
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	m["$patch"] = "replace"
	out, _ := json.Marshal(map[string]any{"spec": map[string]any{"template": m}})
	return out
}

// revisionHash is history.HashControllerRevision: FNV-1 32 (not 1a) over
// the patch, then the collision count in decimal, the sum printed in
// decimal and safe-encoded.
func revisionHash(data []byte, collisionCount int32) string {
	h := fnv.New32()
	h.Write(data)
	h.Write([]byte(strconv.FormatInt(int64(collisionCount), 10)))
	return safeEncode(strconv.FormatUint(uint64(h.Sum32()), 10))
}
