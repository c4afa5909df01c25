package sim

import (
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
)

// minSyncPeriod is kube-proxy's --iptables-min-sync-period default (1 s):
// changes arriving closer together are applied in one iptables-restore.
const minSyncPeriod = time.Second

// proxyAgent is kube-proxy on one node: it watches Services and
// EndpointSlices and rewrites the node's iptables rules; nothing is sent
// back to the API server.
type proxyAgent struct {
	node      string
	c         *apiserver.Client
	eng       *engine.Engine
	rec       *trace.Recorder
	services  map[string]*corev1.Service
	slices    map[string]map[string]*discoveryv1.EndpointSlice // service key → slice name → slice
	scheduled bool
	lastSync  time.Duration
	synced    bool
	last      map[string]uint64 // hash of the rules last written per service port
	loud      bool
	// routed is every ready endpoint IP in the rules, and onRemoved hears
	// when one leaves them (the delete story's race).
	routed    map[string]bool
	onRemoved func(ip string)
}

func newProxyAgent(c *apiserver.Client, eng *engine.Engine, rec *trace.Recorder, node string, loud bool) *proxyAgent {
	p := &proxyAgent{node: node, c: c, eng: eng, rec: rec, services: map[string]*corev1.Service{},
		slices: map[string]map[string]*discoveryv1.EndpointSlice{}, last: map[string]uint64{}, loud: loud}
	c.Watch("services", func(ev apiserver.Event) {
		svc := ev.Obj.(*corev1.Service)
		k := svc.Namespace + "/" + svc.Name
		if ev.Type == apiserver.Deleted {
			delete(p.services, k)
		} else {
			p.services[k] = svc
		}
		p.schedule()
	})
	c.Watch("endpointslices", func(ev apiserver.Event) {
		sl := ev.Obj.(*discoveryv1.EndpointSlice)
		k := sl.Namespace + "/" + sl.Labels[discoveryv1.LabelServiceName]
		if p.slices[k] == nil {
			p.slices[k] = map[string]*discoveryv1.EndpointSlice{}
		}
		if ev.Type == apiserver.Deleted {
			delete(p.slices[k], sl.Name)
		} else {
			p.slices[k][sl.Name] = sl
		}
		p.schedule()
	})
	return p
}

func (p *proxyAgent) schedule() {
	if p.scheduled {
		return
	}
	p.scheduled = true
	wait := time.Duration(0)
	if p.synced {
		wait = max(0, p.lastSync+minSyncPeriod-p.eng.Now())
	}
	p.eng.After(wait, func() {
		p.scheduled = false
		p.synced = true
		p.lastSync = p.eng.Now()
		p.sync()
	})
}

func (p *proxyAgent) sync() {
	now := map[string]bool{}
	defer func() {
		for ip := range p.routed {
			if !now[ip] && p.onRemoved != nil {
				p.onRemoved(ip)
			}
		}
		p.routed = now
	}()
	keys := make([]string, 0, len(p.services))
	for k := range p.services {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		svc := p.services[k]
		if svc.Spec.ClusterIP == "" || svc.Spec.ClusterIP == corev1.ClusterIPNone || svc.Spec.Type == corev1.ServiceTypeExternalName {
			continue
		}
		if svc.Namespace == "default" && svc.Name == "kubernetes" {
			continue // installed at bootstrap, not part of the story
		}
		var ready []string
		var svcSlices []*discoveryv1.EndpointSlice
		for _, name := range slices.Sorted(maps.Keys(p.slices[k])) {
			sl := p.slices[k][name]
			svcSlices = append(svcSlices, sl)
			for _, ep := range sl.Endpoints {
				if ep.Conditions.Ready == nil || *ep.Conditions.Ready {
					ready = append(ready, ep.Addresses...)
					for _, a := range ep.Addresses {
						now[a] = true
					}
				}
			}
		}
		for _, sp := range svc.Spec.Ports {
			sort.Strings(ready)
			h := fnv.New64a()
			fmt.Fprintf(h, "%d:%d:", len(ready), sp.Port)
			for _, ip := range ready {
				h.Write([]byte(ip))
				h.Write([]byte{','})
			}
			state := h.Sum64()
			if last, ok := p.last[k+"/"+sp.Name]; ok && last == state {
				continue
			}
			_, had := p.last[k+"/"+sp.Name]
			p.last[k+"/"+sp.Name] = state
			ksp := kubeproxy.ServicePort{Namespace: svc.Namespace, Name: svc.Name, PortName: sp.Name, Protocol: string(sp.Protocol)}
			chain := ksp.SVCChain()
			if len(ready) == 0 {
				// No usable endpoint: syncProxyRules writes only a filter-table
				// REJECT in KUBE-SERVICES ("… has no endpoints") and no nat
				// KUBE-SVC chain (pkg/proxy/iptables/proxier.go; kubeproxy.Ruleset
				// does the same for `dnat`).
				kind := "kubeproxy.reject"
				if had {
					kind = "kubeproxy.rejectagain" // the last ready endpoint left: KUBE-SVC goes away
				}
				p.rec.Add(trace.Step{Phase: trace.PhaseReady, Actor: p.c.Actor, Kind: kind, Verbose: !p.loud,
					Object: "services/" + k, Fields: trace.F("service", k, "vip", svc.Spec.ClusterIP, "port", sp.Port,
						"proto", string(sp.Protocol), "comment", ksp.NameString()+" has no endpoints", "chain", chain, "node", p.node)})
				continue
			}
			tp := sp.TargetPort.String()
			if len(svcSlices) > 0 {
				// A named targetPort is resolved per pod by the EndpointSlice controller.
				for _, ep := range svcSlices[0].Ports {
					if ep.Name != nil && *ep.Name == sp.Name && ep.Port != nil {
						tp = fmt.Sprint(*ep.Port)
					}
				}
			}
			p.rec.Add(trace.Step{Phase: trace.PhaseReady, Actor: p.c.Actor, Kind: "kubeproxy.sync", Verbose: !p.loud,
				Object: "services/" + k, Fields: trace.F("service", k, "vip", svc.Spec.ClusterIP, "port", sp.Port,
					"proto", string(sp.Protocol), "chain", chain, "endpoints", len(ready), "targets", joinTargets(ready, tp), "node", p.node)})
		}
	}
}

func joinTargets(ips []string, port string) string {
	if len(ips) == 0 {
		return "-"
	}
	if len(ips) > 10 {
		return fmt.Sprintf("(%d targets on port %s)", len(ips), port)
	}
	out := make([]string, len(ips))
	for i, ip := range ips {
		out[i] = ip + ":" + port
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// dnsAgent is CoreDNS's kubernetes plugin: it watches Services (and
// EndpointSlices for headless ones) and answers from memory.
type dnsAgent struct {
	c      *apiserver.Client
	rec    *trace.Recorder
	domain string
	seen   map[string]string
}

func newDNSAgent(c *apiserver.Client, rec *trace.Recorder, domain string) *dnsAgent {
	d := &dnsAgent{c: c, rec: rec, domain: domain, seen: map[string]string{}}
	c.Watch("services", func(ev apiserver.Event) {
		svc := ev.Obj.(*corev1.Service)
		if ev.Type == apiserver.Deleted || (svc.Namespace == "default" && svc.Name == "kubernetes") {
			return
		}
		fqdn := fmt.Sprintf("%s.%s.svc.%s.", svc.Name, svc.Namespace, d.domain)
		var rr string
		switch {
		case svc.Spec.Type == corev1.ServiceTypeExternalName:
			rr = "CNAME " + svc.Spec.ExternalName + "."
		case svc.Spec.ClusterIP == corev1.ClusterIPNone:
			rr = "A (one per ready endpoint: headless)"
		default:
			rr = "A " + svc.Spec.ClusterIP
		}
		if d.seen[fqdn] == rr {
			return
		}
		d.seen[fqdn] = rr
		d.rec.Add(trace.Step{Phase: trace.PhaseReady, Actor: c.Actor, Kind: "dns.record", Object: apiserver.ObjectRef(svc),
			Fields: trace.F("fqdn", fqdn, "rr", rr)})
	})
	return d
}
