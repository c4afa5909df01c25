package grpclb

import (
	"fmt"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/dns"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy"
)

// Modes, in the order they are reported.
const (
	ModeClusterIP = "clusterip" // ClusterIP Service, default pick_first
	ModeHeadless  = "headless"  // headless Service, round_robin
	ModeEnvoy     = "envoy"     // an L7 proxy balancing per request
)

// The Service every run talks to.
const (
	Namespace   = "default"
	ServiceName = "echo"
	ClusterIP   = "10.96.120.15"
	Port        = 50051
	ClusterCIDR = "10.244.0.0/16"
	Intervals   = 10
	// MinResolutionInterval is grpc-go's dns resolver floor between two
	// resolutions (internal/resolver/dns/dns_resolver.go).
	MinResolutionInterval = 30 * time.Second
	// connectDelay is how long a new subchannel takes to become READY.
	connectDelay = time.Millisecond
)

// Config is one experiment.
type Config struct {
	Clients, Pods, RPCs int
	Duration            time.Duration
	// ScaleUp pods are added at half time.
	ScaleUp int
	// MaxConnectionAge is the servers' keepalive.ServerParameters
	// MaxConnectionAge; 0 means infinite (grpc-go's default).
	MaxConnectionAge time.Duration
	// Envoy adds the L7-proxy mode.
	Envoy bool
	// KillPod stops, at half time, the busiest pod through the ClusterIP:
	// the most open connections at that moment, then the most RPCs.
	KillPod bool
	Seed    int64
}

// Pod is one backend.
type Pod struct {
	Name, IP string
	// Added is when it became ready; Removed when it stopped (0: never).
	Added, Removed time.Duration
	Stopped        bool
}

// Conn is one HTTP/2 connection a client opened.
type Conn struct {
	Client         int
	Pod            int
	Opened, Closed time.Duration
	// Reason is why it closed: "", "goaway" or "stopped".
	Reason string
	RPCs   int
	// Chain is the KUBE-SEP chain DNAT took (ClusterIP mode only).
	Chain string
}

// ModeResult is what one mode did with the workload.
type ModeResult struct {
	Mode string
	// Counts are RPCs per pod index; PerInterval the same per interval.
	Counts      []int
	PerInterval [][]int
	Conns       []Conn
	// Resolutions are the times a client re-resolved DNS (headless).
	Resolutions []time.Duration
	// Pickup is when a scaled-up pod first got an RPC; -1 never.
	Pickup time.Duration
}

// Result is the whole experiment.
type Result struct {
	Config Config
	Pods   []Pod
	Modes  []ModeResult
	// Killed is the stopped pod's index, -1 if none.
	Killed int
	// Event is when --scale-up and --kill-pod act.
	Event time.Duration
	// Live is set for a result measured with real grpc-go (no intervals).
	Live *Live
}

// Live describes a run of the real library on loopback.
type Live struct {
	// Version is grpc.Version; Proxy the DNAT-like proxy's address.
	Version, Proxy string
	Elapsed        time.Duration
	// ProxyChoices is the backend chosen for each proxied connection.
	ProxyChoices []int
}

// PodIP is the address of pod i: three nodes with podCIDRs 10.244.1-3.0/24.
func PodIP(i int) string { return fmt.Sprintf("10.244.%d.%d", i%3+1, 10+i/3) }

// ClientIP is the address of client pod c (same nodes, higher host part).
func ClientIP(c int) string { return fmt.Sprintf("10.244.%d.%d", c%3+1, 200+c/3) }

// PodName names pod i (a StatefulSet-style ordinal keeps names short).
func PodName(i int) string { return fmt.Sprintf("echo-%d", i) }

// ServicePort is the Service as kube-proxy sees it with the given pods ready.
func ServicePort(pods []Pod, at time.Duration) kubeproxy.ServicePort {
	sp := kubeproxy.ServicePort{Namespace: Namespace, Name: ServiceName, PortName: "grpc", Protocol: "TCP",
		ClusterIP: ClusterIP, Port: Port, TargetPort: Port}
	for _, p := range alive(pods, at) {
		sp.Endpoints = append(sp.Endpoints, kubeproxy.Endpoint{IP: pods[p].IP, Port: Port, Ready: true, Serving: true})
	}
	return sp
}

// Headless is the headless twin (clusterIP: None) as DNS sees it.
func Headless(pods []Pod, at time.Duration) dns.Service {
	svc := dns.Service{Namespace: Namespace, Name: ServiceName + "-headless", ClusterIP: "None"}
	for _, p := range alive(pods, at) {
		svc.Endpoints = append(svc.Endpoints, dns.Endpoint{IP: pods[p].IP, Hostname: pods[p].Name, Ready: true})
	}
	return svc
}

// alive lists the pods ready at time at, in index order.
func alive(pods []Pod, at time.Duration) []int {
	var out []int
	for i, p := range pods {
		if p.Added <= at && !(p.Stopped && p.Removed <= at) {
			out = append(out, i)
		}
	}
	return out
}

// Alive lists the pods ready at time at.
func (r *Result) Alive(at time.Duration) []int { return alive(r.Pods, at) }

// IntervalEnd is the end of interval i.
func (r *Result) IntervalEnd(i int) time.Duration {
	return r.Config.Duration * time.Duration(i+1) / Intervals
}

// Stats summarises counts over the given pods: the busiest pod's RPCs
// divided by the mean, and how many got none.
func Stats(counts []int, pods []int) (maxOverMean float64, idle int) {
	total, max := 0, 0
	for _, p := range pods {
		total += counts[p]
		if counts[p] > max {
			max = counts[p]
		}
		if counts[p] == 0 {
			idle++
		}
	}
	if total == 0 || len(pods) == 0 {
		return 0, idle
	}
	return float64(max) / (float64(total) / float64(len(pods))), idle
}
