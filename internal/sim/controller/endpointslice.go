package controller

import (
	"fmt"
	"sort"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
)

// EndpointSlice is the endpointslice controller: for every Service with a
// selector it keeps one EndpointSlice listing the matching pods that have
// an IP, each with ready/serving/terminating conditions
// (pkg/controller/endpointslice; slices hold up to 100 endpoints by default,
// the simulator keeps one slice per Service).
type EndpointSlice struct {
	c        *apiserver.Client
	eng      *engine.Engine
	rec      *trace.Recorder
	services map[string]*corev1.Service
	pods     map[string]map[string]*corev1.Pod // namespace → name → pod
	slices   map[string]*discoveryv1.EndpointSlice
	creating map[string]bool
	pending  map[string]bool
	last     map[string]string
}

// NewEndpointSlice starts the controller's watches.
func NewEndpointSlice(c *apiserver.Client, eng *engine.Engine, rec *trace.Recorder) *EndpointSlice {
	e := &EndpointSlice{c: c, eng: eng, rec: rec, services: map[string]*corev1.Service{},
		pods: map[string]map[string]*corev1.Pod{}, slices: map[string]*discoveryv1.EndpointSlice{},
		creating: map[string]bool{}, pending: map[string]bool{}, last: map[string]string{}}
	c.Watch("services", func(ev apiserver.Event) {
		svc := ev.Obj.(*corev1.Service)
		k := svc.Namespace + "/" + svc.Name
		if ev.Type == apiserver.Deleted {
			delete(e.services, k)
			return
		}
		e.services[k] = svc
		e.enqueue(k)
	})
	c.Watch("pods", func(ev apiserver.Event) {
		pod := ev.Obj.(*corev1.Pod)
		ns := e.pods[pod.Namespace]
		if ns == nil {
			ns = map[string]*corev1.Pod{}
			e.pods[pod.Namespace] = ns
		}
		if ev.Type == apiserver.Deleted {
			delete(ns, pod.Name)
		} else {
			ns[pod.Name] = pod
		}
		for k, svc := range e.services {
			if svc.Namespace == pod.Namespace && len(svc.Spec.Selector) > 0 &&
				labels.SelectorFromSet(svc.Spec.Selector).Matches(labels.Set(pod.Labels)) {
				e.enqueue(k)
			}
		}
	})
	c.Watch("endpointslices", func(ev apiserver.Event) {
		sl := ev.Obj.(*discoveryv1.EndpointSlice)
		svc := sl.Labels[discoveryv1.LabelServiceName]
		if svc == "" {
			return
		}
		k := sl.Namespace + "/" + svc
		if ev.Type == apiserver.Deleted {
			delete(e.slices, k)
		} else {
			e.slices[k] = sl
		}
	})
	return e
}

func (e *EndpointSlice) enqueue(k string) {
	if e.pending[k] {
		return
	}
	e.pending[k] = true
	e.eng.After(0, func() { delete(e.pending, k); e.sync(k) })
}

func (e *EndpointSlice) sync(k string) {
	svc := e.services[k]
	if svc == nil || len(svc.Spec.Selector) == 0 || e.creating[k] {
		return // no selector: the user manages endpoints
	}
	sel := labels.SelectorFromSet(svc.Spec.Selector)
	var eps []discoveryv1.Endpoint
	var ports []discoveryv1.EndpointPort
	names := make([]string, 0)
	for n, p := range e.pods[svc.Namespace] {
		if p.Status.PodIP != "" && sel.Matches(labels.Set(p.Labels)) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var summary []string
	for i, n := range names {
		p := e.pods[svc.Namespace][n]
		ready := podReady(p) && p.DeletionTimestamp == nil
		serving := podReady(p)
		term := p.DeletionTimestamp != nil
		node := p.Spec.NodeName
		eps = append(eps, discoveryv1.Endpoint{
			Addresses:  []string{p.Status.PodIP},
			Conditions: discoveryv1.EndpointConditions{Ready: &ready, Serving: &serving, Terminating: &term},
			NodeName:   &node,
			TargetRef:  &corev1.ObjectReference{Kind: "Pod", Namespace: p.Namespace, Name: p.Name, UID: p.UID},
		})
		if i == 0 {
			ports = resolvePorts(svc, p)
		}
		state := "ready"
		if !ready {
			state = "not ready"
		}
		summary = append(summary, fmt.Sprintf("%s (%s, %s)", p.Status.PodIP, p.Name, state))
	}
	if ports == nil {
		ports = resolvePorts(svc, nil)
	}
	text := strings.Join(summary, ", ")
	if text == "" {
		text = "-"
	}
	if prev, ok := e.last[k]; ok && prev == text {
		return
	}
	e.last[k] = text
	cur := e.slices[k]
	sl := &discoveryv1.EndpointSlice{AddressType: discoveryv1.AddressTypeIPv4, Endpoints: eps, Ports: ports}
	if cur != nil {
		sl.ObjectMeta = *cur.ObjectMeta.DeepCopy()
	} else {
		sl.Namespace = svc.Namespace
		sl.GenerateName = svc.Name + "-"
		sl.Labels = map[string]string{discoveryv1.LabelServiceName: svc.Name, discoveryv1.LabelManagedBy: "endpointslice-controller.k8s.io"}
	}
	readyN := 0
	for _, ep := range eps {
		if *ep.Conditions.Ready {
			readyN++
		}
	}
	step := trace.Step{Phase: trace.PhaseReady, Actor: e.c.Actor, Kind: "endpointslice.update", Object: "services/" + k,
		Fields: trace.F("service", svc.Name, "ready", readyN, "total", len(eps), "endpoints", text)}
	done := func(obj runtime.Object, err *apiserver.Status) {
		delete(e.creating, k)
		if err == nil {
			e.slices[k] = obj.(*discoveryv1.EndpointSlice)
		}
	}
	if cur == nil {
		step.Kind = "endpointslice.create"
		e.creating[k] = true
		e.rec.Add(step)
		e.c.Create(sl, func(obj runtime.Object, err *apiserver.Status) {
			done(obj, err)
			e.enqueue(k) // pods may have changed while the slice was being created
		})
		return
	}
	e.rec.Add(step)
	e.c.Update(sl, done)
}

// resolvePorts turns Service ports into EndpointSlice ports, resolving a
// named targetPort against the pod's container ports.
func resolvePorts(svc *corev1.Service, pod *corev1.Pod) []discoveryv1.EndpointPort {
	var out []discoveryv1.EndpointPort
	for _, sp := range svc.Spec.Ports {
		name, proto := sp.Name, sp.Protocol
		port := sp.TargetPort.IntVal
		if sp.TargetPort.StrVal != "" {
			port = 0
			if pod != nil {
				for _, c := range pod.Spec.Containers {
					for _, cp := range c.Ports {
						if cp.Name == sp.TargetPort.StrVal {
							port = cp.ContainerPort
						}
					}
				}
			}
			if port == 0 {
				continue
			}
		}
		if port == 0 {
			port = sp.Port
		}
		p := port
		out = append(out, discoveryv1.EndpointPort{Name: &name, Protocol: &proto, Port: &p})
	}
	return out
}
