package kubeproxy

import (
	"net"
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
	return net.JoinHostPort(ep.IP, strconv.Itoa(int(ep.Port)))
}

// UsableEndpoints returns the endpoints the Cluster traffic policy uses, in
// the order kube-proxy writes them: the ready ones, or if none is ready the
// serving-and-terminating ones (pkg/proxy/topology.go CategorizeEndpoints);
// duplicates removed and sorted by their ip:port string
// (endpointslicecache.go byEndpoint), so 10.1.0.10:80 comes before 10.1.0.9:80.
func (sp ServicePort) UsableEndpoints() []Endpoint {
	pick := func(ok func(Endpoint) bool) []Endpoint {
		seen := map[string]bool{}
		var out []Endpoint
		for _, ep := range sp.Endpoints {
			if ok(ep) && !seen[ep.String()] {
				seen[ep.String()] = true
				out = append(out, ep)
			}
		}
		sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
		return out
	}
	if eps := pick(func(e Endpoint) bool { return e.Ready }); len(eps) > 0 {
		return eps
	}
	return pick(func(e Endpoint) bool { return e.Serving && e.Terminating })
}
