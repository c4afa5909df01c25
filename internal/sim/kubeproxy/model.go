package kubeproxy

import (
	"slices"
	"sort"
	"strconv"
	"strings"
)

// ServicePort is one port of one Service, with the endpoints that back it
// (their port is the resolved targetPort). It is the unit kube-proxy
// programs: a Service with two ports gets two KUBE-SVC chains.
type ServicePort struct {
	Namespace string
	Name      string
	// PortName is the port's name; "" for a single unnamed port.
	PortName string
	// Protocol is TCP, UDP or SCTP.
	Protocol string
	// ClusterIP is the virtual IP; "" or "None" makes the Service headless.
	ClusterIP string
	Port      int32
	// TargetPort is informational (the endpoints carry the resolved port).
	TargetPort int32
	// SessionAffinityClientIP is spec.sessionAffinity: ClientIP.
	SessionAffinityClientIP bool
	// AffinityTimeout is sessionAffinityConfig.clientIP.timeoutSeconds;
	// 0 means the API default, 10800.
	AffinityTimeout int
	// ExternalName, when set, makes this an ExternalName Service.
	ExternalName string
	// PublishNotReadyAddresses only matters to DNS.
	PublishNotReadyAddresses bool
	Endpoints                []Endpoint

	// Type is spec.type: "" or ClusterIP, NodePort or LoadBalancer
	// (ExternalName is carried by ExternalName).
	Type string
	// NodePort is the port's nodePort (0: none); HealthCheckNodePort is
	// spec.healthCheckNodePort of a LoadBalancer with
	// externalTrafficPolicy: Local.
	NodePort, HealthCheckNodePort int32
	// ExternalPolicyLocal and InternalPolicyLocal are the Local traffic
	// policies (spec.externalTrafficPolicy, spec.internalTrafficPolicy).
	ExternalPolicyLocal, InternalPolicyLocal bool
	// ExternalIPs are spec.externalIPs; LoadBalancerIPs the ingress IPs in
	// status.loadBalancer; SourceRanges spec.loadBalancerSourceRanges.
	ExternalIPs, LoadBalancerIPs, SourceRanges []string
}

// Endpoint is one address of an EndpointSlice for the port.
type Endpoint struct {
	IP          string
	Port        int32
	Ready       bool
	Serving     bool
	Terminating bool
	NodeName    string
	Hostname    string
}

// Config is the per-node kube-proxy configuration that shapes the rules.
type Config struct {
	// ClusterCIDR enables the "ClusterCIDR" local-traffic detector: the
	// masquerade rule becomes "! -s CIDR". Empty means no detector.
	ClusterCIDR string
	// MasqueradeAll marks every packet to a ClusterIP for SNAT.
	MasqueradeAll bool
	// MasqueradeBit is --iptables-masquerade-bit; 0 means the default 14.
	MasqueradeBit int
	// NoRandomFully models an iptables older than 1.6.2 (no --random-fully).
	NoRandomFully bool
	// NodeName is the node whose rules these are: it decides which
	// endpoints are local (Local traffic policies, nftables hairpin set).
	// NodeIP is its address (LoadBalancer source ranges, NodePort walks).
	NodeName, NodeIP string
	// NoNFAcct models a kernel without nfnetlink_acct/xt_nfacct: kube-proxy
	// then cannot create its nfacct counters and leaves the "-m nfacct"
	// matches out (proxier.go nfAcctCounters).
	NoNFAcct bool
}

// DefaultAffinityTimeout is the API default of timeoutSeconds (3 hours).
const DefaultAffinityTimeout = 10800

// LargeClusterThreshold is upstream's largeClusterEndpointsThreshold: above
// this many endpoints in total, per-endpoint comments are dropped.
const LargeClusterThreshold = 1000

// Headless reports a Service with no cluster IP (clusterIP: None).
func (sp ServicePort) Headless() bool {
	return sp.ExternalName == "" && (sp.ClusterIP == "" || sp.ClusterIP == "None")
}

// Proxied reports whether kube-proxy writes rules for the port: it skips
// ExternalName and headless Services (proxy.ServiceChangeTracker, "not a
// proxied service" when ClusterIP is None or empty).
func (sp ServicePort) Proxied() bool { return sp.ExternalName == "" && !sp.Headless() }

// IPv6 reports whether the Service is IPv6 (one kube-proxy per family).
func (sp ServicePort) IPv6() bool { return strings.Contains(sp.ClusterIP, ":") }

// Timeout returns the effective affinity timeout in seconds.
func (sp ServicePort) Timeout() int {
	if sp.AffinityTimeout > 0 {
		return sp.AffinityTimeout
	}
	return DefaultAffinityTimeout
}

// String is the endpoint as upstream prints it: net.JoinHostPort, so IPv6
// addresses are bracketed ("[fd00::1]:80").
func (ep Endpoint) String() string {
	// net.JoinHostPort without its allocations: brackets around an
	// address with a colon.
	if strings.IndexByte(ep.IP, ':') >= 0 {
		return "[" + ep.IP + "]:" + strconv.Itoa(int(ep.Port))
	}
	return ep.IP + ":" + strconv.Itoa(int(ep.Port))
}

// UsableEndpoints returns the endpoints the Cluster traffic policy uses, in
// the order kube-proxy writes them: the ready ones, or if none is ready the
// serving-and-terminating ones (pkg/proxy/topology.go CategorizeEndpoints);
// duplicates removed and sorted by their ip:port string
// (endpointslicecache.go byEndpoint), so 10.1.0.10:80 comes before 10.1.0.9:80.
func (sp ServicePort) UsableEndpoints() []Endpoint {
	eps := pickSorted(sp.Endpoints, func(e Endpoint) bool { return e.Ready })
	if len(eps) > 0 {
		return eps
	}
	return pickSorted(sp.Endpoints, func(e Endpoint) bool { return e.Serving && e.Terminating })
}

// pickSorted keeps the endpoints ok accepts, without duplicates, sorted by
// their ip:port string (each string computed once).
func pickSorted(in []Endpoint, ok func(Endpoint) bool) []Endpoint {
	// Sort (key, index) pairs rather than whole endpoints.
	type keyed struct {
		key string
		i   int
	}
	ks := make([]keyed, 0, len(in))
	for i := range in {
		if ok(in[i]) {
			ks = append(ks, keyed{in[i].String(), i})
		}
	}
	slices.SortStableFunc(ks, func(a, b keyed) int { return strings.Compare(a.key, b.key) })
	out := make([]Endpoint, 0, len(ks))
	for i, k := range ks {
		if i > 0 && ks[i-1].key == k.key {
			continue
		}
		out = append(out, in[k.i])
	}
	return out
}

// ExternallyAccessible is apiservice.ExternallyAccessible for the port:
// a NodePort or LoadBalancer, or any Service with external IPs.
func (sp ServicePort) ExternallyAccessible() bool {
	return sp.NodePort != 0 || len(sp.ExternalIPs) > 0 || len(sp.LoadBalancerIPs) > 0 ||
		sp.Type == "NodePort" || sp.Type == "LoadBalancer"
}

// externalLocal is BaseServicePortInfo.ExternalPolicyLocal: the policy
// only counts for an externally accessible Service.
func (sp ServicePort) externalLocal() bool {
	return sp.ExternalPolicyLocal && sp.ExternallyAccessible()
}

// usesClusterEndpoints and usesLocalEndpoints follow pkg/proxy/serviceport.go.
func (sp ServicePort) usesClusterEndpoints() bool {
	return !sp.InternalPolicyLocal || (sp.ExternallyAccessible() && !sp.externalLocal())
}

func (sp ServicePort) usesLocalEndpoints() bool { return sp.InternalPolicyLocal || sp.externalLocal() }

// Categorized is proxy.CategorizeEndpoints for one node: the endpoints of
// the Cluster policy, those of the Local policy, every endpoint a rule can
// reach from this node, and whether the Service has usable endpoints on
// any node.
type Categorized struct {
	Cluster, Local, Reachable []Endpoint
	HasAny                    bool
}

// Categorize splits the endpoints for the node as kube-proxy does
// (pkg/proxy/topology.go CategorizeEndpoints, without topology hints):
// ready endpoints, else serving-and-terminating ones, for each policy.
func (sp ServicePort) Categorize(node string) Categorized {
	var c Categorized
	if sp.usesClusterEndpoints() {
		c.Cluster = sp.UsableEndpoints()
		c.HasAny = len(c.Cluster) > 0
	}
	if !sp.usesLocalEndpoints() {
		c.Reachable = c.Cluster
		return c
	}
	all := dedupSorted(sp.Endpoints)
	readyLocal, termLocal := false, false
	for _, ep := range all {
		switch {
		case ep.Ready:
			c.HasAny = true
			readyLocal = readyLocal || ep.NodeName == node
		case ep.Serving && ep.Terminating:
			c.HasAny = true
			termLocal = termLocal || ep.NodeName == node
		}
	}
	for _, ep := range all {
		if ep.NodeName != node {
			continue
		}
		if (readyLocal && ep.Ready) || (!readyLocal && termLocal && ep.Serving && ep.Terminating) {
			c.Local = append(c.Local, ep)
		}
	}
	if !sp.usesClusterEndpoints() {
		c.Reachable = c.Local
		return c
	}
	seen := map[string]bool{}
	for _, ep := range append(clone2(c.Cluster), c.Local...) {
		if !seen[ep.String()] {
			seen[ep.String()] = true
			c.Reachable = append(c.Reachable, ep)
		}
	}
	sort.Slice(c.Reachable, func(i, j int) bool { return c.Reachable[i].String() < c.Reachable[j].String() })
	return c
}

func clone2(s []Endpoint) []Endpoint { return append([]Endpoint(nil), s...) }

func dedupSorted(in []Endpoint) []Endpoint {
	return pickSorted(in, func(Endpoint) bool { return true })
}
