package kubelet

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// IsSidecar reports a native sidecar: an init container with
// restartPolicy Always (podutil.IsRestartableInitContainer).
func IsSidecar(c *corev1.Container) bool {
	return c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways
}

// initWork is what the simulator reads in an init container's command line
// (it runs no real process): `sleep N` is how long it runs (default 1 s),
// `exit N` (or `false`) its exit code (default 0).
func initWork(c *corev1.Container) (time.Duration, int) {
	run, code := initRunTime, 0
	f := strings.Fields(strings.NewReplacer(";", " ", "&&", " ", "||", " ").Replace(strings.Join(append(append([]string{}, c.Command...), c.Args...), " ")))
	for i, w := range f {
		switch {
		case w == "sleep" && i+1 < len(f):
			if n, err := strconv.ParseFloat(strings.TrimSuffix(f[i+1], "s"), 64); err == nil {
				run = time.Duration(n * float64(time.Second))
			}
		case w == "exit" && i+1 < len(f):
			if n, err := strconv.Atoi(f[i+1]); err == nil {
				code = n
			}
		case w == "false":
			code = 1
		}
	}
	return run, code
}

// initStatus writes the pod's status while init container done (0-based)
// is the next to finish: phase Pending, Initialized=False, and the
// initContainerStatuses kubectl reads to print Init:done/total.
func (k *Kubelet) initStatus(ps *podState, done int, waiting string, term *corev1.ContainerStateTerminated) {
	pod := ps.pod
	upd := k.statusCopy(ps.pod)
	upd.Phase = corev1.PodPending
	upd.QOSClass = QoSClass(pod)
	upd.PodIP = ps.ip
	if ps.ip != "" {
		upd.PodIPs = []corev1.PodIP{{IP: ps.ip}}
	}
	upd.InitContainerStatuses = k.initStatuses(ps, done, term, waiting)
	setCond(upd, corev1.PodReadyToStartContainers, true)
	setCondReason(upd, corev1.PodInitialized, false, "ContainersNotInitialized", incomplete(pod, done))
	setCondReason(upd, corev1.ContainersReady, false, "ContainersNotReady", "containers with unready status: ["+containerNames(pod)+"]")
	setCondReason(upd, corev1.PodReady, false, "ContainersNotReady", "containers with unready status: ["+containerNames(pod)+"]")
	k.step(trace.PhaseKubelet, "kubelet.initstatus", pod, "status", podStatusColumn(pod.Spec.InitContainers, upd), "next", pod.Spec.InitContainers[done].Name,
		"initialized", "False", "reason", "ContainersNotInitialized")
	k.patchStatus(ps, upd, nil)
}

// incomplete is the Initialized condition's message
// (pkg/kubelet/status/generate.go: "containers with incomplete status: [a b]").
func incomplete(pod *corev1.Pod, from int) string {
	var names []string
	for _, c := range pod.Spec.InitContainers[from:] {
		names = append(names, c.Name)
	}
	return fmt.Sprintf("containers with incomplete status: %v", names)
}

// initStatuses: the init containers before done have exited 0 (sidecars
// among them run), the one at done is waiting, terminated or running.
func (k *Kubelet) initStatuses(ps *podState, done int, term *corev1.ContainerStateTerminated, waiting string) []corev1.ContainerStatus {
	pod := ps.pod
	var out []corev1.ContainerStatus
	for j, c := range pod.Spec.InitContainers {
		st := corev1.ContainerStatus{Name: c.Name, Image: c.Image, RestartCount: ps.hist().restartCount[c.Name]}
		switch {
		case j < done && IsSidecar(&c):
			st.State.Running = &corev1.ContainerStateRunning{StartedAt: *ps.initTime(ps.hist().initStarted, c.Name, k.eng.Now())}
			st.Started = ptrBool(true)
			st.Ready = c.ReadinessProbe == nil
		case j < done:
			st.State.Terminated = &corev1.ContainerStateTerminated{ExitCode: 0, Reason: "Completed",
				StartedAt:  *ps.initTime(ps.hist().initStarted, c.Name, k.eng.Now()),
				FinishedAt: *ps.initTime(ps.hist().initExited, c.Name, k.eng.Now())}
			st.Ready = true // prober_manager.go UpdatePodStatus: an init container that exited 0 is ready
		case j == done && term != nil:
			st.State.Terminated = term
			st.Ready = term.ExitCode == 0
		case j == done && waiting != "":
			st.State.Waiting = &corev1.ContainerStateWaiting{Reason: waiting}
		case j == done:
			st.State.Running = &corev1.ContainerStateRunning{StartedAt: *ps.initTime(ps.hist().initStarted, c.Name, k.eng.Now())}
		default:
			st.State.Waiting = &corev1.ContainerStateWaiting{Reason: "PodInitializing"}
		}
		if last, ok := ps.hist().lastState[c.Name]; ok {
			st.LastTerminationState = last
		}
		out = append(out, st)
	}
	return out
}

// initAt records when an init container started or exited.
func (ps *podState) initAt(m *map[string]time.Duration, name string, at time.Duration) {
	if *m == nil {
		*m = map[string]time.Duration{}
	}
	(*m)[name] = at
}

// initTime is the recorded time of an init container as the API shows it,
// or now when none is recorded yet (the status written as it starts).
func (ps *podState) initTime(m map[string]time.Duration, name string, now time.Duration) *metav1.Time {
	if at, ok := m[name]; ok {
		return apiTime(at)
	}
	return apiTime(now)
}

// PodStatusColumn is the STATUS column of `kubectl get pods` for the init
// phase (kubectl printers.go printPod): Init:N/M while init container N
// runs, Init:<reason> when one failed or waits in back-off; otherwise the
// phase.
func PodStatusColumn(pod *corev1.Pod) string {
	return podStatusColumn(pod.Spec.InitContainers, &pod.Status)
}

// podStatusColumn is PodStatusColumn of a pod with init containers inits
// and status status.
func podStatusColumn(inits []corev1.Container, status *corev1.PodStatus) string {
	for i, st := range status.InitContainerStatuses {
		var spec *corev1.Container
		if i < len(inits) {
			spec = &inits[i]
		}
		switch {
		case st.State.Terminated != nil && st.State.Terminated.ExitCode == 0:
			continue
		case spec != nil && IsSidecar(spec) && st.Started != nil && *st.Started:
			continue
		case st.State.Terminated != nil && st.State.Terminated.Reason != "":
			return "Init:" + st.State.Terminated.Reason
		case st.State.Terminated != nil:
			return fmt.Sprintf("Init:ExitCode:%d", st.State.Terminated.ExitCode)
		case st.State.Waiting != nil && st.State.Waiting.Reason != "" && st.State.Waiting.Reason != "PodInitializing":
			return "Init:" + st.State.Waiting.Reason
		default:
			return fmt.Sprintf("Init:%d/%d", i, len(inits))
		}
	}
	return string(status.Phase)
}

func setCondReason(st *corev1.PodStatus, t corev1.PodConditionType, ok bool, reason, msg string) {
	setCond(st, t, ok)
	for i := range st.Conditions {
		if st.Conditions[i].Type == t {
			st.Conditions[i].Reason, st.Conditions[i].Message = reason, msg
		}
	}
}
