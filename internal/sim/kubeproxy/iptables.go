package kubeproxy

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Rule is one "-A CHAIN args…" line. Args are the tokens exactly as
// kube-proxy writes them, including the literal quotes around comments
// that contain spaces.
type Rule struct {
	Chain string
	Args  []string
}

// Text is the rule as it appears in the restore input.
func (r Rule) Text() string { return "-A " + r.Chain + " " + strings.Join(r.Args, " ") }

// Table is one table of the restore input: chain declarations first, then
// the rules, in the order kube-proxy writes them.
type Table struct {
	Name   string
	Chains []string
	Rules  []Rule
}

// Ruleset is what one full sync writes with iptables-restore, plus the
// jumps from the built-in chains that kube-proxy installs beforehand with
// "iptables -I" (they are not part of the restore input).
type Ruleset struct {
	Filter Table
	NAT    Table
	// Jumps are rules in built-in chains (PREROUTING, FORWARD, …).
	Jumps []TableRule
	// Ports are the proxied service ports, in emission order.
	Ports []ServicePort
	// Skipped are the ports kube-proxy ignores (headless, ExternalName).
	Skipped        []ServicePort
	TotalEndpoints int
	LargeCluster   bool
	IPv6           bool
	Mark           string
	Config         Config
}

// TableRule is a rule with the table it lives in.
type TableRule struct {
	Table string
	Rule
}

// Chain names kube-proxy owns (proxier.go).
const (
	ChainServices         = "KUBE-SERVICES"
	ChainExternalServices = "KUBE-EXTERNAL-SERVICES"
	ChainForward          = "KUBE-FORWARD"
	ChainNodePorts        = "KUBE-NODEPORTS"
	ChainProxyFirewall    = "KUBE-PROXY-FIREWALL"
	ChainFirewall         = "KUBE-FIREWALL"
	ChainPostrouting      = "KUBE-POSTROUTING"
	ChainMarkMasq         = "KUBE-MARK-MASQ"
)

func q(s string) string { return `"` + s + `"` }

// BuildIPTables computes the ruleset of a full sync for the given ports
// (syncProxyRules). Ports are emitted sorted by name and protocol.
func BuildIPTables(cfg Config, ports []ServicePort) Ruleset {
	rs := Ruleset{Config: cfg, Mark: MasqueradeMark(cfg.MasqueradeBit)}
	rs.Filter.Name, rs.NAT.Name = "filter", "nat"
	for _, sp := range ports {
		if sp.Proxied() {
			rs.Ports = append(rs.Ports, sp)
			rs.IPv6 = rs.IPv6 || sp.IPv6()
		} else {
			rs.Skipped = append(rs.Skipped, sp)
		}
	}
	sort.SliceStable(rs.Ports, func(i, j int) bool {
		a, b := rs.Ports[i], rs.Ports[j]
		if a.NameString() != b.NameString() {
			return a.NameString() < b.NameString()
		}
		return a.Proto() < b.Proto()
	})
	m := rs.Mark
	f, n := &rs.Filter, &rs.NAT
	f.Chains = []string{ChainServices, ChainExternalServices, ChainForward, ChainNodePorts, ChainProxyFirewall}
	n.Chains = []string{ChainServices, ChainNodePorts, ChainPostrouting, ChainMarkMasq}
	add := func(t *Table, chain string, args ...string) { t.Rules = append(t.Rules, Rule{chain, args}) }

	add(n, ChainPostrouting, "-m", "mark", "!", "--mark", m+"/"+m, "-j", "RETURN")
	add(n, ChainPostrouting, "-j", "MARK", "--xor-mark", m)
	masq := []string{"-m", "comment", "--comment", q("kubernetes service traffic requiring SNAT"), "-j", "MASQUERADE"}
	if !cfg.NoRandomFully {
		masq = append(masq, "--random-fully")
	}
	add(n, ChainPostrouting, masq...)
	add(n, ChainMarkMasq, "-j", "MARK", "--or-mark", m)
	if !rs.IPv6 {
		// localhost NodePorts are on by default for IPv4: kube-proxy then
		// owns a copy of kubelet's anti-martian rule.
		f.Chains = append(f.Chains, ChainFirewall)
		add(f, ChainFirewall, "-m", "comment", "--comment", q("block incoming localnet connections"),
			"-d", "127.0.0.0/8", "!", "-s", "127.0.0.0/8", "-m", "conntrack", "!", "--ctstate", "RELATED,ESTABLISHED,DNAT", "-j", "DROP")
	}

	// Upstream counts every endpoint in its endpointsMap, ready or not.
	for _, sp := range rs.Ports {
		seen := map[string]bool{}
		for _, ep := range sp.Endpoints {
			seen[ep.String()] = true
		}
		rs.TotalEndpoints += len(seen)
	}
	rs.LargeCluster = rs.TotalEndpoints > LargeClusterThreshold

	for _, sp := range rs.Ports {
		rs.writeServicePort(sp)
	}

	last := []string{"-m", "comment", "--comment", q("kubernetes service nodeports; NOTE: this must be the last rule in this chain"), "-m", "addrtype", "--dst-type", "LOCAL"}
	if rs.IPv6 {
		last = append(last, "!", "-d", "::1/128")
	}
	add(n, ChainServices, append(last, "-j", ChainNodePorts)...)

	// INVALID packets are dropped and counted by the nfacct counter behind
	// kubeproxy_iptables_ct_state_invalid_dropped_packets_total (iptables
	// proxier syncProxyRules, nfAcctCounters; the counter is left out only
	// on kernels without xt_nfacct).
	add(f, ChainForward, "-m", "conntrack", "--ctstate", "INVALID", "-m", "nfacct", "--nfacct-name", "ct_state_invalid_dropped_pkts", "-j", "DROP")
	add(f, ChainForward, "-m", "comment", "--comment", q("kubernetes forwarding rules"), "-m", "mark", "--mark", m+"/"+m, "-j", "ACCEPT")
	add(f, ChainForward, "-m", "comment", "--comment", q("kubernetes forwarding conntrack rule"), "-m", "conntrack", "--ctstate", "RELATED,ESTABLISHED", "-j", "ACCEPT")

	rs.Jumps = jumpRules(rs.IPv6)
	return rs
}

// writeServicePort appends one port's rules (the ClusterIP part of the
// per-service loop in syncProxyRules and writeServiceToEndpointRules).
func (rs *Ruleset) writeServicePort(sp ServicePort) {
	f, n := &rs.Filter, &rs.NAT
	proto, name := sp.Proto(), sp.NameString()
	port := strconv.Itoa(int(sp.Port))
	eps := sp.UsableEndpoints()
	if len(eps) == 0 {
		f.Rules = append(f.Rules, Rule{ChainServices, []string{"-m", "comment", "--comment", q(name + " has no endpoints"),
			"-m", proto, "-p", proto, "-d", sp.ClusterIP, "--dport", port, "-j", "REJECT"}})
		return
	}
	svc := sp.SVCChain()
	match := []string{"-m", "comment", "--comment", q(name + " cluster IP"), "-m", proto, "-p", proto, "-d", sp.ClusterIP, "--dport", port}
	n.Rules = append(n.Rules, Rule{ChainServices, append(clone(match), "-j", svc)})
	n.Chains = append(n.Chains, svc)
	switch {
	case rs.Config.MasqueradeAll:
		n.Rules = append(n.Rules, Rule{svc, append(clone(match), "-j", ChainMarkMasq)})
	case rs.Config.ClusterCIDR != "":
		n.Rules = append(n.Rules, Rule{svc, append(clone(match), "!", "-s", rs.Config.ClusterCIDR, "-j", ChainMarkMasq)})
	}
	comment := func(args []string, c string) []string {
		if rs.LargeCluster {
			return args
		}
		return append(args, "-m", "comment", "--comment", c)
	}
	if sp.SessionAffinityClientIP {
		for _, ep := range eps {
			sep := sp.SEPChain(ep)
			args := comment(nil, q(name+" -> "+ep.String()))
			args = append(args, "-m", "recent", "--name", sep, "--rcheck", "--seconds", strconv.Itoa(sp.Timeout()), "--reap", "-j", sep)
			n.Rules = append(n.Rules, Rule{svc, args})
		}
	}
	for i, ep := range eps {
		args := comment(nil, q(name+" -> "+ep.String()))
		if i < len(eps)-1 {
			args = append(args, "-m", "statistic", "--mode", "random", "--probability", Probability(len(eps)-i))
		}
		n.Rules = append(n.Rules, Rule{svc, append(args, "-j", sp.SEPChain(ep))})
	}
	for _, ep := range eps {
		sep := sp.SEPChain(ep)
		n.Chains = append(n.Chains, sep)
		args := comment(nil, name)
		n.Rules = append(n.Rules, Rule{sep, append(clone(args), "-s", ep.IP, "-j", ChainMarkMasq)})
		if sp.SessionAffinityClientIP {
			args = append(args, "-m", "recent", "--name", sep, "--set")
		}
		n.Rules = append(n.Rules, Rule{sep, append(args, "-m", proto, "-p", proto, "-j", "DNAT", "--to-destination", ep.String())})
	}
}

func clone(s []string) []string { return append([]string(nil), s...) }

// jumpRules are iptablesJumpChains as they end up in the built-in chains
// of a node (kube-proxy prepends each with "iptables -I"; kubelet's
// KUBE-FIREWALL jumps come first at boot and so end up last). The order
// matches iptables-save captures from kubeadm nodes.
func jumpRules(ipv6 bool) []TableRule {
	newConn := []string{"-m", "conntrack", "--ctstate", "NEW"}
	j := func(table, chain string, extra []string, comment, target string) TableRule {
		args := clone(extra)
		if comment != "" {
			args = append(args, "-m", "comment", "--comment", q(comment))
		}
		return TableRule{table, Rule{chain, append(args, "-j", target)}}
	}
	rules := []TableRule{
		j("filter", "INPUT", newConn, "kubernetes load balancer firewall", ChainProxyFirewall),
		j("filter", "INPUT", nil, "kubernetes health check service ports", ChainNodePorts),
		j("filter", "INPUT", newConn, "kubernetes externally-visible service portals", ChainExternalServices),
	}
	if !ipv6 {
		rules = append(rules, j("filter", "INPUT", nil, "", ChainFirewall))
	}
	rules = append(rules,
		j("filter", "FORWARD", newConn, "kubernetes load balancer firewall", ChainProxyFirewall),
		j("filter", "FORWARD", nil, "kubernetes forwarding rules", ChainForward),
		j("filter", "FORWARD", newConn, "kubernetes service portals", ChainServices),
		j("filter", "FORWARD", newConn, "kubernetes externally-visible service portals", ChainExternalServices),
		j("filter", "OUTPUT", newConn, "kubernetes load balancer firewall", ChainProxyFirewall),
		j("filter", "OUTPUT", newConn, "kubernetes service portals", ChainServices),
	)
	if !ipv6 {
		rules = append(rules, j("filter", "OUTPUT", nil, "", ChainFirewall))
	}
	return append(rules,
		j("nat", "PREROUTING", nil, "kubernetes service portals", ChainServices),
		j("nat", "OUTPUT", nil, "kubernetes service portals", ChainServices),
		j("nat", "POSTROUTING", nil, "kubernetes postrouting rules", ChainPostrouting),
	)
}

// Restore is the iptables-restore input, byte for byte: *filter, its chain
// lines and rules, COMMIT, then the same for *nat.
func (rs Ruleset) Restore() string {
	var b strings.Builder
	for _, t := range []Table{rs.Filter, rs.NAT} {
		fmt.Fprintf(&b, "*%s\n", t.Name)
		for _, c := range t.Chains {
			fmt.Fprintf(&b, ":%s - [0:0]\n", c)
		}
		for _, r := range t.Rules {
			b.WriteString(r.Text() + "\n")
		}
		b.WriteString("COMMIT\n")
	}
	return b.String()
}

// BuiltinRules lists the jumps in the built-in chains of one table ("" for
// both) as "-A CHAIN …" lines in their final order. kube-proxy adds them
// with "iptables -I" before the restore; they are not part of its input.
func (rs Ruleset) BuiltinRules(table string) string {
	var b strings.Builder
	for _, j := range rs.Jumps {
		if table == "" || j.Table == table {
			b.WriteString(j.Text() + "\n")
		}
	}
	return b.String()
}

// Count returns the number of rules in the nat and filter restore input.
func (rs Ruleset) Count() (nat, filter int) { return len(rs.NAT.Rules), len(rs.Filter.Rules) }
