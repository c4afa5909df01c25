package sim

import (
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/manifest"
	corev1 "k8s.io/api/core/v1"
)

func TestWorkerNodes(t *testing.T) {
	objs, err := manifest.Parse("nodes.yaml", []byte(`apiVersion: v1
kind: Node
metadata: {name: big}
status: {capacity: {cpu: "16", memory: 64Gi, pods: "110"}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: skipped}
---
apiVersion: v1
kind: Node
metadata: {name: labelled, labels: {kubernetes.io/hostname: host-1}}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "10"}}
`))
	if err != nil {
		t.Fatal(err)
	}
	nodes, err := WorkerNodes(objs)
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes) != 2 {
		t.Fatalf("%d nodes, want the 2 kind: Node objects", len(nodes))
	}
	big, labelled := nodes[0], nodes[1]
	if big.Labels["kubernetes.io/hostname"] != "big" || labelled.Labels["kubernetes.io/hostname"] != "host-1" {
		t.Errorf("hostname labels %q, %q: want the name unless one is given", big.Labels, labelled.Labels)
	}
	if big.Status.Allocatable.Cpu().String() != "16" {
		t.Errorf("allocatable %v: want capacity when none is given", big.Status.Allocatable)
	}
	for _, n := range nodes {
		if len(n.Status.Conditions) != 1 || n.Status.Conditions[0].Type != corev1.NodeReady || n.Status.Conditions[0].Status != corev1.ConditionTrue {
			t.Errorf("%s conditions %v: want Ready", n.Name, n.Status.Conditions)
		}
	}
	if _, ok := objs[0].Obj.(*corev1.Node).Labels["kubernetes.io/hostname"]; ok {
		t.Error("the manifest's object was changed; want a copy")
	}

	bare, err := manifest.Parse("bare.yaml", []byte("apiVersion: v1\nkind: Node\nmetadata: {name: empty}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := WorkerNodes(bare); err == nil || !strings.Contains(err.Error(), `bare.yaml:1: node "empty" has no status.capacity or status.allocatable`) {
		t.Errorf("a node without capacity: err %v", err)
	}
}
