package live

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// A recorded apply, replayed: the oracle's recording of `kubectl apply -f
// examples/app.yaml` on a real v1.37 control plane
// (oracle/testdata/v1.37/scenarios/apply-app.json) keeps the final
// ReplicaSet, pods and EndpointSlice and the events every run wrote. The
// replay writes them again in the order a real apply writes them — the
// ReplicaSet, each pod created Pending, bound, acknowledged by its kubelet,
// running, Ready — with the kubelet's container events (kwok, which faked
// the kubelets of the recording, writes none; their texts are the real
// kubelet's, pkg/kubelet/events and kuberuntime, v1.37).

// write is one object the replay writes at a time after the apply.
type write struct {
	at  time.Duration
	obj runtime.Object
}

// fixture reads a recorded scenario with its placeholders filled in:
// <time> the recording's start, <uid> a uid, <podIP> and <nodeIP>
// addresses, <varies> a node name.
func fixture(t *testing.T, name string) (objs []map[string]any, events []map[string]any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "oracle", "testdata", "v1.37", "scenarios", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.NewReplacer(`\u003c`, "<", `\u003e`, ">").Replace(string(data))
	s = strings.NewReplacer(`"<time>"`, `"2026-12-01T10:00:00Z"`, `"<uid>"`, `"00000000-0000-0000-0000-000000000001"`,
		`"<podIP>"`, `"10.244.1.2"`, `"<nodeIP>"`, `"172.18.0.2"`, `"<varies>"`, `"node-a"`).Replace(s)
	var fx struct {
		Objects []map[string]any `json:"objects"`
		Steps   []struct {
			Events []map[string]any `json:"events"`
		} `json:"steps"`
	}
	if err := json.Unmarshal([]byte(s), &fx); err != nil {
		t.Fatal(err)
	}
	return fx.Objects, fx.Steps[0].Events
}

func typed[T any](t *testing.T, objs []map[string]any, kind string) []*T {
	t.Helper()
	var out []*T
	for _, o := range objs {
		if o["kind"] != kind {
			continue
		}
		v := new(T)
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(o, v); err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		out = append(out, v)
	}
	return out
}

// replayApp is the recorded apply of examples/app.yaml as writes into ns,
// t0 being the time of the apply.
func replayApp(t *testing.T, ns string, t0 time.Time) []write {
	objs, events := fixture(t, "apply-app")
	rs := typed[appsv1.ReplicaSet](t, objs, "ReplicaSet")[0]
	final := typed[corev1.Pod](t, objs, "Pod")
	dep := typed[appsv1.Deployment](t, objs, "Deployment")[0]
	if rs.Name != "web-6c64cbcbb9" || len(final) != 3 {
		t.Fatalf("fixture: ReplicaSet %s, %d pods", rs.Name, len(final))
	}
	// The recording's messages of the controllers' events, by reason.
	msg := map[string]string{}
	for _, e := range events {
		msg[e["reason"].(string)] = e["message"].(string)
	}
	ts := func(d time.Duration) metav1.Time { return metav1.NewTime(t0.Add(d).Truncate(time.Second)) }
	var w []write
	n := 0
	event := func(at time.Duration, about runtime.Object, reason, message, component, host string) {
		m, _ := runtime.DefaultUnstructuredConverter.ToUnstructured(about)
		md := m["metadata"].(map[string]any)
		kind := map[string]string{"*v1.Pod": "Pod", "*v1.ReplicaSet": "ReplicaSet", "*v1.Deployment": "Deployment"}[fmt.Sprintf("%T", about)]
		n++
		e := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s.%d", md["name"], n), Namespace: ns},
			InvolvedObject: corev1.ObjectReference{Kind: kind, Namespace: ns, Name: md["name"].(string)},
			Reason:         reason, Message: message, Type: corev1.EventTypeNormal, Count: 1,
			FirstTimestamp: ts(at), LastTimestamp: ts(at)}
		if component == "default-scheduler" {
			// events.k8s.io/v1, as the scheduler writes them.
			e.Count, e.FirstTimestamp, e.LastTimestamp = 0, metav1.Time{}, metav1.Time{}
			e.EventTime, e.ReportingController, e.ReportingInstance, e.Action = metav1.NewMicroTime(t0.Add(at)), component, component+"-1", "Binding"
		} else {
			e.Source = corev1.EventSource{Component: component, Host: host}
		}
		w = append(w, write{at, e})
	}
	ms := time.Millisecond
	rs = rs.DeepCopy()
	rs.Namespace, rs.CreationTimestamp, rs.Status = ns, ts(8*ms), appsv1.ReplicaSetStatus{}
	w = append(w, write{8 * ms, rs})
	event(10*ms, dep, "ScalingReplicaSet", msg["ScalingReplicaSet"], "deployment-controller", "")
	nodes := []string{"node-a", "node-b", "node-c"}
	pods := make([]*corev1.Pod, 3)
	for i, f := range final {
		p := f.DeepCopy()
		p.Namespace, p.Name = ns, fmt.Sprintf("web-6c64cbcbb9-%c%c%c%c%c", "bcd"[i], 'x', 'z', '2', '4')
		p.Spec.NodeName, p.Status = "", corev1.PodStatus{Phase: corev1.PodPending, QOSClass: corev1.PodQOSBurstable}
		p.CreationTimestamp = ts(time.Duration(12+i) * ms)
		pods[i] = p
		w = append(w, write{time.Duration(12+i) * ms, p.DeepCopy()})
		event(time.Duration(13+i)*ms, rs, "SuccessfulCreate", "Created pod: "+p.Name, "replicaset-controller", "")
	}
	for i, p := range pods {
		at := time.Duration(20+i) * ms
		p.Spec.NodeName = nodes[i]
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: ts(at)}}
		w = append(w, write{at, p.DeepCopy()})
		event(at+ms, p, "Scheduled", strings.NewReplacer("default/", ns+"/", "web-6c64cbcbb9-xxxxx", p.Name, "<node>", nodes[i]).Replace(msg["Scheduled"]), "default-scheduler", "")
	}
	for i, p := range pods {
		at := time.Duration(30+i) * ms
		st := ts(at)
		p.Status.StartTime = &st
		p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "web", Image: "nginx:1.27", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ContainerCreating"}}}}
		w = append(w, write{at, p.DeepCopy()})
		event(at+ms, p, "Pulling", `Pulling image "nginx:1.27"`, "kubelet", nodes[i])
	}
	for i, p := range pods {
		at := time.Duration(1500+10*i) * ms
		event(at, p, "Pulled", `Successfully pulled image "nginx:1.27" in 1.4s (1.4s including waiting). Image size: 72405614 bytes.`, "kubelet", nodes[i])
		event(at+ms, p, "Created", "Created container: web", "kubelet", nodes[i])
		event(at+2*ms, p, "Started", "Started container web", "kubelet", nodes[i])
		p.Status.Phase, p.Status.PodIP = corev1.PodRunning, fmt.Sprintf("10.244.%d.2", i+1)
		p.Status.PodIPs = []corev1.PodIP{{IP: p.Status.PodIP}}
		p.Status.Conditions = append(p.Status.Conditions,
			corev1.PodCondition{Type: corev1.PodReadyToStartContainers, Status: corev1.ConditionTrue, LastTransitionTime: ts(at)},
			corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionFalse, LastTransitionTime: ts(at)})
		p.Status.ContainerStatuses[0].State = corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: ts(at)}}
		w = append(w, write{at + 3*ms, p.DeepCopy()})
	}
	slice := typed[discoveryv1.EndpointSlice](t, objs, "EndpointSlice")[0]
	slice.Namespace, slice.Name = ns, "web-k8x4z"
	epSlice := func(at time.Duration, ready int) {
		s := slice.DeepCopy()
		s.Endpoints = nil
		for i, p := range pods {
			r := i < ready
			s.Endpoints = append(s.Endpoints, discoveryv1.Endpoint{Addresses: []string{p.Status.PodIP}, NodeName: &nodes[i],
				Conditions: discoveryv1.EndpointConditions{Ready: &r}, TargetRef: &corev1.ObjectReference{Kind: "Pod", Name: p.Name, Namespace: ns}})
		}
		w = append(w, write{at, s})
	}
	epSlice(1540*ms, 0)
	for i, p := range pods {
		at := time.Duration(3500+10*i) * ms
		for j := range p.Status.Conditions {
			if p.Status.Conditions[j].Type == corev1.PodReady {
				p.Status.Conditions[j] = corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: ts(at)}
			}
		}
		p.Status.ContainerStatuses[0].Ready = true
		w = append(w, write{at, p.DeepCopy()})
		epSlice(at+2*ms, i+1)
	}
	d := dep.DeepCopy()
	d.Namespace = ns
	d.Status = appsv1.DeploymentStatus{ObservedGeneration: 1, Replicas: 3, ReadyReplicas: 3, AvailableReplicas: 3, UpdatedReplicas: 3,
		Conditions: []appsv1.DeploymentCondition{{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue}}}
	w = append(w, write{3530 * ms, d})
	return w
}

// feed hands the writes to o as informers would deliver them.
func feed(o *Observer, t0 time.Time, ws []write) {
	for _, w := range ws {
		at := t0.Add(w.at)
		switch v := w.obj.(type) {
		case *appsv1.Deployment:
			o.Deployment(at, v)
		case *appsv1.ReplicaSet:
			o.ReplicaSet(at, v)
		case *corev1.Pod:
			o.Pod(at, v)
		case *discoveryv1.EndpointSlice:
			o.EndpointSlice(at, v)
		case *corev1.Event:
			o.Event(at, v)
		}
	}
}
