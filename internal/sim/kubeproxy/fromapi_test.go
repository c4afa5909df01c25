package kubeproxy

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

func TestFromAPI(t *testing.T) {
	yes, no := true, false
	name, port, tcp := "http", int32(8080), corev1.ProtocolTCP
	node := "node-2"
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web"},
		Spec: corev1.ServiceSpec{ClusterIP: "10.96.47.112", SessionAffinity: corev1.ServiceAffinityClientIP,
			Ports: []corev1.ServicePort{{Name: "http", Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(8080)}}},
	}
	slice := &discoveryv1.EndpointSlice{
		ObjectMeta:  metav1.ObjectMeta{Namespace: "default", Name: "web-abcde", Labels: map[string]string{discoveryv1.LabelServiceName: "web"}},
		AddressType: discoveryv1.AddressTypeIPv4,
		Ports:       []discoveryv1.EndpointPort{{Name: &name, Port: &port, Protocol: &tcp}},
		Endpoints: []discoveryv1.Endpoint{
			{Addresses: []string{"10.244.2.2"}, NodeName: &node},
			{Addresses: []string{"10.244.1.2"}, Conditions: discoveryv1.EndpointConditions{Ready: &yes}},
			{Addresses: []string{"10.244.3.2"}, Conditions: discoveryv1.EndpointConditions{Ready: &no, Serving: &no}},
		},
	}
	other := slice.DeepCopy()
	other.Labels[discoveryv1.LabelServiceName] = "db"
	ports := FromAPI(svc, []*discoveryv1.EndpointSlice{slice, other})
	if len(ports) != 1 {
		t.Fatalf("ports: %+v", ports)
	}
	sp := ports[0]
	if sp.NameString() != "default/web:http" || !sp.SessionAffinityClientIP || sp.Timeout() != DefaultAffinityTimeout || len(sp.Endpoints) != 3 {
		t.Fatalf("port: %+v", sp)
	}
	eps := sp.UsableEndpoints()
	if len(eps) != 2 || eps[0].String() != "10.244.1.2:8080" || eps[1].NodeName != "node-2" {
		t.Errorf("usable endpoints: %+v", eps)
	}
}
