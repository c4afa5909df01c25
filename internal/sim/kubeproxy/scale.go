package kubeproxy

// ScaleRow is how the node's state grows with the number of ClusterIP
// Services (one TCP port each) and endpoints per Service, in each mode,
// assuming a cluster CIDR (so each Service has its masquerade rule).
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
	// nftables: service-ips map elements, chains and rules; a new
	// connection does one map lookup and a fixed number of rules.
	NFTElements, NFTChains, NFTRules, NFTPerPacket int
}

// Scale computes a ScaleRow with the same formulas BuildIPTables, BuildIPVS
// and BuildNFT follow (the tests check them against the builders).
func Scale(services, perService int) ScaleRow {
	s, e := services, perService
	r := ScaleRow{Services: s, EndpointsPerService: e, LargeCluster: s*e > LargeClusterThreshold}
	// 4 fixed rules + the nodeports rule; per service with endpoints: the
	// capture, the masquerade rule, E jumps, and 2 rules per endpoint chain.
	r.IPTablesNATRules, r.IPTablesNATChains = 5, 4
	r.IPVSIPTablesRules = 3
	if e > 0 {
		r.IPTablesNATRules += s * (2 + 3*e)
		r.IPTablesNATChains += s * (1 + e)
		// PREROUTING jump + every capture + masquerade + all E jumps + 2 SEP rules.
		r.IPTablesWorstScan = 1 + s + 1 + e + 2
		r.IPVSVirtual, r.IPVSReal = s, s*e
		r.NFTElements, r.NFTChains, r.NFTRules = s, s*(1+e), s*(2+2*e)
		// masquerade rule + numgen rule + the endpoint chain's 2 rules.
		r.NFTPerPacket = 4
	} else {
		// No endpoints: only filter REJECT rules, scanned in KUBE-SERVICES.
		r.IPTablesWorstScan = 1 + 1
		r.NFTElements = s
	}
	return r
}
