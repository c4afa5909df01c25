package sim

import (
	"strings"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// One case per STATUS kubectl's printPod prints (kubernetes
// pkg/printers/internalversion/printers.go, v1.37, and its
// printers_test.go TestPrintPod*): the state log's row must read the same.
func TestPodStatusFollowsPrintPod(t *testing.T) {
	waiting := func(r string) corev1.ContainerState {
		return corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: r}}
	}
	term := func(r string, code, sig int32) corev1.ContainerState {
		return corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: r, ExitCode: code, Signal: sig}}
	}
	running := corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}
	always := corev1.ContainerRestartPolicyAlways
	yes := true
	now := metav1.Now()
	app := []corev1.Container{{Name: "app"}}
	oneInit := []corev1.Container{{Name: "init"}}
	sidecarInit := []corev1.Container{{Name: "proxy", RestartPolicy: &always}}
	cond := func(t corev1.PodConditionType, s corev1.ConditionStatus, reason string) corev1.PodCondition {
		return corev1.PodCondition{Type: t, Status: s, Reason: reason}
	}
	for _, c := range []struct {
		name     string
		pod      corev1.Pod
		want     string
		ready    string
		restarts int
	}{
		{"Pending, not scheduled", corev1.Pod{Spec: corev1.PodSpec{Containers: app}, Status: corev1.PodStatus{Phase: corev1.PodPending}}, "Pending", "0/1", 0},
		{"SchedulingGated", corev1.Pod{Spec: corev1.PodSpec{Containers: app}, Status: corev1.PodStatus{Phase: corev1.PodPending,
			Conditions: []corev1.PodCondition{cond(corev1.PodScheduled, corev1.ConditionFalse, corev1.PodReasonSchedulingGated)}}}, "SchedulingGated", "0/1", 0},
		{"ContainerCreating", corev1.Pod{Spec: corev1.PodSpec{Containers: app}, Status: corev1.PodStatus{Phase: corev1.PodPending,
			ContainerStatuses: []corev1.ContainerStatus{{Name: "app", State: waiting("ContainerCreating")}}}}, "ContainerCreating", "0/1", 0},
		{"Running and ready", corev1.Pod{Spec: corev1.PodSpec{Containers: app}, Status: corev1.PodStatus{Phase: corev1.PodRunning,
			ContainerStatuses: []corev1.ContainerStatus{{Name: "app", Ready: true, State: running}}}}, "Running", "1/1", 0},
		{"Running, not ready", corev1.Pod{Spec: corev1.PodSpec{Containers: app}, Status: corev1.PodStatus{Phase: corev1.PodRunning,
			ContainerStatuses: []corev1.ContainerStatus{{Name: "app", State: running}}}}, "Running", "0/1", 0},
		{"CrashLoopBackOff", corev1.Pod{Spec: corev1.PodSpec{Containers: app}, Status: corev1.PodStatus{Phase: corev1.PodRunning,
			ContainerStatuses: []corev1.ContainerStatus{{Name: "app", RestartCount: 3, State: waiting("CrashLoopBackOff")}}}}, "CrashLoopBackOff", "0/1", 3},
		{"OOMKilled", corev1.Pod{Spec: corev1.PodSpec{Containers: app}, Status: corev1.PodStatus{Phase: corev1.PodRunning,
			ContainerStatuses: []corev1.ContainerStatus{{Name: "app", RestartCount: 1, State: term("OOMKilled", 137, 0)}}}}, "OOMKilled", "0/1", 1},
		{"ExitCode without a reason", corev1.Pod{Spec: corev1.PodSpec{Containers: app}, Status: corev1.PodStatus{Phase: corev1.PodFailed,
			ContainerStatuses: []corev1.ContainerStatus{{Name: "app", State: term("", 2, 0)}}}}, "ExitCode:2", "0/1", 0},
		{"Signal without a reason", corev1.Pod{Spec: corev1.PodSpec{Containers: app}, Status: corev1.PodStatus{Phase: corev1.PodFailed,
			ContainerStatuses: []corev1.ContainerStatus{{Name: "app", State: term("", 0, 9)}}}}, "Signal:9", "0/1", 0},
		{"Completed", corev1.Pod{Spec: corev1.PodSpec{Containers: app}, Status: corev1.PodStatus{Phase: corev1.PodSucceeded,
			ContainerStatuses: []corev1.ContainerStatus{{Name: "app", State: term("Completed", 0, 0)}}}}, "Completed", "0/1", 0},
		{"Completed with one still running and Ready", corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "a"}, {Name: "b"}}},
			Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{cond(corev1.PodReady, corev1.ConditionTrue, "")},
				ContainerStatuses: []corev1.ContainerStatus{{Name: "a", State: term("Completed", 0, 0)}, {Name: "b", Ready: true, State: running}}}}, "Running", "1/2", 0},
		{"Completed with one still running, not Ready", corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "a"}, {Name: "b"}}},
			Status: corev1.PodStatus{Phase: corev1.PodRunning,
				ContainerStatuses: []corev1.ContainerStatus{{Name: "b", Ready: true, State: running}, {Name: "a", State: term("Completed", 0, 0)}}}}, "NotReady", "1/2", 0},
		{"Init:0/1", corev1.Pod{Spec: corev1.PodSpec{InitContainers: oneInit, Containers: app}, Status: corev1.PodStatus{Phase: corev1.PodPending,
			InitContainerStatuses: []corev1.ContainerStatus{{Name: "init", State: running}},
			ContainerStatuses:     []corev1.ContainerStatus{{Name: "app", State: waiting("PodInitializing")}}}}, "Init:0/1", "0/1", 0},
		{"Init:0/1 while the init container is created", corev1.Pod{Spec: corev1.PodSpec{InitContainers: oneInit, Containers: app}, Status: corev1.PodStatus{Phase: corev1.PodPending,
			InitContainerStatuses: []corev1.ContainerStatus{{Name: "init", State: waiting("PodInitializing")}}}}, "Init:0/1", "0/1", 0},
		{"Init:CrashLoopBackOff", corev1.Pod{Spec: corev1.PodSpec{InitContainers: oneInit, Containers: app}, Status: corev1.PodStatus{Phase: corev1.PodPending,
			InitContainerStatuses: []corev1.ContainerStatus{{Name: "init", RestartCount: 2, State: waiting("CrashLoopBackOff")}},
			ContainerStatuses:     []corev1.ContainerStatus{{Name: "app", RestartCount: 5, State: waiting("PodInitializing")}}}}, "Init:CrashLoopBackOff", "0/1", 2},
		{"Init:Error", corev1.Pod{Spec: corev1.PodSpec{InitContainers: oneInit, Containers: app}, Status: corev1.PodStatus{Phase: corev1.PodPending,
			InitContainerStatuses: []corev1.ContainerStatus{{Name: "init", State: term("Error", 1, 0)}}}}, "Init:Error", "0/1", 0},
		{"Init:ExitCode", corev1.Pod{Spec: corev1.PodSpec{InitContainers: oneInit, Containers: app}, Status: corev1.PodStatus{Phase: corev1.PodPending,
			InitContainerStatuses: []corev1.ContainerStatus{{Name: "init", State: term("", 3, 0)}}}}, "Init:ExitCode:3", "0/1", 0},
		{"PodInitializing once init is done", corev1.Pod{Spec: corev1.PodSpec{InitContainers: oneInit, Containers: app}, Status: corev1.PodStatus{Phase: corev1.PodPending,
			Conditions:            []corev1.PodCondition{cond(corev1.PodInitialized, corev1.ConditionTrue, "")},
			InitContainerStatuses: []corev1.ContainerStatus{{Name: "init", RestartCount: 2, State: term("Completed", 0, 0)}},
			ContainerStatuses:     []corev1.ContainerStatus{{Name: "app", State: waiting("PodInitializing")}}}}, "PodInitializing", "0/1", 0},
		{"a started sidecar counts in READY", corev1.Pod{Spec: corev1.PodSpec{InitContainers: sidecarInit, Containers: app}, Status: corev1.PodStatus{Phase: corev1.PodRunning,
			Conditions:            []corev1.PodCondition{cond(corev1.PodInitialized, corev1.ConditionTrue, "")},
			InitContainerStatuses: []corev1.ContainerStatus{{Name: "proxy", Started: &yes, Ready: true, RestartCount: 1, State: running}},
			ContainerStatuses:     []corev1.ContainerStatus{{Name: "app", Ready: true, State: running}}}}, "Running", "2/2", 1},
		{"a sidecar not started yet", corev1.Pod{Spec: corev1.PodSpec{InitContainers: sidecarInit, Containers: app}, Status: corev1.PodStatus{Phase: corev1.PodPending,
			InitContainerStatuses: []corev1.ContainerStatus{{Name: "proxy", State: running}}}}, "Init:0/1", "0/2", 0},
		{"Terminating", corev1.Pod{ObjectMeta: metav1.ObjectMeta{DeletionTimestamp: &now}, Spec: corev1.PodSpec{Containers: app}, Status: corev1.PodStatus{Phase: corev1.PodRunning,
			ContainerStatuses: []corev1.ContainerStatus{{Name: "app", Ready: true, State: running}}}}, "Terminating", "1/1", 0},
		{"a finished pod being deleted is not Terminating", corev1.Pod{ObjectMeta: metav1.ObjectMeta{DeletionTimestamp: &now}, Spec: corev1.PodSpec{Containers: app},
			Status: corev1.PodStatus{Phase: corev1.PodSucceeded, ContainerStatuses: []corev1.ContainerStatus{{Name: "app", State: term("Completed", 0, 0)}}}}, "Completed", "0/1", 0},
		{"Unknown: deleted on a lost node", corev1.Pod{ObjectMeta: metav1.ObjectMeta{DeletionTimestamp: &now}, Spec: corev1.PodSpec{Containers: app},
			Status: corev1.PodStatus{Phase: corev1.PodRunning, Reason: "NodeLost", ContainerStatuses: []corev1.ContainerStatus{{Name: "app", Ready: true, State: running}}}}, "Unknown", "1/1", 0},
		{"Evicted", corev1.Pod{Spec: corev1.PodSpec{Containers: app}, Status: corev1.PodStatus{Phase: corev1.PodFailed, Reason: "Evicted"}}, "Evicted", "0/1", 0},
	} {
		_, cols := stateRow(&c.pod)
		if cols[2] != c.want || cols[1] != c.ready || cols[3] != itoa(int32(c.restarts)) {
			t.Errorf("%s: READY %s STATUS %s RESTARTS %s, want %s %s %d", c.name, cols[1], cols[2], cols[3], c.ready, c.want, c.restarts)
		}
	}
}

// EXTERNAL-IP as getServiceExternalIP prints it.
func TestServiceExternalFollowsPrinter(t *testing.T) {
	lb := &corev1.Service{Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeLoadBalancer}}
	if got := serviceExternal(lb, lb.Spec.Type); got != "<pending>" {
		t.Errorf("LoadBalancer without ingress: %q, want <pending>", got)
	}
	lb.Status.LoadBalancer.Ingress = []corev1.LoadBalancerIngress{{IP: "203.0.113.20"}, {IP: "203.0.113.10"}}
	if got := serviceExternal(lb, lb.Spec.Type); got != "203.0.113.10,..." {
		t.Errorf("LoadBalancer with two addresses: %q, want them sorted and clipped to 16 bytes", got)
	}
	en := &corev1.Service{Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeExternalName, ExternalName: "db.example.com"}}
	if got := serviceExternal(en, en.Spec.Type); got != "db.example.com" {
		t.Errorf("ExternalName: %q", got)
	}
	np := &corev1.Service{Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeNodePort}}
	if got := serviceExternal(np, np.Spec.Type); got != "<none>" {
		t.Errorf("NodePort: %q", got)
	}
}

// A pod with an init container and a sidecar, step by step: the STATUS
// sequence the state log records is the one `kubectl get pods -w` shows
// for the statuses the kubelet wrote: Pending (bound, no status yet),
// Init:0/2 (migrate running), Init:1/2 (the sidecar running, not yet
// started), Running (the kubelet's next write has the sidecar started and
// the app running at once); READY counts the sidecar (2/2 at the end).
func TestStateLogPodStatusSequence(t *testing.T) {
	c := exampleCluster(t, "init.yaml", Config{Seed: 1, Workers: 3, RecordState: true})
	tr := c.Run("test")
	seq := map[string][]string{}
	last := map[string]string{}
	for _, ch := range tr.State.Changes {
		if ch.Kind != "Pod" || ch.Deleted {
			continue
		}
		st := ch.Cols[2]
		if last[ch.Name] != st {
			seq[ch.Name] = append(seq[ch.Name], st)
			last[ch.Name] = st
		}
		if st == "Running" && ch.Cols[1] != "2/2" {
			t.Errorf("%s Running with READY %s, want 2/2 (the sidecar counts)", ch.Name, ch.Cols[1])
		}
	}
	if len(seq) != 2 {
		t.Fatalf("%d pods, want 2", len(seq))
	}
	for name, s := range seq {
		got := strings.Join(s, " → ")
		if got != "Pending → Init:0/2 → Init:1/2 → Running" {
			t.Errorf("%s: %s", name, got)
		}
	}
}

// RESTARTS' "(5s ago)" reads the last restart's finishedAt among the
// containers printPod counts: the app containers (and sidecars) once the
// pod is initialized, the init containers while it initializes.
func TestPodLastRestart(t *testing.T) {
	at := func(s int) metav1.Time { return metav1.NewTime(apiserver.Epoch.Add(time.Duration(s) * time.Second)) }
	last := func(s int) corev1.ContainerState {
		return corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 2, Reason: "Error", FinishedAt: at(s)}}
	}
	app := corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "a"}, {Name: "b"}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, ContainerStatuses: []corev1.ContainerStatus{
			{Name: "a", RestartCount: 1, LastTerminationState: last(10)}, {Name: "b", RestartCount: 2, LastTerminationState: last(25)}}}}
	if got := podLastRestart(&app); !got.Equal(at(25).Time) {
		t.Errorf("app containers: %v, want the later finishedAt (25 s)", got)
	}
	initing := corev1.Pod{Spec: corev1.PodSpec{InitContainers: []corev1.Container{{Name: "init"}}, Containers: []corev1.Container{{Name: "a"}}},
		Status: corev1.PodStatus{Phase: corev1.PodPending,
			InitContainerStatuses: []corev1.ContainerStatus{{Name: "init", RestartCount: 1, LastTerminationState: last(7),
				State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}}},
			ContainerStatuses: []corev1.ContainerStatus{{Name: "a", LastTerminationState: last(30)}}}}
	if got := podLastRestart(&initing); !got.Equal(at(7).Time) {
		t.Errorf("initializing: %v, want the init container's finishedAt (7 s)", got)
	}
	if got := podLastRestart(&corev1.Pod{}); !got.IsZero() {
		t.Errorf("no restart: %v", got)
	}
}
