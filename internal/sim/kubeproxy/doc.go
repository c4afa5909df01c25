// Package kubeproxy models what kube-proxy programs into a node's kernel for
// ClusterIP Services: the iptables-restore input it writes (byte for byte, as
// pkg/proxy/iptables/proxier.go syncProxyRules does on a full sync), the same
// rules as iptables-save would print them back, the walk of a new connection
// through those rules (with a seeded random source standing in for the
// kernel's statistic match), and the IPVS and nftables alternatives.
//
// Everything here is a pure function of its input: a list of ServicePort
// values with their endpoints, plus a Config (cluster CIDR, masquerade bit).
// The simulator feeds it from Services and EndpointSlices; the dnat command
// feeds it from flags.
//
// Deliberately left out: NodePort, LoadBalancer, externalIPs and
// loadBalancerSourceRanges (KUBE-EXT/KUBE-FW chains), traffic policies
// Local (KUBE-SVL), topology hints, partial syncs and stale-chain deletion.
// Service ports are emitted sorted by name (upstream iterates a Go map, so
// its order changes from sync to sync).
package kubeproxy
