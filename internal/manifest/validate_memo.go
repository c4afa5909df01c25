package manifest

import (
	"maps"
	"slices"
	"sync"

	corev1 "k8s.io/api/core/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// validMeta remembers metadata that passed apivalidation.ValidateObjectMeta,
// so that the next object with the same metadata apart from its name is
// not validated again: the API server validates every create and update,
// and each call builds its field paths (1.3 M of 14 M allocations at
// 30,000 pods), while the pods of a ReplicaSet, the Events of a component
// or the slices of a Service share everything but the name.
//
// It is exact: besides the name and generateName (which nameFn checks as
// ValidateObjectMetaAccessor does, each time), ValidateObjectMeta reads the
// namespace, whether the kind is namespaced, generation (>= 0), labels,
// annotations, ownerReferences, finalizers and managedFields
// (validateObjectMetaAccessorWithOptsCommon, apimachinery v0.37); equal
// values of those give the same (empty) answer. Anything that does not
// pass, or carries managedFields, goes through ValidateObjectMeta.
var validMeta metaMemo

type metaMemo struct {
	mu sync.Mutex
	// The last few valid metadata (a Pod's, an Event's and a slice's
	// interleave), the oldest replaced first.
	entries [metaMemoSize]*metaEntry
	next    int
}

const metaMemoSize = 8

// metaEntry is a copy of the fields of valid metadata.
type metaEntry struct {
	namespaced  bool
	namespace   string
	labels      map[string]string
	annotations map[string]string
	owners      []metav1.OwnerReference
	finalizers  []string
}

// seen reports whether metadata like m (apart from its name) passed.
func (mm *metaMemo) seen(namespaced bool, m *metav1.ObjectMeta) bool {
	if m.Generation < 0 || len(m.ManagedFields) > 0 {
		return false
	}
	mm.mu.Lock()
	defer mm.mu.Unlock()
	for _, e := range mm.entries {
		if e != nil && e.namespaced == namespaced && e.namespace == m.Namespace && maps.Equal(e.labels, m.Labels) &&
			maps.Equal(e.annotations, m.Annotations) && slices.Equal(e.finalizers, m.Finalizers) &&
			slices.EqualFunc(e.owners, m.OwnerReferences, sameOwnerRef) {
			return true
		}
	}
	return false
}

// remember keeps a copy of what m's validation read, m having passed.
func (mm *metaMemo) remember(namespaced bool, m *metav1.ObjectMeta) {
	if len(m.ManagedFields) > 0 {
		return
	}
	e := &metaEntry{namespaced: namespaced, namespace: m.Namespace, labels: maps.Clone(m.Labels), annotations: maps.Clone(m.Annotations),
		finalizers: slices.Clone(m.Finalizers), owners: make([]metav1.OwnerReference, len(m.OwnerReferences))}
	for i := range m.OwnerReferences {
		m.OwnerReferences[i].DeepCopyInto(&e.owners[i])
	}
	mm.mu.Lock()
	mm.entries[mm.next] = e
	mm.next = (mm.next + 1) % metaMemoSize
	mm.mu.Unlock()
}

// sameOwnerRef compares two owner references field by field, the
// pointers by what they point to.
func sameOwnerRef(a, b metav1.OwnerReference) bool {
	return a.APIVersion == b.APIVersion && a.Kind == b.Kind && a.Name == b.Name && a.UID == b.UID &&
		sameBool(a.Controller, b.Controller) && sameBool(a.BlockOwnerDeletion, b.BlockOwnerDeletion)
}

func sameBool(a, b *bool) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

// namesValid is the name half of ValidateObjectMetaAccessor: generateName
// (as a prefix) and name pass nameFn, and the name is set.
func namesValid(m *metav1.ObjectMeta, nameFn apivalidation.ValidateNameFunc) bool {
	if m.GenerateName != "" && len(nameFn(m.GenerateName, true)) > 0 {
		return false
	}
	return m.Name != "" && len(nameFn(m.Name, false)) == 0
}

// validResources remembers the last container resources that passed
// validateRequests: the containers of a ReplicaSet's pods share their
// template's maps, and each validation sorts both maps and builds a field
// path per resource (0.5 M allocations at 30,000 pods). The checks read
// only the two maps (each quantity's value and name), so equal maps give
// the same (empty) answer; Quantity's == compares its representation,
// which can only miss an equal value, never match a different one.
var validResources resourcesMemo

type resourcesMemo struct {
	mu               sync.Mutex
	limits, requests corev1.ResourceList
	ok               bool
}

func (rm *resourcesMemo) seen(r *corev1.ResourceRequirements) bool {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	return rm.ok && maps.Equal(rm.limits, r.Limits) && maps.Equal(rm.requests, r.Requests)
}

func (rm *resourcesMemo) remember(r *corev1.ResourceRequirements) {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	rm.limits, rm.requests, rm.ok = maps.Clone(r.Limits), maps.Clone(r.Requests), true
}
