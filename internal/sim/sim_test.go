package sim

import (
	"fmt"
	"testing"

	_ "github.com/k8sexplain/k8sexplain/internal/golden"
	"github.com/k8sexplain/k8sexplain/internal/manifest"
)

func deployment(replicas int) []manifest.Object {
	src := fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: %d
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        resources: {requests: {cpu: 10m, memory: 16Mi}}
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80}]
`, replicas)
	objs, err := manifest.Parse("bench.yaml", []byte(src))
	if err != nil {
		panic(err)
	}
	return objs
}

func runApply(t testing.TB, nodes, pods int) *Cluster {
	c, err := NewCluster(Config{Seed: 1, Workers: nodes, StepLimit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	c.Apply(deployment(pods), []string{"bench.yaml"})
	tr := c.Run("bench")
	if !tr.Summary.AllReady || tr.Summary.Pods != pods {
		t.Fatalf("%d nodes/%d pods: %d pods, %d ready, pending %v", nodes, pods, tr.Summary.Pods, tr.Summary.ReadyPods, len(tr.Summary.PendingPods))
	}
	return c
}

func TestApplySettles(t *testing.T) {
	c := runApply(t, 3, 3)
	if len(c.Nodes()) != 4 {
		t.Fatalf("default cluster: want control plane + 3 workers, got %d nodes", len(c.Nodes()))
	}
}

func TestApplyMediumCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	runApply(t, 50, 500)
}

func BenchmarkApply100Nodes3000Pods(b *testing.B) {
	for i := 0; i < b.N; i++ {
		runApply(b, 100, 3000)
	}
}

func BenchmarkApply300Nodes9000Pods(b *testing.B) {
	for i := 0; i < b.N; i++ {
		runApply(b, 300, 9000)
	}
}

func BenchmarkApply1000Nodes30000Pods(b *testing.B) {
	for i := 0; i < b.N; i++ {
		runApply(b, 1000, 30000)
	}
}

// BenchmarkApply5000Nodes150000Pods is the issue-16 target size (Kubernetes'
// own limits): run it alone, -benchtime 1x.
func BenchmarkApply5000Nodes150000Pods(b *testing.B) {
	for i := 0; i < b.N; i++ {
		runApply(b, 5000, 150000)
	}
}
