package sim

import (
	"sort"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/dns"
	"github.com/k8sexplain/k8sexplain/internal/sim/informer"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
)

// CoreDNS's per-endpoint records of a headless Service (coredns/coredns
// plugin/kubernetes: kubernetes.go findServices, endpointHostname; the
// kubernetes/dns specification, "Records for a Headless Service"): every
// ready endpoint gets <hostname>.<service>.<namespace>.svc.<zone>, where
// hostname is the endpoint's hostname — the pod's spec.hostname when its
// spec.subdomain names the Service, as a StatefulSet's pods do — or else its
// IP with dashes. CoreDNS serves them from its EndpointSlice informer; here
// that informer opens when the first headless Service appears (nothing
// else CoreDNS answers in a trace reads slices, and the other traces keep
// their watches), and a step shows each record as it appears, changes
// address or goes.

// watchSlices opens CoreDNS's EndpointSlice informer, once.
func (d *dnsAgent) watchSlices() {
	if d.slices != nil {
		return
	}
	d.slices = informer.New[*discoveryv1.EndpointSlice]("endpointslices")
	d.hosts = map[string]map[string]string{}
	d.slices.AddEventHandler(func(ev informer.Event[*discoveryv1.EndpointSlice]) {
		d.syncHostnames(ev.Obj.Namespace, ev.Obj.Labels[discoveryv1.LabelServiceName])
	})
	d.slices.Run(d.c)
}

// syncHostnames recomputes a headless Service's per-endpoint records from
// its slices and records what changed.
func (d *dnsAgent) syncHostnames(ns, name string) {
	svc, ok := d.services.Get(ns, name)
	if !ok || svc.Spec.ClusterIP != corev1.ClusterIPNone {
		return
	}
	in := dns.Service{Namespace: ns, Name: name, ClusterIP: corev1.ClusterIPNone, PublishNotReadyAddresses: svc.Spec.PublishNotReadyAddresses}
	for _, sl := range d.slices.ByNamespace(ns) {
		if sl.Labels[discoveryv1.LabelServiceName] != name {
			continue
		}
		for _, ep := range sl.Endpoints {
			host := ""
			if ep.Hostname != nil {
				host = *ep.Hostname
			}
			for _, ip := range ep.Addresses {
				in.Endpoints = append(in.Endpoints, dns.Endpoint{IP: ip, Hostname: host, Ready: ep.Conditions.Ready == nil || *ep.Conditions.Ready})
			}
		}
	}
	now := map[string]string{}
	for _, r := range dns.Lookup(in, d.domain, dns.DefaultTTL).Hostnames {
		now[r.Name] = r.Type + " " + r.Data
	}
	key := ns + "/" + name
	was := d.hosts[key]
	names := make([]string, 0, len(now)+len(was))
	for n := range now {
		names = append(names, n)
	}
	for n := range was {
		if _, ok := now[n]; !ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		host, _, _ := strings.Cut(n, ".")
		switch rr, ok := now[n]; {
		case !ok:
			d.rec.Add(trace.Step{Phase: trace.PhaseReady, Actor: d.c.Actor, Kind: "dns.hostgone", Object: apiserver.ObjectRef(svc),
				Fields: trace.F("fqdn", n, "rr", was[n])})
		case was[n] != rr:
			d.rec.Add(trace.Step{Phase: trace.PhaseReady, Actor: d.c.Actor, Kind: "dns.host", Object: apiserver.ObjectRef(svc),
				Fields: trace.F("fqdn", n, "rr", rr, "hostname", host, "service", name)})
		}
	}
	d.hosts[key] = now
}
