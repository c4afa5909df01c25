// Package kubelet models the node agent: it watches the pods bound to its
// node, and for each one drives the container runtime through CRI calls —
// RunPodSandbox (the pause container holding the network, IPC and UTS
// namespaces, with an IP from the node's podCIDR via CNI; containerd pulls
// the pause image itself), PullImage per imagePullPolicy (serialised, as
// serializeImagePulls defaults to true: one queue per node),
// CreateContainer and StartContainer (runc: new PID and mount namespaces,
// joined to the sandbox's shared ones, and a cgroup from requests and
// limits) — then runs startup and readiness probes on their configured
// timings and reports status through the API server.
//
// Init containers run one at a time to completion (a native sidecar,
// restartPolicy Always, only has to start), then the app containers; an
// init container's command decides its run time and exit code (`sleep N`,
// `exit N`). Status is written as strategic-merge PATCHes, and the kubelet
// records the events `kubectl describe pod` shows, in upstream's words.
//
// Left out: volumes other than the service-account token, ephemeral
// containers, eviction and node status heartbeats during apply.
package kubelet

import (
	"fmt"
	"net"
	"slices"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/k8sversion"
	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/sim/informer"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// PauseImage is the sandbox image of current kubeadm releases.
const PauseImage = k8sversion.PauseImage

// Timings of the simulated runtime (virtual time).
const (
	sandboxTime   = 250 * time.Millisecond // netns + pause start + CNI ADD
	createTime    = 40 * time.Millisecond
	startTime     = 60 * time.Millisecond
	initRunTime   = time.Second
	pullBandwidth = 50 << 20 // bytes per second from the registry
)

// Kubelet is one node's agent.
type Kubelet struct {
	Node   string
	c      *apiserver.Client
	eng    *engine.Engine
	rec    *trace.Recorder
	images map[string]int64 // present on the node: name → size
	cidr   *net.IPNet
	nextIP int
	pods   map[types.UID]*podState         // the pod workers' state
	podInf *informer.Informer[*corev1.Pod] // the node's pods as the API server has them
	puller puller                          // the node's image puller (serial by default)
	cid    int
	// OnReady is called when a pod of this node turns Ready.
	OnReady func()
	// App is how containers react to SIGTERM (trace delete --app).
	App App
	// Hooks observe the application inside the pods.
	Hooks Hooks
	// Dead: the node has lost power; the kubelet does nothing any more.
	Dead bool
	// Missing are images the registry does not have (trace rollout --broken-image).
	Missing map[string]bool
}

// New builds the kubelet of node; Start opens its watch of the pods with
// spec.nodeName=node.
func New(c *apiserver.Client, eng *engine.Engine, rec *trace.Recorder, node *corev1.Node) (*Kubelet, error) {
	k := &Kubelet{Node: node.Name, c: c, eng: eng, rec: rec, images: map[string]int64{}, pods: map[types.UID]*podState{}, nextIP: 2, App: AppHandlesSigterm}
	for _, im := range node.Status.Images {
		for _, n := range im.Names {
			k.images[n] = im.SizeBytes
		}
	}
	if node.Spec.PodCIDR != "" {
		_, cidr, err := net.ParseCIDR(node.Spec.PodCIDR)
		if err != nil {
			return nil, fmt.Errorf("node %s: podCIDR %q: %v", node.Name, node.Spec.PodCIDR, err)
		}
		k.cidr = cidr
	}
	k.podInf = informer.New[*corev1.Pod]("pods")
	k.podInf.AddEventHandler(func(ev informer.Event[*corev1.Pod]) {
		if k.Dead {
			return // a node that lost power sees nothing
		}
		pod := ev.Obj
		ps := k.pods[pod.UID]
		switch {
		case ev.Deleted():
			delete(k.pods, pod.UID)
		case ps == nil && ev.Type == apiserver.Added:
			// The informer's object is shared and read-only (the watch
			// cache hands the same object to every watcher): the kubelet
			// keeps it as is and copies only what it changes (statusCopy,
			// withDeletion).
			ps = &podState{pod: pod} // restartCount and lastState are made on the first restart
			k.pods[pod.UID] = ps
			if pod.DeletionTimestamp == nil {
				k.syncPod(ps)
			}
		case ps != nil && pod.DeletionTimestamp != nil && !ps.terminating:
			ps.pod = withDeletion(ps.pod, pod.DeletionTimestamp, pod.DeletionGracePeriodSeconds)
			k.terminate(ps)
		}
	})
	return k, nil
}

// Name is the kubelet's client name.
func (k *Kubelet) Name() string { return k.c.Actor }

// Start opens the kubelet's watch of the pods bound to its node.
func (k *Kubelet) Start() { k.podInf.RunOnNode(k.c, k.Node) }

// step, runtimeStep and criStep build nothing once the recorder is full
// (Full counts the step as dropped): at scale these run several times per pod.
func (k *Kubelet) step(phase trace.Phase, kind string, pod *corev1.Pod, fields ...any) {
	if k.rec.Full() {
		return
	}
	k.rec.Add(trace.Step{Phase: phase, Actor: k.c.Actor, Kind: kind, Object: "pods/" + pod.Namespace + "/" + pod.Name, Fields: trace.F(fields...)})
}

func (k *Kubelet) runtimeStep(kind string, pod *corev1.Pod, fields ...any) {
	if k.rec.Full() {
		return
	}
	k.rec.Add(trace.Step{Phase: trace.PhaseRuntime, Actor: "containerd/" + k.Node, Kind: kind, Object: "pods/" + pod.Namespace + "/" + pod.Name, Fields: trace.F(fields...)})
}

func (k *Kubelet) criStep(call string, pod *corev1.Pod, fields ...any) {
	if k.rec.Full() {
		return
	}
	k.rec.Add(trace.Step{Phase: trace.PhaseKubelet, Actor: k.c.Actor, To: "containerd/" + k.Node, Kind: "cri." + call,
		Object: "pods/" + pod.Namespace + "/" + pod.Name, Fields: trace.F(fields...)})
}

func (k *Kubelet) allocateIP() string {
	if k.cidr == nil {
		return ""
	}
	// host-local IPAM: addresses in order from .2 (.1 is the gateway),
	// counted over the whole podCIDR, not only its last octet.
	b := k.cidr.IP.To4()
	v := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
	v += uint32(k.nextIP)
	k.nextIP++
	return net.IPv4(byte(v>>24), byte(v>>16), byte(v>>8), byte(v)).String()
}

// syncPod is the pod worker's first sync: the sandbox (the runtime pulls
// the pause image itself inside RunPodSandbox if the node lacks it), then
// init containers one at a time, then the app containers
// (kuberuntime_manager.go SyncPod).
func (k *Kubelet) syncPod(ps *podState) {
	pod := ps.pod
	ps.admittedAt = k.eng.Now()
	if !k.rec.Full() { // arguments are built only for a kept step
		k.step(trace.PhaseKubelet, "kubelet.admit", pod, "node", k.Node, "qos", string(QoSClass(pod)))
	}
	if !k.rec.Full() { // arguments are built only for a kept step
		k.criStep("RunPodSandbox", pod, "image", PauseImage)
	}
	sandbox := sandboxTime
	if _, ok := k.images[PauseImage]; !ok {
		// containerd's RunPodSandbox ensures its sandbox_image itself: no
		// PullImage from the kubelet, no Pulling event.
		size := ImageSize(PauseImage)
		d := pullTime(size, false)
		k.runtimeStep("runtime.pullpause", pod, "image", PauseImage, "size", HumanBytes(size), "took", d)
		k.images[PauseImage] = size
		sandbox += d
	}
	k.eng.After(sandbox, func() {
		if ps.terminating || k.Dead {
			return
		}
		ip := k.allocateIP()
		ps.ip = ip
		if !k.rec.Full() { // arguments are built only for a kept step
			k.runtimeStep("runtime.sandbox", pod, "image", PauseImage, "ip", ip, "cidr", cidrString(k.cidr), "hostname", pod.Name)
		}
		k.runInit(ps, 0, func() { k.startContainers(ps, ip) })
	})
}

func cidrString(c *net.IPNet) string {
	if c == nil {
		return "-"
	}
	return c.String()
}

// startContainers starts the app containers one after another, as SyncPod
// does (each start pulls its image first), and reports the pod Running.
func (k *Kubelet) startContainers(ps *podState, ip string) {
	pod := ps.pod
	var started []string
	var next func(i int)
	next = func(i int) {
		if ps.terminating || k.Dead {
			return
		}
		if i == len(pod.Spec.Containers) {
			k.running(ps, ip, started)
			return
		}
		c := &pod.Spec.Containers[i]
		k.startContainer(ps, c, func() {
			started = append(started, c.Name)
			next(i + 1)
		})
	}
	next(0)
}

// startContainer is kuberuntime startContainer: ensure the image, then
// CreateContainer (event Created) and StartContainer (event Started).
func (k *Kubelet) startContainer(ps *podState, c *corev1.Container, then func()) {
	pod := ps.pod
	if k.Missing[c.Image] {
		k.pullFails(ps, c, 0)
		return
	}
	k.ensureImage(ps, c, func() {
		if ps.terminating || k.Dead {
			return
		}
		k.cid++
		rnd := k.eng.Rand().Uint32() // drawn whether or not the id is shown
		if !k.rec.Full() {           // arguments are built only for a kept step
			k.criStep("CreateContainer", pod, "container", c.Name, "image", c.Image)
		}
		if !k.rec.Full() { // arguments are built only for a kept step
			// containerd gives a container on cgroup v2 its own cgroup namespace unless it is privileged
			// (containerd internal/cri/server/container_create_linux.go, v2.2); the simulated nodes are cgroup v2.
			k.runtimeStep("runtime.namespaces", pod, "container", c.Name, "own", "pid, mnt, cgroup", "shared", "net, ipc, uts")
		}
		if !k.rec.Full() { // the cgroup is only described, so only built for a kept step
			id := fmt.Sprintf("%012x", uint64(rnd)<<16|uint64(k.cid))
			cg := ContainerCgroup(pod, c, id)
			k.runtimeStep("runtime.cgroup", pod, "container", c.Name, "path", cg.Path, "weight", cg.CPUWeight, "cpumax", cg.CPUMax, "memmax", cg.MemoryMax)
		}
		k.eng.After(createTime, func() {
			if ps.terminating || k.Dead {
				return
			}
			// kuberuntime_container.go startContainer's event texts.
			k.c.Event(trace.PhaseKubelet, pod, "Normal", "Created", "Created container: "+c.Name)
			if !k.rec.Full() { // arguments are built only for a kept step
				k.criStep("StartContainer", pod, "container", c.Name)
			}
			if !k.rec.Full() {
				var cmd any = strings.Join(append(append([]string{}, c.Command...), c.Args...), " ")
				if cmd == "" {
					cmd = trace.P("imagecmd")
				}
				k.runtimeStep("runtime.start", pod, "container", c.Name, "cmd", cmd)
			}
			k.eng.After(startTime, func() {
				if ps.terminating || k.Dead {
					return
				}
				k.c.Event(trace.PhaseKubelet, pod, "Normal", "Started", "Started container "+c.Name)
				then()
			})
		})
	})
}

// running reports the pod Running and starts its probes.
func (k *Kubelet) running(ps *podState, ip string, containers []string) {
	pod := ps.pod
	ps.running = true
	ps.startedAt = k.eng.Now()
	upd := statusCopy(pod)
	upd.Status.Phase = corev1.PodRunning
	upd.Status.PodIP = ip
	upd.Status.PodIPs = []corev1.PodIP{{IP: ip}}
	upd.Status.HostIP = ""
	upd.Status.QOSClass = QoSClass(pod)
	ready, delay, probeDesc := readinessPlan(pod)
	setCond(upd, corev1.PodReadyToStartContainers, true)
	setCond(upd, corev1.PodInitialized, true)
	setCond(upd, corev1.ContainersReady, ready)
	setCond(upd, corev1.PodReady, ready)
	upd.Status.ContainerStatuses = runningStatuses(pod, ps, containers, apiTime(ps.startedAt))
	for i, c := range pod.Spec.Containers {
		// prober_manager.go UpdatePodStatus: a started container without
		// a readiness probe is ready; one with a probe waits for it.
		upd.Status.ContainerStatuses[i].Ready = ready || c.ReadinessProbe == nil
	}
	if n := len(pod.Spec.InitContainers); n > 0 {
		upd.Status.InitContainerStatuses = k.initStatuses(ps, n, nil, "")
		containers = append(append([]string{}, ps.sidecars...), containers...)
	}
	if !k.rec.Full() { // arguments are built only for a kept step
		k.step(trace.PhaseReady, "kubelet.running", pod, "ip", ip, "ready", ready, "containers", strings.Join(containers, ", "))
	}
	gen := ps.generation
	k.patchStatus(ps, upd, func() {
		if ready {
			ps.ready = true
			k.ready()
			return
		}
		k.eng.After(delay, func() {
			if ps.terminating || ps.generation != gen || ps.failReadiness {
				return
			}
			k.step(trace.PhaseReady, "kubelet.probe", pod, "probe", probeDesc, "after", delay)
			r := statusCopy(ps.pod)
			setCond(r, corev1.ContainersReady, true)
			setCond(r, corev1.PodReady, true)
			for i := range r.Status.ContainerStatuses {
				r.Status.ContainerStatuses[i].Ready = true
			}
			k.patchStatus(ps, r, func() { ps.ready = true; k.ready() })
		})
	})
}

// readinessPlan says whether the pod is Ready as soon as it runs, else
// when its probes first pass and what they are.
func readinessPlan(pod *corev1.Pod) (bool, time.Duration, string) {
	ready := true
	var delay time.Duration
	var probeDesc string
	for _, c := range pod.Spec.Containers {
		if c.StartupProbe != nil {
			delay = max(delay, probeFirstSuccess(c.StartupProbe))
		}
		if p := c.ReadinessProbe; p != nil {
			ready = false
			delay = max(delay, probeFirstSuccess(p))
			probeDesc = describeProbe(p)
		}
	}
	return ready, delay, probeDesc
}

// patchStatus writes pod status as the status manager does — a
// strategic-merge PATCH of what changed since the kubelet's last copy
// (statusutil.PatchPodStatus) — and keeps the stored result as that copy.
func (k *Kubelet) patchStatus(ps *podState, upd *corev1.Pod, then func()) {
	if upd.Status.StartTime == nil {
		// The time the kubelet acknowledged the pod, before any image pull
		// (kubelet_pods.go generateAPIPodStatus; PodStatus.startTime).
		upd.Status.StartTime = apiTime(ps.admittedAt)
	}
	apiserver.StampConditions(&ps.pod.Status, &upd.Status, ps.pod.Generation, k.eng.Now())
	// CalculatePodStatusObservedGeneration: the generation the status is for.
	upd.Status.ObservedGeneration = ps.pod.Generation
	k.c.PatchPodStatus(ps.pod, upd, func(obj runtime.Object, err *apiserver.Status) {
		if err != nil {
			return
		}
		if p, ok := obj.(*corev1.Pod); ok {
			dt, dg := ps.pod.DeletionTimestamp, ps.pod.DeletionGracePeriodSeconds
			ps.pod = p // the stored object, shared read-only
			if p.DeletionTimestamp == nil && dt != nil {
				ps.pod = withDeletion(p, dt, dg)
			}
		}
		if then != nil {
			then()
		}
	})
}

// statusCopy is the kubelet's next status for pod: a new top-level object
// with its own deep copy of the status (the status manager's working copy),
// sharing the read-only spec and metadata with the informer's object.
// Upstream deep-copies the whole pod (status_manager.go); only the status
// is ever written here.
func statusCopy(pod *corev1.Pod) *corev1.Pod {
	out := new(corev1.Pod)
	out.TypeMeta = pod.TypeMeta
	out.ObjectMeta = pod.ObjectMeta
	out.Spec = pod.Spec
	pod.Status.DeepCopyInto(&out.Status)
	// Room for the conditions the kubelet sets (at most the five of a
	// running pod), so setCond appends without regrowing.
	out.Status.Conditions = slices.Grow(out.Status.Conditions, 5)
	return out
}

// withDeletion is pod with deletionTimestamp and its grace period set: a
// new top-level object, the rest shared (copy on write).
func withDeletion(pod *corev1.Pod, ts *metav1.Time, grace *int64) *corev1.Pod {
	out := new(corev1.Pod)
	*out = *pod
	out.DeletionTimestamp, out.DeletionGracePeriodSeconds = ts, grace
	return out
}

// runningStatuses are the app containers' statuses once all run: the ones
// in startedNow started at now, the others keep the start time the pod's
// status shows.
func runningStatuses(pod *corev1.Pod, ps *podState, startedNow []string, now *metav1.Time) []corev1.ContainerStatus {
	out := make([]corev1.ContainerStatus, 0, len(pod.Spec.Containers))
	for _, c := range pod.Spec.Containers {
		at := *now
		if !slices.Contains(startedNow, c.Name) {
			for _, prev := range pod.Status.ContainerStatuses {
				if prev.Name == c.Name && prev.State.Running != nil {
					at = prev.State.Running.StartedAt
				}
			}
		}
		st := corev1.ContainerStatus{Name: c.Name, Image: c.Image, RestartCount: ps.restartCount[c.Name], Started: ptrBool(true),
			State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: at}}}
		if last, ok := ps.lastState[c.Name]; ok {
			st.LastTerminationState = last
		}
		out = append(out, st)
	}
	return out
}

func ptrBool(b bool) *bool { return &b }

// apiTime is the virtual time at as the API shows it: wall-clock time from
// the simulation's epoch, to the second (metav1.Time's RFC 3339 form).
func apiTime(at time.Duration) *metav1.Time {
	t := apiserver.TimeAt(at)
	return &t
}

// probeFirstSuccess is when a probe that passes at once first reports
// success: initialDelaySeconds, then successThreshold periods (the first
// check runs at the initial delay).
func probeFirstSuccess(p *corev1.Probe) time.Duration {
	period := time.Duration(max(p.PeriodSeconds, 1)) * time.Second
	n := max(p.SuccessThreshold, 1)
	return time.Duration(p.InitialDelaySeconds)*time.Second + time.Duration(n-1)*period
}

func describeProbe(p *corev1.Probe) string {
	switch {
	case p.HTTPGet != nil:
		return fmt.Sprintf("httpGet %s port %s", p.HTTPGet.Path, p.HTTPGet.Port.String())
	case p.TCPSocket != nil:
		return "tcpSocket port " + p.TCPSocket.Port.String()
	case p.GRPC != nil:
		return fmt.Sprintf("grpc port %d", p.GRPC.Port)
	case p.Exec != nil:
		return "exec " + strings.Join(p.Exec.Command, " ")
	}
	return "probe"
}

func setCond(p *corev1.Pod, t corev1.PodConditionType, ok bool) {
	st := corev1.ConditionFalse
	if ok {
		st = corev1.ConditionTrue
	}
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == t {
			p.Status.Conditions[i].Status = st
			return
		}
	}
	p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: t, Status: st})
}

// ImageSize is the compressed size the simulator assumes for an image:
// known images by repository, otherwise 50 MiB.
func ImageSize(image string) int64 {
	repo, _, _ := strings.Cut(image, "@")
	if i := strings.LastIndex(repo, ":"); i > strings.LastIndex(repo, "/") {
		repo = repo[:i]
	}
	repo = strings.TrimPrefix(repo, "docker.io/")
	repo = strings.TrimPrefix(repo, "library/")
	sizes := map[string]int64{
		"nginx": 72 << 20, "busybox": 2 << 20, "redis": 45 << 20, "alpine": 3 << 20, "postgres": 150 << 20,
		"registry.k8s.io/pause": 320 << 10, "gcr.io/google-samples/gb-frontend": 120 << 20,
	}
	if s, ok := sizes[repo]; ok {
		return s
	}
	return 50 << 20
}

func (k *Kubelet) ready() {
	if k.OnReady != nil {
		k.OnReady()
	}
}

// imagePullBackOff is the image pull back-off after attempt n (0-based):
// 10 s doubling to 300 s.
func imagePullBackOff(attempt int) time.Duration { return backOff(attempt) }

// pullFails is a pull of an image the registry does not have: ErrImagePull,
// then ImagePullBackOff retries; the container never starts.
func (k *Kubelet) pullFails(ps *podState, c *corev1.Container, attempt int) {
	if ps.terminating || k.Dead {
		return
	}
	pod := ps.pod
	wait := 500 * time.Millisecond
	if attempt == 0 {
		k.c.Event(trace.PhaseKubelet, pod, "Normal", "Pulling", fmt.Sprintf("Pulling image %q", c.Image))
	}
	k.eng.After(wait, func() {
		if ps.terminating || k.Dead {
			return
		}
		next := imagePullBackOff(attempt)
		k.criStep("PullImageFailed", pod, "image", c.Image, "container", c.Name, "attempt", attempt+1, "next", next)
		if attempt == 0 {
			upd := statusCopy(ps.pod)
			upd.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: c.Name, Image: c.Image,
				State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ErrImagePull"}}}}
			setCond(upd, corev1.PodReady, false)
			k.patchStatus(ps, upd, nil)
			// image_manager.go pullImage and kuberuntime startContainer:
			// the runtime's error, then "Error: ErrImagePull"; the next sync
			// finds the pull in back-off.
			ref := DockerReference(c.Image)
			k.c.Event(trace.PhaseKubelet, pod, "Warning", "Failed", fmt.Sprintf("Failed to pull image %q: rpc error: code = NotFound desc = failed to pull and unpack image %q: failed to resolve reference %q: %s: not found", c.Image, ref, ref, ref))
			k.c.Event(trace.PhaseKubelet, pod, "Warning", "Failed", "Error: ErrImagePull")
			k.c.Event(trace.PhaseKubelet, pod, "Normal", "BackOff", fmt.Sprintf("Back-off pulling image %q", c.Image))
			k.c.Event(trace.PhaseKubelet, pod, "Warning", "Failed", "Error: ImagePullBackOff")
		}
		k.eng.After(next, func() { k.pullFails(ps, c, attempt+1) })
	})
}
