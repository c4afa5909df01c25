package apiserver

import (
	"slices"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// ListPodsOnNode is GET /api/v1/pods?fieldSelector=spec.nodeName=NODE, the
// pods bound to node in every namespace (kubectl drain's list).
func (k Calls) ListPodsOnNode(node string) ([]*corev1.Pod, *Status) {
	obj, err := k.do(request{verb: "list", res: podResource, node: node})
	if err != nil {
		return nil, err
	}
	var out []*corev1.Pod
	for i := range obj.(*corev1.PodList).Items {
		out = append(out, &obj.(*corev1.PodList).Items[i])
	}
	return out, nil
}

// list serves a LIST of pods with a spec.nodeName field selector, in key
// order, as copies.
func (s *Server) list(r *request, done Done) {
	l := &corev1.PodList{}
	for _, o := range s.List(r.res.Plural) {
		if p, ok := o.(*corev1.Pod); ok && (r.node == "" || p.Spec.NodeName == r.node) {
			l.Items = append(l.Items, *p.DeepCopy())
		}
	}
	l.ResourceVersion = strconv.FormatInt(s.rev, 10)
	s.answer(done, runtime.Object(l), nil)
}

// unindexed is the plural byPlural leaves out.
const unindexed = "pods"

// count is the number of stored objects of plural.
func (s *Server) count(plural string) int {
	if plural == unindexed {
		return s.pods
	}
	return len(s.byPlural[plural])
}

// each calls fn for every stored object of plural, in no particular order.
func (s *Server) each(plural string, fn func(key string, st *stored)) {
	if plural != unindexed {
		for k, st := range s.byPlural[plural] {
			fn(k, st)
		}
		return
	}
	for k, st := range s.data {
		if st.res.Plural == unindexed {
			fn(k, st)
		}
	}
}

// sortedKeys are the keys of plural's stored objects, in order.
func (s *Server) sortedKeys(plural string) []string {
	keys := make([]string, 0, s.count(plural))
	s.each(plural, func(k string, _ *stored) { keys = append(keys, k) })
	slices.Sort(keys)
	return keys
}
