package apiserver

import (
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// `kubectl scale` PATCHes deployments/NAME/scale (k8s.io/kubectl
// pkg/scale): the request names the scale subresource, the Deployment's
// spec.replicas changes (a spec change: the generation moves), and the
// answer is an autoscaling/v1 Scale, not the Deployment
// (pkg/registry/apps/deployment/storage/storage.go ScaleREST, v1.37.2).
func TestScaleSubresource(t *testing.T) {
	eng := engine.New(1)
	rec := trace.NewRecorder(eng.Now, 0)
	s, err := New(eng, rec, "10.96.0.0/12")
	if err != nil {
		t.Fatal(err)
	}
	d := &appsv1.Deployment{}
	d.Namespace, d.Name, d.Generation = "default", "web", 1
	three := int32(3)
	d.Spec.Replicas = &three
	d.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	d.Status.Replicas = 3
	s.Seed(d)
	c := s.NewClient("kubectl", Identity{User: "kubernetes-admin", Groups: []string{"kubeadm:cluster-admins", "system:authenticated"}}, trace.PhaseKubectl)
	c.Loud = true
	var got runtime.Object
	c.PatchScale(ResourceOf(d), "default", "web", 5, func(o runtime.Object, st *Status) {
		if st != nil {
			t.Fatalf("scale: %s", st.Message)
		}
		got = o
	})
	eng.Run(eng.Now() + 1e9)
	sc, ok := got.(*autoscalingv1.Scale)
	if !ok {
		t.Fatalf("answer %T, want *autoscalingv1.Scale", got)
	}
	if sc.Name != "web" || sc.Spec.Replicas != 5 || sc.Status.Replicas != 3 || sc.Status.Selector != "app=web" {
		t.Fatalf("Scale %+v", sc)
	}
	stored := s.Get(ResourceOf(d), "default", "web").(*appsv1.Deployment)
	if *stored.Spec.Replicas != 5 || stored.Generation != 2 {
		t.Fatalf("stored replicas %d generation %d, want 5 and 2", *stored.Spec.Replicas, stored.Generation)
	}
	if sc.ResourceVersion != stored.ResourceVersion {
		t.Fatalf("Scale resourceVersion %q, Deployment's %q", sc.ResourceVersion, stored.ResourceVersion)
	}
	var path string
	for _, st := range rec.Steps {
		if st.Kind == "apiserver.patch" {
			path = st.Get("path")
		}
	}
	if path != "/apis/apps/v1/namespaces/default/deployments/web/scale" {
		t.Fatalf("PATCH path %q", path)
	}
}
