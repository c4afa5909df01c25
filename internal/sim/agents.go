package sim

import (
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/fnv1a"
	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/sim/informer"
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
//
// Its state is kept incrementally, as kube-proxy's change trackers do
// (pkg/proxy/endpointschangetracker.go: only the Services whose endpoints
// changed since the last sync are recomputed): per slice the ready IPs it
// contributes, per Service their count and an order-free hash, and a
// reference count per routed IP. A sync visits the Services that changed,
// so its cost follows the change, not the cluster.
type proxyAgent struct {
	node      string
	c         *apiserver.Client
	eng       *engine.Engine
	rec       *trace.Recorder
	services  *informer.Informer[*corev1.Service]
	slices    *informer.Informer[*discoveryv1.EndpointSlice] // indexed by Service
	svcs      map[string]*proxyService                       // service key → its state
	scheduled bool
	dead      bool // its node lost power: it sees and writes nothing
	lastSync  time.Duration
	synced    bool
	last      map[string]uint64 // hash of the rules last written per service port
	lastRules map[string]string // the restore input last written per service port of a policyRules Service
	// rows and onRules, set when the state log records (Config.RecordState),
	// are the state log's kube-proxy rows this node holds (stateview_proxy.go).
	rows    map[string][]string
	onRules func(name string, row []string)
	loud    bool
	// refs counts, per ready IP, the programmed endpoints that carry it
	// now (kept on the first worker's kube-proxy only, whose routes the
	// delete story reads; the others' rules are the same counts and hashes); routed is how many IPs the rules held at the last sync, and
	// onRemoved hears when one leaves them (the delete story's race).
	refs      map[string]ipRefs
	routed    int
	touched   []string        // IPs whose refs changed since the last sync, each once
	dirty     map[string]bool // services changed since the last sync
	sliceKey  string          // the Service key of the last slice event
	onRemoved func(ip string)
	// Syncs and SyncedEndpoints count the work the syncs did (for the
	// summary's scale section): rules rewritten, and endpoints in them.
	Syncs, SyncedEndpoints, LargestSync int
}

// proxyService is one Service as kube-proxy tracks it (the Service and
// its slices are read from the informers).
type proxyService struct {
	n       int    // ready IPs over all slices
	sum     uint64 // Σ ipHash over them: the same set in any order gives the same sum
	counted bool   // its IPs are in refs (the Service is programmed)
}

// ipRefs is one IP's entry in refs: the programmed endpoints carrying it
// now, and, once it changed since the last sync (touched), whether the
// rules held it then. One map entry holds both, so a change costs one
// lookup and one store; an IP whose count fell to 0 leaves at the sync.
type ipRefs struct {
	n            int32
	touched, was bool
}

// serviceIndex files EndpointSlices under their Service's key.
const serviceIndex = "service"

func sliceService(sl *discoveryv1.EndpointSlice, prev []string) []string {
	ns, svc := sl.Namespace, sl.Labels[discoveryv1.LabelServiceName]
	if len(prev) == 1 && isServiceKey(prev[0], ns, svc) {
		return prev // every agent's informer sees every slice write: no key built
	}
	return []string{ns + "/" + svc}
}

// isServiceKey reports whether key is ns/svc, without building it.
func isServiceKey(key, ns, svc string) bool {
	return len(key) == len(ns)+1+len(svc) && key[len(ns)] == '/' && strings.HasPrefix(key, ns) && strings.HasSuffix(key, svc)
}

func newProxyAgent(c *apiserver.Client, eng *engine.Engine, rec *trace.Recorder, node string, loud bool) *proxyAgent {
	p := &proxyAgent{node: node, c: c, eng: eng, rec: rec, svcs: map[string]*proxyService{},
		services: informer.New[*corev1.Service]("services"),
		slices:   informer.New[*discoveryv1.EndpointSlice]("endpointslices").AddReuseIndexer(serviceIndex, sliceService),
		last:     map[string]uint64{}, loud: loud, refs: map[string]ipRefs{},
		dirty: map[string]bool{}}
	p.services.AddEventHandler(func(ev informer.Event[*corev1.Service]) {
		k := ev.Obj.Namespace + "/" + ev.Obj.Name
		ps := p.service(k)
		var svc *corev1.Service
		if !ev.Deleted() {
			svc = ev.Obj
		}
		p.count(k, ps, programmed(svc))
		p.dirty[k] = true
		p.Run()
	})
	p.slices.AddEventHandler(func(ev informer.Event[*discoveryv1.EndpointSlice]) {
		sl := ev.Obj
		k := p.sliceKey
		if ns, svc := sl.Namespace, sl.Labels[discoveryv1.LabelServiceName]; !isServiceKey(k, ns, svc) {
			k = ns + "/" + svc
			p.sliceKey = k // the next slice event is most likely the same Service's
		}
		ps := p.service(k)
		var old, now []discoveryv1.Endpoint
		if ev.Old != nil {
			old = ev.Old.Endpoints
		}
		if !ev.Deleted() {
			now = sl.Endpoints
		}
		p.diff(ps, old, now)
		p.dirty[k] = true
		p.Run()
	})
	return p
}

func (p *proxyAgent) Name() string { return p.c.Actor }

// Start opens kube-proxy's watches: Services, then EndpointSlices.
func (p *proxyAgent) Start() {
	p.services.Run(p.c)
	p.slices.Run(p.c)
}

func (p *proxyAgent) service(k string) *proxyService {
	ps := p.svcs[k]
	if ps == nil {
		ps = &proxyService{}
		p.svcs[k] = ps
	}
	return ps
}

// add counts the ready addresses of eps into the Service's count and hash
// (d = 1), or out of them (d = -1).
func (p *proxyAgent) add(ps *proxyService, eps []discoveryv1.Endpoint, d int) {
	for i := range eps {
		if !endpointReady(&eps[i]) {
			continue
		}
		for _, ip := range eps[i].Addresses {
			ps.n += d
			ps.sum += uint64(d) * ipHash(ip)
			if ps.counted {
				p.ref(ip, d)
			}
		}
	}
}

// diff counts a slice write's change into the Service: the endpoints of
// old that are not in now out, those of now not in old in. The controller
// writes endpoints in pod-name order (its members are sorted by name), so
// a merge walk by target name pairs each pod's old entry with its new one,
// and a write that changed three pods of a hundred costs three pods' work,
// not the ninety-odd between the first change and the last. Only pairs
// that route the same way are skipped, so the count and sum come out the
// same for any order: the pairing is a shortcut, never a guess.
func (p *proxyAgent) diff(ps *proxyService, old, now []discoveryv1.Endpoint) {
	i, j := 0, 0
	for i < len(old) && j < len(now) {
		a, b := &old[i], &now[j]
		if sameEndpoint(a, b) {
			i, j = i+1, j+1
			continue
		}
		c := endpointOrder(a, b)
		if c <= 0 {
			p.add(ps, old[i:i+1], -1)
			i++
		}
		if c >= 0 {
			p.add(ps, now[j:j+1], 1)
			j++
		}
	}
	p.add(ps, old[i:], -1)
	p.add(ps, now[j:], 1)
}

// endpointOrder compares two endpoints by the name of the pod they point
// at; 0 (the same place) when either points at none.
func endpointOrder(a, b *discoveryv1.Endpoint) int {
	if a.TargetRef == nil || b.TargetRef == nil {
		return 0
	}
	return strings.Compare(a.TargetRef.Name, b.TargetRef.Name)
}

func endpointReady(ep *discoveryv1.Endpoint) bool {
	return ep.Conditions.Ready == nil || *ep.Conditions.Ready
}

// sameEndpoint reports whether two endpoints route the same way.
func sameEndpoint(a, b *discoveryv1.Endpoint) bool {
	return endpointReady(a) == endpointReady(b) && slices.Equal(a.Addresses, b.Addresses)
}

// readyIPs lists the addresses kube-proxy routes to.
func readyIPs(eps []discoveryv1.Endpoint) []string {
	var out []string
	for i := range eps {
		if endpointReady(&eps[i]) {
			out = append(out, eps[i].Addresses...)
		}
	}
	return out
}

// programmed reports whether kube-proxy writes rules for svc.
func programmed(svc *corev1.Service) bool {
	if svc == nil || svc.Spec.ClusterIP == "" || svc.Spec.ClusterIP == corev1.ClusterIPNone || svc.Spec.Type == corev1.ServiceTypeExternalName {
		return false
	}
	return !(svc.Namespace == "default" && svc.Name == "kubernetes") // installed at bootstrap, not part of the story
}

// count adds a Service's IPs to the routed references, or takes them out.
func (p *proxyAgent) count(k string, ps *proxyService, want bool) {
	if ps.counted == want {
		return
	}
	d := -1
	if want {
		d = 1
	}
	for _, sl := range p.slices.ByIndex(serviceIndex, k) {
		for _, ip := range readyIPs(sl.Endpoints) {
			p.ref(ip, d)
		}
	}
	ps.counted = want
}

func (p *proxyAgent) ref(ip string, d int) {
	if !p.loud {
		return
	}
	r := p.refs[ip]
	if !r.touched { // the first change since the sync: the count is still the synced one
		r.touched, r.was = true, r.n > 0
		p.touched = append(p.touched, ip)
	}
	r.n += int32(d)
	p.refs[ip] = r
}

// ipHash mixes one IP into a Service's order-free sum (FNV-1a, then a
// finaliser so that sums of similar addresses do not collide).
func ipHash(ip string) uint64 {
	h := uint64(fnv1a.Offset.Str(ip))
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}

// Run is the change trackers' trigger, BoundedFrequencyRunner.Run
// (pkg/proxy/runner/bounded_frequency_runner.go, read at kubernetes
// master 95cca0b): a sync is due. A runner already waiting takes the
// change with it; an idle one is started.
func (p *proxyAgent) Run() {
	if p.scheduled || p.dead {
		return
	}
	p.scheduled = true
	p.eng.Go(p.syncRunner)
}

// syncRunner is one turn of BoundedFrequencyRunner.Loop on a proc of the
// node's kube-proxy: it waits out minSyncPeriod since the last sync began
// (upstream's minIntervalTimer; the first sync runs at once), then
// syncProxyRules. Upstream's loop then parks on its run channel; this one
// returns, and the next change starts it again, so a settled cluster has
// no proc parked. A node that lost power meanwhile does not sync.
func (p *proxyAgent) syncRunner(pr *engine.Proc) {
	wait := time.Duration(0)
	if p.synced {
		wait = max(0, p.lastSync+minSyncPeriod-pr.Now())
	}
	pr.Sleep(wait)
	p.scheduled = false
	if p.dead {
		return
	}
	p.synced = true
	p.lastSync = pr.Now()
	p.syncProxyRules()
}

// syncProxyRules is syncProxyRules (pkg/proxy/iptables/proxier.go): the
// Services the change trackers marked since the last sync are rewritten,
// each service port whose endpoints changed a kubeproxy.sync step (or a
// REJECT when none is ready).
func (p *proxyAgent) syncProxyRules() {
	// The rules are written first; then the IPs that left them are gone.
	defer p.settleRoutes()
	keys := slices.Sorted(maps.Keys(p.dirty))
	clear(p.dirty)
	for _, k := range keys {
		ps := p.svcs[k]
		svc, _ := p.services.GetByKey(k)
		if !programmed(svc) {
			if p.onRules != nil {
				p.forgetRules(k)
			}
			continue
		}
		for _, sp := range svc.Spec.Ports {
			p.syncServicePort(k, ps, svc, sp)
		}
	}
}

// settleRoutes counts the IPs the sync's rules started or stopped routing
// to, and reports each one that left them.
func (p *proxyAgent) settleRoutes() {
	slices.Sort(p.touched)
	for _, ip := range p.touched {
		r := p.refs[ip]
		was, now := r.was, r.n > 0
		if now {
			p.refs[ip] = ipRefs{n: r.n}
		} else {
			delete(p.refs, ip)
		}
		switch {
		case now && !was:
			p.routed++
		case was && !now:
			p.routed--
			if p.onRemoved != nil {
				p.onRemoved(ip)
			}
		}
	}
	clear(p.touched) // no strings kept alive past their use
	p.touched = p.touched[:0]
}

// syncServicePort is syncProxyRules' body for one service port: skipped
// when its endpoints and spec hash as at the last sync, otherwise counted
// and shown as its KUBE-SVC chain (or the REJECT when none is ready).
func (p *proxyAgent) syncServicePort(k string, ps *proxyService, svc *corev1.Service, sp corev1.ServicePort) {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d:%d:%d", ps.n, sp.Port, ps.sum)
	if policyRules(svc) { // the spec shapes the rules too
		fmt.Fprintf(h, ":%s:%s:%v:%d:%d", svc.Spec.Type, svc.Spec.ExternalTrafficPolicy, svc.Spec.InternalTrafficPolicy, sp.NodePort, svc.Spec.HealthCheckNodePort)
	}
	state := h.Sum64()
	last, had := p.last[k+"/"+sp.Name]
	if had && last == state {
		return
	}
	p.last[k+"/"+sp.Name] = state
	p.Syncs++
	p.SyncedEndpoints += ps.n
	p.LargestSync = max(p.LargestSync, ps.n)
	if p.onRules != nil {
		p.recordRules(k, svc, sp)
	}
	if p.rec.Full() {
		return
	}
	ksp := kubeproxy.ServicePort{Namespace: svc.Namespace, Name: svc.Name, PortName: sp.Name, Protocol: string(sp.Protocol)}
	chain := ksp.SVCChain()
	if ps.n == 0 {
		// No usable endpoint: syncProxyRules writes only a filter-table
		// REJECT in KUBE-SERVICES ("… has no endpoints") and no nat
		// KUBE-SVC chain (pkg/proxy/iptables/proxier.go; kubeproxy.Ruleset
		// does the same for `dnat`).
		kind := trace.Kind("kubeproxy.reject")
		if had {
			kind = "kubeproxy.rejectagain" // the last ready endpoint left: KUBE-SVC goes away
		}
		p.rec.Add(trace.Step{Phase: trace.PhaseReady, Actor: p.c.Actor, Kind: kind, Verbose: !p.loud,
			Object: "services/" + k, Fields: trace.F("service", k, "vip", svc.Spec.ClusterIP, "port", sp.Port,
				"proto", string(sp.Protocol), "comment", ksp.NameString()+" has no endpoints", "chain", chain, "node", p.node)})
		return
	}
	sls := p.slices.ByIndex(serviceIndex, k) // in name order
	if policyRules(svc) {
		p.syncPolicy(k, svc, sp, sls)
		return
	}
	tp := sp.TargetPort.String()
	if len(sls) > 0 {
		// A named targetPort is resolved per pod by the EndpointSlice controller.
		for _, ep := range sls[0].Ports {
			if ep.Name != nil && *ep.Name == sp.Name && ep.Port != nil {
				tp = fmt.Sprint(*ep.Port)
			}
		}
	}
	var ready []string
	if ps.n <= 10 { // listed by address; more are only counted
		for _, sl := range sls {
			ready = append(ready, readyIPs(sl.Endpoints)...)
		}
	}
	p.rec.Add(trace.Step{Phase: trace.PhaseReady, Actor: p.c.Actor, Kind: "kubeproxy.sync", Verbose: !p.loud,
		Object: "services/" + k, Fields: trace.F("service", k, "vip", svc.Spec.ClusterIP, "port", sp.Port,
			"proto", string(sp.Protocol), "chain", chain, "endpoints", ps.n, "targets", joinTargets(ready, ps.n, tp), "node", p.node)})
}

func joinTargets(ips []string, n int, port string) string {
	if n == 0 {
		return "-"
	}
	if n > 10 {
		return fmt.Sprintf("(%d targets on port %s)", n, port)
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
	c        *apiserver.Client
	rec      *trace.Recorder
	domain   string
	services *informer.Informer[*corev1.Service]
	seen     map[string]string // the record last shown per name
	// slices and hosts serve headless Services' per-endpoint records
	// (dnsrecords.go): opened with the first headless Service.
	slices *informer.Informer[*discoveryv1.EndpointSlice]
	hosts  map[string]map[string]string // service key → fqdn → record
}

func newDNSAgent(c *apiserver.Client, rec *trace.Recorder, domain string) *dnsAgent {
	d := &dnsAgent{c: c, rec: rec, domain: domain, services: informer.New[*corev1.Service]("services"), seen: map[string]string{}}
	d.services.AddEventHandler(func(ev informer.Event[*corev1.Service]) {
		svc := ev.Obj
		if ev.Deleted() || (svc.Namespace == "default" && svc.Name == "kubernetes") {
			return
		}
		fqdn := fmt.Sprintf("%s.%s.svc.%s.", svc.Name, svc.Namespace, d.domain)
		var rr string
		var rrField any
		switch {
		case svc.Spec.Type == corev1.ServiceTypeExternalName:
			rr = "CNAME " + svc.Spec.ExternalName + "."
		case svc.Spec.ClusterIP == corev1.ClusterIPNone:
			rr, rrField = "A (one per ready endpoint: headless)", trace.P("dns.headless")
			d.watchSlices()
		default:
			rr = "A " + svc.Spec.ClusterIP
		}
		if d.seen[fqdn] == rr {
			return
		}
		d.seen[fqdn] = rr
		d.rec.Add(trace.Step{Phase: trace.PhaseReady, Actor: c.Actor, Kind: "dns.record", Object: apiserver.ObjectRef(svc),
			Fields: trace.F("fqdn", fqdn, "rr", rrOr(rrField, rr))})
	})
	return d
}

func (d *dnsAgent) Name() string { return d.c.Actor }

// Start opens CoreDNS's watch of Services.
func (d *dnsAgent) Start() { d.services.Run(d.c) }

// rrOr is the record as a step field: a phrase when it is words.
func rrOr(phrase any, rr string) any {
	if phrase != nil {
		return phrase
	}
	return rr
}
