package scheduler

import (
	"fmt"
	"math/rand/v2"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// manyTaints is a node with n NoSchedule taints and a pod with m
// tolerations, every taint tolerated (the pod fits) unless miss.
func manyTaints(n, m int, miss bool) (*corev1.Pod, *NodeInfo) {
	node := &corev1.Node{}
	node.Name = "n"
	for i := 0; i < n; i++ {
		node.Spec.Taints = append(node.Spec.Taints, corev1.Taint{Key: fmt.Sprintf("k%d", i%m), Value: fmt.Sprint(i), Effect: corev1.TaintEffectNoSchedule})
	}
	if miss {
		node.Spec.Taints = append(node.Spec.Taints, corev1.Taint{Key: "nobody", Effect: corev1.TaintEffectNoExecute})
	}
	pod := &corev1.Pod{}
	for i := 0; i < m; i++ {
		pod.Spec.Tolerations = append(pod.Spec.Tolerations, corev1.Toleration{Key: fmt.Sprintf("k%d", i), Operator: corev1.TolerationOpExists})
	}
	return pod, NewNodeInfo(node)
}

// The index answers as the pairwise check does, on random taints and
// tolerations (keys, values, operators, effects, empty keys).
func TestTolerationIndexAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	for round := 0; round < 300; round++ {
		pod := &corev1.Pod{}
		for i := 0; i < manyTolerations+r.IntN(20); i++ {
			op := corev1.TolerationOperator(pick("", "Equal", "Exists"))
			key := pick("", "a", "b", "c")
			if key == "" {
				op = corev1.TolerationOpExists
			}
			pod.Spec.Tolerations = append(pod.Spec.Tolerations, corev1.Toleration{Key: key, Operator: op, Value: pick("", "1", "2"),
				Effect: corev1.TaintEffect(pick("", "NoSchedule", "NoExecute", "PreferNoSchedule"))})
		}
		idx := &tolIndex{}
		for i := 0; i < 20; i++ {
			taint := corev1.Taint{Key: pick("a", "b", "c", "d"), Value: pick("", "1", "2"), Effect: corev1.TaintEffect(pick("NoSchedule", "NoExecute"))}
			if got, want := idx.tolerated(pod, &taint), toleratedBy(pod.Spec.Tolerations, &taint); got != want {
				t.Fatalf("taint %+v: index %v, pairwise %v (tolerations %+v)", taint, got, want, pod.Spec.Tolerations)
			}
		}
	}
}

// BenchmarkFilterManyTaints is issue 29's case: 35,000 taints on the node,
// 2,500 tolerations on the pod (1.2 CPU s per pod pairwise).
func BenchmarkFilterManyTaints(b *testing.B) {
	pod, n := manyTaints(35000, 2500, false)
	st := &CycleState{}
	for b.Loop() {
		if s := (TaintToleration{}).Filter(st, pod, n); s != nil {
			b.Fatal(s)
		}
	}
}
