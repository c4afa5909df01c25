package controller

import (
	"slices"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/fnv1a"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
)

// sliceMember is one pod of a slice with what its endpoint shows, read
// from the pod when the pod changes (touch): a slice write then reads one
// array of at most 100 members instead of 100 pods spread over the heap,
// and rebuilds only the Endpoint of a pod whose endpoint changed.
type sliceMember struct {
	name        string
	pod         *corev1.Pod
	ip          string // status.podIP: a pod without one is no endpoint yet
	node        string
	ready, term bool         // the Ready condition is True; deletionTimestamp is set
	named       bool         // spec.hostname is set (withHostname reads the pod)
	ep          *podEndpoint // the Endpoint last written for the pod, or nil
}

// podEndpoint is the Endpoint last written for a pod: reused, shared with
// the stored slice (read-only), while what it shows has not changed. Its
// address and target reference live in the same struct, so an endpoint is
// one allocation; the conditions point at two shared booleans and the node
// name at the controller's one copy per node (stored objects are never
// changed in place), which keeps it at 224 bytes, not 256.
type podEndpoint struct {
	ep   discoveryv1.Endpoint
	addr [1]string
	ref  corev1.ObjectReference
}

// condTrue and condFalse are what every endpoint's condition pointers point
// at (read-only).
var condTrue, condFalse = true, false

func condRef(b bool) *bool {
	if b {
		return &condTrue
	}
	return &condFalse
}

// nodeNames hands out one *string per node name, for the endpoints'
// nodeName.
type nodeNames map[string]*string

func (n nodeNames) of(name string) *string {
	p := n[name]
	if p == nil {
		p = &name
		n[name] = p
	}
	return p
}

// portsOf is resolvePorts(svc, first), kept for the Service version when
// no port names its targetPort: then the ports depend on no pod, and every
// slice of the Service, every version of each, shares them read-only.
func (st *svcSlices) portsOf(svc *corev1.Service, first *corev1.Pod) []discoveryv1.EndpointPort {
	if st.ports != nil && st.portsSvc == svc {
		return st.ports
	}
	ports := resolvePorts(svc, first)
	for _, sp := range svc.Spec.Ports {
		if sp.TargetPort.StrVal != "" {
			return ports // resolved against this pod's container ports
		}
	}
	st.ports, st.portsSvc = ports, svc
	return ports
}

// find returns the position of the named pod in the slice's members, or
// where it would go, and whether it is there.
func (sl *sliceState) find(name string) (int, bool) {
	return slices.BinarySearchFunc(sl.members, name, func(m sliceMember, n string) int { return strings.Compare(m.name, n) })
}

// put adds the pod to the slice, or records its new version, and returns
// its position; at is where it was last seen (-1: not known).
func (sl *sliceState) put(p *corev1.Pod, at int) int {
	i := at
	if i < 0 || i >= len(sl.members) || sl.members[i].name != p.Name {
		var ok bool
		if i, ok = sl.find(p.Name); !ok {
			if len(sl.members) == cap(sl.members) {
				sl.grow()
			}
			sl.members = slices.Insert(sl.members, i, sliceMember{name: p.Name})
		}
	}
	m := &sl.members[i]
	m.pod, m.ip, m.node = p, p.Status.PodIP, p.Spec.NodeName
	m.ready, m.term, m.named = PodReady(p), p.DeletionTimestamp != nil, p.Spec.Hostname != ""
	return i
}

// grow makes room for more members: doubling from 4, but never past
// MaxEndpointsPerSlice, the most a slice holds (append's doubling took a
// full slice from 64 to 128 members and left a copy behind at every step).
func (sl *sliceState) grow() {
	n := min(max(2*cap(sl.members), 4), MaxEndpointsPerSlice)
	sl.members = slices.Grow(sl.members, max(n, len(sl.members)+1)-len(sl.members))
}

// remove takes the named pod out of the slice.
func (sl *sliceState) remove(name string) {
	if i, ok := sl.find(name); ok {
		sl.members = slices.Delete(sl.members, i, i+1)
	}
}

// signature hashes what the slice's endpoints show (each pod with an IP,
// in name order: name, IP, ready, terminating), to skip a write that
// changes nothing; it also counts those endpoints.
func (sl *sliceState) signature() (fnv1a.Hash, int) {
	h, n := fnv1a.Offset, 0
	for i := range sl.members {
		m := &sl.members[i]
		if m.ip == "" {
			continue
		}
		n++
		h = h.Str(m.name).Str(m.ip).Byte(flag(m.ready)).Byte(flag(m.term))
	}
	return h, n
}

// endpoint is podToEndpoint (reconciler's utils.go): the pod's entry,
// reused while what it shows has not changed.
func (m *sliceMember) endpoint(nodes nodeNames) *podEndpoint {
	pe := m.ep
	if pe != nil && pe.addr[0] == m.ip && *pe.ep.Conditions.Serving == m.ready && *pe.ep.Conditions.Terminating == m.term &&
		*pe.ep.NodeName == m.node {
		return pe
	}
	p := m.pod
	pe = &podEndpoint{addr: [1]string{m.ip}, ref: corev1.ObjectReference{Kind: "Pod", Namespace: p.Namespace, Name: p.Name, UID: p.UID}}
	pe.ep = discoveryv1.Endpoint{
		Addresses:  pe.addr[:],
		Conditions: discoveryv1.EndpointConditions{Ready: condRef(m.ready && !m.term), Serving: condRef(m.ready), Terminating: condRef(m.term)},
		NodeName:   nodes.of(m.node),
		TargetRef:  &pe.ref,
	}
	m.ep = pe
	return pe
}
