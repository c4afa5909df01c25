package cmd

import (
	"fmt"
	"math"
	"net/netip"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy/explain"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
)

// input validates the flags and builds the explain input.
func (o *DNATOptions) input() (explain.Input, error) {
	in := explain.Input{Form: o.Form, Mode: o.Mode, Connections: o.Connections}
	if o.Form != "restore" && o.Form != "save" {
		return in, exitcode.Inputf("invalid --form %q: want restore or save", o.Form)
	}
	if o.Mode != "iptables" && o.Mode != "ipvs" && o.Mode != "nftables" {
		return in, exitcode.Inputf("invalid --mode %q: want iptables, ipvs or nftables", o.Mode)
	}
	if o.Changed["form"] && o.Mode != "iptables" {
		return in, exitcode.Inputf("--form applies to --mode iptables only")
	}
	if o.Connections < 0 || o.Connections > 1_000_000 {
		return in, exitcode.Inputf("invalid --connections %d: want 0 to 1000000", o.Connections)
	}
	sp := kubeproxy.ServicePort{ExternalName: strings.TrimSuffix(o.ExternalName, ".")}
	ns, name, ok := strings.Cut(o.Service, "/")
	if !ok {
		return in, exitcode.Inputf("invalid --service %q: want namespace/name, e.g. default/web", o.Service)
	}
	sp.Namespace, sp.Name = ns, name
	if err := parsePort(o.Port, &sp); err != nil {
		return in, err
	}
	switch strings.ToLower(o.SessionAffinity) {
	case "clientip":
		sp.SessionAffinityClientIP = true
	case "none":
	default:
		return in, exitcode.Inputf("invalid --session-affinity %q: want None or ClientIP", o.SessionAffinity)
	}
	if o.Changed["session-affinity-timeout"] {
		// core/validation validateClientIPAffinityConfig.
		if !sp.SessionAffinityClientIP {
			return in, exitcode.Inputf("--session-affinity-timeout needs --session-affinity ClientIP")
		}
		sp.AffinityTimeout = o.SessionAffinityTimeout
	}
	if err := o.serviceType(&sp); err != nil {
		return in, err
	}
	target := int(sp.Port)
	example := !o.Changed["endpoints"] && !o.Changed["endpoints-file"]
	if example {
		target = exampleTargetPort
	}
	if o.Changed["target-port"] {
		if o.TargetPort < 1 || o.TargetPort > 65535 {
			return in, exitcode.Inputf("invalid --target-port %d: want 1 to 65535", o.TargetPort)
		}
		target = o.TargetPort
	}
	sp.TargetPort = int32(target)
	var family string
	if o.ClusterIP == "None" {
		sp.ClusterIP = "None"
	} else if sp.ExternalName == "" {
		a, err := parseIP(o.ClusterIP, "--cluster-ip")
		if err != nil {
			return in, err
		}
		sp.ClusterIP, family = a.String(), ipFamily(a)
	} else {
		sp.ClusterIP = ""
	}
	var list []endpointEntry
	switch {
	case sp.ExternalName != "": // an ExternalName Service has no endpoints
	case example:
		for _, s := range exampleEndpoints {
			list = append(list, endpointEntry{text: s})
		}
	default:
		var err error
		if list, err = o.endpointList(); err != nil {
			return in, err
		}
	}
	for i, e := range list {
		s := e.text
		ep, err := parseEndpoint(strings.TrimSpace(s), target, e.where)
		if err != nil {
			return in, err
		}
		if ep.NodeName == "" {
			ep.NodeName = kubeproxy.NodeName(i)
		}
		if family != "" && ipFamily(netip.MustParseAddr(ep.IP)) != family {
			if example {
				return in, exitcode.Inputf("the example endpoints are IPv4 but --cluster-ip %s is %s: give --endpoints of the same family", sp.ClusterIP, family)
			}
			msg := fmt.Sprintf("endpoint %q is %s but the cluster IP %s is %s: kube-proxy ignores endpoints of the other family", s, ipFamily(netip.MustParseAddr(ep.IP)), sp.ClusterIP, family)
			if e.where != "" {
				msg = e.where + ": " + msg
			}
			return in, exitcode.Inputf("%s", msg)
		}
		sp.Endpoints = append(sp.Endpoints, ep)
	}
	for _, ip := range append(append([]string(nil), sp.LoadBalancerIPs...), sp.ExternalIPs...) {
		if family != "" && ipFamily(netip.MustParseAddr(ip)) != family {
			return in, exitcode.Inputf("--load-balancer-ip %s is not %s like the cluster IP %s", ip, family, sp.ClusterIP)
		}
	}
	if o.ClusterCIDR != "" {
		p, err := netip.ParsePrefix(o.ClusterCIDR)
		if err != nil {
			return in, exitcode.Inputf("invalid --cluster-cidr %q: want a CIDR such as 10.244.0.0/16", o.ClusterCIDR)
		}
		switch {
		case family == "" || ipFamily(p.Addr()) == family:
			in.Config.ClusterCIDR = p.Masked().String()
		case len(o.Files) > 0:
			// -f: the Service's family is checked against the manifest.
			in.Config.ClusterCIDR = p.Masked().String()
		case o.Changed["cluster-cidr"]:
			return in, exitcode.Inputf("--cluster-cidr %s is %s but the cluster IP %s is %s", o.ClusterCIDR, ipFamily(p.Addr()), sp.ClusterIP, family)
		}
	}
	if err := o.nodeAndClient(sp, &in); err != nil {
		return in, err
	}
	if o.Changed["endpoints-per-service"] && !o.Changed["services"] {
		return in, exitcode.Inputf("--endpoints-per-service needs --services")
	}
	if o.Changed["services"] {
		if o.Services < 1 {
			return in, exitcode.Inputf("invalid --services %d: want at least 1", o.Services)
		}
		in.Services, in.EndpointsPerService = o.Services, len(sp.UsableEndpoints())
		if o.Changed["endpoints-per-service"] {
			if o.EndpointsPerService < 0 {
				return in, exitcode.Inputf("invalid --endpoints-per-service %d: want 0 or more", o.EndpointsPerService)
			}
			in.EndpointsPerService = o.EndpointsPerService
		}
		if err := kubeproxy.CheckScale(in.Services, in.EndpointsPerService); err != nil {
			return in, exitcode.Inputf("--services %d --endpoints-per-service %d: %v", in.Services, in.EndpointsPerService, err)
		}
	}
	svc := dnatService(sp)
	// What the flags set goes to the API server's validation as given.
	if o.Changed["external-traffic-policy"] {
		svc.Spec.ExternalTrafficPolicy = corev1.ServiceExternalTrafficPolicy(o.ExternalTrafficPolicy)
	}
	if o.Changed["health-check-node-port"] {
		svc.Spec.HealthCheckNodePort = clampInt32(o.HealthCheckNodePort)
	}
	if o.Changed["session-affinity-timeout"] {
		t := clampInt32(o.SessionAffinityTimeout)
		svc.Spec.SessionAffinityConfig = &corev1.SessionAffinityConfig{ClientIP: &corev1.ClientIPConfig{TimeoutSeconds: &t}}
	}
	if err := o.validateService(svc); err != nil {
		return in, err
	}
	in.Example = example && !o.Changed["service"] && !o.Changed["port"] && !o.Changed["cluster-ip"] && !o.Changed["target-port"] && !o.Changed["external-name"] && !o.Changed["type"]
	// kube-proxy's view of the Service and its slices, as it has of one
	// the API server stores (kubeproxy.FromAPI, as trace apply's agents).
	in.Port = kubeproxy.FromAPI(svc, dnatSlices(svc, sp.Endpoints))[0]
	if sp.ClusterIP == corev1.ClusterIPNone {
		// kube-proxy keeps the endpoints of its one family (FromAPI); a
		// headless Service is not kube-proxy's, and CoreDNS answers for
		// it from the slices of both (A and AAAA records).
		in.Port.Endpoints = sp.Endpoints
	}
	return in, nil
}

// serviceType reads --type and the flags that only external types take.
func (o *DNATOptions) serviceType(sp *kubeproxy.ServicePort) error {
	switch o.Type {
	case "ClusterIP", "NodePort", "LoadBalancer":
	case "ExternalName":
		return exitcode.Inputf("invalid --type ExternalName: give --external-name instead")
	default:
		return exitcode.Inputf("invalid --type %q: want ClusterIP, NodePort or LoadBalancer", o.Type)
	}
	if sp.ExternalName != "" && o.Changed["type"] {
		return exitcode.Inputf("--type cannot be combined with --external-name: that is an ExternalName Service")
	}
	sp.Type = o.Type
	external := o.Type != "ClusterIP"
	policy := func(flag, v string) (bool, error) {
		switch v {
		case "Cluster":
			return false, nil
		case "Local":
			return true, nil
		}
		return false, exitcode.Inputf("invalid --%s %q: want Cluster or Local", flag, v)
	}
	var err error
	if sp.InternalPolicyLocal, err = policy("internal-traffic-policy", o.InternalTrafficPolicy); err != nil {
		return err
	}
	if sp.ExternalPolicyLocal, err = policy("external-traffic-policy", o.ExternalTrafficPolicy); err != nil {
		return err
	}
	port := func(flag string, v, def int) (int32, error) {
		if !o.Changed[flag] {
			return int32(def), nil
		}
		if !external {
			return 0, exitcode.Inputf("--%s needs --type NodePort or LoadBalancer", flag)
		}
		// The default --service-node-port-range.
		if v < 30000 || v > 32767 {
			return 0, exitcode.Inputf("invalid --%s %d: provided port is not in the valid range. The range of valid ports is 30000-32767", flag, v)
		}
		return int32(v), nil
	}
	if sp.NodePort, err = port("node-port", o.NodePort, defaultNodePort); err != nil {
		return err
	}
	if !external {
		sp.NodePort = 0
	}
	lbLocal := o.Type == "LoadBalancer" && sp.ExternalPolicyLocal
	if lbLocal {
		if sp.HealthCheckNodePort, err = port("health-check-node-port", o.HealthCheckNodePort, defaultHCNodePort); err != nil {
			return err
		}
		if sp.HealthCheckNodePort == sp.NodePort {
			return exitcode.Inputf("--health-check-node-port %d is the --node-port: spec.healthCheckNodePort: Duplicate value", sp.HealthCheckNodePort)
		}
	}
	for _, f := range []string{"load-balancer-ip", "load-balancer-source-ranges"} {
		if o.Changed[f] && o.Type != "LoadBalancer" {
			return exitcode.Inputf("--%s needs --type LoadBalancer", f)
		}
	}
	if o.Type == "LoadBalancer" {
		ip := o.LoadBalancerIP
		if !o.Changed["load-balancer-ip"] {
			ip = defaultLBIP
		}
		if ip != "none" {
			a, err := parseIP(ip, "--load-balancer-ip")
			if err != nil {
				return err
			}
			sp.LoadBalancerIPs = []string{a.String()}
		}
		for _, r := range o.SourceRanges {
			p, err := netip.ParsePrefix(strings.TrimSpace(r))
			if err != nil {
				return exitcode.Inputf("invalid --load-balancer-source-ranges %q: spec.loadBalancerSourceRanges: Invalid value: %q: must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)", r, r)
			}
			sp.SourceRanges = append(sp.SourceRanges, p.Masked().String())
		}
	}
	return nil
}

// nodeAndClient reads --node, --client and --nfacct into the config.
func (o *DNATOptions) nodeAndClient(sp kubeproxy.ServicePort, in *explain.Input) error {
	node := o.Node
	if node == "" {
		node = "node-a"
		if len(sp.Endpoints) > 0 {
			node = sp.Endpoints[0].NodeName
		}
	} else {
		for _, m := range validation.IsDNS1123Subdomain(node) {
			return exitcode.Inputf("invalid --node %q: %s", node, m)
		}
	}
	in.Config.NodeName, in.Config.NodeIP = node, kubeproxy.NodeIP(node)
	in.Config.NoNFAcct = !o.NFAcct
	if o.Client != "" {
		a, err := parseIP(o.Client, "--client")
		if err != nil {
			return err
		}
		if sp.ClusterIP != "" && sp.ClusterIP != "None" && ipFamily(a) != ipFamily(netip.MustParseAddr(sp.ClusterIP)) {
			return exitcode.Inputf("--client %s is not of the cluster IP's family", o.Client)
		}
		in.Client = a.String()
	}
	return nil
}

// clampInt32 is v as an int32 field holds it, out-of-range values pinned
// to the nearest end so that validation still sees them out of range.
func clampInt32(v int) int32 {
	return int32(min(max(v, math.MinInt32), math.MaxInt32))
}
