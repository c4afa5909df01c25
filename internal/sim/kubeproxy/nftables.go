package kubeproxy

import (
	"fmt"
	"strconv"
	"strings"
)

// NFTView is the part of kube-proxy's nftables transaction (table
// "ip kube-proxy", pkg/proxy/nftables/proxier.go, v1.37) that serves the
// ports, plus the fixed rules of the services and masquerading chains that
// a new connection meets on its way.
type NFTView struct {
	// Text is the per-Service part of a full sync, in "nft -f" form.
	Text string
	// Base is the fixed rules of the services and masquerading chains
	// (setupNFTables) that every Service relies on.
	Base string
	// Chains and Rules count what the ports add; Elements counts map and
	// set entries.
	Chains, Rules, Elements int
}

// BuildNFT renders the nftables objects for the ports in "nft -f" form, in
// the order syncProxyRules adds them to its transaction on a full sync:
// per Service, the chains it needs (each added, then flushed), the
// hairpin-connections elements of this node's endpoints, the cluster-ips,
// service-ips, firewall-ips, service-nodeports and no-endpoint-* elements,
// the external and firewall chains' rules, the affinity sets, then the DNAT
// (or, with ClientIP affinity, the jumps and the endpoint chains). Rule
// text is knftables.Concat of upstream's tokens ("@" joins the set name).
// In v1.37 a Service without affinity has no endpoint chains: its
// service chain DNATs directly, with "numgen random mod N map".
func BuildNFT(cfg Config, ports []ServicePort) NFTView {
	w := &nftWriter{cfg: cfg, hairpin: map[string]bool{}}
	size := 0
	for _, sp := range ports {
		// About what a port without affinity writes (700 bytes and 30
		// per endpoint); the builder grows when more is needed.
		size += 800 + 40*len(sp.Endpoints)
	}
	w.b.Grow(size)
	w.ipx = "ip"
	for _, sp := range ports {
		if sp.Proxied() && sp.IPv6() {
			w.ipx = "ip6"
		}
	}
	w.tbl = w.ipx + " kube-proxy"
	mark := MasqueradeMark(cfg.MasqueradeBit)
	w.masq = "mark set mark or " + mark
	for _, sp := range ports {
		if !sp.Proxied() {
			continue
		}
		np := newNFTPort(cfg, sp)
		w.created = map[string]bool{}
		w.chains(np)
		w.serviceElements(np)
		w.externalElements(np)
		w.externalRules(np)
		w.endpointRules(np)
	}
	w.v.Text = w.b.String()
	w.v.Base = nftBase(cfg, w.ipx, w.tbl, w.masq, mark)
	return w.v
}

// nftWriter is syncProxyRules' transaction being written: the text, the
// counts, the hairpin elements already added, and the chains the current
// port has added.
type nftWriter struct {
	cfg            Config
	b              strings.Builder
	v              NFTView
	ipx, tbl, masq string
	hairpin        map[string]bool
	created        map[string]bool
}

func (w *nftWriter) line(format string, args ...any) { fmt.Fprintf(&w.b, format+"\n", args...) }

// chain adds and flushes the chain c, once per port.
func (w *nftWriter) chain(c string) {
	if !w.created[c] {
		w.created[c] = true
		w.line("add chain %s %s", w.tbl, c)
		w.line("flush chain %s %s", w.tbl, c)
		w.v.Chains++
	}
}

func (w *nftWriter) rule(c, r string) {
	w.line("add rule %s %s %s", w.tbl, c, r)
	w.v.Rules++
}

// elem adds key (and its value, when a map) to the set or map m.
func (w *nftWriter) elem(m, key, val string) {
	if val == "" {
		w.line("add element %s %s { %s }", w.tbl, m, key)
	} else {
		w.line("add element %s %s { %s : %s }", w.tbl, m, key, val)
	}
	w.v.Elements++
}

// nftPort is what syncProxyRules works out for one service port before
// it writes anything: its endpoints by category, the chains it uses, and
// where its internal and external traffic goes.
type nftPort struct {
	sp                                      ServicePort
	cat                                     Categorized
	proto, port, comment                    string
	svcChain, localChain, extChain, fwChain string
	usesCluster, usesLocal, usesExt, usesFW bool
	internalChain, externalPolicyChain      string
	hasInternal, hasExternal                bool
	intVerdict, extVerdict                  string
}

func newNFTPort(cfg Config, sp ServicePort) *nftPort {
	base := sp.nftBase()
	np := &nftPort{sp: sp, cat: sp.Categorize(cfg.NodeName), proto: sp.Proto(), port: fmt.Sprint(sp.Port),
		comment:  fmt.Sprintf(" comment %q", truncateNFTComment(sp.NameString())),
		svcChain: "service-" + base, localChain: "local-" + base, extChain: "external-" + base, fwChain: "firewall-" + base}
	cat := np.cat
	np.usesCluster = len(cat.Cluster) > 0 && sp.usesClusterEndpoints()
	np.usesLocal = len(cat.Local) > 0 && sp.usesLocalEndpoints()
	np.internalChain, np.hasInternal = np.svcChain, cat.HasAny
	if sp.InternalPolicyLocal {
		np.internalChain, np.hasInternal = np.localChain, np.hasInternal && len(cat.Local) > 0
	}
	np.externalPolicyChain, np.hasExternal = np.svcChain, cat.HasAny
	if sp.externalLocal() {
		np.externalPolicyChain, np.hasExternal = np.localChain, np.hasExternal && len(cat.Local) > 0
	}
	np.usesExt = cat.HasAny && sp.ExternallyAccessible()
	np.usesFW = len(sp.LoadBalancerIPs) > 0 && len(sp.SourceRanges) > 0
	switch {
	case !cat.HasAny:
		np.intVerdict, np.extVerdict = "goto reject-chain", "goto reject-chain"
	default:
		if !np.hasInternal {
			np.intVerdict = "drop"
		}
		if !np.hasExternal {
			np.extVerdict = "drop"
		}
	}
	return np
}

// key is the service-ips key of ip: "ip . proto . port".
func (np *nftPort) key(ip string) string { return fmt.Sprintf("%s . %s . %s", ip, np.proto, np.port) }

// chains adds the port's endpoint chains (with affinity), this node's
// hairpin elements, and the service, local and external chains it uses.
func (w *nftWriter) chains(np *nftPort) {
	for _, ep := range np.cat.Reachable {
		if np.sp.SessionAffinityClientIP {
			w.chain(np.sp.NFTEndpointChain(ep))
		}
		if w.cfg.NodeName != "" && ep.NodeName == w.cfg.NodeName {
			k := fmt.Sprintf("%s . %s . %s . %d", ep.IP, ep.IP, np.proto, ep.Port)
			if !w.hairpin[k] {
				w.hairpin[k] = true
				w.elem("hairpin-connections", k, "")
			}
		}
	}
	if np.usesCluster {
		w.chain(np.svcChain)
	}
	if np.usesLocal {
		w.chain(np.localChain)
	}
	if np.usesExt {
		w.chain(np.extChain)
	}
}

// serviceElements adds the cluster IP and the external IPs to the
// cluster-ips, service-ips and no-endpoint-services maps.
func (w *nftWriter) serviceElements(np *nftPort) {
	sp := np.sp
	w.elem("cluster-ips", sp.ClusterIP, "")
	if np.hasInternal {
		w.elem("service-ips", np.key(sp.ClusterIP), "goto "+np.internalChain)
	} else {
		w.elem("no-endpoint-services", np.key(sp.ClusterIP)+np.comment, np.intVerdict)
	}
	for _, ip := range sp.ExternalIPs {
		if np.cat.HasAny {
			w.elem("service-ips", np.key(ip), "goto "+np.extChain)
		}
		if !np.hasExternal {
			w.elem("no-endpoint-services", np.key(ip)+np.comment, np.extVerdict)
		}
	}
}

// externalElements adds the firewall chain and the load-balancer IPs'
// and node port's elements.
func (w *nftWriter) externalElements(np *nftPort) {
	sp := np.sp
	if np.usesFW {
		w.chain(np.fwChain)
	}
	for _, ip := range sp.LoadBalancerIPs {
		if np.cat.HasAny {
			w.elem("service-ips", np.key(ip), "goto "+np.extChain)
		}
		if np.usesFW {
			w.elem("firewall-ips", np.key(ip), "goto "+np.fwChain)
		}
	}
	if !np.hasExternal {
		for _, ip := range sp.LoadBalancerIPs {
			w.elem("no-endpoint-services", np.key(ip)+np.comment, np.extVerdict)
		}
	}
	if sp.NodePort != 0 {
		nodePort := fmt.Sprintf("%s . %d", np.proto, sp.NodePort)
		if np.cat.HasAny {
			w.elem("service-nodeports", nodePort, "goto "+np.extChain)
		}
		if !np.hasExternal {
			w.elem("no-endpoint-nodeports", nodePort+np.comment, np.extVerdict)
		}
	}
}

// externalRules writes the external chain (masquerade, or with an
// external Local policy the short-circuits) and the firewall chain.
func (w *nftWriter) externalRules(np *nftPort) {
	sp, ipx := np.sp, w.ipx
	if np.usesExt {
		if !sp.externalLocal() {
			w.rule(np.extChain, w.masq+` comment "masquerade"`)
		} else {
			if w.cfg.ClusterCIDR != "" {
				w.rule(np.extChain, fmt.Sprintf(`%s saddr %s goto %s comment "short-circuit pod traffic"`, ipx, w.cfg.ClusterCIDR, np.svcChain))
			}
			w.rule(np.extChain, "fib saddr type local "+w.masq+` comment "masquerade local traffic"`)
			w.rule(np.extChain, "fib saddr type local goto "+np.svcChain+` comment "short-circuit local traffic"`)
		}
		if np.hasExternal {
			w.rule(np.extChain, "goto "+np.externalPolicyChain)
		}
	}
	if np.usesFW {
		sources := append([]string(nil), sp.SourceRanges...)
		fromNode := false
		for _, cidr := range sp.SourceRanges {
			fromNode = fromNode || (w.cfg.NodeIP != "" && inPrefix(w.cfg.NodeIP, cidr))
		}
		if fromNode {
			sources = append(sources, sp.LoadBalancerIPs...)
		}
		w.rule(np.fwChain, fmt.Sprintf("%s saddr != { %s } drop", ipx, strings.Join(sources, " , ")))
	}
}

// endpointRules writes how the service and local chains pick an
// endpoint: a DNAT through "numgen random mod N map" without affinity;
// with ClientIP affinity the affinity sets, the jumps, and each endpoint
// chain's set update and DNAT.
func (w *nftWriter) endpointRules(np *nftPort) {
	sp, cat := np.sp, np.cat
	if !sp.SessionAffinityClientIP {
		if np.usesCluster {
			w.dnats(np, np.svcChain, cat.Cluster)
		}
		if np.usesLocal {
			w.dnats(np, np.localChain, cat.Local)
		}
		return
	}
	for _, ep := range cat.Reachable {
		w.line("add set %s %s { type %s_addr ; flags dynamic,timeout ; timeout %ds ; }", w.tbl, sp.NFTAffinitySet(ep),
			map[bool]string{false: "ipv4", true: "ipv6"}[sp.IPv6()], sp.Timeout())
	}
	if np.usesCluster {
		w.jumps(np, np.svcChain, cat.Cluster)
	}
	if np.usesLocal {
		w.jumps(np, np.localChain, cat.Local)
	}
	for _, ep := range cat.Reachable {
		c := sp.NFTEndpointChain(ep)
		w.rule(c, fmt.Sprintf("update @%s { %s saddr }", sp.NFTAffinitySet(ep), w.ipx))
		w.rule(c, fmt.Sprintf("meta l4proto %s dnat to %s", np.proto, ep.String()))
	}
}

// dnats is the chain c's DNAT to one of eps.
func (w *nftWriter) dnats(np *nftPort, c string, eps []Endpoint) {
	if len(eps) == 1 {
		w.rule(c, fmt.Sprintf("meta l4proto %s dnat to %s", np.proto, eps[0].String()))
		return
	}
	// "i : ip . port" joined by " , ", built without fmt.
	el := make([]byte, 0, 32*len(eps))
	for i, ep := range eps {
		if i > 0 {
			el = append(el, " , "...)
		}
		el = strconv.AppendInt(el, int64(i), 10)
		el = append(el, " : "...)
		el = append(el, ep.IP...)
		el = append(el, " . "...)
		el = strconv.AppendInt(el, int64(ep.Port), 10)
	}
	w.rule(c, fmt.Sprintf("meta l4proto %s dnat %s addr . port to numgen random mod %d map { %s }", np.proto, w.ipx, len(eps), el))
}

// jumps is the chain c's affinity lookups and its random pick of an
// endpoint chain among eps.
func (w *nftWriter) jumps(np *nftPort, c string, eps []Endpoint) {
	var el []string
	for i, ep := range eps {
		w.rule(c, fmt.Sprintf("%s saddr @%s goto %s", w.ipx, np.sp.NFTAffinitySet(ep), np.sp.NFTEndpointChain(ep)))
		el = append(el, fmt.Sprintf("%d : goto %s", i, np.sp.NFTEndpointChain(ep)))
	}
	w.rule(c, fmt.Sprintf("numgen random mod %d vmap { %s }", len(eps), strings.Join(el, " , ")))
}

// nftBase is the fixed part of the services and masquerading chains
// (setupNFTables): the off-cluster masquerade mark, the service-ips and
// service-nodeports lookups, and the two MASQUERADE rules, the second for
// hairpin connections (a pod reaching itself through its Service).
func nftBase(cfg Config, ipx, tbl, masq, mark string) string {
	var b strings.Builder
	r := func(c, s string) { fmt.Fprintf(&b, "add rule %s %s %s\n", tbl, c, s) }
	switch {
	case cfg.MasqueradeAll:
		r("services", fmt.Sprintf(`%s daddr @cluster-ips %s comment "masquerade all clusterIP traffic"`, ipx, masq))
	case cfg.ClusterCIDR != "":
		r("services", fmt.Sprintf(`%s daddr @cluster-ips %s saddr != %s %s comment "masquerade clusterIP traffic from outside cluster"`, ipx, ipx, cfg.ClusterCIDR, masq))
	}
	r("services", ipx+" daddr . meta l4proto . th dport vmap @service-ips")
	r("services", ipx+" daddr @nodeport-ips meta l4proto . th dport vmap @service-nodeports")
	r("masquerading", fmt.Sprintf("mark and %s != 0 mark set mark xor %s masquerade fully-random", mark, mark))
	r("masquerading", fmt.Sprintf("ct status dnat %s saddr . %s daddr . meta l4proto . th dport @hairpin-connections masquerade fully-random", ipx, ipx))
	return b.String()
}

// truncateNFTComment is truncateNFTablesComment: knftables.CommentLengthMax
// is 128 bytes.
func truncateNFTComment(s string) string {
	if len(s) > 128 {
		return s[:128]
	}
	return s
}
