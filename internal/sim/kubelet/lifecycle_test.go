package kubelet

import (
	"strings"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/intstr"
)

func initPod(policy corev1.RestartPolicy, first string) *corev1.Pod {
	always := corev1.ContainerRestartPolicyAlways
	a := ctr("migrate", "busybox")
	a.Command = []string{"sh", "-c", first}
	side := ctr("proxy", "busybox")
	side.RestartPolicy = &always
	side.StartupProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"true"}}}, InitialDelaySeconds: 2}
	p := newPod("web", ctr("web", "busybox"))
	p.Spec.InitContainers = []corev1.Container{a, side}
	p.Spec.RestartPolicy = policy
	return p
}

// TestInitContainers: the init container runs to completion, the native
// sidecar only has to start, then the app container; the status goes
// Init:0/2 → Init:1/2 → Running.
func TestInitContainers(t *testing.T) {
	h := newHarness(t, "busybox")
	h.create(initPod(corev1.RestartPolicyAlways, "sleep 3"))
	h.eng.RunUntil(2 * time.Second)
	if got := PodStatusColumn(h.pod("web")); got != "Init:0/2" {
		t.Fatalf("at 2 s: %s, want Init:0/2", got)
	}
	h.eng.RunUntil(4 * time.Second)
	if got := PodStatusColumn(h.pod("web")); got != "Init:1/2" {
		t.Fatalf("at 4 s: %s, want Init:1/2", got)
	}
	h.settle()
	p := h.pod("web")
	if p.Status.Phase != corev1.PodRunning || h.ready != 1 || len(p.Status.InitContainerStatuses) != 2 {
		t.Fatalf("phase %s ready calls %d init statuses %d", p.Status.Phase, h.ready, len(p.Status.InitContainerStatuses))
	}
	if st := p.Status.InitContainerStatuses; st[0].State.Terminated == nil || st[0].State.Terminated.Reason != "Completed" || st[1].State.Running == nil {
		t.Fatalf("init statuses %+v", st)
	}
	if !h.hasStep("kubelet.sidecar") || !h.hasStep("runtime.initdone") {
		t.Fatal("sidecar or initdone step missing")
	}
}

// TestInitContainerFailsNever: restartPolicy Never: the pod fails for good.
func TestInitContainerFailsNever(t *testing.T) {
	h := newHarness(t, "busybox")
	h.create(initPod(corev1.RestartPolicyNever, "exit 3"))
	h.settle()
	p := h.pod("web")
	if p.Status.Phase != corev1.PodFailed || PodStatusColumn(p) != "Init:Error" {
		t.Fatalf("phase %s column %s", p.Status.Phase, PodStatusColumn(p))
	}
	if st := p.Status.InitContainerStatuses[0].State.Terminated; st == nil || st.ExitCode != 3 {
		t.Fatalf("first init container: %+v", p.Status.InitContainerStatuses[0].State)
	}
}

// TestInitContainerRetries: restartPolicy Always: the failing init
// container restarts at once, then under the crash back-off (BackOff
// events, Init:CrashLoopBackOff); nothing after it starts.
func TestInitContainerRetries(t *testing.T) {
	h := newHarness(t, "busybox")
	ob := h.k.c.Hold()
	h.create(initPod(corev1.RestartPolicyAlways, "false"))
	h.eng.RunUntil(20 * time.Second)
	var backoffs int
	for _, l := range asked(ob) {
		if strings.HasPrefix(l, "event BackOff: Back-off restarting failed container migrate in pod web_default(") {
			backoffs++
		}
		if strings.Contains(l, "container proxy") {
			t.Fatalf("the sidecar started after a failed init container: %s", l)
		}
	}
	if backoffs != 1 {
		t.Fatalf("%d BackOff events in 20 s, want 1 (restart 1 at once, restart 2 after 10 s)", backoffs)
	}
	ob.Release()
	h.eng.RunUntil(25 * time.Second)
	p := h.pod("web")
	if got := PodStatusColumn(p); got != "Init:CrashLoopBackOff" || p.Status.InitContainerStatuses[0].RestartCount != 2 {
		t.Fatalf("column %s restarts %d", got, p.Status.InitContainerStatuses[0].RestartCount)
	}
	h.admin.Delete(apiserver.ResourceOf(p), "default", "web", nil)
	h.settle()
}

func probed(c corev1.Container) corev1.Container {
	c.LivenessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromString("http")}},
		PeriodSeconds: 10, FailureThreshold: 3, TimeoutSeconds: 1}
	c.ReadinessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/ready", Port: intstr.FromInt32(8080)}},
		PeriodSeconds: 5, FailureThreshold: 1, TimeoutSeconds: 1}
	c.Ports = []corev1.ContainerPort{{Name: "http", ContainerPort: 8080}}
	return c
}

func running(t *testing.T, c corev1.Container) *harness {
	t.Helper()
	h := newHarness(t, "nginx:1.27")
	h.create(newPod("web", c))
	h.settle()
	if h.ready != 1 {
		t.Fatalf("pod not ready: %d", h.ready)
	}
	return h
}

// TestCrashPanic: the container exits twice: the first restart is at
// once, the second after a 10 s back-off; the pod keeps its IP.
func TestCrashPanic(t *testing.T) {
	h := running(t, ctr("web", "nginx:1.27"))
	ob := h.k.c.Hold()
	if err := h.k.Crash("web", CrashPanic, 2); err != nil {
		t.Fatal(err)
	}
	h.settle()
	wantLines(t, "the kubelet asked for", asked(ob), []string{
		"PATCH /api/v1/namespaces/default/pods/web/status",
		`event Pulled: Container image "nginx:1.27" already present on machine and can be accessed by the pod`,
		"event Created: Container created",
		"PATCH /api/v1/namespaces/default/pods/web/status",
		"event Started: Container started", // written after the status of the same moment
		"PATCH /api/v1/namespaces/default/pods/web/status",
		"event BackOff: Back-off restarting failed container web in pod web_default(" + string(h.pod("web").UID) + ")",
		`event Pulled: Container image "nginx:1.27" already present on machine and can be accessed by the pod`,
		"event Created: Container created",
		"PATCH /api/v1/namespaces/default/pods/web/status",
		"event Started: Container started",
	})
	ob.Release()
	h.settle()
	p := h.pod("web")
	cs := p.Status.ContainerStatuses[0]
	if cs.RestartCount != 2 || cs.LastTerminationState.Terminated == nil || cs.LastTerminationState.Terminated.ExitCode != 2 || p.Status.PodIP != "10.244.1.2" {
		t.Fatalf("status %+v ip %s", cs, p.Status.PodIP)
	}
}

// TestCrashOOM: exit 137, OOMKilled.
func TestCrashOOM(t *testing.T) {
	c := ctr("web", "nginx:1.27")
	c.Resources.Limits = corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("128Mi")}
	h := running(t, c)
	if err := h.k.Crash("web", CrashOOM, 1); err != nil {
		t.Fatal(err)
	}
	h.settle()
	if last := h.pod("web").Status.ContainerStatuses[0].LastTerminationState.Terminated; last == nil || last.Reason != "OOMKilled" || last.ExitCode != 137 {
		t.Fatalf("last state %+v", last)
	}
	if !h.hasStep("runtime.oom") {
		t.Fatal("no runtime.oom step")
	}
}

// TestCrashLiveness: a hung process: the readiness probe takes the pod out
// first, the liveness probe's third failure kills and restarts it, twice.
func TestCrashLiveness(t *testing.T) {
	h := running(t, probed(ctr("web", "nginx:1.27")))
	if err := h.k.Crash("web", CrashLiveness, 2); err != nil {
		t.Fatal(err)
	}
	h.settle()
	p := h.pod("web")
	if n := p.Status.ContainerStatuses[0].RestartCount; n != 2 {
		t.Fatalf("restarts %d, want 2", n)
	}
	if h.steps("kubelet.liveness") != 2 || h.steps("kubelet.readiness") != 2 {
		t.Fatalf("liveness steps %d readiness steps %d", h.steps("kubelet.liveness"), h.steps("kubelet.readiness"))
	}
}

// TestCrashReadiness: the readiness probe fails: not Ready, no restart.
func TestCrashReadiness(t *testing.T) {
	h := running(t, probed(ctr("web", "nginx:1.27")))
	if err := h.k.Crash("web", CrashReadiness, 3); err != nil {
		t.Fatal(err)
	}
	h.settle()
	p := h.pod("web")
	if isReady(p) || p.Status.ContainerStatuses[0].RestartCount != 0 || p.Status.ContainerStatuses[0].Ready {
		t.Fatalf("ready %v restarts %d", isReady(p), p.Status.ContainerStatuses[0].RestartCount)
	}
}

// TestCrashRefused: what Crash refuses, with the reason.
func TestCrashRefused(t *testing.T) {
	h := running(t, ctr("web", "nginx:1.27"))
	for reason, want := range map[string]string{CrashLiveness: "has no livenessProbe", CrashReadiness: "has no readinessProbe"} {
		if err := h.k.Crash("web", reason, 1); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", reason, err)
		}
	}
	if err := h.k.Crash("nope", CrashPanic, 1); err == nil || !strings.Contains(err.Error(), "not running on node node-a") {
		t.Errorf("unknown pod: %v", err)
	}
	c := ctr("web", "nginx:1.27")
	c.LivenessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(80)}}}
	h2 := running(t, c)
	if err := h2.k.Crash("web", CrashLiveness, 1); err == nil || !strings.Contains(err.Error(), "tcpSocket") {
		t.Errorf("tcp liveness: %v", err)
	}
}

// TestTerminate: deletion: Killing per container, SIGTERM after the
// preStop hook, then the final DELETE with grace 0; an app that ignores
// SIGTERM is killed at the grace period.
func TestTerminate(t *testing.T) {
	for _, app := range []App{AppHandlesSigterm, AppIgnoresSigterm, AppSlowDrain} {
		t.Run(string(app), func(t *testing.T) {
			c := ctr("web", "nginx:1.27")
			c.Lifecycle = &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{Sleep: &corev1.SleepAction{Seconds: 5}}}
			h := running(t, c)
			h.k.App = app
			var closed, exited int
			h.k.Hooks = Hooks{ListenerClosed: func(string, string, time.Duration) { closed++ }, Exited: func(string, int, time.Duration) { exited++ }}
			ob := h.k.c.Hold()
			h.admin.Delete(apiserver.ResourceOf(&corev1.Pod{}), "default", "web", nil)
			h.settle()
			lines := asked(ob)
			if len(lines) != 2 || lines[0] != "event Killing: Stopping container web" || !strings.HasPrefix(lines[1], "DELETE /api/v1/namespaces/default/pods/web") {
				t.Fatalf("asked for %q", lines)
			}
			ob.Release()
			h.settle()
			if h.pod("web") != nil || closed != 1 || exited != 1 {
				t.Fatalf("pod stored %v, listener closed %d, exited %d", h.pod("web") != nil, closed, exited)
			}
		})
	}
}

// TestTerminateBeforeRunning: a pod deleted while its image is pulled
// never starts; its sandbox is stopped at once.
func TestTerminateBeforeRunning(t *testing.T) {
	h := newHarness(t)
	h.create(newPod("web", ctr("web", "nginx:1.27")))
	h.eng.RunUntil(time.Second)
	h.admin.Delete(apiserver.ResourceOf(&corev1.Pod{}), "default", "web", nil)
	h.settle()
	if h.pod("web") != nil || h.ready != 0 || h.hasStep("cri.StartContainer") {
		t.Fatal("a pod deleted during its pull started or stayed")
	}
}

// TestHeartbeat: the node's Lease is created, then renewed every 10 s
// until the node dies.
func TestHeartbeat(t *testing.T) {
	h := newHarness(t)
	ob := h.k.c.Hold()
	h.k.StartHeartbeat()
	wantLines(t, "first", asked(ob), []string{"POST /apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases"})
	ob.Release()
	h.eng.RunUntil(25 * time.Second)
	if n := h.steps("kubelet.lease"); n != 2 {
		t.Fatalf("%d renewals in 25 s, want 2", n)
	}
	h.k.Dead = true
	h.eng.RunUntil(60 * time.Second)
	if n := h.steps("kubelet.lease"); n != 2 {
		t.Fatalf("a dead node renewed its lease: %d", n)
	}
}
