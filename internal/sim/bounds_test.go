package sim

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/manifest"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

func TestCheckScale(t *testing.T) {
	for _, tc := range []struct {
		name     string
		nodes    int
		replicas int
		rollout  bool
		want     string // "" accepts
	}{
		{"small", 3, 3, false, ""},
		{"pending within the allowance", 3, 330 + MaxPending, false, ""},
		{"the tainted control plane holds none", 3, 331 + MaxPending, false, "the nodes it may run on (schedulable, their taints tolerated) hold at most 330 of them"},
		{"a billion", 3, 1_000_000_000, false, "more than the 150,000 pods per cluster Kubernetes supports"},
		{"just over the cluster limit", 2000, MaxPods + 1, false, "asks for 150,001 pods (spec.replicas)"},
		{"beyond the nodes", 3, 5000, false, "the 4 nodes hold at most 440 pods"},
		{"surge counts in a rollout", 2000, MaxPods, true, "spec.replicas 150,000 + maxSurge 37,500 during the rollout"},
		{"surge not counted in an apply", 2000, MaxPods, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := NewCluster(Config{Seed: 1, Workers: tc.nodes, StepLimit: 10})
			if err != nil {
				t.Fatal(err)
			}
			err = c.CheckScale(deployment(tc.replicas), tc.rollout)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want one with %q", err, tc.want)
			case err != nil && (!strings.HasPrefix(err.Error(), "bench.yaml:") || strings.Contains(err.Error(), "\n")):
				t.Fatalf("want one line naming file and line: %q", err)
			}
		})
	}
}

func TestCheckScaleContainers(t *testing.T) {
	src := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
	for i := 0; i < 40; i++ {
		src += "  - {name: c" + strings.Repeat("x", i) + ", image: nginx}\n"
	}
	pod, err := manifest.Parse("p.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var objs []manifest.Object
	for i := 0; i < MaxContainers/40+1; i++ {
		objs = append(objs, pod[0])
	}
	c, _ := NewCluster(Config{Seed: 1, Workers: 100, StepLimit: 10})
	if err := c.CheckScale(objs, false); err == nil || !strings.Contains(err.Error(), "300,000 containers") {
		t.Fatalf("want the container limit, got %v", err)
	}
}

// A node's pod network must be IPv4: IPv6 and dual-stack are refused with
// a message, not a crash in the kubelet (it used to panic on IPv6).
func TestNodesIPv6Refused(t *testing.T) {
	mk := func(cidrs ...string) *corev1.Node {
		n := DefaultNodes(1, false)[0]
		n.Spec.PodCIDR, n.Spec.PodCIDRs = "", cidrs
		if len(cidrs) > 0 {
			n.Spec.PodCIDR = cidrs[0]
		}
		return n
	}
	for _, tc := range []struct {
		cidrs []string
		want  string
	}{
		{[]string{"fd00:10:244:1::/64"}, "is IPv6: k8sexplain simulates an IPv4 single-stack cluster"},
		{[]string{"10.244.1.0/24", "fd00:10:244:1::/64"}, "is IPv6"},
		{[]string{"10.244.1.0/24", "10.245.1.0/24"}, "one podCIDR per node"},
		{[]string{"banana"}, `spec.podCIDR "banana" is not a CIDR`},
		{[]string{"10.244.1.0/24"}, ""},
	} {
		_, err := NewCluster(Config{Seed: 1, Nodes: []*corev1.Node{mk(tc.cidrs...)}})
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%v: error %v, want %q", tc.cidrs, err, tc.want)
		}
	}
	if _, err := NewCluster(Config{Seed: 1, Workers: MaxNodes + 1}); err == nil {
		t.Errorf("%d workers accepted", MaxNodes+1)
	}
}

// Pods that do not fit by their requests count against the Pending
// allowance too (issue 29: 150,000 replicas of 8 CPUs on 1,364 nodes left
// 128,176 pods Pending).
func TestCheckScaleRequests(t *testing.T) {
	big := func(replicas int, cpu string) []manifest.Object {
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
      - {name: web, image: nginx, resources: {requests: {cpu: "%s", memory: 16Mi}}}
`, replicas, cpu)
		objs, err := manifest.Parse("bench.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return objs
	}
	c, err := NewCluster(Config{Seed: 1, Workers: 1364, StepLimit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.CheckScale(big(150000, "8"), false); err == nil || !strings.Contains(err.Error(), "each pod requests cpu 8, memory 16Mi, so the nodes it may run on fit at most 0 of them") {
		t.Fatalf("150,000 pods of 8 CPUs on 4-CPU nodes: %v", err)
	}
	// 3 workers of 4 CPUs hold 12 pods of 1 CPU (the control plane is
	// tainted): 12 + 1,000 Pending pass, one more does not.
	c, _ = NewCluster(Config{Seed: 1, Workers: 3, StepLimit: 10})
	if err := c.CheckScale(big(12+MaxPending, "1"), false); err != nil {
		t.Fatalf("within the allowance: %v", err)
	}
	if err := c.CheckScale(big(13+MaxPending, "1"), false); err == nil || !strings.Contains(err.Error(), "fit at most 12 of them") {
		t.Fatalf("past the allowance: %v", err)
	}
}

// The scale check counts a pod's requests as the scheduler does: a native
// sidecar runs beside the later init containers and the regular ones, and
// overhead adds (the copy it had before took the largest init container,
// sidecar or not, and no overhead: 500m for this pod, not 1200m).
func TestPodRequestsCountSidecarsAndOverhead(t *testing.T) {
	always := corev1.ContainerRestartPolicyAlways
	cpu := func(v string) corev1.ResourceRequirements {
		return corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(v), corev1.ResourceMemory: resource.MustParse("16Mi")}}
	}
	spec := &corev1.PodSpec{
		InitContainers: []corev1.Container{
			{Name: "proxy", RestartPolicy: &always, Resources: cpu("500m")},
			{Name: "migrate", Resources: cpu("200m")},
		},
		Containers: []corev1.Container{{Name: "app", Resources: cpu("500m")}},
		Overhead:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("200m")},
	}
	got := podRequests(spec)
	want := map[corev1.ResourceName]int64{corev1.ResourceCPU: 1200, corev1.ResourceMemory: 32 << 20 * 1000}
	if !maps.Equal(got, want) {
		t.Fatalf("podRequests = %v, want %v", got, want)
	}
}
