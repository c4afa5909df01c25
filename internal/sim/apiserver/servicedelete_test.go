package apiserver

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// A deleted Service gives back what the registry allocated for it: its
// ClusterIP (the IPAddress object goes too), its nodePorts and its
// healthCheckNodePort (pkg/registry/core/service/storage/storage.go
// afterDelete → alloc.releaseAllocatedResources, v1.37), so a new Service
// can claim the same ones.
func TestServiceDeleteReleasesAllocations(t *testing.T) {
	s, c, eng, _ := callRig(t)
	svc := func() *corev1.Service {
		return &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web"},
			Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeLoadBalancer, ClusterIP: "10.96.0.50",
				ExternalTrafficPolicy: corev1.ServiceExternalTrafficPolicyLocal, HealthCheckNodePort: 30200,
				Selector: map[string]string{"app": "web"},
				Ports:    []corev1.ServicePort{{Name: "http", Port: 80, NodePort: 30080}}}}
	}
	var answers []string
	note := func(obj runtime.Object, st *Status) {
		if st != nil {
			answers = append(answers, st.Message)
			return
		}
		answers = append(answers, "ok")
	}
	c.Create(svc(), func(o runtime.Object, st *Status) { note(o, st) })
	eng.Run(time.Minute)
	c.Delete(ResourceOf(&corev1.Service{}), "default", "web", func(o runtime.Object, st *Status) { note(o, st) })
	eng.Run(time.Minute)
	if n := len(s.nodePorts); n != 0 {
		t.Errorf("%d node ports still allocated after the delete, want 0", n)
	}
	if s.data[Key(Resource{Kind: "IPAddress", Plural: "ipaddresses", Group: "networking.k8s.io"}, "", "10.96.0.50")] != nil {
		t.Error("IPAddress 10.96.0.50 still stored after the delete")
	}
	// Another one asks for the same address and ports.
	c.Create(svc(), func(o runtime.Object, st *Status) { note(o, st) })
	eng.Run(time.Minute)
	if len(answers) != 3 || answers[2] != "ok" {
		t.Fatalf("answers %q, want the re-create to succeed", answers)
	}
}
