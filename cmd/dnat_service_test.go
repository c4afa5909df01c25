package cmd

import (
	"fmt"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
)

// The flags' endpoints become EndpointSlices as the API server would hold
// them: one port and one address type per slice, so a run of endpoints on
// another port or of another family starts a new slice, and kube-proxy
// (FromAPI) reads them back in the order given.
func TestDNATSlicesKeepOrderAndSplitByPortAndFamily(t *testing.T) {
	svc := &corev1.Service{Spec: corev1.ServiceSpec{ClusterIP: corev1.ClusterIPNone,
		Ports: []corev1.ServicePort{{Name: "http", Protocol: corev1.ProtocolTCP, Port: 80}}}}
	svc.Namespace, svc.Name = "default", "web"
	eps := []kubeproxy.Endpoint{
		{IP: "10.0.0.1", Port: 8080, Ready: true, Serving: true, NodeName: "node-a"},
		{IP: "10.0.0.2", Port: 8080, Ready: true, Serving: true, NodeName: "node-b"},
		{IP: "10.0.0.3", Port: 9090, Ready: true, Serving: true, NodeName: "node-c"},
		{IP: "fd00::4", Port: 9090, Ready: true, Serving: true, NodeName: "node-d"},
		{IP: "10.0.0.5", Port: 8080, Ready: true, Serving: true, NodeName: "node-a"},
	}
	slices := dnatSlices(svc, eps)
	type shape struct {
		typ  discoveryv1.AddressType
		port int32
		n    int
	}
	want := []shape{{discoveryv1.AddressTypeIPv4, 8080, 2}, {discoveryv1.AddressTypeIPv4, 9090, 1}, {discoveryv1.AddressTypeIPv6, 9090, 1}, {discoveryv1.AddressTypeIPv4, 8080, 1}}
	if len(slices) != len(want) {
		t.Fatalf("%d slices, want %d", len(slices), len(want))
	}
	for i, sl := range slices {
		got := shape{sl.AddressType, *sl.Ports[0].Port, len(sl.Endpoints)}
		if got != want[i] || sl.Labels[discoveryv1.LabelServiceName] != "web" || *sl.Ports[0].Name != "http" {
			t.Errorf("slice %d: %+v %v, want %+v of service web, port http", i, got, sl.Labels, want[i])
		}
	}
	// An IPv4 Service: kube-proxy keeps its family, in the given order.
	svc.Spec.ClusterIP = "10.96.0.10"
	got := kubeproxy.FromAPI(svc, slices)[0].Endpoints
	var ips []string
	for _, ep := range got {
		ips = append(ips, ep.String())
	}
	if want := "[10.0.0.1:8080 10.0.0.2:8080 10.0.0.3:9090 10.0.0.5:8080]"; fmt.Sprint(ips) != want {
		t.Errorf("kube-proxy reads %v, want %s", ips, want)
	}
}
