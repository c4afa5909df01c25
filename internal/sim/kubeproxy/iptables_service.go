package kubeproxy

import "strconv"

// The per-service loop of syncProxyRules (pkg/proxy/iptables/proxier.go,
// v1.37), one port at a time, in upstream's order: portPlan decides the
// chains and targets, then the captures (KUBE-SERVICES, KUBE-NODEPORTS and
// the filter rules for missing endpoints), the service's own chains
// (KUBE-EXT, KUBE-FW, KUBE-SVC, KUBE-SVL) and the KUBE-SEP chains.

// portPlan is what syncProxyRules computes for one service port before it
// writes a rule: its chains, which of them are used, and the targets of
// traffic that has no (local) endpoint.
type portPlan struct {
	sp                              ServicePort
	name, proto, port               string
	cat                             Categorized
	svcChain, svlChain              string
	extChain, fwChain, lbChain      string
	internalChain, externalChain    string
	hasInternal, hasExternal        bool
	usesCluster, usesLocal, usesExt bool
	usesFW                          bool
	intTarget, intComment           string
	extTarget, extComment           string
}

// addRule appends a rule to a chain of t.
func addRule(t *Table, chain string, args ...string) { t.Rules = append(t.Rules, Rule{chain, args}) }

// dst is the match of the port's traffic to ip.
func (p *portPlan) dst(ip string) []string {
	return append(make([]string, 0, 16), "-m", p.proto, "-p", p.proto, "-d", ip, "--dport", p.port)
}

// writeServicePort appends one port's rules.
func (rs *Ruleset) writeServicePort(sp ServicePort) {
	p := rs.planPort(sp)
	rs.writeCaptures(p)
	rs.writeNodePorts(p)
	rs.writeServiceChains(p)
	rs.writeEndpointChains(p)
}

// planPort computes the port's chains (hashes of its name and protocol),
// the endpoints' KUBE-SEP chains (once per port, in rs.sep) and where its
// internal and external traffic goes.
func (rs *Ruleset) planPort(sp ServicePort) *portPlan {
	p := &portPlan{sp: sp, proto: sp.Proto(), name: sp.NameString(), port: strconv.Itoa(int(sp.Port)), cat: sp.Categorize(rs.Config.NodeName)}
	cat := p.cat
	if rs.sep == nil {
		rs.sep = make(map[Endpoint]sepInfo, len(cat.Reachable))
	} else {
		clear(rs.sep)
	}
	nameProto := p.name + p.proto
	for _, ep := range cat.Reachable {
		hp := ep.String()
		rs.sep[ep] = sepInfo{hostPort: hp, chain: "KUBE-SEP-" + Hash16(nameProto+hp)}
	}
	h := Hash16(nameProto)
	p.svcChain, p.svlChain, p.extChain, p.fwChain = "KUBE-SVC-"+h, "KUBE-SVL-"+h, "KUBE-EXT-"+h, "KUBE-FW-"+h
	p.usesCluster = len(cat.Cluster) > 0 && sp.usesClusterEndpoints()
	p.usesLocal = len(cat.Local) > 0 && sp.usesLocalEndpoints()
	p.internalChain, p.hasInternal = p.svcChain, cat.HasAny
	if sp.InternalPolicyLocal {
		p.internalChain = p.svlChain
		p.hasInternal = p.hasInternal && len(cat.Local) > 0
	}
	p.externalChain, p.hasExternal = p.svcChain, cat.HasAny
	if sp.externalLocal() {
		p.externalChain = p.svlChain
		p.hasExternal = p.hasExternal && len(cat.Local) > 0
	}
	p.usesExt = cat.HasAny && sp.ExternallyAccessible()
	p.lbChain = p.extChain
	p.usesFW = cat.HasAny && len(sp.LoadBalancerIPs) > 0 && len(sp.SourceRanges) > 0
	if p.usesFW {
		p.lbChain = p.fwChain
	}
	switch {
	case !cat.HasAny:
		p.intTarget, p.intComment = "REJECT", q(p.name+" has no endpoints")
		p.extTarget, p.extComment = p.intTarget, p.intComment
	default:
		if !p.hasInternal {
			p.intTarget, p.intComment = "DROP", q(p.name+" has no local endpoints")
		}
		if !p.hasExternal {
			p.extTarget, p.extComment = "DROP", q(p.name+" has no local endpoints")
		}
	}
	return p
}

// commented is "-m comment --comment c" followed by the match of the
// port's traffic to ip.
func (p *portPlan) commented(c, ip string) []string {
	return append([]string{"-m", "comment", "--comment", c}, p.dst(ip)...)
}

// writeCaptures writes the captures of the cluster IP, the external IPs
// and the load-balancer ingress IPs, each in KUBE-SERVICES when there are
// endpoints, and the filter rules for traffic that has none.
func (rs *Ruleset) writeCaptures(p *portPlan) {
	f, n, sp, name := &rs.Filter, &rs.NAT, p.sp, p.name
	if p.hasInternal {
		addRule(n, ChainServices, append(p.commented(q(name+" cluster IP"), sp.ClusterIP), "-j", p.internalChain)...)
	} else {
		addRule(f, ChainServices, append(p.commented(p.intComment, sp.ClusterIP), "-j", p.intTarget)...)
	}
	for _, ip := range sp.ExternalIPs {
		if p.cat.HasAny {
			addRule(n, ChainServices, append(p.commented(q(name+" external IP"), ip), "-j", p.extChain)...)
		}
		if !p.hasExternal {
			addRule(f, ChainExternalServices, append(p.commented(p.extComment, ip), "-j", p.extTarget)...)
		}
	}
	for _, ip := range sp.LoadBalancerIPs {
		if p.cat.HasAny {
			addRule(n, ChainServices, append(p.commented(q(name+" loadbalancer IP"), ip), "-j", p.lbChain)...)
		}
		if p.usesFW {
			addRule(f, ChainProxyFirewall, append(p.commented(q(name+" traffic not accepted by "+p.fwChain), ip), "-j", "DROP")...)
		}
	}
	if !p.hasExternal {
		for _, ip := range sp.LoadBalancerIPs {
			addRule(f, ChainExternalServices, append(p.commented(p.extComment, ip), "-j", p.extTarget)...)
		}
	}
}

// writeNodePorts writes the node port's capture (not subject to
// loadBalancerSourceRanges) and the health-check node port, accepted
// whether or not there are local endpoints.
func (rs *Ruleset) writeNodePorts(p *portPlan) {
	f, n, sp, name, proto := &rs.Filter, &rs.NAT, p.sp, p.name, p.proto
	if sp.NodePort != 0 {
		np := strconv.Itoa(int(sp.NodePort))
		if p.cat.HasAny {
			if !rs.IPv6 && nfacctLocalhost(rs.Config) {
				// localhost NodePorts (IPv4 only), counted by nfacct.
				addRule(n, ChainNodePorts, "-m", "comment", "--comment", name, "-m", proto, "-p", proto, "-d", "127.0.0.0/8", "--dport", np,
					"-m", "nfacct", "--nfacct-name", NFAcctLocalhostNodePorts, "-j", p.extChain)
			}
			addRule(n, ChainNodePorts, "-m", "comment", "--comment", name, "-m", proto, "-p", proto, "--dport", np, "-j", p.extChain)
		}
		if !p.hasExternal {
			addRule(f, ChainExternalServices, "-m", "comment", "--comment", p.extComment, "-m", "addrtype", "--dst-type", "LOCAL",
				"-m", proto, "-p", proto, "--dport", np, "-j", p.extTarget)
		}
	}
	if sp.HealthCheckNodePort != 0 && sp.externalLocal() {
		addRule(f, ChainNodePorts, "-m", "comment", "--comment", q(name+" health check node port"), "-m", "tcp", "-p", "tcp",
			"--dport", strconv.Itoa(int(sp.HealthCheckNodePort)), "-j", "ACCEPT")
	}
}

// writeServiceChains writes the masquerade rule of the internal chain,
// KUBE-EXT, KUBE-FW (loadBalancerSourceRanges), and the endpoint jumps of
// KUBE-SVC and KUBE-SVL.
func (rs *Ruleset) writeServiceChains(p *portPlan) {
	n, cfg, sp := &rs.NAT, rs.Config, p.sp
	if p.hasInternal {
		match := p.commented(q(p.name+" cluster IP"), sp.ClusterIP)
		switch {
		case cfg.MasqueradeAll:
			addRule(n, p.internalChain, append(match, "-j", ChainMarkMasq)...)
		case cfg.ClusterCIDR != "":
			addRule(n, p.internalChain, append(match, "!", "-s", cfg.ClusterCIDR, "-j", ChainMarkMasq)...)
		}
	}
	if p.usesExt {
		rs.writeExternalChain(p)
	}
	if p.usesFW {
		rs.writeFirewallChain(p)
	}
	if p.usesCluster {
		n.Chains = append(n.Chains, p.svcChain)
		rs.writeEndpointJumps(sp, p.svcChain, p.cat.Cluster)
	}
	if p.usesLocal {
		n.Chains = append(n.Chains, p.svlChain)
		rs.writeEndpointJumps(sp, p.svlChain, p.cat.Local)
	}
}

// writeExternalChain writes KUBE-EXT: masquerade everything (Cluster
// policy), or send pods and the node itself to KUBE-SVC and the rest to
// the local endpoints (Local policy).
func (rs *Ruleset) writeExternalChain(p *portPlan) {
	n, cfg, name, ext := &rs.NAT, rs.Config, p.name, p.extChain
	n.Chains = append(n.Chains, ext)
	if !p.sp.externalLocal() {
		addRule(n, ext, "-m", "comment", "--comment", q("masquerade traffic for "+name+" external destinations"), "-j", ChainMarkMasq)
	} else {
		if cfg.ClusterCIDR != "" {
			addRule(n, ext, "-m", "comment", "--comment", q("pod traffic for "+name+" external destinations"), "-s", cfg.ClusterCIDR, "-j", p.svcChain)
		}
		addRule(n, ext, "-m", "comment", "--comment", q("masquerade LOCAL traffic for "+name+" external destinations"), "-m", "addrtype", "--src-type", "LOCAL", "-j", ChainMarkMasq)
		addRule(n, ext, "-m", "comment", "--comment", q("route LOCAL traffic for "+name+" external destinations"), "-m", "addrtype", "--src-type", "LOCAL", "-j", p.svcChain)
	}
	if p.hasExternal {
		addRule(n, ext, "-j", p.externalChain)
	}
}

// writeFirewallChain writes KUBE-FW: the allowed source ranges (and the
// load-balancer IPs themselves when the node is in one) go on to KUBE-EXT;
// the rest falls through to KUBE-PROXY-FIREWALL's drop.
func (rs *Ruleset) writeFirewallChain(p *portPlan) {
	n, cfg, name, fw := &rs.NAT, rs.Config, p.name, p.fwChain
	n.Chains = append(n.Chains, fw)
	fromNode := false
	for _, cidr := range p.sp.SourceRanges {
		addRule(n, fw, "-m", "comment", "--comment", q(name+" loadbalancer IP"), "-s", cidr, "-j", p.extChain)
		if cfg.NodeIP != "" && inPrefix(cfg.NodeIP, cidr) {
			fromNode = true
		}
	}
	if fromNode {
		for _, ip := range p.sp.LoadBalancerIPs {
			addRule(n, fw, "-m", "comment", "--comment", q(name+" loadbalancer IP"), "-s", ip, "-j", p.extChain)
		}
	}
	addRule(n, fw, "-m", "comment", "--comment", q("other traffic to "+name+" will be dropped by KUBE-PROXY-FIREWALL"))
}

// writeEndpointChains writes each reachable endpoint's KUBE-SEP chain:
// masquerade hairpin traffic, then DNAT (with the affinity set).
func (rs *Ruleset) writeEndpointChains(p *portPlan) {
	n, sp := &rs.NAT, p.sp
	// cm and af are the arguments of a comment and of a recent match,
	// when written.
	cm, af := 4, 0
	if rs.LargeCluster {
		cm = 0
	}
	if sp.SessionAffinityClientIP {
		af = 5
	}
	for _, ep := range p.cat.Reachable {
		si := rs.sep[ep]
		sep := si.chain
		n.Chains = append(n.Chains, sep)
		addRule(n, sep, append(rs.comment(rs.args(cm+4), p.name), "-s", ep.IP, "-j", ChainMarkMasq)...)
		args := rs.comment(rs.args(cm+af+8), p.name)
		if sp.SessionAffinityClientIP {
			args = append(args, "-m", "recent", "--name", sep, "--set")
		}
		addRule(n, sep, append(args, "-m", p.proto, "-p", p.proto, "-j", "DNAT", "--to-destination", si.hostPort)...)
	}
}
