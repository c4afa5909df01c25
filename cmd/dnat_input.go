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
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"
)

// input validates the flags and builds the explain input: the Service and
// EndpointSlices the flags describe (dnat_service.go), validated as the API
// server would, and read as kube-proxy reads them.
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
	example := !o.Changed["endpoints"] && !o.Changed["endpoints-file"]
	svc, err := o.service(example)
	if err != nil {
		return in, err
	}
	eps, err := o.endpoints(svc, example)
	if err != nil {
		return in, err
	}
	family := ""
	if ip := svc.Spec.ClusterIP; ip != "" && ip != corev1.ClusterIPNone {
		family = ipFamily(netip.MustParseAddr(ip))
	}
	for _, ing := range svc.Status.LoadBalancer.Ingress {
		if family != "" && ipFamily(netip.MustParseAddr(ing.IP)) != family {
			return in, exitcode.Inputf("--load-balancer-ip %s is not %s like the cluster IP %s", ing.IP, family, svc.Spec.ClusterIP)
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
			return in, exitcode.Inputf("--cluster-cidr %s is %s but the cluster IP %s is %s", o.ClusterCIDR, ipFamily(p.Addr()), svc.Spec.ClusterIP, family)
		}
	}
	if err := o.validateService(svc); err != nil {
		return in, err
	}
	// kube-proxy's view of the Service and its slices, as it has of one
	// the API server stores (kubeproxy.FromAPI, as trace apply's agents).
	in.Port = kubeproxy.FromAPI(svc, dnatSlices(svc, eps))[0]
	if svc.Spec.ClusterIP == corev1.ClusterIPNone {
		// kube-proxy keeps the endpoints of its one family (FromAPI); a
		// headless Service is not kube-proxy's, and CoreDNS answers for
		// it from the slices of both (A and AAAA records).
		in.Port.Endpoints = eps
	}
	if err := o.nodeAndClient(in.Port, &in); err != nil {
		return in, err
	}
	if err := o.scale(&in, len(eps)); err != nil {
		return in, err
	}
	in.Example = example && !o.Changed["service"] && !o.Changed["port"] && !o.Changed["cluster-ip"] && !o.Changed["target-port"] && !o.Changed["external-name"] && !o.Changed["type"]
	return in, nil
}

// service is the Service the flags describe, as a client would send it:
// metadata, the one port, session affinity, the type and what comes with
// it (serviceType), the cluster IP or the external name.
func (o *DNATOptions) service(example bool) (*corev1.Service, error) {
	svc := &corev1.Service{}
	spec := &svc.Spec
	ns, name, ok := strings.Cut(o.Service, "/")
	if !ok {
		return nil, exitcode.Inputf("invalid --service %q: want namespace/name, e.g. default/web", o.Service)
	}
	svc.Namespace, svc.Name = ns, name
	port, err := parsePort(o.Port)
	if err != nil {
		return nil, err
	}
	switch strings.ToLower(o.SessionAffinity) {
	case "clientip":
		spec.SessionAffinity = corev1.ServiceAffinityClientIP
	case "none":
	default:
		return nil, exitcode.Inputf("invalid --session-affinity %q: want None or ClientIP", o.SessionAffinity)
	}
	if o.Changed["session-affinity-timeout"] {
		if spec.SessionAffinity != corev1.ServiceAffinityClientIP {
			return nil, exitcode.Inputf("--session-affinity-timeout needs --session-affinity ClientIP")
		}
		// Its range is the API server's (manifest: validateClientIPAffinityConfig).
		t := clampInt32(o.SessionAffinityTimeout)
		spec.SessionAffinityConfig = &corev1.SessionAffinityConfig{ClientIP: &corev1.ClientIPConfig{TimeoutSeconds: &t}}
	}
	if err := o.serviceType(svc, &port); err != nil {
		return nil, err
	}
	target := int(port.Port)
	if example {
		target = exampleTargetPort
	}
	if o.Changed["target-port"] {
		if o.TargetPort < 1 || o.TargetPort > 65535 {
			return nil, exitcode.Inputf("invalid --target-port %d: want 1 to 65535", o.TargetPort)
		}
		target = o.TargetPort
	}
	port.TargetPort = intstr.FromInt32(int32(target))
	spec.Ports = []corev1.ServicePort{port}
	if o.ExternalName != "" {
		spec.Type, spec.ExternalName = corev1.ServiceTypeExternalName, strings.TrimSuffix(o.ExternalName, ".")
	}
	switch {
	case o.ClusterIP == corev1.ClusterIPNone:
		spec.ClusterIP = corev1.ClusterIPNone
	case o.ExternalName != "":
	default:
		a, err := parseIP(o.ClusterIP, "--cluster-ip")
		if err != nil {
			return nil, err
		}
		spec.ClusterIP = a.String()
	}
	return svc, nil
}

// endpoints are the ready endpoints the flags give (the example's three
// without --endpoints or --endpoints-file; none for an ExternalName
// Service), each on its node, of the cluster IP's family.
func (o *DNATOptions) endpoints(svc *corev1.Service, example bool) ([]kubeproxy.Endpoint, error) {
	var list []endpointEntry
	switch {
	case svc.Spec.Type == corev1.ServiceTypeExternalName:
	case example:
		for _, s := range exampleEndpoints {
			list = append(list, endpointEntry{text: s})
		}
	default:
		var err error
		if list, err = o.endpointList(); err != nil {
			return nil, err
		}
	}
	clusterIP, family := svc.Spec.ClusterIP, ""
	if clusterIP != "" && clusterIP != corev1.ClusterIPNone {
		family = ipFamily(netip.MustParseAddr(clusterIP))
	}
	var eps []kubeproxy.Endpoint
	for i, e := range list {
		ep, err := parseEndpoint(strings.TrimSpace(e.text), svc.Spec.Ports[0].TargetPort.IntValue(), e.where)
		if err != nil {
			return nil, err
		}
		if ep.NodeName == "" {
			ep.NodeName = kubeproxy.NodeName(i)
		}
		if got := ipFamily(netip.MustParseAddr(ep.IP)); family != "" && got != family {
			if example {
				return nil, exitcode.Inputf("the example endpoints are IPv4 but --cluster-ip %s is %s: give --endpoints of the same family", clusterIP, family)
			}
			msg := fmt.Sprintf("endpoint %q is %s but the cluster IP %s is %s: kube-proxy ignores endpoints of the other family", e.text, got, clusterIP, family)
			if e.where != "" {
				msg = e.where + ": " + msg
			}
			return nil, exitcode.Inputf("%s", msg)
		}
		eps = append(eps, ep)
	}
	return eps, nil
}

// serviceType reads --type and the flags that only external types take.
func (o *DNATOptions) serviceType(svc *corev1.Service, sp *corev1.ServicePort) error {
	switch o.Type {
	case "ClusterIP", "NodePort", "LoadBalancer":
	case "ExternalName":
		return exitcode.Inputf("invalid --type ExternalName: give --external-name instead")
	default:
		return exitcode.Inputf("invalid --type %q: want ClusterIP, NodePort or LoadBalancer", o.Type)
	}
	if o.ExternalName != "" && o.Changed["type"] {
		return exitcode.Inputf("--type cannot be combined with --external-name: that is an ExternalName Service")
	}
	spec := &svc.Spec
	spec.Type = corev1.ServiceType(o.Type)
	for _, f := range []struct{ flag, v string }{{"internal-traffic-policy", o.InternalTrafficPolicy}, {"external-traffic-policy", o.ExternalTrafficPolicy}} {
		if f.v != "Cluster" && f.v != "Local" {
			return exitcode.Inputf("invalid --%s %q: want Cluster or Local", f.flag, f.v)
		}
	}
	// What the policy flags set goes to the API server's validation as
	// given (manifest: validateServiceExternalTraffic).
	if o.Changed["internal-traffic-policy"] {
		p := corev1.ServiceInternalTrafficPolicy(o.InternalTrafficPolicy)
		spec.InternalTrafficPolicy = &p
	}
	if o.Changed["external-traffic-policy"] {
		spec.ExternalTrafficPolicy = corev1.ServiceExternalTrafficPolicy(o.ExternalTrafficPolicy)
	}
	external := o.Type != "ClusterIP"
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
	var err error
	if sp.NodePort, err = port("node-port", o.NodePort, defaultNodePort); err != nil {
		return err
	}
	if !external {
		sp.NodePort = 0
	}
	switch {
	case o.Type == "LoadBalancer" && o.ExternalTrafficPolicy == "Local":
		if spec.HealthCheckNodePort, err = port("health-check-node-port", o.HealthCheckNodePort, defaultHCNodePort); err != nil {
			return err
		}
		if spec.HealthCheckNodePort == sp.NodePort {
			return exitcode.Inputf("--health-check-node-port %d is the --node-port: spec.healthCheckNodePort: Duplicate value", spec.HealthCheckNodePort)
		}
	case o.Changed["health-check-node-port"]:
		spec.HealthCheckNodePort = clampInt32(o.HealthCheckNodePort) // for validation to refuse
	}
	return o.loadBalancer(svc)
}

// loadBalancer reads --load-balancer-ip (the ingress IP
// status.loadBalancer would carry) and --load-balancer-source-ranges.
func (o *DNATOptions) loadBalancer(svc *corev1.Service) error {
	for _, f := range []string{"load-balancer-ip", "load-balancer-source-ranges"} {
		if o.Changed[f] && o.Type != "LoadBalancer" {
			return exitcode.Inputf("--%s needs --type LoadBalancer", f)
		}
	}
	if o.Type != "LoadBalancer" {
		return nil
	}
	ip := o.LoadBalancerIP
	if !o.Changed["load-balancer-ip"] {
		ip = defaultLBIP
	}
	if ip != "none" {
		a, err := parseIP(ip, "--load-balancer-ip")
		if err != nil {
			return err
		}
		svc.Status.LoadBalancer.Ingress = []corev1.LoadBalancerIngress{{IP: a.String()}}
	}
	for _, r := range o.SourceRanges {
		p, err := netip.ParsePrefix(strings.TrimSpace(r))
		if err != nil {
			return exitcode.Inputf("invalid --load-balancer-source-ranges %q: spec.loadBalancerSourceRanges: Invalid value: %q: must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)", r, r)
		}
		svc.Spec.LoadBalancerSourceRanges = append(svc.Spec.LoadBalancerSourceRanges, p.Masked().String())
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

// scale reads --services and --endpoints-per-service (default: the n
// endpoints of the Service shown).
func (o *DNATOptions) scale(in *explain.Input, n int) error {
	if o.Changed["endpoints-per-service"] && !o.Changed["services"] {
		return exitcode.Inputf("--endpoints-per-service needs --services")
	}
	if !o.Changed["services"] {
		return nil
	}
	if o.Services < 1 {
		return exitcode.Inputf("invalid --services %d: want at least 1", o.Services)
	}
	in.Services, in.EndpointsPerService = o.Services, n
	if o.Changed["endpoints-per-service"] {
		if o.EndpointsPerService < 0 {
			return exitcode.Inputf("invalid --endpoints-per-service %d: want 0 or more", o.EndpointsPerService)
		}
		in.EndpointsPerService = o.EndpointsPerService
	}
	if err := kubeproxy.CheckScale(in.Services, in.EndpointsPerService); err != nil {
		return exitcode.Inputf("--services %d --endpoints-per-service %d: %v", in.Services, in.EndpointsPerService, err)
	}
	return nil
}

// clampInt32 is v as an int32 field holds it, out-of-range values pinned
// to the nearest end so that validation still sees them out of range.
func clampInt32(v int) int32 {
	return int32(min(max(v, math.MinInt32), math.MaxInt32))
}
