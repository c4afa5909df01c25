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
	var v NFTView
	var b strings.Builder
	hairpin := map[string]bool{}
	size := 0
	for _, sp := range ports {
		// About what a port without affinity writes (700 bytes and 30
		// per endpoint); the builder grows when more is needed.
		size += 800 + 40*len(sp.Endpoints)
	}
	b.Grow(size)
	ipx := "ip"
	for _, sp := range ports {
		if sp.Proxied() && sp.IPv6() {
			ipx = "ip6"
		}
	}
	tbl := ipx + " kube-proxy"
	mark := MasqueradeMark(cfg.MasqueradeBit)
	masq := "mark set mark or " + mark
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	for _, sp := range ports {
		if !sp.Proxied() {
			continue
		}
		proto, port := sp.Proto(), fmt.Sprint(sp.Port)
		cat := sp.Categorize(cfg.NodeName)
		created := map[string]bool{}
		chain := func(c string) {
			if !created[c] {
				created[c] = true
				line("add chain %s %s", tbl, c)
				line("flush chain %s %s", tbl, c)
				v.Chains++
			}
		}
		rule := func(c, r string) {
			line("add rule %s %s %s", tbl, c, r)
			v.Rules++
		}
		elem := func(m, key, val string) {
			if val == "" {
				line("add element %s %s { %s }", tbl, m, key)
			} else {
				line("add element %s %s { %s : %s }", tbl, m, key, val)
			}
			v.Elements++
		}
		comment := fmt.Sprintf(" comment %q", truncateNFTComment(sp.NameString()))
		affinity := sp.SessionAffinityClientIP
		base := sp.nftBase()
		svcChain, localChain, extChain, fwChain := "service-"+base, "local-"+base, "external-"+base, "firewall-"+base
		for _, ep := range cat.Reachable {
			if affinity {
				chain(sp.NFTEndpointChain(ep))
			}
			if cfg.NodeName != "" && ep.NodeName == cfg.NodeName {
				k := fmt.Sprintf("%s . %s . %s . %d", ep.IP, ep.IP, proto, ep.Port)
				if !hairpin[k] {
					hairpin[k] = true
					elem("hairpin-connections", k, "")
				}
			}
		}
		usesCluster := len(cat.Cluster) > 0 && sp.usesClusterEndpoints()
		usesLocal := len(cat.Local) > 0 && sp.usesLocalEndpoints()
		if usesCluster {
			chain(svcChain)
		}
		if usesLocal {
			chain(localChain)
		}
		internalChain, hasInternal := svcChain, cat.HasAny
		if sp.InternalPolicyLocal {
			internalChain, hasInternal = localChain, hasInternal && len(cat.Local) > 0
		}
		externalPolicyChain, hasExternal := svcChain, cat.HasAny
		if sp.externalLocal() {
			externalPolicyChain, hasExternal = localChain, hasExternal && len(cat.Local) > 0
		}
		usesExt := cat.HasAny && sp.ExternallyAccessible()
		if usesExt {
			chain(extChain)
		}
		var intVerdict, extVerdict string
		if !cat.HasAny {
			intVerdict, extVerdict = "goto reject-chain", "goto reject-chain"
		} else {
			if !hasInternal {
				intVerdict = "drop"
			}
			if !hasExternal {
				extVerdict = "drop"
			}
		}
		key := func(ip string) string { return fmt.Sprintf("%s . %s . %s", ip, proto, port) }
		elem("cluster-ips", sp.ClusterIP, "")
		if hasInternal {
			elem("service-ips", key(sp.ClusterIP), "goto "+internalChain)
		} else {
			elem("no-endpoint-services", key(sp.ClusterIP)+comment, intVerdict)
		}
		for _, ip := range sp.ExternalIPs {
			if cat.HasAny {
				elem("service-ips", key(ip), "goto "+extChain)
			}
			if !hasExternal {
				elem("no-endpoint-services", key(ip)+comment, extVerdict)
			}
		}
		usesFW := len(sp.LoadBalancerIPs) > 0 && len(sp.SourceRanges) > 0
		if usesFW {
			chain(fwChain)
		}
		for _, ip := range sp.LoadBalancerIPs {
			if cat.HasAny {
				elem("service-ips", key(ip), "goto "+extChain)
			}
			if usesFW {
				elem("firewall-ips", key(ip), "goto "+fwChain)
			}
		}
		if !hasExternal {
			for _, ip := range sp.LoadBalancerIPs {
				elem("no-endpoint-services", key(ip)+comment, extVerdict)
			}
		}
		if sp.NodePort != 0 {
			np := fmt.Sprintf("%s . %d", proto, sp.NodePort)
			if cat.HasAny {
				elem("service-nodeports", np, "goto "+extChain)
			}
			if !hasExternal {
				elem("no-endpoint-nodeports", np+comment, extVerdict)
			}
		}
		if usesExt {
			if !sp.externalLocal() {
				rule(extChain, masq+` comment "masquerade"`)
			} else {
				if cfg.ClusterCIDR != "" {
					rule(extChain, fmt.Sprintf(`%s saddr %s goto %s comment "short-circuit pod traffic"`, ipx, cfg.ClusterCIDR, svcChain))
				}
				rule(extChain, "fib saddr type local "+masq+` comment "masquerade local traffic"`)
				rule(extChain, "fib saddr type local goto "+svcChain+` comment "short-circuit local traffic"`)
			}
			if hasExternal {
				rule(extChain, "goto "+externalPolicyChain)
			}
		}
		if usesFW {
			sources := append([]string(nil), sp.SourceRanges...)
			fromNode := false
			for _, cidr := range sp.SourceRanges {
				fromNode = fromNode || (cfg.NodeIP != "" && inPrefix(cfg.NodeIP, cidr))
			}
			if fromNode {
				sources = append(sources, sp.LoadBalancerIPs...)
			}
			rule(fwChain, fmt.Sprintf("%s saddr != { %s } drop", ipx, strings.Join(sources, " , ")))
		}
		if affinity {
			for _, ep := range cat.Reachable {
				line("add set %s %s { type %s_addr ; flags dynamic,timeout ; timeout %ds ; }", tbl, sp.NFTAffinitySet(ep),
					map[bool]string{false: "ipv4", true: "ipv6"}[sp.IPv6()], sp.Timeout())
			}
		}
		dnats := func(c string, eps []Endpoint) {
			if len(eps) == 1 {
				rule(c, fmt.Sprintf("meta l4proto %s dnat to %s", proto, eps[0].String()))
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
			rule(c, fmt.Sprintf("meta l4proto %s dnat %s addr . port to numgen random mod %d map { %s }", proto, ipx, len(eps), el))
		}
		jumps := func(c string, eps []Endpoint) {
			var el []string
			for i, ep := range eps {
				rule(c, fmt.Sprintf("%s saddr @%s goto %s", ipx, sp.NFTAffinitySet(ep), sp.NFTEndpointChain(ep)))
				el = append(el, fmt.Sprintf("%d : goto %s", i, sp.NFTEndpointChain(ep)))
			}
			rule(c, fmt.Sprintf("numgen random mod %d vmap { %s }", len(eps), strings.Join(el, " , ")))
		}
		if !affinity {
			if usesCluster {
				dnats(svcChain, cat.Cluster)
			}
			if usesLocal {
				dnats(localChain, cat.Local)
			}
		} else {
			if usesCluster {
				jumps(svcChain, cat.Cluster)
			}
			if usesLocal {
				jumps(localChain, cat.Local)
			}
			for _, ep := range cat.Reachable {
				c := sp.NFTEndpointChain(ep)
				rule(c, fmt.Sprintf("update @%s { %s saddr }", sp.NFTAffinitySet(ep), ipx))
				rule(c, fmt.Sprintf("meta l4proto %s dnat to %s", proto, ep.String()))
			}
		}
	}
	v.Text = b.String()
	v.Base = nftBase(cfg, ipx, tbl, masq, mark)
	return v
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
