package manifest

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The memo of valid metadata never hides an error: after a valid pod that
// shares everything but one field, each broken pod gets the error a cold
// validation gives; and a pod like the valid one is recognised.
func TestValidMetadataMemoIsExact(t *testing.T) {
	yes := true
	base := func() *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web-1",
			Labels: map[string]string{"app": "web"}, Annotations: map[string]string{"a": "b"}, Finalizers: []string{"example.com/f"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web", UID: "u1", Controller: &yes}}}}
		p.Spec.Containers = []corev1.Container{{Name: "web", Image: "nginx"}}
		Default(p)
		return p
	}
	cases := map[string]func(p *corev1.Pod){
		"same but the name": func(p *corev1.Pod) { p.Name = "web-2" },
		"bad name":          func(p *corev1.Pod) { p.Name = "Web_2" },
		"bad generateName":  func(p *corev1.Pod) { p.Name, p.GenerateName = "", "Web_" },
		"no name":           func(p *corev1.Pod) { p.Name = "" },
		"bad label":         func(p *corev1.Pod) { p.Labels = map[string]string{"app": "web", "x": "-bad-"} },
		"bad annotation":    func(p *corev1.Pod) { p.Annotations = map[string]string{"Bad Key": "v"} },
		"negative":          func(p *corev1.Pod) { p.Generation = -1 },
		"bad namespace":     func(p *corev1.Pod) { p.Namespace = "Default" },
		"no namespace":      func(p *corev1.Pod) { p.Namespace = "" },
		"bad finalizer":     func(p *corev1.Pod) { p.Finalizers = []string{"bad finalizer"} },
		"two controllers": func(p *corev1.Pod) {
			p.OwnerReferences = append(p.OwnerReferences, p.OwnerReferences[0])
			p.OwnerReferences[1].UID = "u2"
		},
		"owner without UID":  func(p *corev1.Pod) { p.OwnerReferences[0].UID = "" },
		"managedFields kept": func(p *corev1.Pod) { p.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "x", Operation: "Bogus"}} },
	}
	for name, change := range cases {
		broken := base()
		change(broken)
		validMeta = metaMemo{}
		cold := Validate(broken)
		if err := Validate(base()); err != nil { // warms the memo
			t.Fatalf("%s: the valid pod: %v", name, err)
		}
		warm := Validate(broken)
		if (cold == nil) != (warm == nil) || (cold != nil && cold.Error() != warm.Error()) {
			t.Errorf("%s: with the memo %v, without %v", name, warm, cold)
		}
		if name != "same but the name" && cold == nil {
			t.Errorf("%s: no error", name)
		}
	}
	validMeta = metaMemo{}
	p := base()
	if validMeta.seen(true, &p.ObjectMeta) || Validate(p) != nil || !validMeta.seen(true, &base().ObjectMeta) {
		t.Error("a valid pod's metadata is not remembered")
	}
}

// Nor does the memo of valid container resources: after a valid pod, a
// pod whose requests or limits differ gets the error a cold validation
// gives.
func TestValidResourcesMemoIsExact(t *testing.T) {
	pod := func(req, lim corev1.ResourceList) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web-1"}}
		p.Spec.Containers = []corev1.Container{{Name: "web", Image: "nginx", Resources: corev1.ResourceRequirements{Requests: req, Limits: lim}}}
		Default(p)
		return p
	}
	q := resource.MustParse
	valid := func() *corev1.Pod {
		return pod(corev1.ResourceList{"cpu": q("100m"), "memory": q("64Mi")}, corev1.ResourceList{"cpu": q("200m"), "memory": q("64Mi")})
	}
	cases := map[string]*corev1.Pod{
		"equal":             valid(),
		"negative":          pod(corev1.ResourceList{"cpu": q("-100m"), "memory": q("64Mi")}, corev1.ResourceList{"cpu": q("200m"), "memory": q("64Mi")}),
		"above the limit":   pod(corev1.ResourceList{"cpu": q("300m"), "memory": q("64Mi")}, corev1.ResourceList{"cpu": q("200m"), "memory": q("64Mi")}),
		"extended no limit": pod(corev1.ResourceList{"cpu": q("100m"), "example.com/gpu": q("1")}, corev1.ResourceList{"cpu": q("200m")}),
	}
	for name, broken := range cases {
		validResources = resourcesMemo{}
		cold := Validate(broken)
		if err := Validate(valid()); err != nil {
			t.Fatalf("%s: the valid pod: %v", name, err)
		}
		warm := Validate(broken)
		if (cold == nil) != (warm == nil) || (cold != nil && cold.Error() != warm.Error()) {
			t.Errorf("%s: with the memo %v, without %v", name, warm, cold)
		}
		if name != "equal" && cold == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
