package manifest

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// BenchmarkParse loads a Deployment and a Service, the README example.
func BenchmarkParse(b *testing.B) {
	data := []byte(deployYAML[:len(deployYAML)-len("        imagePullPolcy: Always\n")] +
		"---\napiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {selector: {app: web}, ports: [{port: 80}]}\n")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("app.yaml", data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAdmitPod is the per-pod cost the simulated API server pays for
// every pod a controller creates: defaulting, then validation.
func BenchmarkAdmitPod(b *testing.B) {
	pod := &corev1.Pod{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{Name: "web-7d4b9c8f6d-x2x7k", Namespace: "default", Labels: map[string]string{"app": "web"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{
			Name: "web", Image: "nginx:1.27", Ports: []corev1.ContainerPort{{ContainerPort: 80}},
		}}},
	}
	b.ReportAllocs()
	for b.Loop() {
		p := pod.DeepCopy()
		Default(p)
		if err := Validate(p); err != nil {
			b.Fatal(err)
		}
	}
}
