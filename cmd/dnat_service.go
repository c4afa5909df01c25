package cmd

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// dnatSlices are the EndpointSlices of the endpoints the flags give: an
// EndpointSlice carries one address type and one port for all its
// endpoints, so each run of endpoints of the same family on the same port
// is a slice of its own (in the given order, which is the order kube-proxy
// reads them in).
func dnatSlices(svc *corev1.Service, eps []kubeproxy.Endpoint) []*discoveryv1.EndpointSlice {
	var out []*discoveryv1.EndpointSlice
	port := svc.Spec.Ports[0]
	for _, ep := range eps {
		family := discoveryv1.AddressTypeIPv4
		if strings.Contains(ep.IP, ":") {
			family = discoveryv1.AddressTypeIPv6
		}
		if n := len(out); n == 0 || *out[n-1].Ports[0].Port != ep.Port || out[n-1].AddressType != family {
			sl := &discoveryv1.EndpointSlice{AddressType: family}
			sl.Namespace, sl.Name = svc.Namespace, fmt.Sprintf("%s-%d", svc.Name, n+1)
			sl.Labels = map[string]string{discoveryv1.LabelServiceName: svc.Name, discoveryv1.LabelManagedBy: "endpointslice-controller.k8s.io"}
			name, proto, p := port.Name, port.Protocol, ep.Port
			sl.Ports = []discoveryv1.EndpointPort{{Name: &name, Protocol: &proto, Port: &p}}
			out = append(out, sl)
		}
		ready, serving, node := ep.Ready, ep.Serving, ep.NodeName
		e := discoveryv1.Endpoint{Addresses: []string{ep.IP}, NodeName: &node,
			Conditions: discoveryv1.EndpointConditions{Ready: &ready, Serving: &serving}}
		out[len(out)-1].Endpoints = append(out[len(out)-1].Endpoints, e)
	}
	return out
}

// serviceFlags maps a field of the Service to the flag that set it, for
// the API server's validation errors; a hint says what the flag needs.
var serviceFlags = []struct{ field, flag, hint string }{
	{"metadata.", "service", ""},
	{"spec.ports[0].targetPort", "target-port", ""},
	{"spec.ports[0].nodePort", "node-port", ""},
	{"spec.ports[0].", "port", ""},
	{"spec.clusterIP", "cluster-ip", ""},
	{"spec.type", "type", ""},
	{"spec.sessionAffinityConfig", "session-affinity-timeout", ""},
	{"spec.externalTrafficPolicy", "external-traffic-policy", "needs --type NodePort or LoadBalancer"},
	{"spec.healthCheckNodePort", "health-check-node-port", "needs --type LoadBalancer and --external-traffic-policy Local"},
}

// validateService runs the API server's defaulting and validation
// (package manifest) on the Service the flags describe and names the flag
// of the first field it rejects: invalid --FLAG VALUE: FIELD: MESSAGE,
// or --FLAG HINT: FIELD: MESSAGE when the flag's value is fine alone.
func (o *DNATOptions) validateService(svc *corev1.Service) error {
	obj := svc.DeepCopy()
	manifest.Default(obj)
	err := manifest.Validate(obj)
	var se *apierrors.StatusError
	if err == nil || !errors.As(err, &se) || se.ErrStatus.Details == nil || len(se.ErrStatus.Details.Causes) == 0 {
		return err
	}
	c := se.ErrStatus.Details.Causes[0]
	// The flag's value as the other errors show it: strings quoted, numbers not.
	values := map[string]string{"service": strconv.Quote(o.Service), "port": strconv.Quote(o.Port),
		"cluster-ip": strconv.Quote(o.ClusterIP), "type": strconv.Quote(o.Type), "target-port": strconv.Itoa(o.TargetPort),
		"node-port": strconv.Itoa(o.NodePort), "session-affinity-timeout": strconv.Itoa(o.SessionAffinityTimeout)}
	for _, f := range serviceFlags {
		switch {
		case !strings.HasPrefix(c.Field, f.field):
		case f.hint != "":
			return exitcode.Inputf("--%s %s: %s: %s", f.flag, f.hint, c.Field, c.Message)
		default:
			return exitcode.Inputf("invalid --%s %s: %s: %s", f.flag, values[f.flag], c.Field, c.Message)
		}
	}
	return exitcode.Inputf("%s", se.ErrStatus.Message)
}
