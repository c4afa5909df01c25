package sim

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
)

// The state log's kube-proxy rows: what each simulated kube-proxy has
// programmed for a service port after its last sync, one row a node and
// port, recorded when a sync rewrites that port's rules (so a node whose
// kube-proxy has not synced yet still shows the old rules, as the real
// node would). The row is a summary of the iptables ruleset the rules
// code of `k8sexplain dnat` writes (kubeproxy.BuildIPTables): the chain
// KUBE-SERVICES jumps to for the cluster IP, and the KUBE-SEP chains it
// picks from with each jump's --probability (pkg/proxy/iptables/proxier.go,
// v1.37: 1/(n-i), %0.10f; the last jump has none).

// proxyRulesKind is the kind of these rows in trace.StateKinds.
const proxyRulesKind = "KubeProxy"

// ruleRow is the row for one port of svc on node's kube-proxy, in
// trace.StateKinds' KubeProxy header order.
func ruleRow(node string, svc *corev1.Service, port corev1.ServicePort, sls []*discoveryv1.EndpointSlice) []string {
	var sp kubeproxy.ServicePort
	for _, c := range kubeproxy.FromAPI(svc, sls) {
		if c.PortName == port.Name && c.Protocol == protoOf(port.Protocol) {
			sp = c
		}
	}
	cat := sp.Categorize(node)
	eps, chain := cat.Cluster, sp.SVCChain()
	if sp.InternalPolicyLocal {
		eps, chain = cat.Local, sp.SVLChain()
	}
	if len(eps) == 0 {
		// No usable endpoint: a filter-table REJECT "… has no endpoints"
		// (a DROP "… has no local endpoints" under internalTrafficPolicy
		// Local when other nodes have some) and no KUBE-SVC chain.
		chain = "REJECT"
		if sp.InternalPolicyLocal && cat.HasAny {
			chain = "DROP"
		}
	}
	return []string{node, sp.NameString(), chain, sepSummary(eps)}
}

// sepSummary is the KUBE-SEP cell: how many endpoint chains, then the
// first three endpoints in rule order with their jump's probability and
// "+ N more..." as kubectl shortens a list of endpoints.
func sepSummary(eps []kubeproxy.Endpoint) string {
	if len(eps) == 0 {
		return "<none>"
	}
	var parts []string
	for i, ep := range eps {
		if i == 3 {
			break
		}
		s := ep.String()
		if i < len(eps)-1 {
			s += " p=" + kubeproxy.Probability(len(eps)-i)
		}
		parts = append(parts, s)
	}
	out := fmt.Sprintf("%d KUBE-SEP: %s", len(eps), strings.Join(parts, ", "))
	if len(eps) > 3 {
		out += " + " + strconv.Itoa(len(eps)-3) + " more..."
	}
	return out
}

// recordRules keeps the row of port sp of Service k as this kube-proxy
// has just written it, and tells the state log when it changed.
func (p *proxyAgent) recordRules(k string, svc *corev1.Service, sp corev1.ServicePort) {
	row := ruleRow(p.node, svc, sp, p.slices.ByIndex(serviceIndex, k))
	key := p.node + " " + row[1]
	if slices.Equal(p.rows[key], row) {
		return
	}
	if p.rows == nil {
		p.rows = map[string][]string{}
	}
	p.rows[key] = row
	p.onRules(key, row)
}

// forgetRules tells the state log that Service k's rules are gone from
// this node (the Service was deleted or is no longer proxied).
func (p *proxyAgent) forgetRules(k string) {
	prefix := p.node + " " + k
	for _, key := range slices.Sorted(maps.Keys(p.rows)) {
		if key == prefix || strings.HasPrefix(key, prefix+":") {
			delete(p.rows, key)
			p.onRules(key, nil)
		}
	}
}

// logRules records a kube-proxy row change (nil row: removed).
func (c *Cluster) logRules(name string, row []string) {
	if c.state == nil {
		return
	}
	ch := trace.ObjectChange{Seq: c.rec.Seq(), At: c.eng.Now(), Kind: proxyRulesKind, Name: name, Deleted: row == nil, Cols: row}
	c.state.Add(ch)
}

// logProxyRows records the rows every kube-proxy holds now, when the
// state log (re)starts.
func (c *Cluster) logProxyRows() {
	for _, node := range slices.Sorted(maps.Keys(c.proxies)) {
		p := c.proxies[node]
		for _, key := range slices.Sorted(maps.Keys(p.rows)) {
			c.logRules(key, p.rows[key])
		}
	}
}
