package kubeproxy

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"
)

// flow sends many new connections from src to dst:port and reports the
// endpoints reached (sorted, ", "-joined as upstream's packet-flow tests
// print them), whether they were masqueraded, and the verdict.
func flow(rs Ruleset, src, dst string, port int, proto string) (string, bool, string) {
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[string]bool{}
	masq, verdict := false, ""
	for i := 0; i < 200; i++ {
		w := rs.WalkNew(Packet{Src: src, Dst: dst, SPort: 40000 + i, DPort: port, Proto: proto}, rng, nil)
		verdict = w.Verdict
		if w.Endpoint != "" {
			seen[w.Endpoint] = true
		}
		masq = masq || w.Masquerade
	}
	var eps []string
	for e := range seen {
		eps = append(eps, e)
	}
	sort.Strings(eps)
	return strings.Join(eps, ", "), masq, verdict
}

type flowCase struct {
	name, src, dst string
	port           int
	output         string
	masq           bool
}

func runFlows(t *testing.T, rs Ruleset, cases []flowCase) {
	t.Helper()
	for _, tc := range cases {
		out, masq, verdict := flow(rs, tc.src, tc.dst, tc.port, "tcp")
		if out == "" {
			out = verdict
		}
		if out != tc.output || masq != tc.masq {
			t.Errorf("%s: got %q masq=%v, want %q masq=%v", tc.name, out, masq, tc.output, tc.masq)
		}
	}
}

// The packet-flow expectations of upstream TestExternalTrafficPolicyLocal
// and TestExternalTrafficPolicyCluster (pkg/proxy/iptables/proxier_test.go,
// v1.37.2), walked through our rules: node 192.168.0.2, external client
// 203.0.113.2, pods in 10.0.0.0/8.
func TestUpstreamTrafficPolicyFlows(t *testing.T) {
	const nodeIP, external = "192.168.0.2", "203.0.113.2"
	for _, local := range []bool{true, false} {
		sp := ServicePort{Namespace: "ns1", Name: "svc1", PortName: "p80", Protocol: "TCP", ClusterIP: "172.30.0.41", Port: 80,
			Type: "LoadBalancer", NodePort: 3001, ExternalIPs: []string{"192.168.99.11"}, LoadBalancerIPs: []string{"1.2.3.4"},
			ExternalPolicyLocal: local,
			Endpoints: []Endpoint{{IP: "10.180.0.1", Port: 80, Ready: true, NodeName: "other"},
				{IP: "10.180.2.1", Port: 80, Ready: true, NodeName: "test-node"}}}
		if local {
			sp.HealthCheckNodePort = 30000
		}
		rs := BuildIPTables(Config{ClusterCIDR: "10.0.0.0/8", NodeName: "test-node", NodeIP: nodeIP}, []ServicePort{sp})
		both, only := "10.180.0.1:80, 10.180.2.1:80", "10.180.2.1:80"
		if local {
			runFlows(t, rs, []flowCase{
				{"pod to cluster IP hits both endpoints, unmasqueraded", "10.0.0.2", "172.30.0.41", 80, both, false},
				{"pod to external IP hits both endpoints, unmasqueraded", "10.0.0.2", "192.168.99.11", 80, both, false},
				{"external to external IP hits only local endpoint, unmasqueraded", external, "192.168.99.11", 80, only, false},
				{"pod to LB IP hits only both endpoints, unmasqueraded", "10.0.0.2", "1.2.3.4", 80, both, false},
				{"external to LB IP hits only local endpoint, unmasqueraded", external, "1.2.3.4", 80, only, false},
				{"pod to NodePort hits both endpoints, unmasqueraded", "10.0.0.2", nodeIP, 3001, both, false},
				{"external to NodePort hits only local endpoint, unmasqueraded", external, nodeIP, 3001, only, false},
			})
			if !strings.Contains(rs.Restore(), `-A KUBE-EXT-`+Hash16("ns1/svc1:p80tcp")+` -j KUBE-SVL-`) {
				t.Error("KUBE-EXT does not end with the jump to KUBE-SVL")
			}
		} else {
			runFlows(t, rs, []flowCase{
				{"pod to cluster IP hits both endpoints, unmasqueraded", "10.0.0.2", "172.30.0.41", 80, both, false},
				{"pod to external IP hits both endpoints, masqueraded", "10.0.0.2", "192.168.99.11", 80, both, true},
				{"external to external IP hits both endpoints, masqueraded", external, "192.168.99.11", 80, both, true},
				{"pod to LB IP hits both endpoints, masqueraded", "10.0.0.2", "1.2.3.4", 80, both, true},
				{"external to LB IP hits both endpoints, masqueraded", external, "1.2.3.4", 80, both, true},
				{"pod to NodePort hits both endpoints, masqueraded", "10.0.0.2", nodeIP, 3001, both, true},
				{"external to NodePort hits both endpoints, masqueraded", external, nodeIP, 3001, both, true},
			})
		}
	}
}

// internalTrafficPolicy: Local (upstream TestInternalTrafficPolicy): only
// this node's endpoints through KUBE-SVL; with none, the cluster IP DROPs.
func TestInternalTrafficPolicyLocal(t *testing.T) {
	sp := ServicePort{Namespace: "ns1", Name: "svc1", PortName: "", Protocol: "TCP", ClusterIP: "172.30.1.1", Port: 80,
		InternalPolicyLocal: true,
		Endpoints: []Endpoint{{IP: "10.0.1.1", Port: 80, Ready: true, NodeName: "test-node"},
			{IP: "10.0.1.2", Port: 80, Ready: true, NodeName: "test-node"},
			{IP: "10.0.1.3", Port: 80, Ready: true, NodeName: "host2"}}}
	cfg := Config{ClusterCIDR: "10.0.0.0/8", NodeName: "test-node", NodeIP: "192.168.0.2"}
	rs := BuildIPTables(cfg, []ServicePort{sp})
	runFlows(t, rs, []flowCase{{"internalTrafficPolicy is local", "10.0.0.2", "172.30.1.1", 80, "10.0.1.1:80, 10.0.1.2:80", false}})
	svl := sp.SVLChain()
	for _, want := range []string{
		`-A KUBE-SERVICES -m comment --comment "ns1/svc1 cluster IP" -m tcp -p tcp -d 172.30.1.1 --dport 80 -j ` + svl,
		`-A ` + svl + ` -m comment --comment "ns1/svc1 cluster IP" -m tcp -p tcp -d 172.30.1.1 --dport 80 ! -s 10.0.0.0/8 -j KUBE-MARK-MASQ`,
	} {
		if !strings.Contains(rs.Restore(), want+"\n") {
			t.Errorf("missing %s", want)
		}
	}
	if strings.Contains(rs.Restore(), "KUBE-SVC-") || strings.Contains(rs.Restore(), "10.0.1.3") {
		t.Errorf("the Cluster chain or a remote endpoint is written:\n%s", rs.Restore())
	}
	cfg.NodeName = "host3"
	rs = BuildIPTables(cfg, []ServicePort{sp})
	runFlows(t, rs, []flowCase{{"no local endpoints", "10.0.0.2", "172.30.1.1", 80, "DROP", false}})
	if !strings.Contains(rs.Restore(), `-A KUBE-SERVICES -m comment --comment "ns1/svc1 has no local endpoints" -m tcp -p tcp -d 172.30.1.1 --dport 80 -j DROP`) {
		t.Errorf("no DROP rule:\n%s", rs.Restore())
	}
}

// loadBalancerSourceRanges (upstream TestLoadBalancer): a source in the
// range reaches the endpoints, one outside is dropped by
// KUBE-PROXY-FIREWALL.
func TestLoadBalancerSourceRanges(t *testing.T) {
	sp := ServicePort{Namespace: "ns1", Name: "svc1", PortName: "p80", Protocol: "TCP", ClusterIP: "172.30.0.41", Port: 80,
		Type: "LoadBalancer", NodePort: 3001, LoadBalancerIPs: []string{"1.2.3.4"}, SourceRanges: []string{"203.0.113.0/25"},
		Endpoints: []Endpoint{{IP: "10.180.0.1", Port: 80, Ready: true, NodeName: "test-node"}}}
	rs := BuildIPTables(Config{ClusterCIDR: "10.0.0.0/8", NodeName: "test-node", NodeIP: "192.168.0.2"}, []ServicePort{sp})
	runFlows(t, rs, []flowCase{
		{"accepted external to LB IP", "203.0.113.2", "1.2.3.4", 80, "10.180.0.1:80", true},
		{"blocked external to LB IP", "203.0.113.130", "1.2.3.4", 80, "DROP", false},
		{"external to NodePort (not subject to source ranges)", "203.0.113.130", "192.168.0.2", 3001, "10.180.0.1:80", true},
	})
}

// The hairpin: a pod reaching itself through its Service is masqueraded to
// the node's address, and the walk says so.
func TestHairpinWalk(t *testing.T) {
	sp := ServicePort{Namespace: "ns1", Name: "svc1", Protocol: "TCP", ClusterIP: "172.30.0.41", Port: 80,
		Endpoints: []Endpoint{{IP: "10.180.0.1", Port: 80, Ready: true, NodeName: "test-node"}}}
	rs := BuildIPTables(Config{ClusterCIDR: "10.0.0.0/8", NodeName: "test-node", NodeIP: "192.168.0.2"}, []ServicePort{sp})
	w := rs.WalkNew(Packet{Src: "10.180.0.1", Dst: "172.30.0.41", SPort: 40000, DPort: 80, Proto: "tcp"}, rand.New(rand.NewPCG(1, 1)), nil)
	if !w.Hairpin || !w.Masquerade || w.After.Src != "192.168.0.2" || w.After.Dst != "10.180.0.1" {
		t.Errorf("hairpin walk: %+v", w)
	}
}

// The sampler draws from the same distribution as the rules: compared
// with walking each connection through them.
func TestSamplerMatchesWalks(t *testing.T) {
	var eps []Endpoint
	for i := 1; i <= 7; i++ {
		eps = append(eps, Endpoint{IP: "10.180.0." + string(rune('0'+i)), Port: 80, Ready: true})
	}
	sp := ServicePort{Namespace: "ns1", Name: "svc1", Protocol: "TCP", ClusterIP: "172.30.0.41", Port: 80, Endpoints: eps}
	rs := BuildIPTables(Config{ClusterCIDR: "10.0.0.0/8"}, []ServicePort{sp})
	const k = 21000
	walked, sampled := map[string]int{}, map[string]int{}
	rng := rand.New(rand.NewPCG(3, 4))
	sample := rs.Sampler(sp.SVCChain())
	for i := 0; i < k; i++ {
		walked[rs.WalkNew(Packet{Src: "10.0.1.5", Dst: "172.30.0.41", SPort: 40000, DPort: 80, Proto: "tcp"}, rng, nil).Endpoint]++
		sampled[sample(rng)]++
	}
	for _, ep := range eps {
		w, s := walked[ep.String()], sampled[ep.String()]
		if w < k/7-400 || w > k/7+400 || s < k/7-400 || s > k/7+400 {
			t.Errorf("%s: walked %d, sampled %d of %d", ep, w, s, k)
		}
	}
}

// Issue 17: 10,000 connections over 8,000 endpoints stay fast (the walk
// per connection took minutes).
func TestSamplerScales(t *testing.T) {
	var eps []Endpoint
	for i := 0; i < 8000; i++ {
		eps = append(eps, Endpoint{IP: fmt.Sprintf("10.%d.%d.%d", 128+i/65536, i/256%256, i%256+0), Port: 80, Ready: true})
	}
	sp := ServicePort{Namespace: "ns1", Name: "svc1", Protocol: "TCP", ClusterIP: "172.30.0.41", Port: 80, Endpoints: eps}
	rs := BuildIPTables(Config{ClusterCIDR: "10.0.0.0/8"}, []ServicePort{sp})
	start := time.Now()
	sample := rs.Sampler(sp.SVCChain())
	rng := rand.New(rand.NewPCG(1, 1))
	for i := 0; i < 1_000_000; i++ {
		if sample(rng) == "" {
			t.Fatal("no endpoint")
		}
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("1,000,000 connections over 8,000 endpoints took %v", d)
	}
}
