package kubelet

import (
	"fmt"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
)

// The pod worker, written straight down as upstream's is: one proc per pod
// (pkg/kubelet/pod_workers.go podWorkerLoop) whose first sync is
// kubelet.go SyncPod → kuberuntime_manager.go SyncPod: the sandbox, the
// init containers one at a time, then the app containers, each through
// kuberuntime_container.go startContainer (pull, create, start). Every
// runtime delay is a Sleep in virtual time; after each, the worker stops if
// the pod is being deleted or the node has lost power (the real worker's
// context is cancelled). Checked against kubernetes/kubernetes v1.37.

// syncPod starts the pod's worker. Called from the informer's handler (an
// engine event), the worker runs at once up to its first Sleep.
func (k *Kubelet) syncPod(ps *podState) {
	k.eng.Go(func(p *engine.Proc) { k.podWorker(p, ps) })
}

// alive is false once the pod is terminating or the node is dead.
func (k *Kubelet) alive(ps *podState) bool { return !ps.terminating && !k.Dead }

// podWorker is the pod's first sync (kuberuntime_manager.go SyncPod): the
// sandbox (the runtime pulls the pause image itself inside RunPodSandbox
// if the node lacks it), then init containers, then app containers.
func (k *Kubelet) podWorker(p *engine.Proc, ps *podState) {
	pod := ps.pod
	ps.admittedAt = k.eng.Now()
	if ps.static != nil {
		k.createMirror(p, ps) // SyncPod: the mirror pod before the runtime's SyncPod
	} else if !k.rec.Full() {
		k.step(trace.PhaseKubelet, "kubelet.admit", pod, "node", k.Node, "qos", string(QoSClass(pod)))
	}
	mounted := k.mountVolumes(p, ps) // claim volumes: Pending, then WaitForAttachAndMount (volumes.go)
	if !k.alive(ps) {
		return
	}
	if !k.rec.Full() { // arguments are built only for a kept step
		k.criStep("RunPodSandbox", pod, "image", PauseImage)
	}
	if !mounted {
		k.pending(ps)
	}
	p.Sleep(k.sandboxTime(pod))
	if !k.alive(ps) {
		return
	}
	ps.ip = k.allocateIP()
	if !k.rec.Full() { // arguments are built only for a kept step
		k.runtimeStep("runtime.sandbox", pod, "image", PauseImage, "ip", ps.ip, "cidr", cidrString(k.cidr), "hostname", pod.Name)
	}
	if !k.runInitContainers(p, ps) {
		return
	}
	// SyncPod step 7: the app containers, one after another (each start
	// pulls its image first).
	var started []string
	for i := range pod.Spec.Containers {
		if !k.alive(ps) {
			return
		}
		c := &pod.Spec.Containers[i]
		if !k.startContainer(p, ps, c) {
			return
		}
		started = append(started, c.Name)
	}
	if !k.alive(ps) {
		return
	}
	k.running(ps, ps.ip, started)
}

// sandboxTime is how long RunPodSandbox takes: the netns, the pause
// container and CNI ADD, plus the pause image's pull when the node lacks it
// (containerd's RunPodSandbox ensures its sandbox_image itself: no
// PullImage from the kubelet, no Pulling event).
func (k *Kubelet) sandboxTime(pod *corev1.Pod) time.Duration {
	d := sandboxTime
	if _, ok := k.images[PauseImage]; !ok {
		size := ImageSize(PauseImage)
		pull := pullTime(size, false)
		k.runtimeStep("runtime.pullpause", pod, "image", PauseImage, "size", HumanBytes(size), "took", pull)
		k.images[PauseImage] = size
		d += pull
	}
	return d
}

// runInitContainers runs the init containers one at a time, each to
// completion (kuberuntime computeInitContainerActions): a regular init
// container must exit 0 before the next starts; a native sidecar only has
// to be started (and pass its startupProbe), then it keeps running beside
// the next ones and the app containers. A failed one is restarted under the
// crash back-off, and nothing after it starts. It reports whether the app
// containers may start.
func (k *Kubelet) runInitContainers(p *engine.Proc, ps *podState) bool {
	pod := ps.pod
	inits := pod.Spec.InitContainers
	for i := 0; i < len(inits); {
		if i == 0 {
			k.initStatus(ps, 0, "", nil) // written again on every retry of the first one
		}
		c := &inits[i]
		if !k.startContainer(p, ps, c) {
			return false
		}
		ps.initAt(&ps.own().initStarted, c.Name, k.eng.Now())
		if IsSidecar(c) {
			h := ps.own()
			h.sidecars = append(h.sidecars, c.Name)
			var wait time.Duration
			if c.StartupProbe != nil {
				wait = probeFirstSuccess(c.StartupProbe)
			}
			p.Sleep(wait)
			if !k.alive(ps) {
				return false
			}
			k.step(trace.PhaseKubelet, "kubelet.sidecar", pod, "container", c.Name, "n", i+1, "of", len(inits))
			i++
			continue
		}
		run, code := initWork(c)
		p.Sleep(run)
		if !k.alive(ps) {
			return false
		}
		ps.initAt(&ps.own().initExited, c.Name, k.eng.Now())
		if code == 0 {
			k.runtimeStep("runtime.initdone", pod, "container", c.Name, "after", run)
			if i+1 < len(inits) {
				k.initStatus(ps, i+1, "", nil)
			}
			i++
			continue
		}
		delay, retry := k.initFailed(ps, i, code, run)
		if !retry || !k.backOffRestart(p, ps, ps.pod, c.Name, delay) {
			return false
		}
	}
	return true
}

// initFailed: an init container exited non-zero. With restartPolicy Never
// the pod fails for good (retry false); otherwise the kubelet restarts that
// init container after the crash back-off delay it returns.
func (k *Kubelet) initFailed(ps *podState, i, code int, run time.Duration) (delay time.Duration, retry bool) {
	pod := ps.pod
	c := &pod.Spec.InitContainers[i]
	term := &corev1.ContainerStateTerminated{ExitCode: int32(code), Reason: "Error",
		StartedAt: *apiTime(ps.hist().initStarted[c.Name]), FinishedAt: *apiTime(ps.hist().initExited[c.Name])}
	k.runtimeStep("runtime.initfailed", pod, "container", c.Name, "code", code, "after", run)
	if pod.Spec.RestartPolicy == corev1.RestartPolicyNever {
		k.step(trace.PhaseKubelet, "kubelet.initnever", pod, "container", c.Name, "code", code, "status", "Init:Error")
		upd := k.statusCopy(ps.pod)
		upd.Phase = corev1.PodFailed
		upd.InitContainerStatuses = k.initStatuses(ps, i, term, "")
		setCondReason(upd, corev1.PodInitialized, false, "ContainersNotInitialized", incomplete(pod, i))
		k.patchStatus(ps, upd, nil)
		return 0, false
	}
	n := int(ps.hist().restartCount[c.Name])
	delay = CrashBackOff(n)
	waiting := "PodInitializing"
	status := "Init:Error"
	if delay > 0 {
		waiting, status = "CrashLoopBackOff", "Init:CrashLoopBackOff"
	}
	if ps.own().lastState == nil {
		ps.h.lastState = map[string]corev1.ContainerState{}
	}
	ps.h.lastState[c.Name] = corev1.ContainerState{Terminated: term}
	k.step(trace.PhaseKubelet, "kubelet.initretry", pod, "container", c.Name, "code", code, "restart", n+1, "delay", delay, "status", status)
	upd := k.statusCopy(ps.pod)
	if delay > 0 {
		upd.InitContainerStatuses = k.initStatuses(ps, i, nil, waiting)
	} else {
		upd.InitContainerStatuses = k.initStatuses(ps, i, term, "")
	}
	setCondReason(upd, corev1.PodInitialized, false, "ContainersNotInitialized", incomplete(pod, i))
	k.patchStatus(ps, upd, nil)
	return delay, true
}

// backOffRestart waits out a container's crash back-off (event BackOff
// when there is one) and counts the restart; false when the pod went away
// meanwhile.
func (k *Kubelet) backOffRestart(p *engine.Proc, ps *podState, pod *corev1.Pod, name string, delay time.Duration) bool {
	if delay > 0 {
		k.containerEvent(pod, name, "Warning", "BackOff", "Back-off restarting failed container "+name+" in pod "+pod.Name+"_"+pod.Namespace+"("+string(pod.UID)+")")
	}
	p.Sleep(delay)
	if !k.alive(ps) {
		return false
	}
	if ps.own().restartCount == nil {
		ps.h.restartCount = map[string]int32{}
	}
	ps.h.restartCount[name]++
	return true
}

// startContainer is kuberuntime_container.go startContainer: ensure the
// image, then CreateContainer (event Created) and StartContainer (event
// Started). False when the container never starts (its image cannot be
// pulled, or the pod went away).
func (k *Kubelet) startContainer(p *engine.Proc, ps *podState, c *corev1.Container) bool {
	pod := ps.pod
	if k.Missing[c.Image] {
		k.pullFails(p, ps, c)
		return false
	}
	k.ensureImage(p, ps, c)
	if !k.alive(ps) {
		return false
	}
	k.cid++
	rnd := k.eng.Rand().Uint32() // drawn whether or not the id is shown
	if !k.rec.Full() {           // arguments are built only for a kept step
		k.criStep("CreateContainer", pod, "container", c.Name, "image", c.Image)
		// containerd gives a container on cgroup v2 its own cgroup namespace unless it is privileged
		// (containerd internal/cri/server/container_create_linux.go, v2.2); the simulated nodes are cgroup v2.
		k.runtimeStep("runtime.namespaces", pod, "container", c.Name, "own", "pid, mnt, cgroup", "shared", "net, ipc, uts")
		// The cgroup is only described, so only built for a kept step.
		id := fmt.Sprintf("%012x", uint64(rnd)<<16|uint64(k.cid))
		cg := ContainerCgroup(pod, c, id)
		k.runtimeStep("runtime.cgroup", pod, "container", c.Name, "path", cg.Path, "weight", cg.CPUWeight, "cpumax", cg.CPUMax, "memmax", cg.MemoryMax)
	}
	p.Sleep(createTime)
	if !k.alive(ps) {
		return false
	}
	// kuberuntime_container.go startContainer's event texts since v1.35
	// (kubernetes PR #134043; checked for v1.37): "Container created",
	// "Container started" — the container is named by the event's
	// fieldPath, not in the message.
	k.containerEvent(pod, c.Name, "Normal", "Created", "Container created")
	if !k.rec.Full() { // arguments are built only for a kept step
		k.criStep("StartContainer", pod, "container", c.Name)
		var cmd any = strings.Join(append(append([]string{}, c.Command...), c.Args...), " ")
		if cmd == "" {
			cmd = trace.P("imagecmd")
		}
		k.runtimeStep("runtime.start", pod, "container", c.Name, "cmd", cmd)
	}
	p.Sleep(startTime)
	if !k.alive(ps) {
		return false
	}
	k.containerEvent(pod, c.Name, "Normal", "Started", "Container started")
	return true
}

// imagePullBackOff is the image pull back-off after attempt n (0-based):
// 10 s doubling to 300 s.
func imagePullBackOff(attempt int) time.Duration { return backOff(attempt) }

// pullFails is a pull of an image the registry does not have: ErrImagePull,
// then ImagePullBackOff retries until the pod goes away; the container
// never starts.
func (k *Kubelet) pullFails(p *engine.Proc, ps *podState, c *corev1.Container) {
	for attempt := 0; k.alive(ps); attempt++ {
		pod := ps.pod
		if attempt == 0 {
			k.containerEvent(pod, c.Name, "Normal", "Pulling", fmt.Sprintf("Pulling image %q", c.Image))
		}
		p.Sleep(500 * time.Millisecond)
		if !k.alive(ps) {
			return
		}
		next := imagePullBackOff(attempt)
		k.criStep("PullImageFailed", pod, "image", c.Image, "container", c.Name, "attempt", attempt+1, "next", next)
		if attempt == 0 {
			k.errImagePull(ps, pod, c)
		}
		p.Sleep(next)
	}
}

// errImagePull reports the first failed pull: the status shows
// ErrImagePull, and the events are image_manager.go pullImage's and
// kuberuntime startContainer's: the runtime's error, then "Error:
// ErrImagePull"; the next sync finds the pull in back-off.
func (k *Kubelet) errImagePull(ps *podState, pod *corev1.Pod, c *corev1.Container) {
	upd := k.statusCopy(ps.pod)
	upd.ContainerStatuses = []corev1.ContainerStatus{{Name: c.Name, Image: c.Image,
		State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ErrImagePull"}}}}
	setCond(upd, corev1.PodReady, false)
	k.patchStatus(ps, upd, nil)
	ref := DockerReference(c.Image)
	k.containerEvent(pod, c.Name, "Warning", "Failed", fmt.Sprintf("Failed to pull image %q: rpc error: code = NotFound desc = failed to pull and unpack image %q: failed to resolve reference %q: %s: not found", c.Image, ref, ref, ref))
	k.containerEvent(pod, c.Name, "Warning", "Failed", "Error: ErrImagePull")
	k.containerEvent(pod, c.Name, "Normal", "BackOff", fmt.Sprintf("Back-off pulling image %q", c.Image))
	k.containerEvent(pod, c.Name, "Warning", "Failed", "Error: ImagePullBackOff")
}
