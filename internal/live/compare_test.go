package live

import (
	"bytes"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/render"
	"github.com/k8sexplain/k8sexplain/internal/sim"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	"github.com/k8sexplain/k8sexplain/internal/trace/explain"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// simulated is the simulator's trace of examples/app.yaml on the
// recording's three workers.
func simulated(t *testing.T, nodes []corev1.Node) *trace.Trace {
	t.Helper()
	var objs []manifest.Object
	for _, n := range Workers(nodes) {
		objs = append(objs, manifest.Object{Obj: n, APIVersion: "v1", Kind: "Node", Name: n.Name})
	}
	ns, err := sim.WorkerNodes(objs)
	if err != nil {
		t.Fatal(err)
	}
	cl, err := sim.NewCluster(sim.Config{Seed: 1, Workers: len(ns), Nodes: ns})
	if err != nil {
		t.Fatal(err)
	}
	cl.Apply(appObjects(t), []string{"examples/app.yaml"})
	return cl.Run("k8sexplain trace apply examples/app.yaml")
}

func recordedNodes() []corev1.Node {
	res := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("4"), corev1.ResourceMemory: resource.MustParse("8Gi"), corev1.ResourcePods: resource.MustParse("110")}
	var out []corev1.Node
	for _, name := range []string{"control-plane", "node-a", "node-b", "node-c"} {
		n := corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}},
			Status: corev1.NodeStatus{Capacity: res, Allocatable: res}}
		if name == "control-plane" {
			n.Spec.Taints = []corev1.Taint{{Key: "node-role.kubernetes.io/control-plane", Effect: corev1.TaintEffectNoSchedule}}
		}
		out = append(out, n)
	}
	return out
}

func row(t trace.KeyedTable, step string) []string {
	for _, r := range t.Rows {
		if r[1] == step {
			return r
		}
	}
	return nil
}

// The side by side of the recorded apply with the simulator's: the
// ReplicaSet names agree (the pod-template-hash is upstream's), both sides
// put one pod on each worker, and every phase says when it started on
// each side.
func TestCompareRecordedWithSimulation(t *testing.T) {
	if w := Workers(recordedNodes()); len(w) != 3 || w[0].Name != "node-a" {
		t.Fatalf("Workers: %v", w)
	}
	o := NewObserver(t0)
	feed(o, t0, replayApp(t, "ns", t0))
	real, simTr := o.Trace("real", 3), simulated(t, recordedNodes())
	tab := compare(real, simTr)
	if tabs := Compare(real, simTr); len(tabs) != 2 || tabs[1].Rows[0][0] != "[1]" || !strings.HasPrefix(tabs[0].Rows[0][4], "[") {
		t.Errorf("notes: %+v", tabs[1].Rows)
	}
	if r := row(tab, "live.rsName"); r == nil || r[2] != "web-6c64cbcbb9" || r[3] != "web-6c64cbcbb9" || r[4] != "live.note.hash" {
		t.Errorf("ReplicaSet row: %q", r)
	}
	if r := row(tab, "live.nodes"); r == nil || r[2] != "node-a 1, node-b 1, node-c 1" || r[3] != r[2] || r[4] != "live.same" {
		t.Errorf("nodes row: %q", r)
	}
	if r := row(tab, "scheduler.filter"); r == nil || r[2] != "live.none" || r[4] != "live.note.inside" {
		t.Errorf("a step only the simulator can show: %q", r)
	}
	if r := row(tab, "Event Scheduled"); r == nil || !strings.HasPrefix(r[2], "3× @ ") || !strings.HasPrefix(r[3], "3× @ ") {
		t.Errorf("Scheduled events: %q", r)
	}
	starts := 0
	for _, r := range tab.Rows {
		if r[1] == "live.firstAt" {
			starts++
		}
	}
	if starts != 8 {
		t.Errorf("%d phases with a start row, want 8", starts)
	}

	// A ReplicaSet name that differs is flagged as the bug it is.
	for i := range real.Steps {
		if real.Steps[i].Kind == "deployment.newrs" {
			real.Steps[i].Fields = trace.F("rs", "web-5d4c8b7f9d")
		}
	}
	if r := row(compare(real, simTr), "live.rsName"); r[4] != "live.note.hashbug" {
		t.Errorf("differing hash: %q", r)
	}

	// A server of another minor version says so in the first row.
	real.Cluster = &trace.ClusterInfo{Version: "v1.31.4"}
	if r := compare(real, simTr).Rows[0]; r[1] != "live.version" || r[2] != "v1.31.4" || r[3] != "v1.37" || r[4] != "live.note.skew" {
		t.Errorf("version row: %q", r)
	}
	real.Cluster.Version = "v1.37.0+k3s1"
	if r := compare(real, simTr).Rows[0]; r[4] != "live.same" {
		t.Errorf("version row: %q", r)
	}

	// Rendered in both languages, the table's words translated.
	real.Tables = Compare(real, simTr)
	real.Cluster = &trace.ClusterInfo{Server: "https://127.0.0.1:6443", Context: "kind-kind", Version: "v1.37.2"}
	for lang, want := range map[string]string{"en": "ReplicaSet name (pod-template-hash)", "ru": "имя ReplicaSet (pod-template-hash)"} {
		var b bytes.Buffer
		if err := render.Render(&b, explain.Doc(real, explain.Options{Lang: lang}), render.Options{Format: render.Text, Lang: lang}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), want) || strings.Contains(b.String(), "live.note.") {
			t.Errorf("%s: no %q or an untranslated key in\n%s", lang, want, b.String())
		}
	}
}
