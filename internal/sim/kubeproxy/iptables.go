package kubeproxy

import (
	"fmt"

	"github.com/k8sexplain/k8sexplain/internal/k8sversion"
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
	// sep caches the endpoint chain names of the port being written.
	sep map[Endpoint]sepInfo
	// slab backs rules' argument slices; probs caches Probability texts.
	slab   []string
	probs  []string
	Mark   string
	Config Config
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

// The nfacct counters kube-proxy creates when the kernel has
// nfnetlink_acct and the xt_nfacct match (pkg/proxy/metrics:
// IPTablesCTStateInvalidDroppedNFAcctCounter, PR #122812, v1.30;
// LocalhostNodePortAcceptedNFAcctCounter, PR #125015, v1.31).
const (
	NFAcctInvalidDropped     = "ct_state_invalid_dropped_pkts"
	NFAcctLocalhostNodePorts = "localhost_nps_accepted_pkts"
)

// nfacctInvalid and nfacctLocalhost report whether the modelled release
// writes each nfacct match, given the kernel of cfg.
func nfacctInvalid(cfg Config) bool   { return !cfg.NoNFAcct && k8sversion.AtLeast(30) }
func nfacctLocalhost(cfg Config) bool { return !cfg.NoNFAcct && k8sversion.AtLeast(31) }

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
	sortPorts(rs.Ports)
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
	// Distinct ip:port per port (the address and port as keys: the same
	// as their ip:port strings, without building them).
	type hostPort struct {
		ip   string
		port int32
	}
	seen := map[hostPort]bool{}
	for _, sp := range rs.Ports {
		clear(seen)
		for _, ep := range sp.Endpoints {
			seen[hostPort{ep.IP, ep.Port}] = true
		}
		rs.TotalEndpoints += len(seen)
	}
	rs.LargeCluster = rs.TotalEndpoints > LargeClusterThreshold
	n.Rules = append(make([]Rule, 0, len(n.Rules)+4*len(rs.Ports)+3*rs.TotalEndpoints+1), n.Rules...)
	n.Chains = append(make([]string, 0, len(n.Chains)+len(rs.Ports)+rs.TotalEndpoints), n.Chains...)

	for _, sp := range rs.Ports {
		rs.writeServicePort(sp)
	}

	last := []string{"-m", "comment", "--comment", q("kubernetes service nodeports; NOTE: this must be the last rule in this chain"), "-m", "addrtype", "--dst-type", "LOCAL"}
	if rs.IPv6 {
		last = append(last, "!", "-d", "::1/128")
	}
	add(n, ChainServices, append(last, "-j", ChainNodePorts)...)

	invalid := []string{"-m", "conntrack", "--ctstate", "INVALID"}
	if nfacctInvalid(cfg) {
		invalid = append(invalid, "-m", "nfacct", "--nfacct-name", NFAcctInvalidDropped)
	}
	add(f, ChainForward, append(invalid, "-j", "DROP")...)
	add(f, ChainForward, "-m", "comment", "--comment", q("kubernetes forwarding rules"), "-m", "mark", "--mark", m+"/"+m, "-j", "ACCEPT")
	add(f, ChainForward, "-m", "comment", "--comment", q("kubernetes forwarding conntrack rule"), "-m", "conntrack", "--ctstate", "RELATED,ESTABLISHED", "-j", "ACCEPT")

	rs.Jumps = jumpRules(rs.IPv6)
	return rs
}

// comment appends "-m comment --comment c" unless in large-cluster mode
// (appendServiceCommentLocked).
func (rs *Ruleset) comment(args []string, c string) []string {
	if rs.LargeCluster {
		return args
	}
	return append(args, "-m", "comment", "--comment", c)
}

// writeEndpointJumps is writeServiceToEndpointRules: affinity checks
// first, then one statistic rule per endpoint.
func (rs *Ruleset) writeEndpointJumps(sp ServicePort, chain string, eps []Endpoint) {
	n := &rs.NAT
	name := sp.NameString()
	// epComment is the endpoint's comment, built only when written.
	epComment := func(args []string, si sepInfo) []string {
		if rs.LargeCluster {
			return args
		}
		return append(args, "-m", "comment", "--comment", q(name+" -> "+si.hostPort))
	}
	cm := 4
	if rs.LargeCluster {
		cm = 0
	}
	if sp.SessionAffinityClientIP {
		for _, ep := range eps {
			si := rs.sep[ep]
			args := epComment(rs.args(cm+11), si)
			args = append(args, "-m", "recent", "--name", si.chain, "--rcheck", "--seconds", strconv.Itoa(sp.Timeout()), "--reap", "-j", si.chain)
			n.Rules = append(n.Rules, Rule{chain, args})
		}
	}
	for i, ep := range eps {
		si := rs.sep[ep]
		st := 0
		if i < len(eps)-1 {
			st = 6
		}
		args := epComment(rs.args(cm+st+2), si)
		if i < len(eps)-1 {
			args = append(args, "-m", "statistic", "--mode", "random", "--probability", rs.probability(len(eps)-i))
		}
		n.Rules = append(n.Rules, Rule{chain, append(args, "-j", si.chain)})
	}
}

// sepInfo is an endpoint's ip:port and KUBE-SEP chain for the port being
// written.
type sepInfo struct{ hostPort, chain string }

// args returns an empty slice with room for n arguments, carved from a
// shared block so that a large ruleset does not allocate every rule's
// arguments separately.
func (rs *Ruleset) args(n int) []string {
	if len(rs.slab)+n > cap(rs.slab) {
		rs.slab = make([]string, 0, max(4096, n))
	}
	l := len(rs.slab)
	rs.slab = rs.slab[:l+n]
	return rs.slab[l : l : l+n]
}

// probability is Probability(n), each text computed once per ruleset.
func (rs *Ruleset) probability(n int) string {
	for len(rs.probs) <= n {
		rs.probs = append(rs.probs, "")
	}
	if rs.probs[n] == "" {
		rs.probs[n] = Probability(n)
	}
	return rs.probs[n]
}

// sortPorts orders ports by name, then protocol (each key built once).
func sortPorts(ports []ServicePort) {
	keys := make(map[int]string, len(ports))
	idx := make([]int, len(ports))
	for i, sp := range ports {
		idx[i] = i
		keys[i] = sp.NameString() + "\x00" + sp.Proto()
	}
	sort.SliceStable(idx, func(a, b int) bool { return keys[idx[a]] < keys[idx[b]] })
	sorted := make([]ServicePort, len(ports))
	for i, j := range idx {
		sorted[i] = ports[j]
	}
	copy(ports, sorted)
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
