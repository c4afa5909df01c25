package sim

import (
	"reflect"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/sim/simtest"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// Pods share their template's resource maps (controller copyTemplate); the
// API server's writers of those maps, requests defaulted from limits and
// LimitRanger's defaults, must copy before writing: the ReplicaSet's
// template keeps what the manifest said, each pod gets its own defaults,
// and a pod nobody defaulted keeps the template's very map.
func TestPodsShareTemplateResources(t *testing.T) {
	const src = `apiVersion: v1
kind: LimitRange
metadata: {name: defaults}
spec:
  limits:
  - type: Container
    default: {memory: 256Mi}
    defaultRequest: {memory: 64Mi}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: limits-only
        image: nginx:1.27
        resources: {limits: {cpu: 200m}}
      - name: both
        image: nginx:1.27
        resources: {requests: {cpu: 10m, memory: 16Mi}, limits: {cpu: 50m, memory: 32Mi}}
`
	c, err := NewCluster(Config{Seed: 1, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	c.Apply(simtest.Parse(t, src), []string{"share.yaml"})
	if tr := c.Run("t"); tr.Summary.Pods != 3 || !tr.Summary.AllReady {
		t.Fatalf("want 3 pods Ready, got %d (%d ready)", tr.Summary.Pods, tr.Summary.ReadyPods)
	}
	var rs *appsv1.ReplicaSet
	for _, o := range c.Objects("replicasets") {
		rs = o.(*appsv1.ReplicaSet)
	}
	if rs == nil {
		t.Fatal("no ReplicaSet")
	}
	tmpl := rs.Spec.Template.Spec.Containers
	if got := tmpl[0].Resources; len(got.Requests) != 0 || len(got.Limits) != 1 || got.Limits.Cpu().String() != "200m" {
		t.Errorf("template of limits-only changed: requests %v limits %v", got.Requests, got.Limits)
	}
	if got := tmpl[1].Resources; len(got.Requests) != 2 || len(got.Limits) != 2 {
		t.Errorf("template of both changed: requests %v limits %v", got.Requests, got.Limits)
	}
	same := func(a, b corev1.ResourceList) bool {
		return a != nil && reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
	}
	for _, p := range c.Pods() {
		lo, both := p.Spec.Containers[0].Resources, p.Spec.Containers[1].Resources
		// requests: cpu from the limit (API defaulting), memory from the LimitRange.
		if lo.Requests.Cpu().String() != "200m" || lo.Requests.Memory().String() != "64Mi" || lo.Limits.Memory().String() != "256Mi" {
			t.Errorf("pod %s limits-only: requests %v limits %v", p.Name, lo.Requests, lo.Limits)
		}
		if same(lo.Requests, tmpl[0].Resources.Requests) || same(lo.Limits, tmpl[0].Resources.Limits) {
			t.Errorf("pod %s writes to its template's maps", p.Name)
		}
		if !same(both.Requests, tmpl[1].Resources.Requests) || !same(both.Limits, tmpl[1].Resources.Limits) {
			t.Errorf("pod %s copied maps nobody wrote to", p.Name)
		}
	}
}
