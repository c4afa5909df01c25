package kubeproxy

import (
	"fmt"
	"net/netip"
	"strings"
)

// ScaleRow is how the node's state grows with the number of ClusterIP
// Services (one TCP port each) and endpoints per Service, in each mode,
// with the cluster CIDR ScaleCIDR (so each Service has its masquerade
// rule). Every count comes from the builders run on Generate's Services.
type ScaleRow struct {
	Services, EndpointsPerService int
	// iptables: nat rules and chains in the restore input, and the most
	// rules a new connection can be tested against in nat PREROUTING
	// (KUBE-SERVICES is scanned in order, one rule per service port).
	IPTablesNATRules, IPTablesNATChains, IPTablesWorstScan int
	// LargeCluster: more than 1000 endpoints, comments dropped.
	LargeCluster bool
	// IPVS: virtual and real servers; the iptables rules stay fixed.
	IPVSVirtual, IPVSReal, IPVSIPTablesRules int
	// nftables: map and set elements, chains and rules of the Services;
	// a new connection does one map lookup and a fixed number of rules.
	NFTElements, NFTChains, NFTRules, NFTPerPacket int
}

// ScaleCIDR is the cluster CIDR of generated Services: a /12 holds the
// endpoints of MaxScaleEndpoints.
const ScaleCIDR = "10.128.0.0/12"

// Limits of the generator, from Kubernetes' documented scalability limits
// (kubernetes.io "Considerations for large clusters": at most 150,000 Pods;
// sig-scalability thresholds: 10,000 Services): Measure refuses more.
const (
	MaxScaleServices  = 10_000
	MaxScaleEndpoints = 150_000
)

// Generate makes n ClusterIP Services of one TCP port with e ready
// endpoints each: scale/svc-00001 … with cluster IPs from 10.96.0.1 and
// endpoints from 10.128.0.1, all on node "node-a" … spread over 100 nodes.
func Generate(n, e int) []ServicePort {
	vip := netip.MustParseAddr("10.96.0.0")
	pod := netip.MustParseAddr("10.128.0.0")
	out := make([]ServicePort, 0, n)
	var nodes [100]string // the 100 node names, made once
	for i := range nodes {
		nodes[i] = fmt.Sprintf("node-%03d", i)
	}
	for i := 0; i < n; i++ {
		vip = vip.Next()
		sp := ServicePort{Namespace: "scale", Name: fmt.Sprintf("svc-%05d", i+1), PortName: "http", Protocol: "TCP",
			ClusterIP: vip.String(), Port: 80, TargetPort: 8080, Endpoints: make([]Endpoint, 0, e)}
		for j := 0; j < e; j++ {
			pod = pod.Next()
			sp.Endpoints = append(sp.Endpoints, Endpoint{IP: pod.String(), Port: 8080, Ready: true, Serving: true,
				NodeName: nodes[(i*e+j)%100]})
		}
		out = append(out, sp)
	}
	return out
}

// CheckScale returns an error naming the limit when n Services of e
// endpoints are beyond what Measure generates.
func CheckScale(n, e int) error {
	if n > MaxScaleServices {
		return fmt.Errorf("%d Services is more than the %d a cluster supports (sig-scalability thresholds)", n, MaxScaleServices)
	}
	if n*e > MaxScaleEndpoints {
		return fmt.Errorf("%d Services × %d endpoints is %d endpoints, more than the %d Pods a cluster supports (kubernetes.io, considerations for large clusters)", n, e, n*e, MaxScaleEndpoints)
	}
	return nil
}

// Measure builds the iptables, IPVS and nftables state of Generate(n, e)
// and counts it.
func Measure(n, e int) ScaleRow {
	ports := Generate(n, e)
	cfg := Config{ClusterCIDR: ScaleCIDR}
	r := ScaleRow{Services: n, EndpointsPerService: e}
	rs := BuildIPTables(cfg, ports)
	r.IPTablesNATRules, _ = rs.Count()
	r.IPTablesNATChains = len(rs.NAT.Chains)
	r.LargeCluster = rs.LargeCluster
	r.IPTablesWorstScan = rs.worstScan()
	v := BuildIPVS(cfg, ports)
	r.IPVSVirtual, r.IPVSReal, r.IPVSIPTablesRules = v.VirtualServers, v.RealServers, v.IPTablesRules
	nft := BuildNFT(cfg, ports)
	r.NFTElements, r.NFTChains, r.NFTRules = nft.Elements, nft.Chains, nft.Rules
	r.NFTPerPacket = nft.perPacket(ports)
	return r
}

// Scale computes the row of n Services from Measure(1, e) and
// Measure(2, e): every count is a fixed part plus the same amount per
// Service, which the tests check against full builds (Measure). It costs
// two small builds whatever n is.
func Scale(n, e int) ScaleRow { return Scaler(e)(n) }

// Scaler returns Scale(·, e), making its two small builds once for every
// row of a table.
func Scaler(e int) func(n int) ScaleRow {
	a, b := Measure(1, e), Measure(2, e)
	return func(n int) ScaleRow { return scaleFrom(a, b, n, e) }
}

func scaleFrom(a, b ScaleRow, n, e int) ScaleRow {
	lin := func(x, y int) int { return x + (n-1)*(y-x) }
	return ScaleRow{Services: n, EndpointsPerService: e,
		IPTablesNATRules: lin(a.IPTablesNATRules, b.IPTablesNATRules), IPTablesNATChains: lin(a.IPTablesNATChains, b.IPTablesNATChains),
		IPTablesWorstScan: lin(a.IPTablesWorstScan, b.IPTablesWorstScan), LargeCluster: n*e > LargeClusterThreshold,
		IPVSVirtual: lin(a.IPVSVirtual, b.IPVSVirtual), IPVSReal: lin(a.IPVSReal, b.IPVSReal), IPVSIPTablesRules: a.IPVSIPTablesRules,
		NFTElements: lin(a.NFTElements, b.NFTElements), NFTChains: lin(a.NFTChains, b.NFTChains), NFTRules: lin(a.NFTRules, b.NFTRules),
		NFTPerPacket: a.NFTPerPacket}
}

// worstScan counts the nat rules a new connection to the last Service can
// be tested against: the PREROUTING jump, KUBE-SERVICES up to its capture,
// the whole service chain (every statistic rule failing but the last) and
// the endpoint chain. With no endpoints it is the filter REJECT scan.
func (rs Ruleset) worstScan() int {
	if len(rs.Ports) == 0 {
		return 0
	}
	last := rs.Ports[len(rs.Ports)-1]
	svc := last.SVCChain()
	n, capture, inSvc, sep := 1, 0, 0, 0
	var sepChain string
	for i, r := range rs.NAT.Rules {
		switch r.Chain {
		case ChainServices:
			if capture == 0 && len(r.Args) > 0 && r.Args[len(r.Args)-1] == svc {
				capture = countChain(rs.NAT.Rules[:i+1], ChainServices)
			}
		case svc:
			inSvc++
			sepChain = r.Args[len(r.Args)-1]
		}
	}
	for _, r := range rs.NAT.Rules {
		if r.Chain == sepChain {
			sep++
		}
	}
	if capture == 0 {
		// No endpoints: the filter table's KUBE-SERVICES REJECT rules.
		return 1 + countChain(rs.Filter.Rules, ChainServices)
	}
	return n + capture + inSvc + sep
}

func countChain(rules []Rule, chain string) int {
	n := 0
	for _, r := range rules {
		if r.Chain == chain {
			n++
		}
	}
	return n
}

// perPacket counts the nftables rules a new connection to a Service
// evaluates: the services chain's masquerade test and map lookup, then the
// rules of the service chain (one DNAT rule without affinity).
func (v NFTView) perPacket(ports []ServicePort) int {
	if len(ports) == 0 || len(ports[0].UsableEndpoints()) == 0 {
		return 0
	}
	chain := ports[0].NFTServiceChain()
	n := 2
	// Lines are "add rule FAMILY kube-proxy CHAIN …", single-spaced.
	for l := range strings.Lines(v.Text) {
		rest, ok := strings.CutPrefix(l, "add rule ")
		if !ok {
			continue
		}
		_, rest, _ = strings.Cut(rest, " ")
		_, rest, _ = strings.Cut(rest, " ")
		if c, _, _ := strings.Cut(rest, " "); c == chain {
			n++
		}
	}
	return n
}
