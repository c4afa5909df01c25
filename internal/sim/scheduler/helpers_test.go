package scheduler

import (
	"fmt"
	"math/rand/v2"
	"testing"

	_ "github.com/k8sexplain/k8sexplain/internal/golden" // defines -update for `go test ./... -update`
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
)

// node builds a node with allocatable cpu/memory and 110 pods; labels carry
// the hostname like a kubelet-registered node.
func node(name, cpu, mem string, lbls ...string) *corev1.Node {
	n := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{corev1.LabelHostname: name}},
		Status: corev1.NodeStatus{Allocatable: corev1.ResourceList{
			corev1.ResourceCPU:    resource.MustParse(cpu),
			corev1.ResourceMemory: resource.MustParse(mem),
			corev1.ResourcePods:   resource.MustParse("110"),
		}},
	}
	for i := 0; i+1 < len(lbls); i += 2 {
		n.Labels[lbls[i]] = lbls[i+1]
	}
	return n
}

func taint(n *corev1.Node, key, value string, effect corev1.TaintEffect) *corev1.Node {
	n.Spec.Taints = append(n.Spec.Taints, corev1.Taint{Key: key, Value: value, Effect: effect})
	return n
}

// pod builds a one-container pod; "" leaves a request unset (not zero).
func pod(name, cpu, mem string) *corev1.Pod {
	c := corev1.Container{Name: "app", Image: "nginx:1.25"}
	if cpu != "" || mem != "" {
		c.Resources.Requests = corev1.ResourceList{}
	}
	if cpu != "" {
		c.Resources.Requests[corev1.ResourceCPU] = resource.MustParse(cpu)
	}
	if mem != "" {
		c.Resources.Requests[corev1.ResourceMemory] = resource.MustParse(mem)
	}
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name)},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{c}},
	}
}

func bound(p *corev1.Pod, nodeName string) *corev1.Pod {
	p.Spec.NodeName = nodeName
	return p
}

func owned(p *corev1.Pod, rsUID string, lbls map[string]string) *corev1.Pod {
	p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rsUID, UID: types.UID(rsUID), Controller: ptr(true)}}
	p.Labels = lbls
	return p
}

func ptr[T any](v T) *T { return &v }

func cluster(t testing.TB, nodes []*corev1.Node, pods ...*corev1.Pod) *Cluster {
	t.Helper()
	c := NewCluster()
	for _, n := range nodes {
		c.AddNode(n)
	}
	for _, p := range pods {
		if err := c.AddPod(p); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

func rng(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0)) }

// scoresOf returns node → plugin → PluginScore.
func scoresOf(r Result) map[string]map[string]PluginScore {
	out := map[string]map[string]PluginScore{}
	for _, ns := range r.Scores {
		out[ns.Node] = map[string]PluginScore{}
		for _, ps := range ns.Plugins {
			out[ns.Node][ps.Plugin] = ps
		}
	}
	return out
}

func schedule(t testing.TB, c *Cluster, p *corev1.Pod, sel labels.Selector) Result {
	t.Helper()
	return New().Schedule(p, c, rng(1), sel).Clone()
}

func names(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d", prefix, i)
	}
	return out
}
