package kubelet

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Crash reasons of `trace crash --reason`.
const (
	CrashPanic     = "panic"     // the process exits with Go's panic status 2
	CrashOOM       = "oom"       // the kernel OOM killer: SIGKILL, 137, OOMKilled
	CrashLiveness  = "liveness"  // the liveness probe fails: the kubelet restarts it
	CrashReadiness = "readiness" // the readiness probe fails: out of endpoints only
)

// uptimeBeforeCrash is how long a restarted container runs before it
// crashes again, so that the back-off sequence shows.
const uptimeBeforeCrash = 5 * time.Second

// CrashBackOff is the kubelet's restart back-off before restart n (0-based):
// the first restart is immediate, then 10 s doubling to 300 s
// (kubelet MaxContainerBackOff; kubernetes.io pod-lifecycle "container
// restarts"). It resets after 10 minutes of running.
func CrashBackOff(n int) time.Duration {
	if n == 0 {
		return 0
	}
	return backOff(n - 1)
}

// backOff is the kubelet's shared back-off: 10 s doubled n times, at most
// 300 s (pkg/kubelet/kubelet.go backOffPeriod, MaxContainerBackOff); image
// pulls use it from their first failure.
func backOff(n int) time.Duration {
	d := 10 * time.Second
	for i := 0; i < n && d < 300*time.Second; i++ {
		d *= 2
	}
	return min(d, 300*time.Second)
}

// Crash makes the first container of pod fail times times in the given way.
func (k *Kubelet) Crash(pod string, reason string, times int) error {
	for _, ps := range k.pods {
		if ps.pod.Name == pod && ps.running {
			c := &ps.pod.Spec.Containers[0]
			switch reason {
			case CrashLiveness:
				if c.LivenessProbe == nil {
					return fmt.Errorf("container %s of pod %s has no livenessProbe: add one to the manifest", c.Name, pod)
				}
				if c.LivenessProbe.TCPSocket != nil {
					return fmt.Errorf("container %s of pod %s has a tcpSocket livenessProbe: a hung process still accepts TCP connections (the kernel completes the handshake), so it would never fail; use httpGet, grpc or exec", c.Name, pod)
				}
				k.livenessFails(ps, c, times)
			case CrashReadiness:
				if c.ReadinessProbe == nil {
					return fmt.Errorf("container %s of pod %s has no readinessProbe: add one to the manifest", c.Name, pod)
				}
				k.readinessFails(ps, c)
			default:
				k.exitContainer(ps, c, reason, times)
			}
			return nil
		}
	}
	return fmt.Errorf("pod %s is not running on node %s", pod, k.Node)
}

// exitContainer: the process dies; the kubelet records it and restarts
// only this container, inside the same sandbox, times times in a row.
func (k *Kubelet) exitContainer(ps *podState, c *corev1.Container, reason string, times int) {
	k.eng.Go(func(p *engine.Proc) { k.crashLoop(p, ps, c, reason, times) })
}

// crashLoop is the container dying times times, each after
// uptimeBeforeCrash of running since its restart.
func (k *Kubelet) crashLoop(p *engine.Proc, ps *podState, c *corev1.Container, reason string, times int) {
	for n := range times {
		if n > 0 {
			p.Sleep(uptimeBeforeCrash)
		}
		pod := ps.pod
		code, why := 2, "Error" // a Go panic's exit status
		if reason == CrashOOM {
			// The kernel's OOM killer: SIGKILL, exit 137, reason OOMKilled.
			code, why = 137, "OOMKilled"
			lim := c.Resources.Limits[corev1.ResourceMemory]
			k.runtimeStep("runtime.oom", pod, "container", c.Name, "limit", lim.String())
		} else if reason == CrashPanic {
			k.runtimeStep("runtime.panic", pod, "container", c.Name)
		}
		if !k.containerDown(p, ps, c, code, why, int(ps.hist().restartCount[c.Name])) {
			return
		}
	}
}

// containerDown reports the terminated container, waits out the back-off
// and restarts it in the same sandbox (kuberuntime_manager.go SyncPod:
// computePodActions finds it exited, doBackOff, then startContainer); false
// when the pod went away during the back-off.
func (k *Kubelet) containerDown(p *engine.Proc, ps *podState, c *corev1.Container, code int, why string, n int) bool {
	pod := ps.pod
	ps.generation++
	ps.ready = false
	if ps.own().lastState == nil {
		ps.h.lastState = map[string]corev1.ContainerState{}
	}
	// The kubelet reports when the run that ended began and finished
	// (kuberuntime's toKubeContainerStatus: StartedAt, FinishedAt); kubectl
	// reads FinishedAt for RESTARTS' "(5s ago)".
	term := &corev1.ContainerStateTerminated{ExitCode: int32(code), Reason: why, FinishedAt: *apiTime(k.eng.Now())}
	for _, prev := range pod.Status.ContainerStatuses {
		if prev.Name == c.Name && prev.State.Running != nil {
			term.StartedAt = prev.State.Running.StartedAt
		}
	}
	ps.h.lastState[c.Name] = corev1.ContainerState{Terminated: term}
	delay := CrashBackOff(n)
	upd := k.statusCopy(ps.pod)
	setCond(upd, corev1.ContainersReady, false)
	setCond(upd, corev1.PodReady, false)
	waiting := "ContainerCreating"
	if delay > 0 {
		waiting = "CrashLoopBackOff"
	}
	upd.ContainerStatuses = []corev1.ContainerStatus{{Name: c.Name, Image: c.Image, RestartCount: ps.hist().restartCount[c.Name],
		LastTerminationState: ps.hist().lastState[c.Name], State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: waiting,
			Message: fmt.Sprintf("back-off %s restarting failed container=%s pod=%s_%s", delay, c.Name, pod.Name, pod.Namespace)}}}}
	kind := trace.Kind("kubelet.exited")
	if delay == 0 {
		kind = "kubelet.exitednow"
	}
	k.step(trace.PhaseKubelet, kind, pod, "container", c.Name, "code", code, "reason", why, "restart", ps.hist().restartCount[c.Name]+1, "delay", delay, "state", waiting)
	k.patchStatus(ps, upd, nil)
	if !k.backOffRestart(p, ps, pod, c.Name, delay) {
		return false
	}
	k.containerEvent(pod, c.Name, "Normal", "Pulled", fmt.Sprintf("Container image %q already present on machine and can be accessed by the pod", c.Image))
	k.criStep("CreateContainer", pod, "container", c.Name, "image", c.Image)
	k.runtimeStep("runtime.restart", pod, "container", c.Name, "ip", ps.ip, "restarts", ps.hist().restartCount[c.Name])
	p.Sleep(createTime)
	k.containerEvent(pod, c.Name, "Normal", "Created", "Container created")
	k.criStep("StartContainer", pod, "container", c.Name)
	p.Sleep(startTime)
	k.containerEvent(pod, c.Name, "Normal", "Started", "Container started")
	k.running(ps, ps.ip, []string{c.Name})
	return true
}

// livenessFails: the process hangs. The kubelet's probe workers run each
// probe on its own period: the readiness probe (if any) reaches its
// failureThreshold first or not, and only takes the pod out of the
// endpoints; the liveness probe, at its own threshold, makes the kubelet
// kill and restart the container (pkg/kubelet/prober/worker.go).
func (k *Kubelet) livenessFails(ps *podState, c *corev1.Container, times int) {
	gen := ps.generation
	k.runtimeStep("runtime.hang", ps.pod, "container", c.Name)
	if c.ReadinessProbe != nil {
		k.eng.Go(func(p *engine.Proc) { k.readinessWorker(p, ps, c, gen, true) })
	}
	k.eng.Go(func(p *engine.Proc) { k.livenessWorker(p, ps, c, gen, times) })
}

// livenessWorker is the liveness probe's worker on a hung container: at
// failureThreshold the kubelet kills the container (event Killing) and
// restarts it; the hang comes back times-1 more times.
func (k *Kubelet) livenessWorker(p *engine.Proc, ps *podState, c *corev1.Container, gen, times int) {
	probe := c.LivenessProbe
	if !k.probeFailures(p, ps, c.Name, "Liveness", probe, probeFailure(ps, c, probe, true), gen) {
		return
	}
	k.step(trace.PhaseKubelet, "kubelet.liveness", ps.pod, "container", c.Name, "probe", describeProbe(probe),
		"failures", max(probe.FailureThreshold, 1), "period", time.Duration(max(probe.PeriodSeconds, 1))*time.Second)
	k.containerEvent(ps.pod, c.Name, "Normal", "Killing", fmt.Sprintf("Container %s failed liveness probe, will be restarted", c.Name))
	k.criStep("StopContainer", ps.pod, "container", c.Name, "timeout", time.Duration(terminationGrace(ps.pod))*time.Second)
	k.runtimeStep("runtime.livekill", ps.pod, "container", c.Name, "grace", trace.Seconds(terminationGrace(ps.pod)))
	p.Sleep(100 * time.Millisecond) // SIGTERM, and the hung process dies
	if !k.containerDown(p, ps, c, 143, "Error", int(ps.hist().restartCount[c.Name])) || times <= 1 {
		return
	}
	p.Sleep(uptimeBeforeCrash)
	if k.alive(ps) {
		k.livenessFails(ps, c, times-1)
	}
}

// readinessWorker is the readiness probe's worker while it fails: at
// failureThreshold the pod is marked not Ready. hung: the process hangs
// (the probe times out) rather than answering "not ready".
func (k *Kubelet) readinessWorker(p *engine.Proc, ps *podState, c *corev1.Container, gen int, hung bool) {
	r := c.ReadinessProbe
	if !k.probeFailures(p, ps, c.Name, "Readiness", r, probeFailure(ps, c, r, hung), gen) {
		return
	}
	period := time.Duration(max(r.PeriodSeconds, 1)) * time.Second
	var shown any = period
	if hung {
		shown = fmt.Sprintf("%ds", max(r.PeriodSeconds, 1))
	}
	k.step(trace.PhaseKubelet, "kubelet.readiness", ps.pod, "container", c.Name, "probe", describeProbe(r),
		"failures", max(r.FailureThreshold, 1), "period", shown)
	k.notReady(ps)
}

// probeFailures runs one probe's failing checks: an Unhealthy event per
// failed check (the kubelet records every one; kubectl shows them as one
// line with a count) up to failureThreshold, when it reports true. A
// restart in between (generation changed) ends it.
func (k *Kubelet) probeFailures(p *engine.Proc, ps *podState, name, kind string, probe *corev1.Probe, msg string, gen int) bool {
	period := time.Duration(max(probe.PeriodSeconds, 1)) * time.Second
	threshold := int(max(probe.FailureThreshold, 1))
	for range threshold {
		p.Sleep(period)
		if ps.terminating || k.Dead || ps.generation != gen {
			return false
		}
		k.containerEvent(ps.pod, name, "Warning", "Unhealthy", kind+" probe failed: "+msg)
	}
	return true
}

// probeFailure is the prober's error text for a failing probe of the kind
// the manifest declares (pkg/probe/http, pkg/probe/tcp, pkg/probe/exec):
// a hung process times the HTTP request out; a process that answers but is
// not ready returns 503; a closed listener refuses the TCP connection.
func probeFailure(ps *podState, c *corev1.Container, p *corev1.Probe, hung bool) string {
	timeout := time.Duration(max(p.TimeoutSeconds, 1)) * time.Second
	switch {
	case p.HTTPGet != nil:
		if !hung {
			return "HTTP probe failed with statuscode: 503"
		}
		scheme := strings.ToLower(string(p.HTTPGet.Scheme))
		if scheme == "" {
			scheme = "http"
		}
		return fmt.Sprintf("Get %q: context deadline exceeded (Client.Timeout exceeded while awaiting headers)",
			fmt.Sprintf("%s://%s:%d%s", scheme, ps.ip, probePort(c, p.HTTPGet.Port), p.HTTPGet.Path))
	case p.TCPSocket != nil:
		return fmt.Sprintf("dial tcp %s:%d: connect: connection refused", ps.ip, probePort(c, p.TCPSocket.Port))
	case p.Exec != nil:
		if hung {
			return fmt.Sprintf("command %q timed out", strings.Join(p.Exec.Command, " "))
		}
		return ""
	case p.GRPC != nil:
		if hung {
			return fmt.Sprintf("timeout: health rpc did not complete within %v", timeout)
		}
		return "service unhealthy (responded with \"NOT_SERVING\")"
	}
	return ""
}

// probePort resolves a probe's port, named or numbered, against the
// container's ports.
func probePort(c *corev1.Container, port intstr.IntOrString) int32 {
	if port.Type == intstr.Int {
		return port.IntVal
	}
	for _, p := range c.Ports {
		if p.Name == port.StrVal {
			return p.ContainerPort
		}
	}
	return 0
}

// notReady marks the pod's containers not ready: the EndpointSlice
// controller then drops its endpoint. Nothing restarts.
func (k *Kubelet) notReady(ps *podState) {
	upd := k.statusCopy(ps.pod)
	setCond(upd, corev1.ContainersReady, false)
	setCond(upd, corev1.PodReady, false)
	upd.ContainerStatuses = slices.Clone(upd.ContainerStatuses) // the stored one's, shared
	for i := range upd.ContainerStatuses {
		upd.ContainerStatuses[i].Ready = false
	}
	ps.ready = false
	k.patchStatus(ps, upd, nil)
}

// readinessFails: the process keeps running but answers "not ready" (a
// dependency is down): after failureThreshold failed checks the pod is
// marked not Ready and the EndpointSlice controller drops it. No restart:
// that is the liveness probe's job, and it keeps passing.
func (k *Kubelet) readinessFails(ps *podState, c *corev1.Container) {
	ps.failReadiness = true
	k.runtimeStep("runtime.unready", ps.pod, "container", c.Name)
	gen := ps.generation
	k.eng.Go(func(p *engine.Proc) { k.readinessWorker(p, ps, c, gen, false) })
}

func terminationGrace(p *corev1.Pod) int64 {
	if p.Spec.TerminationGracePeriodSeconds != nil {
		return *p.Spec.TerminationGracePeriodSeconds
	}
	return corev1.DefaultTerminationGracePeriodSeconds
}

// drainOr is how long the process takes to exit on SIGTERM, capped by the
// grace period.
func (a App) drainOr(grace time.Duration) time.Duration {
	if d := a.drain(); d >= 0 && d < grace {
		return d
	}
	return grace
}
