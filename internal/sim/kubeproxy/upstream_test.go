package kubeproxy

import (
	"os"
	"sort"
	"strings"
	"testing"
)

// upstreamOverall are the six Services of TestOverallIPTablesRules and
// TestOverallNFTablesRules (pkg/proxy/{iptables,nftables}/proxier_test.go,
// v1.37.2), on node "test-node" (192.168.0.2) with the local-traffic
// detector for 10.0.0.0/8.
func upstreamOverall() (Config, []ServicePort) {
	cfg := Config{ClusterCIDR: "10.0.0.0/8", NodeName: "test-node", NodeIP: "192.168.0.2"}
	ep := func(ip, node string) Endpoint {
		return Endpoint{IP: ip, Port: 80, Ready: true, Serving: true, NodeName: node}
	}
	p := func(ns, name, ip string) ServicePort {
		return ServicePort{Namespace: ns, Name: name, PortName: "p80", Protocol: "TCP", ClusterIP: ip, Port: 80}
	}
	svc1 := p("ns1", "svc1", "172.30.0.41")
	svc1.Endpoints = []Endpoint{ep("10.180.0.1", "")}
	svc2 := p("ns2", "svc2", "172.30.0.42")
	svc2.Type, svc2.ExternalPolicyLocal, svc2.NodePort, svc2.HealthCheckNodePort = "LoadBalancer", true, 3001, 30000
	svc2.LoadBalancerIPs, svc2.ExternalIPs = []string{"1.2.3.4"}, []string{"192.168.99.22"}
	svc2.Endpoints = []Endpoint{ep("10.180.0.2", "")}
	svc3 := p("ns3", "svc3", "172.30.0.43")
	svc3.Type, svc3.NodePort = "NodePort", 3003
	svc3.Endpoints = []Endpoint{ep("10.180.0.3", "")}
	svc4 := p("ns4", "svc4", "172.30.0.44")
	svc4.Type, svc4.ExternalIPs = "NodePort", []string{"192.168.99.33"}
	svc4.Endpoints = []Endpoint{ep("10.180.0.4", ""), ep("10.180.0.5", "test-node")}
	svc5 := p("ns5", "svc5", "172.30.0.45")
	svc5.Type, svc5.NodePort, svc5.HealthCheckNodePort = "LoadBalancer", 3002, 30000
	svc5.LoadBalancerIPs, svc5.SourceRanges = []string{"5.6.7.8"}, []string{"203.0.113.0/25"}
	svc5.SessionAffinityClientIP, svc5.AffinityTimeout = true, 10800
	svc5.Endpoints = []Endpoint{ep("10.180.0.3", "")}
	svc6 := p("ns6", "svc6", "172.30.0.46")
	return cfg, []ServicePort{svc1, svc2, svc3, svc4, svc5, svc6}
}

// sortRestore normalises restore input the way upstream's test helper
// sortIPTablesRules does: tables by name, chains KUBE-NODEPORTS first, then
// KUBE-SERVICES, then by name; rules grouped by chain in their order.
func sortRestore(t *testing.T, text string) []string {
	t.Helper()
	var out []string
	type table struct {
		name   string
		chains []string
		rules  map[string][]string
	}
	var tables []*table
	var cur *table
	for _, l := range strings.Split(text, "\n") {
		switch {
		case l == "" || strings.HasPrefix(l, "#") || l == "COMMIT":
		case strings.HasPrefix(l, "*"):
			cur = &table{name: l, rules: map[string][]string{}}
			tables = append(tables, cur)
		case strings.HasPrefix(l, ":"):
			cur.chains = append(cur.chains, strings.Fields(l[1:])[0])
		case strings.HasPrefix(l, "-A "):
			c := strings.Fields(l)[1]
			cur.rules[c] = append(cur.rules[c], l)
		default:
			t.Fatalf("unexpected line %q", l)
		}
	}
	sort.Slice(tables, func(i, j int) bool { return tables[i].name < tables[j].name })
	rank := func(c string) string {
		switch c {
		case ChainNodePorts:
			return "0"
		case ChainServices:
			return "1"
		}
		return "2" + c
	}
	for _, tb := range tables {
		sort.Slice(tb.chains, func(i, j int) bool { return rank(tb.chains[i]) < rank(tb.chains[j]) })
		out = append(out, tb.name)
		for _, c := range tb.chains {
			out = append(out, ":"+c+" - [0:0]")
		}
		for _, c := range tb.chains {
			out = append(out, tb.rules[c]...)
		}
		out = append(out, "COMMIT")
	}
	return out
}

// TestUpstreamOverallIPTablesRules compares the restore input line by line
// with upstream's expected dump (testdata/upstream-overall-iptables.txt).
// Upstream's fake proxier sets its mark to "0x4000" directly; a real
// kube-proxy formats it with %#08x, "0x00004000", as we do.
func TestUpstreamOverallIPTablesRules(t *testing.T) {
	cfg, ports := upstreamOverall()
	want, err := os.ReadFile("testdata/upstream-overall-iptables.txt")
	if err != nil {
		t.Fatal(err)
	}
	got := sortRestore(t, strings.ReplaceAll(BuildIPTables(cfg, ports).Restore(), "0x00004000", "0x4000"))
	exp := sortRestore(t, string(want))
	for i := 0; i < len(got) || i < len(exp); i++ {
		var g, e string
		if i < len(got) {
			g = got[i]
		}
		if i < len(exp) {
			e = exp[i]
		}
		if g != e {
			t.Errorf("line %d:\n got  %s\n want %s", i+1, g, e)
		}
	}
}

// TestUpstreamOverallNFTablesRules compares our transaction for the same
// six Services with upstream's expected dump
// (testdata/upstream-overall-nftables.txt): the same lines, and in every
// chain the same rules in the same order. A dump has no "flush chain"
// lines and lists objects in its own order, so lines are compared as a
// multiset; our "add chain" lines are followed by a flush, as ensureChain
// does.
func TestUpstreamOverallNFTablesRules(t *testing.T) {
	cfg, ports := upstreamOverall()
	// The nftables test's endpoints name their nodes.
	for i := range ports {
		for j := range ports[i].Endpoints {
			ep := &ports[i].Endpoints[j]
			switch ep.IP {
			case "10.180.0.1", "10.180.0.3", "10.180.0.5":
				ep.NodeName = "test-node"
			default:
				ep.NodeName = "other-node"
			}
		}
	}
	v := BuildNFT(cfg, ports)
	text := strings.ReplaceAll(v.Text+v.Base, "0x00004000", "0x4000")
	want, err := os.ReadFile("testdata/upstream-overall-nftables.txt")
	if err != nil {
		t.Fatal(err)
	}
	var got, exp []string
	for _, l := range strings.Split(text, "\n") {
		if l != "" && !strings.HasPrefix(l, "flush chain ") {
			got = append(got, l)
		}
	}
	for _, l := range strings.Split(string(want), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			exp = append(exp, l)
		}
	}
	perChain := func(lines []string) map[string][]string {
		m := map[string][]string{}
		for _, l := range lines {
			if f := strings.Fields(l); len(f) > 4 && f[0] == "add" && f[1] == "rule" {
				m[f[4]] = append(m[f[4]], l)
			}
		}
		return m
	}
	if len(exp) < 50 || len(got) < 50 {
		t.Fatalf("only %d expected and %d generated lines", len(exp), len(got))
	}
	g, e := perChain(got), perChain(exp)
	for c, rules := range e {
		if strings.Join(g[c], "\n") != strings.Join(rules, "\n") {
			t.Errorf("chain %s:\n got\n%s\n want\n%s", c, strings.Join(g[c], "\n"), strings.Join(rules, "\n"))
		}
	}
	sort.Strings(got)
	sort.Strings(exp)
	if strings.Join(got, "\n") != strings.Join(exp, "\n") {
		t.Errorf("lines differ:\n got\n%s\n want\n%s", strings.Join(got, "\n"), strings.Join(exp, "\n"))
	}
}

// Chain names and their length limit, from upstream
// Test_servicePortChainNameBase and Test_servicePortEndpointChainNameBase
// (pkg/proxy/nftables/proxier_test.go, v1.37.2): 8 hash characters, the
// name, cut to 240 bytes with "..." when longer.
func TestUpstreamNFTChainNames(t *testing.T) {
	long := ServicePort{Namespace: "very-long-namespace-name-abcdefghijklmnopqrstuvwxyz0123456789xx",
		Name: "very-long-service-name-why-would-you-even-do-this-i-mean-really", Protocol: "SCTP",
		PortName: "port-443-providing-the-hypertext-transmission-protocol-with-tls"}
	simple := ServicePort{Namespace: "testing", Name: "service", Protocol: "TCP", PortName: "http"}
	https := simple
	https.PortName = "https"
	ep := func(ip string, port int32) Endpoint { return Endpoint{IP: ip, Port: port} }
	longPrefix := "very-long-namespace-name-abcdefghijklmnopqrstuvwxyz0123456789xx/very-long-service-name-why-would-you-even-do-this-i-mean-really/sctp/port-443-providing-the-hypertext-transmission-protocol-with-tls"
	for _, tc := range []struct{ got, want string }{
		{simple.NFTServiceChain(), "service-P4ZYZVCF-testing/service/tcp/http"},
		{https.NFTServiceChain(), "service-LZBRENCP-testing/service/tcp/https"},
		{long.NFTServiceChain(), "service-KR6NACJP-" + longPrefix},
		{simple.NFTEndpointChain(ep("10.180.0.1", 80)), "endpoint-JO2XBXZR-testing/service/tcp/http__10.180.0.1/80"},
		{simple.NFTEndpointChain(ep("10.180.0.2", 80)), "endpoint-5S6H3H22-testing/service/tcp/http__10.180.0.2/80"},
		{simple.NFTEndpointChain(ep("fd80:abcd:12::a1b2:c3d4:e5f6:9999", 80)), "endpoint-U7E2ET36-testing/service/tcp/http__fd80.abcd.12..a1b2.c3d4.e5f6.9999/80"},
		{long.NFTEndpointChain(ep("1234:5678:9abc:def0::abc:1234", 443)), "endpoint-5YS7AFEA-" + longPrefix + "__1234.5678.9abc.def0..abc.1234/443"},
		{long.NFTEndpointChain(ep("1234:5678:9abc:def0::abcd:1234:5678", 443)), "endpoint-CI6C53Q3-" + longPrefix + "__1234.5678.9abc.def0..abcd.1234..."},
		{long.NFTEndpointChain(ep("1234:5678:9abc:def0::abcd:1234:8765", 443)), "endpoint-2FLXFK6X-" + longPrefix + "__1234.5678.9abc.def0..abcd.1234..."},
		{long.NFTAffinitySet(ep("1234:5678:9abc:def0::abcd:1234:8765", 443)), "affinity-2FLXFK6X-" + longPrefix + "__1234.5678.9abc.def0..abcd.1234..."},
	} {
		if tc.got != tc.want {
			t.Errorf("got  %s\nwant %s", tc.got, tc.want)
		}
	}
}

// iptables-save shows the nfacct match with two spaces after
// --nfacct-name, as real captures do (e.g. the expected rules of a node
// check: `-A KUBE-FORWARD -m conntrack --ctstate INVALID -m nfacct
// --nfacct-name  ct_state_invalid_dropped_pkts -j DROP`); without nfacct
// support the rule has no counter.
func TestSaveNFAcct(t *testing.T) {
	cfg, ports := upstreamOverall()
	save := BuildIPTables(cfg, ports).Save()
	for _, want := range []string{
		"-A KUBE-FORWARD -m conntrack --ctstate INVALID -m nfacct --nfacct-name  ct_state_invalid_dropped_pkts -j DROP\n",
		"-A KUBE-NODEPORTS -d 127.0.0.0/8 -p tcp -m comment --comment \"ns2/svc2:p80\" -m tcp --dport 3001 -m nfacct --nfacct-name  localhost_nps_accepted_pkts -j KUBE-EXT-GNZBNJ2PO5MGZ6GT\n",
		"-A KUBE-FW-NUKIZ6OKUXPJNT4C -m comment --comment \"other traffic to ns5/svc5:p80 will be dropped by KUBE-PROXY-FIREWALL\"\n",
	} {
		if !strings.Contains(save, want) {
			t.Errorf("save lacks %q", want)
		}
	}
	cfg.NoNFAcct = true
	if s := BuildIPTables(cfg, ports).Save(); strings.Contains(s, "nfacct") || !strings.Contains(s, "-A KUBE-FORWARD -m conntrack --ctstate INVALID -j DROP\n") {
		t.Error("--nfacct=false still writes nfacct matches")
	}
}
