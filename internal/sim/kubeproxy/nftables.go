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

// BuildNFT renders the nftables objects for the ports in "nft -f" form.
func BuildNFT(cfg Config, ports []ServicePort) NFTView {
	var v NFTView
	var b strings.Builder
	for _, sp := range ports {
		if !sp.Proxied() {
			continue
		}
		family, ipx := "ip", "ip"
		if sp.IPv6() {
			family, ipx = "ip6", "ip6"
		}
		tbl := family + " kube-proxy"
		eps := sp.UsableEndpoints()
		if len(eps) == 0 {
			fmt.Fprintf(&b, "add element %s no-endpoint-services { %s . %s . %d comment %q : goto reject-chain }\n",
				tbl, sp.ClusterIP, sp.Proto(), sp.Port, sp.NameString())
			v.Elements++
			continue
		}
		svc := sp.NFTServiceChain()
		fmt.Fprintf(&b, "add element %s service-ips { %s . %s . %d : goto %s }\n", tbl, sp.ClusterIP, sp.Proto(), sp.Port, svc)
		fmt.Fprintf(&b, "add chain %s %s\n", tbl, svc)
		v.Elements++
		v.Chains++
		switch {
		case cfg.MasqueradeAll:
			fmt.Fprintf(&b, "add rule %s %s %s daddr %s %s dport %d jump mark-for-masquerade\n", tbl, svc, ipx, sp.ClusterIP, sp.Proto(), sp.Port)
			v.Rules++
		case cfg.ClusterCIDR != "":
			fmt.Fprintf(&b, "add rule %s %s %s daddr %s %s dport %d %s saddr != %s jump mark-for-masquerade\n", tbl, svc, ipx, sp.ClusterIP, sp.Proto(), sp.Port, ipx, cfg.ClusterCIDR)
			v.Rules++
		}
		if sp.SessionAffinityClientIP {
			for _, ep := range eps {
				fmt.Fprintf(&b, "add rule %s %s %s saddr @affinity-%s goto %s\n", tbl, svc, ipx, strings.TrimPrefix(sp.NFTEndpointChain(ep), "endpoint-"), sp.NFTEndpointChain(ep))
				v.Rules++
			}
		}
		var elems []string
		for i, ep := range eps {
			elems = append(elems, fmt.Sprintf("%d : goto %s", i, sp.NFTEndpointChain(ep)))
		}
		fmt.Fprintf(&b, "add rule %s %s numgen random mod %d vmap { %s }\n", tbl, svc, len(eps), strings.Join(elems, " , "))
		v.Rules++
		for _, ep := range eps {
			c := sp.NFTEndpointChain(ep)
			fmt.Fprintf(&b, "add chain %s %s\n", tbl, c)
			fmt.Fprintf(&b, "add rule %s %s %s saddr %s jump mark-for-masquerade\n", tbl, c, ipx, ep.IP)
			v.Chains++
			v.Rules += 2
			if sp.SessionAffinityClientIP {
				fmt.Fprintf(&b, "add rule %s %s update @affinity-%s { %s saddr }\n", tbl, c, strings.TrimPrefix(c, "endpoint-"), ipx)
				v.Rules++
			}
			fmt.Fprintf(&b, "add rule %s %s meta l4proto %s dnat to %s\n", tbl, c, sp.Proto(), ep.String())
		}
	}
	v.Text = b.String()
	return v
}
