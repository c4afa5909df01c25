package kubelet

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// App is how the container's process behaves on SIGTERM.
type App string

// The behaviours `trace delete --app` offers.
const (
	// AppHandlesSigterm calls server.Shutdown(ctx): it stops accepting at
	// once, finishes in-flight requests and exits 0.
	AppHandlesSigterm App = "handles-sigterm"
	// AppIgnoresSigterm keeps serving until SIGKILL at the deadline.
	AppIgnoresSigterm App = "ignores-sigterm"
	// AppSlowDrain calls Shutdown but its in-flight work takes 45 s.
	AppSlowDrain App = "slow-drain"
)

// drain is how long Shutdown takes to finish in-flight requests.
func (a App) drain() time.Duration {
	switch a {
	case AppSlowDrain:
		return 45 * time.Second
	case AppIgnoresSigterm:
		return -1
	}
	return 300 * time.Millisecond
}

// minimumGracePeriod is the one-off extension the kubelet gives a preStop
// hook still running when the grace period ends (kuberuntime
// minimumGracePeriodInSeconds = 2).
const minimumGracePeriod = 2 * time.Second

// podState is the kubelet's record of one pod: 80 bytes for a pod whose
// containers never restarted, with neither init containers nor a static
// source; what those need is in its history, made when first written.
type podState struct {
	pod           *corev1.Pod
	ip            string
	startedAt     time.Duration
	admittedAt    time.Duration // the first sync: status.startTime
	generation    int           // bumped on every container restart; stale timers check it
	h             *podHistory   // nil until written (own)
	static        *staticState  // a static pod's file and mirror (static.go)
	running       bool
	ready         bool
	terminating   bool
	failReadiness bool
}

// podHistory is what the kubelet keeps about a pod's containers beyond
// their spec.
type podHistory struct {
	sidecars []string // native sidecars started (init containers that keep running)
	// initStarted and initExited are when each init container last
	// started and exited (its state's startedAt and finishedAt).
	initStarted, initExited map[string]time.Duration
	restartCount            map[string]int32
	lastState               map[string]corev1.ContainerState
}

// noHistory is the history of a pod that has none yet: read only (own
// makes the pod's own before a write).
var noHistory podHistory

// hist is ps's history to read.
func (ps *podState) hist() *podHistory {
	if ps.h == nil {
		return &noHistory
	}
	return ps.h
}

// own is ps's history to write, made on the first write.
func (ps *podState) own() *podHistory {
	if ps.h == nil {
		ps.h = &podHistory{}
	}
	return ps.h
}

// Hooks let a scenario observe what happens inside a pod (the simulator's
// equivalent of watching the application's own logs).
type Hooks struct {
	// ListenerClosed: the pod stopped accepting new connections.
	ListenerClosed func(pod string, ip string, at time.Duration)
	// Exited: the pod's process ended (code 0, 137 …).
	Exited func(pod string, code int, at time.Duration)
}

// preStopDuration is how long a container's preStop hook runs: the sleep
// action's seconds, or `sleep N` in an exec hook; other hooks are quick.
func preStopDuration(c *corev1.Container) (time.Duration, string) {
	if c.Lifecycle == nil || c.Lifecycle.PreStop == nil {
		return 0, ""
	}
	h := c.Lifecycle.PreStop
	switch {
	case h.Sleep != nil:
		return trace.Seconds(h.Sleep.Seconds), fmt.Sprintf("sleep %ds", h.Sleep.Seconds)
	case h.Exec != nil:
		cmd := strings.Join(h.Exec.Command, " ")
		f := strings.Fields(cmd)
		for i, w := range f {
			if w == "sleep" && i+1 < len(f) {
				if n, err := strconv.ParseFloat(strings.TrimSuffix(f[i+1], "s"), 64); err == nil {
					return time.Duration(n * float64(time.Second)), "exec " + cmd
				}
			}
		}
		return 100 * time.Millisecond, "exec " + cmd
	case h.HTTPGet != nil:
		return 50 * time.Millisecond, "httpGet " + h.HTTPGet.Path
	}
	return 0, ""
}

// terminate runs graceful termination once the API server has set the
// pod's deletionTimestamp: preStop, SIGTERM, SIGKILL at the deadline, then
// the sandbox is torn down and the kubelet deletes the pod for good
// (kuberuntime killContainer, status manager's final delete with grace 0).
func (k *Kubelet) terminate(ps *podState) {
	ps.terminating = true
	pod := ps.pod
	grace := time.Duration(corev1.DefaultTerminationGracePeriodSeconds) * time.Second
	if pod.DeletionGracePeriodSeconds != nil {
		grace = trace.Seconds(*pod.DeletionGracePeriodSeconds)
	}
	k.step(trace.PhaseKubelet, "kubelet.kill", pod, "grace", grace, "app", string(k.App))
	if !ps.running {
		k.stopSandbox(ps, 0, -1)
		return
	}
	// kuberuntime killContainer records Killing before it runs preStop.
	for _, n := range append(append([]string{}, ps.hist().sidecars...), strings.Split(containerNames(pod), ", ")...) {
		k.containerEvent(pod, n, "Normal", "Killing", "Stopping container "+n)
	}
	var pre time.Duration
	var hook string
	for i := range pod.Spec.Containers {
		if d, h := preStopDuration(&pod.Spec.Containers[i]); d > pre {
			pre, hook = d, h
		}
	}
	deadline := grace
	if hook != "" {
		k.step(trace.PhaseKubelet, "kubelet.prestop", pod, "hook", hook, "took", pre)
		if pre >= grace {
			deadline = grace + minimumGracePeriod
		}
	}
	term := min(pre, grace)
	name := pod.Namespace + "/" + pod.Name
	k.eng.After(term, func() {
		// killContainer: StopContainer with the grace period left
		for _, c := range pod.Spec.Containers {
			k.criStep("StopContainer", pod, "container", c.Name, "timeout", deadline-term)
		}
		k.runtimeStep("runtime.sigterm", pod, "container", containerNames(pod), "after", term, "deadline", deadline)
		if d := k.App.drain(); d >= 0 && k.Hooks.ListenerClosed != nil {
			k.Hooks.ListenerClosed(name, ps.ip, k.eng.Now())
		}
	})
	drain := k.App.drain()
	if drain >= 0 && term+drain < deadline {
		k.eng.After(term+drain, func() {
			k.runtimeStep("runtime.exited", pod, "code", 0, "after", term+drain, "drain", drain)
			k.stopSandbox(ps, 0, term+drain)
		})
		return
	}
	k.eng.After(deadline, func() {
		if drain < 0 && k.Hooks.ListenerClosed != nil {
			k.Hooks.ListenerClosed(name, ps.ip, k.eng.Now())
		}
		k.runtimeStep("runtime.sigkill", pod, "container", containerNames(pod), "after", deadline)
		k.stopSandbox(ps, 137, deadline)
	})
}

func containerNames(pod *corev1.Pod) string {
	var n []string
	for _, c := range pod.Spec.Containers {
		n = append(n, c.Name)
	}
	return strings.Join(n, ", ")
}

// stopSandbox tears the pod down and deletes it for good.
func (k *Kubelet) stopSandbox(ps *podState, code int, after time.Duration) {
	pod := ps.pod
	if after >= 0 && k.Hooks.Exited != nil {
		k.Hooks.Exited(pod.Namespace+"/"+pod.Name, code, k.eng.Now())
	}
	k.criStep("StopPodSandbox", pod, "ip", ps.ip)
	// the containers' exit reaches PLEG, and for a deleted pod
	// cleanUpContainersInPod removes every dead one (kubelet.go,
	// pod_container_deletor.go); the real node shows it after the sandbox
	for _, c := range pod.Spec.Containers {
		k.criStep("RemoveContainer", pod, "container", c.Name)
	}
	k.step(trace.PhaseKubelet, "kubelet.finaldelete", pod, "code", code)
	k.c.DeleteGrace(apiserver.ResourceOf(pod), pod.Namespace, pod.Name, 0, func(runtime.Object, *apiserver.Status) {})
}
