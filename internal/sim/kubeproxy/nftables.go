package kubeproxy

import (
	"fmt"
	"strings"
)

// NFTView is the part of kube-proxy's nftables transaction (table
// "ip kube-proxy", pkg/proxy/nftables/proxier.go) that serves the ports:
// the service-ips verdict map element, the service chain with the
// masquerade rule and one "numgen random mod N vmap" rule, and one chain
// per endpoint.
type NFTView struct {
	Text string
	// Chains and Rules count what the ports add; Elements counts map entries.
	Chains, Rules, Elements int
}

// BuildNFT renders the nftables objects for the ports in "nft -f" form, in
// the order syncProxyRules adds them to its transaction on a full sync:
// the chains (each added, then flushed), the cluster-ips and service-ips
// elements, the service chain's rules, the affinity sets, then each
// endpoint chain's rules. Rule text is knftables.Concat of upstream's
// tokens (so "@" stands apart: "ip saddr @ affinity-…").
func BuildNFT(cfg Config, ports []ServicePort) NFTView {
	var v NFTView
	var b strings.Builder
	for _, sp := range ports {
		if !sp.Proxied() {
			continue
		}
		ipx := "ip"
		if sp.IPv6() {
			ipx = "ip6"
		}
		tbl := ipx + " kube-proxy"
		add := func(format string, args ...any) { fmt.Fprintf(&b, "add "+format+"\n", args...) }
		eps := sp.UsableEndpoints()
		svc := sp.NFTServiceChain()
		chains := []string{}
		for _, ep := range eps {
			chains = append(chains, sp.NFTEndpointChain(ep))
		}
		if len(eps) > 0 {
			chains = append(chains, svc)
		}
		for _, c := range chains {
			add("chain %s %s", tbl, c)
			fmt.Fprintf(&b, "flush chain %s %s\n", tbl, c)
			v.Chains++
		}
		add("element %s cluster-ips { %s }", tbl, sp.ClusterIP)
		key := fmt.Sprintf("%s . %s . %d", sp.ClusterIP, sp.Proto(), sp.Port)
		v.Elements++
		if len(eps) == 0 {
			add("element %s no-endpoint-services { %s comment %q : goto reject-chain }", tbl, key, sp.NameString())
			continue
		}
		add("element %s service-ips { %s : goto %s }", tbl, key, svc)
		match := fmt.Sprintf("%s daddr %s %s dport %d", ipx, sp.ClusterIP, sp.Proto(), sp.Port)
		switch {
		case cfg.MasqueradeAll:
			add("rule %s %s %s jump mark-for-masquerade", tbl, svc, match)
			v.Rules++
		case cfg.ClusterCIDR != "":
			add("rule %s %s %s %s saddr != %s jump mark-for-masquerade", tbl, svc, match, ipx, cfg.ClusterCIDR)
			v.Rules++
		}
		affinity := func(ep Endpoint) string {
			return "affinity-" + strings.TrimPrefix(sp.NFTEndpointChain(ep), "endpoint-")
		}
		if sp.SessionAffinityClientIP {
			for _, ep := range eps {
				add("set %s %s { type %s_addr ; flags dynamic,timeout ; timeout %ds ; }", tbl, affinity(ep), map[bool]string{false: "ipv4", true: "ipv6"}[sp.IPv6()], sp.Timeout())
			}
			for _, ep := range eps {
				add("rule %s %s %s saddr @ %s goto %s", tbl, svc, ipx, affinity(ep), sp.NFTEndpointChain(ep))
				v.Rules++
			}
		}
		var elems []string
		for i, ep := range eps {
			elems = append(elems, fmt.Sprintf("%d : goto %s", i, sp.NFTEndpointChain(ep)))
		}
		add("rule %s %s numgen random mod %d vmap { %s }", tbl, svc, len(eps), strings.Join(elems, " , "))
		v.Rules++
		for _, ep := range eps {
			c := sp.NFTEndpointChain(ep)
			add("rule %s %s %s saddr %s jump mark-for-masquerade", tbl, c, ipx, ep.IP)
			if sp.SessionAffinityClientIP {
				add("rule %s %s update @ %s { %s saddr }", tbl, c, affinity(ep), ipx)
				v.Rules++
			}
			add("rule %s %s meta l4proto %s dnat to %s", tbl, c, sp.Proto(), ep.String())
			v.Rules += 2
		}
	}
	v.Text = b.String()
	return v
}
