package kubeproxy

import (
	"net"
	"strings"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
)

// FromAPI converts a Service and its EndpointSlices, as the API server
// stores them, into the ServicePorts kube-proxy programs: one per service
// port, each with the endpoints of the slice ports that carry the same name
// and protocol (pkg/proxy/endpointslicecache.go). Conditions follow
// upstream: ready unless Ready is false, serving unless Serving is false,
// terminating only if Terminating is true. Endpoints of the other IP family
// are dropped, as kube-proxy (one per family) does. Slices of other
// Services are ignored.
func FromAPI(svc *corev1.Service, slices []*discoveryv1.EndpointSlice) []ServicePort {
	var out []ServicePort
	ipv6 := strings.Contains(svc.Spec.ClusterIP, ":")
	for _, p := range svc.Spec.Ports {
		sp := baseServicePort(svc, p)
		sp.addAddresses(svc, ipv6)
		sp.addPolicies(svc)
		sp.Endpoints = sliceEndpoints(svc, slices, p.Name, sp.Protocol, ipv6)
		out = append(out, sp)
	}
	return out
}

// baseServicePort is newBaseServiceInfo (pkg/proxy/serviceport.go) for one
// service port: its identity, type and ports.
func baseServicePort(svc *corev1.Service, p corev1.ServicePort) ServicePort {
	sp := ServicePort{
		Namespace: svc.Namespace, Name: svc.Name, PortName: p.Name,
		Protocol: string(p.Protocol), ClusterIP: svc.Spec.ClusterIP, Port: p.Port,
		PublishNotReadyAddresses: svc.Spec.PublishNotReadyAddresses,
	}
	if sp.Protocol == "" {
		sp.Protocol = string(corev1.ProtocolTCP)
	}
	if p.TargetPort.IntVal != 0 {
		sp.TargetPort = p.TargetPort.IntVal
	}
	if svc.Spec.Type == corev1.ServiceTypeExternalName {
		sp.ExternalName, sp.ClusterIP = svc.Spec.ExternalName, ""
	}
	switch svc.Spec.Type {
	case corev1.ServiceTypeNodePort, corev1.ServiceTypeLoadBalancer:
		sp.Type, sp.NodePort = string(svc.Spec.Type), p.NodePort
	case corev1.ServiceTypeClusterIP, "":
		sp.Type = string(corev1.ServiceTypeClusterIP)
	}
	return sp
}

// addPolicies is the rest of newBaseServiceInfo: the traffic policies
// (external Local only counts once the addresses are known) and session
// affinity.
func (sp *ServicePort) addPolicies(svc *corev1.Service) {
	sp.InternalPolicyLocal = svc.Spec.InternalTrafficPolicy != nil && *svc.Spec.InternalTrafficPolicy == corev1.ServiceInternalTrafficPolicyLocal
	sp.ExternalPolicyLocal = sp.ExternallyAccessible() && svc.Spec.ExternalTrafficPolicy == corev1.ServiceExternalTrafficPolicyLocal
	if svc.Spec.Type == corev1.ServiceTypeLoadBalancer && sp.ExternalPolicyLocal {
		sp.HealthCheckNodePort = svc.Spec.HealthCheckNodePort
	}
	if svc.Spec.SessionAffinity == corev1.ServiceAffinityClientIP {
		sp.SessionAffinityClientIP = true
		if c := svc.Spec.SessionAffinityConfig; c != nil && c.ClientIP != nil && c.ClientIP.TimeoutSeconds != nil {
			sp.AffinityTimeout = int(*c.ClientIP.TimeoutSeconds)
		}
	}
}

// addAddresses is the address part of newBaseServiceInfo: addresses of the
// other family are dropped; load-balancer ingress with ipMode Proxy is not
// captured; source ranges are trimmed and parsed.
func (sp *ServicePort) addAddresses(svc *corev1.Service, ipv6 bool) {
	sameFamily := func(ip string) bool {
		return ip != "" && strings.Contains(ip, ":") == ipv6 && net.ParseIP(strings.TrimSpace(ip)) != nil
	}
	for _, ip := range svc.Spec.ExternalIPs {
		if sameFamily(ip) {
			sp.ExternalIPs = append(sp.ExternalIPs, strings.TrimSpace(ip))
		}
	}
	if svc.Spec.Type != corev1.ServiceTypeLoadBalancer {
		return
	}
	for _, ing := range svc.Status.LoadBalancer.Ingress {
		if sameFamily(ing.IP) && (ing.IPMode == nil || *ing.IPMode != corev1.LoadBalancerIPModeProxy) {
			sp.LoadBalancerIPs = append(sp.LoadBalancerIPs, ing.IP)
		}
	}
	for _, r := range svc.Spec.LoadBalancerSourceRanges {
		if _, n, err := net.ParseCIDR(strings.TrimSpace(r)); err == nil && strings.Contains(n.IP.String(), ":") == ipv6 {
			sp.SourceRanges = append(sp.SourceRanges, n.String())
		}
	}
}

// sliceEndpoints is the endpoint half of pkg/proxy/endpointslicecache.go:
// the endpoints of the Service's slices whose port has the service port's
// name and protocol, in the Service's IP family.
func sliceEndpoints(svc *corev1.Service, slices []*discoveryv1.EndpointSlice, portName, proto string, ipv6 bool) []Endpoint {
	var out []Endpoint
	for _, sl := range slices {
		if sl.Namespace != svc.Namespace || sl.Labels[discoveryv1.LabelServiceName] != svc.Name {
			continue
		}
		for _, sport := range sl.Ports {
			if sport.Port == nil || *sport.Port == 0 || deref(sport.Name) != portName || protocolOf(sport.Protocol) != proto {
				continue
			}
			for _, e := range sl.Endpoints {
				if len(e.Addresses) == 0 || strings.Contains(e.Addresses[0], ":") != ipv6 {
					continue
				}
				c := e.Conditions
				out = append(out, Endpoint{
					IP: e.Addresses[0], Port: *sport.Port,
					Ready:       c.Ready == nil || *c.Ready,
					Serving:     c.Serving == nil || *c.Serving,
					Terminating: c.Terminating != nil && *c.Terminating,
					NodeName:    deref(e.NodeName), Hostname: deref(e.Hostname),
				})
			}
		}
	}
	return out
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func protocolOf(p *corev1.Protocol) string {
	if p == nil {
		return string(corev1.ProtocolTCP)
	}
	return string(*p)
}
