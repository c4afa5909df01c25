package kubelet

import (
	"slices"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
)

// running reports the pod Running (the status manager's PATCH, sent now)
// and, once it is stored, starts the readiness wait. It does not block: a
// restarted container's worker goes on while the status travels.
func (k *Kubelet) running(ps *podState, ip string, containers []string) {
	pod := ps.pod
	ps.running = true
	ps.startedAt = k.eng.Now()
	upd := k.statusCopy(pod)
	upd.Phase = corev1.PodRunning
	upd.PodIP = ip
	upd.PodIPs = []corev1.PodIP{{IP: ip}}
	k.setHostIP(upd)
	upd.QOSClass = QoSClass(pod)
	gate := readinessPlan(pod)
	ready := gate.ready
	setCond(upd, corev1.PodReadyToStartContainers, true)
	setCond(upd, corev1.PodInitialized, true)
	setCond(upd, corev1.ContainersReady, ready)
	setCond(upd, corev1.PodReady, ready)
	upd.ContainerStatuses = runningStatuses(pod, ps, containers, apiTime(ps.startedAt))
	for i, c := range pod.Spec.Containers {
		// prober_manager.go UpdatePodStatus: a container with a startup
		// probe is not started until it passes; a started container
		// without a readiness probe is ready; one with a probe waits for it.
		upd.ContainerStatuses[i].Started = ptrBool(c.StartupProbe == nil)
		upd.ContainerStatuses[i].Ready = ready || c.ReadinessProbe == nil && c.StartupProbe == nil
	}
	if n := len(pod.Spec.InitContainers); n > 0 {
		upd.InitContainerStatuses = k.initStatuses(ps, n, nil, "")
		containers = append(append([]string{}, ps.hist().sidecars...), containers...)
	}
	if !k.rec.Full() { // arguments are built only for a kept step
		k.step(trace.PhaseReady, "kubelet.running", pod, "ip", ip, "ready", ready, "containers", strings.Join(containers, ", "))
	}
	gen := ps.generation
	k.patchStatus(ps, upd, func() { k.afterRunning(ps, gate, gen) })
}

// afterRunning runs when the Running status is stored: a pod without
// readiness probes is Ready already; otherwise a prober waits for the
// probes' first success.
func (k *Kubelet) afterRunning(ps *podState, gate readinessGate, gen int) {
	if gate.ready {
		ps.ready = true
		k.ready()
		return
	}
	k.eng.Go(func(p *engine.Proc) { k.awaitReadiness(p, ps, gen, gate) })
}

// awaitReadiness is the readiness prober's first success (prober
// worker.go doProbe, then status_manager SetContainerReadiness): after
// delay the containers and the pod turn Ready, unless a restart or a
// failing probe came first.
func (k *Kubelet) awaitReadiness(p *engine.Proc, ps *podState, gen int, gate readinessGate) {
	pod := ps.pod
	p.Sleep(gate.delay)
	if ps.terminating || ps.generation != gen || ps.failReadiness {
		return
	}
	kind := trace.Kind("kubelet.probe")
	if gate.startupOnly {
		kind = "kubelet.startup"
	}
	k.step(trace.PhaseReady, kind, pod, "probe", gate.desc, "after", gate.delay)
	r := k.statusCopy(ps.pod)
	setCond(r, corev1.ContainersReady, true)
	setCond(r, corev1.PodReady, true)
	r.ContainerStatuses = slices.Clone(r.ContainerStatuses) // the stored one's, shared
	for i := range r.ContainerStatuses {
		r.ContainerStatuses[i].Ready = true
		r.ContainerStatuses[i].Started = ptrBool(true)
	}
	if k.writeStatus(p, ps, r) {
		ps.ready = true
		k.ready()
	}
}

// containerEvent records an event about container name of pod, with the
// container's field path as involvedObject.fieldPath: every event of
// kuberuntime and the image manager goes through the container's reference
// (pkg/kubelet/container/ref.go GenerateContainerRef: spec.containers{web},
// spec.initContainers{init}).
func (k *Kubelet) containerEvent(pod *corev1.Pod, name, typ, reason, msg string) {
	k.c.ContainerEvent(trace.PhaseKubelet, pod, k.fieldPath(pod, name), typ, reason, msg)
}

// containerPath is what a container's field path is made of.
type containerPath struct {
	init bool
	name string
}

// fieldPath is the field path of container name in pod, written out once
// per node for each name (the pods of a Deployment share their names).
func (k *Kubelet) fieldPath(pod *corev1.Pod, name string) string {
	cp := containerPath{name: name}
	for _, c := range pod.Spec.InitContainers {
		if c.Name == name {
			cp.init = true
			break
		}
	}
	if p, ok := k.paths[cp]; ok {
		return p
	}
	p := "spec.containers{" + name + "}"
	if cp.init {
		p = "spec.initContainers{" + name + "}"
	}
	if k.paths == nil {
		k.paths = map[containerPath]string{}
	}
	k.paths[cp] = p
	return p
}

// setHostIP writes the node's address into the status (kubelet_pods.go
// generateAPIPodStatus: hostIP and hostIPs from the node's InternalIP).
// hostIPs is the node's one, shared read-only by its pods' statuses.
func (k *Kubelet) setHostIP(upd *corev1.PodStatus) {
	upd.HostIP = k.hostIP
	upd.HostIPs = k.hostIPs
}

// pending is the first status the kubelet writes for a pod, at the start
// of its first sync (kubelet.go SyncPod: generateAPIPodStatus, then
// statusManager.SetPodStatus, before the runtime creates the sandbox):
// phase Pending, the node's hostIP, startTime, and every container waiting
// — ContainerCreating, or PodInitializing while init containers have to
// run first (kubelet_pods.go convertToAPIContainerStatuses). This is what
// kubectl get pods shows as ContainerCreating during the image pull.
func (k *Kubelet) pending(ps *podState) {
	pod := ps.pod
	upd := k.statusCopy(pod)
	upd.Phase = corev1.PodPending
	upd.QOSClass = QoSClass(pod)
	k.setHostIP(upd)
	waiting := "ContainerCreating"
	if len(pod.Spec.InitContainers) > 0 {
		waiting = "PodInitializing"
	}
	if len(pod.Spec.InitContainers) > 0 {
		upd.InitContainerStatuses = k.waitingStatuses(pod.Spec.InitContainers, waiting)
	}
	upd.ContainerStatuses = k.waitingStatuses(pod.Spec.Containers, waiting)
	unready := "containers with unready status: [" + strings.ReplaceAll(containerNames(pod), ",", "") + "]"
	// no sandbox yet: GeneratePodReadyToStartContainersCondition gives the
	// reason and PodSandboxChanged's message (kubelet/types constants.go
	// PodSandboxNotReadyReason, PodSandboxNotReadyMsgNoPodSandbox, v1.37;
	// the real node's first status write shows both)
	setCondReason(upd, corev1.PodReadyToStartContainers, false, "PodSandboxNotReady", "no pod sandbox exists")
	if len(pod.Spec.InitContainers) > 0 {
		setCondReason(upd, corev1.PodInitialized, false, "ContainersNotInitialized", incomplete(pod, 0))
	} else {
		setCond(upd, corev1.PodInitialized, true)
	}
	setCondReason(upd, corev1.ContainersReady, false, "ContainersNotReady", unready)
	setCondReason(upd, corev1.PodReady, false, "ContainersNotReady", unready)
	k.patchStatus(ps, upd, nil)
}

// waitingStatuses are the statuses of containers cs all waiting for
// reason, as the pending status shows them. Those of a pod with one
// container are the same for every pod of its template: the node's pods
// share one read-only copy of the last ones made (every writer replaces a
// status slice whole or clones it before changing it).
func (k *Kubelet) waitingStatuses(cs []corev1.Container, reason string) []corev1.ContainerStatus {
	key := waitingKey{reason: reason}
	if len(cs) == 1 {
		key.name, key.image = cs[0].Name, cs[0].Image
		if k.waiting.statuses != nil && k.waiting.key == key {
			return k.waiting.statuses
		}
	}
	out := make([]corev1.ContainerStatus, 0, len(cs))
	for _, c := range cs {
		out = append(out, corev1.ContainerStatus{Name: c.Name, Image: c.Image, Started: ptrBool(false),
			State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason}}})
	}
	if len(cs) == 1 {
		k.waiting.key, k.waiting.statuses = key, out
	}
	return out
}

type waitingKey struct{ name, image, reason string }

// waitingCache is the last one-container waitingStatuses made.
type waitingCache struct {
	key      waitingKey
	statuses []corev1.ContainerStatus
}

// kubeletConditions are the pod conditions the kubelet owns, in the order
// generateAPIPodStatus appends them (pkg/kubelet/kubelet_pods.go, v1.37:
// GeneratePodReadyToStartContainersCondition, GeneratePodInitializedCondition,
// GeneratePodReadyCondition, GenerateContainersReadyCondition, then
// PodScheduled True — a pod the kubelet sees is scheduled).
var kubeletConditions = []corev1.PodConditionType{corev1.PodReadyToStartContainers,
	corev1.PodInitialized, corev1.PodReady, corev1.ContainersReady, corev1.PodScheduled}

// orderConditions puts st's conditions in the kubelet's order: those it
// does not own first, as they were (DisruptionTarget, readiness gates),
// then its own (kubelet_pods.go generateAPIPodStatus; the status manager's
// mergePodStatus keeps that order and its patch carries it).
// st's conditions are its own (statusCopy): they are reordered in place.
func orderConditions(st *corev1.PodStatus) {
	var buf [8]corev1.PodCondition // a pod has 5 or 6 conditions
	out := buf[:0]
	for _, c := range st.Conditions {
		if !slices.Contains(kubeletConditions, c.Type) {
			out = append(out, c)
		}
	}
	for _, t := range kubeletConditions {
		if i := slices.IndexFunc(st.Conditions, func(c corev1.PodCondition) bool { return c.Type == t }); i >= 0 {
			out = append(out, st.Conditions[i])
		}
	}
	st.Conditions = append(st.Conditions[:0], out...)
}
