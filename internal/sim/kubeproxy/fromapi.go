package kubeproxy

import (
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
	clusterIP := svc.Spec.ClusterIP
	ipv6 := strings.Contains(clusterIP, ":")
	for _, p := range svc.Spec.Ports {
		sp := ServicePort{
			Namespace: svc.Namespace, Name: svc.Name, PortName: p.Name,
			Protocol: string(p.Protocol), ClusterIP: clusterIP, Port: p.Port,
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
		if svc.Spec.SessionAffinity == corev1.ServiceAffinityClientIP {
			sp.SessionAffinityClientIP = true
			if c := svc.Spec.SessionAffinityConfig; c != nil && c.ClientIP != nil && c.ClientIP.TimeoutSeconds != nil {
				sp.AffinityTimeout = int(*c.ClientIP.TimeoutSeconds)
			}
		}
		for _, sl := range slices {
			if sl.Namespace != svc.Namespace || sl.Labels[discoveryv1.LabelServiceName] != svc.Name {
				continue
			}
			for _, sport := range sl.Ports {
				if sport.Port == nil || *sport.Port == 0 || deref(sport.Name) != p.Name || protocolOf(sport.Protocol) != sp.Protocol {
					continue
				}
				for _, e := range sl.Endpoints {
					if len(e.Addresses) == 0 || strings.Contains(e.Addresses[0], ":") != ipv6 {
						continue
					}
					c := e.Conditions
					sp.Endpoints = append(sp.Endpoints, Endpoint{
						IP: e.Addresses[0], Port: *sport.Port,
						Ready:       c.Ready == nil || *c.Ready,
						Serving:     c.Serving == nil || *c.Serving,
						Terminating: c.Terminating != nil && *c.Terminating,
						NodeName:    deref(e.NodeName), Hostname: deref(e.Hostname),
					})
				}
			}
		}
		out = append(out, sp)
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
