package kubelet

import (
	"strings"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// TestPodWorkerStepByStep: a pod whose image the node lacks. The kubelet's
// requests are held: it asks for the pull, create and start events and
// one status PATCH — the Started event after the PATCH: events are written
// asynchronously (client-go tools/record), after the requests the worker
// sends in the same moment; nothing is stored until the test sends them,
// and the pod turns Running and Ready only when the PATCH is delivered.
func TestPodWorkerStepByStep(t *testing.T) {
	h := newHarness(t)
	ob := h.k.c.Hold()
	h.create(newPod("web", ctr("web", "nginx:1.27")))
	h.settle()
	wantLines(t, "the kubelet asked for", asked(ob), []string{
		"PATCH /api/v1/namespaces/default/pods/web/status",
		`event Pulling: Pulling image "nginx:1.27"`,
		`event Pulled: Successfully pulled image "nginx:1.27" in 1.64s (1.64s including waiting). Image size: 75497472 bytes.`,
		"event Created: Container created",
		"PATCH /api/v1/namespaces/default/pods/web/status",
		"event Started: Container started",
	})
	if p := h.pod("web"); p.Status.Phase == corev1.PodRunning || h.ready != 0 {
		t.Fatalf("before delivery: phase %s, ready calls %d", p.Status.Phase, h.ready)
	}
	ob.Release()
	h.settle()
	p := h.pod("web")
	if p.Status.Phase != corev1.PodRunning || p.Status.PodIP != "10.244.1.2" || h.ready != 1 || p.Status.StartTime == nil {
		t.Fatalf("after delivery: phase %s ip %q ready calls %d startTime %v", p.Status.Phase, p.Status.PodIP, h.ready, p.Status.StartTime)
	}
	if cs := p.Status.ContainerStatuses; len(cs) != 1 || !cs[0].Ready || cs[0].State.Running == nil {
		t.Fatalf("container statuses %+v", cs)
	}
}

// TestPodWorkerFailedStatusWrite: a status PATCH the API server refuses
// is not taken as the kubelet's copy, and the pod is not reported Ready.
func TestPodWorkerFailedStatusWrite(t *testing.T) {
	h := newHarness(t, "nginx:1.27")
	ob := h.k.c.Hold()
	h.create(newPod("web", ctr("web", "nginx:1.27")))
	h.settle()
	lines := asked(ob)
	if len(lines) != 5 || !strings.HasPrefix(lines[1], "event Pulled: Container image \"nginx:1.27\" already present") {
		t.Fatalf("asked for %q", lines)
	}
	if lines[3] != "PATCH /api/v1/namespaces/default/pods/web/status" {
		t.Fatalf("the Running write is not the fourth request: %q", lines)
	}
	ob.Fail(3, &apiserver.Status{Code: 409, Reason: "Conflict", Message: "no"})
	ob.Release()
	h.settle()
	if h.ready != 0 || h.pod("web").Status.Phase == corev1.PodRunning {
		t.Fatalf("a refused status write counted: ready calls %d", h.ready)
	}
}

// TestReadinessProbeDelaysReady: with a readiness probe the first PATCH
// says Running but not Ready; a second one follows the probes' first
// success (initialDelaySeconds), a startup probe's included.
func TestReadinessProbeDelaysReady(t *testing.T) {
	h := newHarness(t, "nginx:1.27")
	c := ctr("web", "nginx:1.27")
	c.ReadinessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/ready", Port: intstr.FromInt32(80)}},
		InitialDelaySeconds: 5, PeriodSeconds: 2, SuccessThreshold: 2}
	c2 := ctr("side", "nginx:1.27")
	c2.StartupProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(81)}}, InitialDelaySeconds: 1}
	h.create(newPod("web", c, c2))
	h.eng.RunUntil(time.Second)
	p := h.pod("web")
	// side has a startup probe and no readiness probe: not started, so
	// not ready, until the startup probe passes (prober_manager.go
	// UpdatePodStatus), which is after 1 s from its start
	side := p.Status.ContainerStatuses[1]
	if p.Status.Phase != corev1.PodRunning || isReady(p) || p.Status.ContainerStatuses[0].Ready || side.Ready || side.Started == nil || *side.Started {
		t.Fatalf("at 1 s: phase %s ready %v statuses %+v", p.Status.Phase, isReady(p), p.Status.ContainerStatuses)
	}
	h.settle()
	if p := h.pod("web"); !isReady(p) || h.ready != 1 || !p.Status.ContainerStatuses[0].Ready || !p.Status.ContainerStatuses[1].Ready || !*p.Status.ContainerStatuses[1].Started {
		t.Fatalf("after the probe: ready %v, ready calls %d", isReady(p), h.ready)
	}
}

func isReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// TestSerialPuller: two pods on one node pull one image at a time
// (serializeImagePulls); the second waits for the first, even for the
// same image, and says so in its Pulled event.
func TestSerialPuller(t *testing.T) {
	h := newHarness(t)
	ob := h.k.c.Hold()
	h.create(newPod("a", ctr("web", "nginx:1.27")))
	h.create(newPod("b", ctr("web", "nginx:1.27")))
	h.settle()
	var pulled []string
	for _, l := range asked(ob) {
		if strings.HasPrefix(l, "event Pulled") {
			pulled = append(pulled, l)
		}
	}
	wantLines(t, "Pulled events", pulled, []string{
		`event Pulled: Successfully pulled image "nginx:1.27" in 1.64s (1.64s including waiting). Image size: 75497472 bytes.`,
		`event Pulled: Successfully pulled image "nginx:1.27" in 200ms (1.84s including waiting). Image size: 75497472 bytes.`,
	})
	ob.Release()
	h.settle()
	if h.ready != 2 {
		t.Fatalf("ready calls %d, want 2", h.ready)
	}
}

// TestMissingImage: the registry lacks the image: ErrImagePull, then
// back-off retries; the container never starts.
func TestMissingImage(t *testing.T) {
	h := newHarness(t)
	h.k.Missing = map[string]bool{"nginx:9": true}
	ob := h.k.c.Hold()
	h.create(newPod("web", ctr("web", "nginx:9")))
	h.eng.RunUntil(time.Minute)
	wantLines(t, "the kubelet asked for", asked(ob), []string{
		"PATCH /api/v1/namespaces/default/pods/web/status",
		`event Pulling: Pulling image "nginx:9"`,
		"PATCH /api/v1/namespaces/default/pods/web/status",
		`event Failed: Failed to pull image "nginx:9": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:9": failed to resolve reference "docker.io/library/nginx:9": docker.io/library/nginx:9: not found`,
		"event Failed: Error: ErrImagePull",
		`event BackOff: Back-off pulling image "nginx:9"`,
		"event Failed: Error: ImagePullBackOff",
	})
	ob.Release()
	h.eng.RunUntil(2 * time.Minute)
	p := h.pod("web")
	if cs := p.Status.ContainerStatuses; len(cs) != 1 || cs[0].State.Waiting == nil || cs[0].State.Waiting.Reason != "ErrImagePull" {
		t.Fatalf("statuses %+v", cs)
	}
	if !h.hasStep("cri.PullImageFailed") {
		t.Fatal("no PullImageFailed step")
	}
	// Deleting the pod ends the retries.
	h.admin.Delete(apiserver.ResourceOf(p), "default", "web", nil)
	h.settle()
	if h.pod("web") != nil {
		t.Fatal("pod still stored after deletion")
	}
}

// TestContainerEventsCarryFieldPath: each container's events name it in
// involvedObject.fieldPath, so two containers pulling one image are two
// Events, not one with count 2 (getEventKey includes the field path).
func TestContainerEventsCarryFieldPath(t *testing.T) {
	h := newHarness(t)
	p := newPod("web", ctr("a", "nginx:1.27"), ctr("b", "nginx:1.27"))
	for i := range p.Spec.Containers {
		p.Spec.Containers[i].ImagePullPolicy = corev1.PullAlways
	}
	p.Spec.InitContainers = []corev1.Container{ctr("init", "busybox")}
	ob := h.k.c.Hold()
	h.create(p)
	h.settle()
	var paths []string
	for _, r := range ob.Requests() {
		if ev, ok := r.Object.(*corev1.Event); ok && r.Verb == "POST" && ev.Reason == "Pulling" {
			paths = append(paths, ev.InvolvedObject.FieldPath)
		}
	}
	wantLines(t, "Pulling events created", paths, []string{"spec.initContainers{init}", "spec.containers{a}", "spec.containers{b}"})
	ob.Release()
	h.settle()
}

// TestFirstStatusIsPending: the kubelet's first status write comes as it
// admits the pod, before the pull (kubelet.go SyncPod →
// generateAPIPodStatus): Pending, the container Waiting ContainerCreating,
// hostIP/hostIPs from the node's InternalIP, startTime; the Running write
// keeps hostIP.
func TestFirstStatusIsPending(t *testing.T) {
	h := newHarness(t)
	h.create(newPod("web", ctr("web", "nginx:1.27")))
	h.eng.RunUntil(time.Second) // the pull takes 1.64 s
	p := h.pod("web")
	cs := p.Status.ContainerStatuses
	if p.Status.Phase != corev1.PodPending || p.Status.HostIP != "10.0.0.11" || len(p.Status.HostIPs) != 1 || p.Status.StartTime == nil ||
		len(cs) != 1 || cs[0].State.Waiting == nil || cs[0].State.Waiting.Reason != "ContainerCreating" || p.Status.PodIP != "" {
		t.Fatalf("during the pull: phase %s hostIP %q hostIPs %v startTime %v podIP %q statuses %+v",
			p.Status.Phase, p.Status.HostIP, p.Status.HostIPs, p.Status.StartTime, p.Status.PodIP, cs)
	}
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady && (c.Status != corev1.ConditionFalse || c.Message != "containers with unready status: [web]") {
			t.Fatalf("Ready condition %+v", c)
		}
	}
	h.settle()
	if p := h.pod("web"); p.Status.Phase != corev1.PodRunning || p.Status.HostIP != "10.0.0.11" {
		t.Fatalf("running: phase %s hostIP %q", p.Status.Phase, p.Status.HostIP)
	}
}

// TestFirstStatusWithInitContainers: with init containers every container
// waits with PodInitializing and Initialized is False.
func TestFirstStatusWithInitContainers(t *testing.T) {
	h := newHarness(t)
	p := newPod("web", ctr("web", "nginx:1.27"))
	p.Spec.InitContainers = []corev1.Container{ctr("init", "busybox")}
	h.create(p)
	h.eng.RunUntil(100 * time.Millisecond)
	got := h.pod("web")
	if got.Status.InitContainerStatuses[0].State.Waiting.Reason != "PodInitializing" || got.Status.ContainerStatuses[0].State.Waiting.Reason != "PodInitializing" ||
		PodStatusColumn(got) != "Init:0/1" {
		t.Fatalf("statuses %+v / %+v, column %s", got.Status.InitContainerStatuses, got.Status.ContainerStatuses, PodStatusColumn(got))
	}
	h.settle()
}
