package sim

import (
	"reflect"
	"testing"

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
	c := appliedCluster(t, Config{Seed: 1, Workers: 3}, "share.yaml", src)
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

// Quota admission and the quota controller read every pod's requests
// (PodUsage); a ReplicaSet's pods share its template's quantities, which
// must come out of that unchanged — an init container's decimal request
// summed with a native sidecar's once grew the template with every pod.
func TestQuotaLeavesTemplateQuantities(t *testing.T) {
	const src = `apiVersion: v1
kind: ResourceQuota
metadata: {name: q}
spec:
  hard: {requests.memory: 100Gi, limits.memory: 100Gi, requests.cpu: "100", limits.cpu: "100"}
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
      initContainers:
      - name: migrate
        image: busybox:1.36
        resources: {requests: {cpu: 100m, memory: 1.5Gi}, limits: {cpu: 100m, memory: 1.5Gi}}
      - name: proxy
        image: envoy:1.30
        restartPolicy: Always
        resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {cpu: 100m, memory: 64Mi}}
      containers:
      - name: app
        image: nginx:1.27
        resources: {requests: {cpu: 100m, memory: 128Mi}, limits: {cpu: 100m, memory: 128Mi}}
`
	c := appliedCluster(t, Config{Seed: 1, Workers: 3}, "quota.yaml", src)
	if tr := c.Run("t"); tr.Summary.Pods != 3 {
		t.Fatalf("want 3 pods, got %d", tr.Summary.Pods)
	}
	for _, o := range c.Objects("replicasets") {
		m := o.(*appsv1.ReplicaSet).Spec.Template.Spec.InitContainers[0].Resources.Requests[corev1.ResourceMemory]
		if m.String() != "1536Mi" {
			t.Errorf("the template's init container request became %s, want 1536Mi", m.String())
		}
	}
	for _, p := range c.Pods() {
		if m := p.Spec.InitContainers[0].Resources.Requests[corev1.ResourceMemory]; m.String() != "1536Mi" {
			t.Errorf("pod %s: init container request %s, want 1536Mi", p.Name, m.String())
		}
	}
}
