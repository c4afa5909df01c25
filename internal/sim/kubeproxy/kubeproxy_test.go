package kubeproxy

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	_ "github.com/k8sexplain/k8sexplain/internal/golden" // defines -update for go test ./... -update
)

func svc1(eps ...Endpoint) ServicePort {
	return ServicePort{Namespace: "ns1", Name: "svc1", PortName: "p80", Protocol: "TCP", ClusterIP: "172.30.0.41", Port: 80, Endpoints: eps}
}

func ready(ip string, port int32) Endpoint {
	return Endpoint{IP: ip, Port: port, Ready: true, Serving: true}
}

func TestChainNames(t *testing.T) {
	sp := svc1()
	if got := sp.SVCChain(); got != "KUBE-SVC-XPGD46QRK7WJZT7O" {
		t.Errorf("SVC chain = %s", got)
	}
	if got := sp.SEPChain(ready("10.180.0.1", 80)); got != "KUBE-SEP-SXIVWICOYRO3J4NJ" {
		t.Errorf("SEP chain = %s", got)
	}
	unnamed := sp
	unnamed.PortName = ""
	if unnamed.NameString() != "ns1/svc1" {
		t.Errorf("unnamed port name = %q", unnamed.NameString())
	}
	// nftables proxier's doc example: "ULMVA6XW-ns1/svc1/tcp/p80".
	if got := sp.NFTServiceChain(); got != "service-ULMVA6XW-ns1/svc1/tcp/p80" {
		t.Errorf("nft chain = %s", got)
	}
}

func TestProbability(t *testing.T) {
	for _, tc := range []struct {
		n          int
		text, save string
	}{
		{3, "0.3333333333", "0.33333333349"},
		{2, "0.5000000000", "0.50000000000"},
		{7, "0.1428571429", "0.14285714272"},
		{100001, "0.0000099999", ""},
	} {
		if got := Probability(tc.n); got != tc.text {
			t.Errorf("Probability(%d) = %s, want %s", tc.n, got, tc.text)
		}
		if tc.save != "" && SavedProbability(tc.text) != tc.save {
			t.Errorf("SavedProbability(%s) = %s, want %s", tc.text, SavedProbability(tc.text), tc.save)
		}
	}
	if MasqueradeMark(0) != "0x00004000" {
		t.Errorf("mark = %s", MasqueradeMark(0))
	}
}

// The one-endpoint restore input matches upstream's TestOverallIPTablesRules
// lines for svc1 (with the real mark width and --random-fully).
func TestRestoreOneEndpoint(t *testing.T) {
	rs := BuildIPTables(Config{ClusterCIDR: "10.0.0.0/8"}, []ServicePort{svc1(ready("10.180.0.1", 80))})
	got := rs.Restore()
	for _, want := range []string{
		`-A KUBE-SERVICES -m comment --comment "ns1/svc1:p80 cluster IP" -m tcp -p tcp -d 172.30.0.41 --dport 80 -j KUBE-SVC-XPGD46QRK7WJZT7O`,
		`-A KUBE-SVC-XPGD46QRK7WJZT7O -m comment --comment "ns1/svc1:p80 cluster IP" -m tcp -p tcp -d 172.30.0.41 --dport 80 ! -s 10.0.0.0/8 -j KUBE-MARK-MASQ`,
		`-A KUBE-SVC-XPGD46QRK7WJZT7O -m comment --comment "ns1/svc1:p80 -> 10.180.0.1:80" -j KUBE-SEP-SXIVWICOYRO3J4NJ`,
		`-A KUBE-SEP-SXIVWICOYRO3J4NJ -m comment --comment ns1/svc1:p80 -s 10.180.0.1 -j KUBE-MARK-MASQ`,
		`-A KUBE-SEP-SXIVWICOYRO3J4NJ -m comment --comment ns1/svc1:p80 -m tcp -p tcp -j DNAT --to-destination 10.180.0.1:80`,
		"-A KUBE-POSTROUTING -m mark ! --mark 0x00004000/0x00004000 -j RETURN\n-A KUBE-POSTROUTING -j MARK --xor-mark 0x00004000\n",
		":KUBE-SVC-XPGD46QRK7WJZT7O - [0:0]\n:KUBE-SEP-SXIVWICOYRO3J4NJ - [0:0]\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("restore lacks\n%s\ngot:\n%s", want, got)
		}
	}
	if !strings.HasPrefix(got, "*filter\n") || !strings.HasSuffix(got, "COMMIT\n") {
		t.Errorf("bad framing:\n%s", got)
	}
}

func TestEndpointOrderAndStatistic(t *testing.T) {
	sp := svc1(ready("10.1.0.9", 80), ready("10.1.0.10", 80), ready("10.1.0.2", 80))
	eps := sp.UsableEndpoints()
	var order []string
	for _, e := range eps {
		order = append(order, e.String())
	}
	if strings.Join(order, ",") != "10.1.0.10:80,10.1.0.2:80,10.1.0.9:80" {
		t.Errorf("order = %v", order)
	}
	rs := BuildIPTables(Config{}, []ServicePort{sp})
	var probs []string
	for _, r := range rs.NAT.Rules {
		if r.Chain == sp.SVCChain() {
			probs = append(probs, r.Text())
		}
	}
	if len(probs) != 3 || !strings.Contains(probs[0], "--probability 0.3333333333 -j") ||
		!strings.Contains(probs[1], "--probability 0.5000000000 -j") || strings.Contains(probs[2], "statistic") {
		t.Errorf("SVC rules (no cluster CIDR: no masquerade rule):\n%s", strings.Join(probs, "\n"))
	}
}

func TestNoEndpointsReject(t *testing.T) {
	sp := svc1(Endpoint{IP: "10.180.0.1", Port: 80}) // not ready
	rs := BuildIPTables(Config{ClusterCIDR: "10.0.0.0/8"}, []ServicePort{sp})
	got := rs.Restore()
	want := `-A KUBE-SERVICES -m comment --comment "ns1/svc1:p80 has no endpoints" -m tcp -p tcp -d 172.30.0.41 --dport 80 -j REJECT`
	if !strings.Contains(got, want) || strings.Contains(got, "KUBE-SVC-") || strings.Contains(got, "KUBE-SEP-") {
		t.Errorf("no-endpoints restore:\n%s", got)
	}
	// Serving+terminating endpoints are the fallback when none is ready.
	sp.Endpoints[0].Serving, sp.Endpoints[0].Terminating = true, true
	if len(sp.UsableEndpoints()) != 1 {
		t.Error("terminating fallback not used")
	}
}

func TestAffinity(t *testing.T) {
	sp := svc1(ready("10.180.0.1", 80), ready("10.180.0.2", 80))
	sp.SessionAffinityClientIP = true
	rs := BuildIPTables(Config{}, []ServicePort{sp})
	got := rs.Restore()
	sep := sp.SEPChain(ready("10.180.0.1", 80))
	for _, want := range []string{
		fmt.Sprintf(`-A %s -m comment --comment "ns1/svc1:p80 -> 10.180.0.1:80" -m recent --name %s --rcheck --seconds 10800 --reap -j %s`, sp.SVCChain(), sep, sep),
		fmt.Sprintf(`-A %s -m comment --comment ns1/svc1:p80 -m recent --name %s --set -m tcp -p tcp -j DNAT --to-destination 10.180.0.1:80`, sep, sep),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("affinity restore lacks\n%s\ngot:\n%s", want, got)
		}
	}
	save := rs.Save()
	if !strings.Contains(save, fmt.Sprintf("-m recent --rcheck --seconds 10800 --reap --name %s --mask 255.255.255.255 --rsource -j %s", sep, sep)) {
		t.Errorf("save form of recent:\n%s", save)
	}
	// All connections from one client stick to the first endpoint chosen.
	aff := Affinity{}
	rng := rand.New(rand.NewPCG(1, 2))
	first := ""
	for i := 0; i < 50; i++ {
		w := rs.WalkNew(Packet{Src: "10.0.1.5", Dst: sp.ClusterIP, SPort: 40000 + i, DPort: 80, Proto: "tcp"}, rng, aff)
		if first == "" {
			first = w.Endpoint
		} else if w.Endpoint != first || !w.Affinity {
			t.Fatalf("connection %d went to %s (affinity %v), first went to %s", i, w.Endpoint, w.Affinity, first)
		}
	}
}

func TestLargeClusterDropsComments(t *testing.T) {
	var eps []Endpoint
	for i := 0; i < 1001; i++ {
		eps = append(eps, ready(fmt.Sprintf("10.2.%d.%d", i/250, i%250+1), 80))
	}
	rs := BuildIPTables(Config{ClusterCIDR: "10.0.0.0/8"}, []ServicePort{svc1(eps...)})
	if !rs.LargeCluster {
		t.Fatal("1001 endpoints is not large-cluster mode")
	}
	for _, r := range rs.NAT.Rules {
		if strings.HasPrefix(r.Chain, "KUBE-SEP-") && strings.Contains(r.Text(), "comment") {
			t.Fatalf("SEP rule keeps its comment: %s", r.Text())
		}
	}
	// The capture and masquerade rules keep theirs.
	if !strings.Contains(rs.Restore(), `"ns1/svc1:p80 cluster IP"`) {
		t.Error("cluster IP comment dropped")
	}
	small := BuildIPTables(Config{}, []ServicePort{svc1(eps[:1000]...)})
	if small.LargeCluster {
		t.Error("1000 endpoints should not be large-cluster mode")
	}
}

func TestSaveRewrite(t *testing.T) {
	r := Rule{"SVC", strings.Fields(`-m comment --comment "ns/web cluster IP" -m tcp -p tcp -d 192.0.2.10 --dport 80 ! -s 198.51.100.0/24 -j KUBE-MARK-MASQ`)}
	// Fields splits the quoted comment; rebuild it as one token.
	r.Args = append([]string{"-m", "comment", "--comment", `"ns/web cluster IP"`}, r.Args[6:]...)
	want := `-A SVC ! -s 198.51.100.0/24 -d 192.0.2.10/32 -p tcp -m comment --comment "ns/web cluster IP" -m tcp --dport 80 -j KUBE-MARK-MASQ`
	if got := SaveRule(r, false); got != want {
		t.Errorf("SaveRule:\n got %s\nwant %s", got, want)
	}
	rs := BuildIPTables(Config{ClusterCIDR: "10.0.0.0/8"}, []ServicePort{svc1(ready("10.180.0.1", 80))})
	save := rs.Save()
	for _, want := range []string{
		"-A KUBE-MARK-MASQ -j MARK --set-xmark 0x4000/0x4000",
		"-A KUBE-POSTROUTING -m mark ! --mark 0x4000/0x4000 -j RETURN",
		"-A KUBE-POSTROUTING -j MARK --set-xmark 0x4000/0x0",
		`-A KUBE-SEP-SXIVWICOYRO3J4NJ -s 10.180.0.1/32 -m comment --comment "ns1/svc1:p80" -j KUBE-MARK-MASQ`,
		`-A KUBE-SEP-SXIVWICOYRO3J4NJ -p tcp -m comment --comment "ns1/svc1:p80" -m tcp -j DNAT --to-destination 10.180.0.1:80`,
		`-A KUBE-FIREWALL ! -s 127.0.0.0/8 -d 127.0.0.0/8 -m comment --comment "block incoming localnet connections" -m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT -j DROP`,
	} {
		if !strings.Contains(save, want) {
			t.Errorf("save lacks\n%s\ngot:\n%s", want, save)
		}
	}
}

func TestWalkAndSpread(t *testing.T) {
	sp := svc1(ready("10.180.0.1", 80), ready("10.180.0.2", 80), ready("10.180.0.3", 80))
	rs := BuildIPTables(Config{ClusterCIDR: "10.0.0.0/8"}, []ServicePort{sp})
	rng := rand.New(rand.NewPCG(7, 0))
	counts := map[string]int{}
	const k = 30000
	for i := 0; i < k; i++ {
		w := rs.WalkNew(Packet{Src: "10.0.1.5", Dst: sp.ClusterIP, SPort: 40000, DPort: 80, Proto: "tcp"}, rng, nil)
		if w.Verdict != "ACCEPT" || w.Masquerade {
			t.Fatalf("walk: %+v", w)
		}
		counts[w.Endpoint]++
	}
	for ep, n := range counts {
		if n < k/3-600 || n > k/3+600 {
			t.Errorf("%s got %d of %d", ep, n, k)
		}
	}
	// Off-cluster source: marked, masqueraded in POSTROUTING.
	w := rs.WalkNew(Packet{Src: "192.168.1.7", Dst: sp.ClusterIP, SPort: 40000, DPort: 80, Proto: "tcp"}, rng, nil)
	if !w.Masquerade {
		t.Error("off-cluster source not masqueraded")
	}
	// No endpoints: REJECT in filter.
	none := BuildIPTables(Config{}, []ServicePort{svc1()})
	if w := none.WalkNew(Packet{Src: "10.0.1.5", Dst: "172.30.0.41", SPort: 1, DPort: 80, Proto: "tcp"}, rng, nil); w.Verdict != "REJECT" {
		t.Errorf("no-endpoints verdict %s", w.Verdict)
	}
}

func TestIPv6(t *testing.T) {
	sp := ServicePort{Namespace: "ns1", Name: "svc1", Protocol: "TCP", ClusterIP: "fd00:10:96::a", Port: 80, Endpoints: []Endpoint{ready("fd00:10:244::2", 8080)}}
	rs := BuildIPTables(Config{ClusterCIDR: "fd00:10:244::/56"}, []ServicePort{sp})
	got := rs.Restore()
	if !strings.Contains(got, "--to-destination [fd00:10:244::2]:8080") || !strings.Contains(got, `! -d ::1/128 -j KUBE-NODEPORTS`) || strings.Contains(got, "KUBE-FIREWALL") {
		t.Errorf("IPv6 restore:\n%s", got)
	}
	if !strings.Contains(rs.Save(), "-d fd00:10:96::a/128") {
		t.Errorf("IPv6 save:\n%s", rs.Save())
	}
}

// The extrapolation Scale uses beyond the generator's limits agrees with
// full builds.
func TestScaleExtrapolationIsLinear(t *testing.T) {
	for _, tc := range []struct{ s, e int }{{7, 3}, {40, 1}, {25, 0}} {
		full := Measure(tc.s, tc.e)
		a, b := Measure(1, tc.e), Measure(2, tc.e)
		lin := func(x, y int) int { return x + (tc.s-1)*(y-x) }
		if got := lin(a.IPTablesNATRules, b.IPTablesNATRules); got != full.IPTablesNATRules {
			t.Errorf("%+v: iptables nat rules %d extrapolated, %d built", tc, got, full.IPTablesNATRules)
		}
		if got := lin(a.NFTRules, b.NFTRules); got != full.NFTRules {
			t.Errorf("%+v: nft rules %d extrapolated, %d built", tc, got, full.NFTRules)
		}
		if got := lin(a.IPTablesWorstScan, b.IPTablesWorstScan); got != full.IPTablesWorstScan {
			t.Errorf("%+v: worst scan %d extrapolated, %d built", tc, got, full.IPTablesWorstScan)
		}
	}
	if CheckScale(10_000, 16) == nil || CheckScale(10_001, 1) == nil || CheckScale(10_000, 10) != nil {
		t.Error("limits")
	}
}
