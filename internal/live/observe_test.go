package live

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/render"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	"github.com/k8sexplain/k8sexplain/internal/trace/explain"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

var t0 = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

func kinds(tr *trace.Trace, phase trace.Phase) []string {
	var out []string
	for _, s := range tr.Steps {
		if s.Phase == phase {
			k := string(s.Kind)
			if k == "event" {
				k += " " + s.Get("reason")
			}
			out = append(out, k)
		}
	}
	return out
}

func countOf(list []string, k string) int {
	n := 0
	for _, v := range list {
		if v == k {
			n++
		}
	}
	return n
}

// The recorded apply reads as the simulated trace does: the same step
// kinds in the same phases, with the cluster's names.
func TestObserverReplaysRecordedApply(t *testing.T) {
	o := NewObserver(t0)
	feed(o, t0, replayApp(t, "k8sexplain-test1", t0))
	tr := o.Trace("test", 3)

	ph4 := kinds(tr, trace.PhaseController)
	if ph4[0] != "deployment.newrs" || countOf(ph4, "live.podcreated") != 3 || countOf(ph4, "event SuccessfulCreate") != 3 || countOf(ph4, "event ScalingReplicaSet") != 1 {
		t.Errorf("phase 4: %v", ph4)
	}
	for _, s := range tr.Steps {
		if s.Kind == "deployment.newrs" && (s.Get("rs") != "web-6c64cbcbb9" || s.Get("hash") != "6c64cbcbb9" || s.Get("replicas") != "3") {
			t.Errorf("deployment.newrs fields: %v", s.Fields)
		}
	}
	ph5 := kinds(tr, trace.PhaseScheduler)
	if countOf(ph5, "scheduler.bind") != 3 || countOf(ph5, "event Scheduled") != 3 {
		t.Errorf("phase 5: %v", ph5)
	}
	ph6 := kinds(tr, trace.PhaseKubelet)
	for _, k := range []string{"kubelet.admit", "event Pulling", "event Pulled", "event Created", "event Started"} {
		if countOf(ph6, k) != 3 {
			t.Errorf("phase 6: want 3 %s, got %v", k, ph6)
		}
	}
	ph7 := kinds(tr, trace.PhaseRuntime)
	if countOf(ph7, "live.podip") != 3 || countOf(ph7, "runtime.start") != 3 {
		t.Errorf("phase 7: %v", ph7)
	}
	ph8 := kinds(tr, trace.PhaseReady)
	if countOf(ph8, "kubelet.running") != 3 || countOf(ph8, "kubelet.probe") != 3 || countOf(ph8, "endpointslice.create") != 1 ||
		countOf(ph8, "endpointslice.update") != 3 || countOf(ph8, "deployment.status") != 1 {
		t.Errorf("phase 8: %v", ph8)
	}
	for _, s := range tr.Steps {
		switch s.Kind {
		case "scheduler.bind":
			if !strings.HasPrefix(s.Get("path"), "/api/v1/namespaces/k8sexplain-test1/pods/web-6c64cbcbb9-") || !strings.HasPrefix(s.Get("node"), "node-") {
				t.Errorf("bind: %v", s.Fields)
			}
		case "kubelet.probe":
			if s.Get("probe") != "httpGet /healthz port http" || s.Get("after") != "2s" {
				t.Errorf("probe: %v", s.Fields)
			}
		case "event":
			if s.Get("reason") == "Scheduled" && (s.Actor != "default-scheduler" || s.Get("cluster_time") == "") {
				t.Errorf("Scheduled event: actor %s, fields %v", s.Actor, s.Fields)
			}
			if s.Get("reason") == "Pulling" && !strings.HasPrefix(s.Actor, "kubelet/node-") {
				t.Errorf("Pulling event: actor %s", s.Actor)
			}
		}
	}
	if !tr.Summary.AllReady || tr.Summary.Pods != 3 || tr.Summary.ReadyAt != 3520*time.Millisecond {
		t.Errorf("summary: %+v", tr.Summary)
	}
	if ok, blocked := o.Settled(); !ok || blocked != nil {
		t.Errorf("Settled() = %v %v, want settled", ok, blocked)
	}
}

// Until the last pod is Ready the apply is not at rest; a pod that cannot
// pull its image, or that no node fits, ends the wait with the reason.
func TestObserverSettled(t *testing.T) {
	ws := replayApp(t, "ns", t0)
	o := NewObserver(t0)
	feed(o, t0, ws[:len(ws)-3])
	if ok, _ := o.Settled(); ok {
		t.Fatal("settled before every pod is Ready")
	}

	o = NewObserver(t0)
	feed(o, t0, ws[:20])
	var pod *corev1.Pod
	for _, w := range ws[:20] {
		if p, ok := w.obj.(*corev1.Pod); ok {
			pod = p.DeepCopy()
		}
	}
	pod.Spec.NodeName = "node-a"
	pod.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "web", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{
		Reason: "ImagePullBackOff", Message: `Back-off pulling image "nginx:nope"`}}}}
	o.Pod(t0.Add(time.Second), pod)
	for _, w := range ws[:20] {
		if p, ok := w.obj.(*corev1.Pod); ok && p.Name != pod.Name {
			e := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: p.Name + ".fs"}, InvolvedObject: corev1.ObjectReference{Kind: "Pod", Name: p.Name},
				Reason: "FailedScheduling", Type: "Warning", Message: "0/3 nodes are available: 3 Insufficient cpu.", ReportingController: "default-scheduler"}
			o.Event(t0.Add(time.Second), e)
		}
	}
	ok, blocked := o.Settled()
	if !ok || len(blocked) != 3 || !strings.Contains(strings.Join(blocked, "\n"), "ImagePullBackOff") || !strings.Contains(strings.Join(blocked, "\n"), "Insufficient cpu") {
		t.Errorf("Settled() = %v %q", ok, blocked)
	}
	tr := o.Trace("test", 1)
	if len(tr.Summary.PendingPods) != 3 || tr.Summary.AllReady {
		t.Errorf("pending: %+v", tr.Summary.PendingPods)
	}
	if countOf(kinds(tr, trace.PhaseKubelet), "live.waiting") != 1 {
		t.Errorf("no live.waiting step: %v", kinds(tr, trace.PhaseKubelet))
	}
}

// An event the recorder writes again (count 2) is the simulated trace's
// event.patch; the same count again is no new step.
func TestObserverEventPatch(t *testing.T) {
	o := NewObserver(t0)
	e := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: "web.1"}, InvolvedObject: corev1.ObjectReference{Kind: "ReplicaSet", Name: "web-1"},
		Reason: "FailedCreate", Type: "Warning", Message: "Error creating: quota", Count: 1, Source: corev1.EventSource{Component: "replicaset-controller"}}
	o.Event(t0, e)
	o.Event(t0, e)
	e2 := e.DeepCopy()
	e2.Count = 2
	o.Event(t0.Add(time.Second), e2)
	tr := o.Trace("t", 0)
	if len(tr.Steps) != 2 || tr.Steps[0].Kind != "event" || tr.Steps[1].Kind != "event.patch" || tr.Steps[1].Get("count") != "2" {
		t.Errorf("steps: %+v", tr.Steps)
	}
	if ok, blocked := o.Settled(); !ok || blocked != nil {
		t.Errorf("no Deployment, no pod: settled, got %v %v", ok, blocked)
	}
}

// Every format renders a cluster trace, in both languages; each step
// reads with the simulated kind's explanation, and JSON says where the
// trace came from.
func TestClusterTraceRenders(t *testing.T) {
	o := NewObserver(t0)
	feed(o, t0, replayApp(t, "k8sexplain-test1", t0))
	tr := o.Trace("k8sexplain trace apply examples/app.yaml on https://127.0.0.1:6443 (context kind-kind, Kubernetes v1.37.2)", 3)
	tr.Cluster = &trace.ClusterInfo{Server: "https://127.0.0.1:6443", Context: "kind-kind", Version: "v1.37.2", Namespace: "k8sexplain-test1"}
	for _, lang := range []string{"en", "ru"} {
		for _, f := range render.Formats {
			var b bytes.Buffer
			err := render.Render(&b, explain.Doc(tr, explain.Options{Lang: lang}), render.Options{Format: render.Format(f), Lang: lang})
			if err != nil {
				t.Fatalf("%s %s: %v", lang, f, err)
			}
			out := b.String()
			if f == "text" && lang == "en" {
				for _, want := range []string{"https://127.0.0.1:6443 (context kind-kind, Kubernetes v1.37.2)",
					trace.Lookup("en", "scheduler.bind").Explain[:60], trace.Lookup("en", "replicaset.diff").Explain[:60], "web-6c64cbcbb9"} {
					if !strings.Contains(strings.Join(strings.Fields(out), " "), strings.Join(strings.Fields(want), " ")) {
						t.Errorf("text: no %q in\n%s", want, out)
					}
				}
				if strings.Contains(out, "Modelled on") {
					t.Errorf("a cluster trace says the simulator's header:\n%s", out)
				}
			}
			if f == "text" && lang == "ru" && !strings.Contains(out, "Наблюдалось на кластере") {
				t.Errorf("ru header missing:\n%s", out[:300])
			}
			if f == "json" {
				var j struct {
					Source  string `json:"source"`
					Schema  string `json:"schema"`
					Cluster struct {
						Server string `json:"server"`
					} `json:"cluster"`
					Steps []struct {
						Kind string `json:"kind"`
					} `json:"steps"`
				}
				if err := json.Unmarshal(b.Bytes(), &j); err != nil || j.Source != "cluster" || j.Schema != "k8sexplain.trace/v1" || j.Cluster.Server != "https://127.0.0.1:6443" || len(j.Steps) != len(tr.Steps) {
					t.Errorf("json: %v %+v", err, j)
				}
			}
		}
	}
	// A server of another minor version gets the warning.
	tr.Cluster.Version = "v1.31.4"
	var b bytes.Buffer
	_ = render.Render(&b, explain.Doc(tr, explain.Options{Lang: "en"}), render.Options{Format: render.Text})
	if !strings.Contains(b.String(), "the simulator models v1.37") {
		t.Errorf("no version warning:\n%s", b.String()[:600])
	}
}

// A pod that ran to completion (a Job's) is at rest without being Ready.
func TestObserverFinishedPod(t *testing.T) {
	o := NewObserver(t0)
	o.Pod(t0, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "once"}, Spec: corev1.PodSpec{NodeName: "node-a"}, Status: corev1.PodStatus{Phase: corev1.PodRunning}})
	if ok, _ := o.Settled(); ok {
		t.Fatal("a running pod that is not Ready is not at rest")
	}
	o.Pod(t0, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "once"}, Spec: corev1.PodSpec{NodeName: "node-a"}, Status: corev1.PodStatus{Phase: corev1.PodSucceeded}})
	if ok, blocked := o.Settled(); !ok || blocked != nil {
		t.Errorf("Succeeded pod: settled %v, blocked %v", ok, blocked)
	}
}
