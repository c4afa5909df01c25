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
	"net/url"
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
	Node    string
	c       *apiserver.Client
	eng     *engine.Engine
	rec     *trace.Recorder
	images  map[string]int64 // present on the node: name → size
	cidr    *net.IPNet
	hostIP  string          // the node's InternalIP: pods' status.hostIP
	hostIPs []corev1.HostIP // and as status.hostIPs, shared read-only
	nextIP  int
	pods    map[types.UID]*podState         // the pod workers' state
	podInf  *informer.Informer[*corev1.Pod] // the node's pods as the API server has them
	puller  puller                          // the node's image puller (serial by default)
	cid     int
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
	nodeUID types.UID            // the Node's uid: mirror pods' owner
	statics map[string]*podState // static pods by namespace/name (static.go)
	// condScratch is where the next status's conditions are set (statusCopy).
	condScratch []corev1.PodCondition
	waiting     waitingCache // shared pending statuses (waitingStatuses)

	// paths are the container field paths written out (containerEvent).
	paths map[containerPath]string
}

// New builds the kubelet of node; Start opens its watch of the pods with
// spec.nodeName=node.
func New(c *apiserver.Client, eng *engine.Engine, rec *trace.Recorder, node *corev1.Node) (*Kubelet, error) {
	k := &Kubelet{Node: node.Name, c: c, eng: eng, rec: rec, images: map[string]int64{}, pods: map[types.UID]*podState{}, nextIP: 2, App: AppHandlesSigterm,
		nodeUID: node.UID}
	for _, im := range node.Status.Images {
		for _, n := range im.Names {
			k.images[n] = im.SizeBytes
		}
	}
	for _, a := range node.Status.Addresses {
		if a.Type == corev1.NodeInternalIP && k.hostIP == "" {
			k.hostIP = a.Address
		}
	}
	if k.hostIP != "" {
		k.hostIPs = []corev1.HostIP{{IP: k.hostIP}}
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
		if _, mirror := pod.Annotations[annConfigMirror]; mirror {
			k.mirrorEvent(ev.Deleted(), pod)
			return
		}
		ps := k.pods[pod.UID]
		switch {
		case ev.Deleted():
			delete(k.pods, pod.UID)
		case ps == nil && ev.Type == apiserver.Added:
			// The informer's object is shared and read-only (the watch
			// cache hands the same object to every watcher): the kubelet
			// keeps it as is and copies only what it changes (statusCopy,
			// withDeletion).
			ps = &podState{pod: pod} // its history is made on the first write (own)
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
func (k *Kubelet) step(phase trace.Phase, kind trace.Kind, pod *corev1.Pod, fields ...any) {
	if k.rec.Full() {
		return
	}
	k.rec.Add(trace.Step{Phase: phase, Actor: k.c.Actor, Kind: kind, Object: "pods/" + pod.Namespace + "/" + pod.Name, Fields: trace.F(fields...)})
}

func (k *Kubelet) runtimeStep(kind trace.Kind, pod *corev1.Pod, fields ...any) {
	if k.rec.Full() {
		return
	}
	k.rec.Add(trace.Step{Phase: trace.PhaseRuntime, Actor: "containerd/" + k.Node, Kind: kind, Object: "pods/" + pod.Namespace + "/" + pod.Name, Fields: trace.F(fields...)})
}

func (k *Kubelet) criStep(call string, pod *corev1.Pod, fields ...any) {
	if k.rec.Full() {
		return
	}
	k.rec.Add(trace.Step{Phase: trace.PhaseKubelet, Actor: k.c.Actor, To: "containerd/" + k.Node, Kind: trace.Kind("cri." + call),
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

func cidrString(c *net.IPNet) string {
	if c == nil {
		return "-"
	}
	return c.String()
}

// readinessGate is what the pod's readiness waits for once its containers
// run: ready at once, or the first success of its probes after delay —
// readiness probes, and startup probes, which hold a container's started
// and, without a readiness probe, its ready until they succeed
// (prober_manager.go UpdatePodStatus: ready = started when there is no
// readiness probe; worker.go runs readiness and liveness only once started).
type readinessGate struct {
	ready bool
	delay time.Duration
	// desc is the probe the step names; startupOnly says it is a startup
	// probe (no container has a readiness probe).
	desc        string
	startupOnly bool
}

// readinessPlan is the pod's readinessGate.
func readinessPlan(pod *corev1.Pod) readinessGate {
	g := readinessGate{ready: true}
	startupDesc := ""
	for _, c := range pod.Spec.Containers {
		if c.StartupProbe != nil {
			g.ready = false
			g.delay = max(g.delay, probeFirstSuccess(c.StartupProbe))
			if startupDesc == "" {
				startupDesc = describeProbe(c.StartupProbe)
			}
		}
		if p := c.ReadinessProbe; p != nil {
			g.ready = false
			g.delay = max(g.delay, probeFirstSuccess(p))
			g.desc = describeProbe(p)
		}
	}
	if !g.ready && g.desc == "" {
		g.desc, g.startupOnly = startupDesc, true
	}
	return g
}

// patchStatus writes pod status as the status manager does — a
// strategic-merge PATCH of what changed since the kubelet's last copy
// (statusutil.PatchPodStatus) — and keeps the stored result as that copy.
func (k *Kubelet) patchStatus(ps *podState, upd *corev1.PodStatus, then func()) {
	k.sendStatus(ps, upd, func(obj runtime.Object, err *apiserver.Status) {
		if k.stored(ps, obj, err) && then != nil {
			then()
		}
	})
}

// sendStatus completes the status (startTime, condition times, observed
// generation) and sends the PATCH; done gets the answer.
func (k *Kubelet) sendStatus(ps *podState, upd *corev1.PodStatus, done apiserver.Done) {
	if upd.StartTime == nil {
		// The time the kubelet acknowledged the pod, before any image pull
		// (kubelet_pods.go generateAPIPodStatus; PodStatus.startTime).
		upd.StartTime = apiTime(ps.admittedAt)
	}
	orderConditions(upd)
	apiserver.StampConditions(&ps.pod.Status, upd, ps.pod.Generation, k.eng.Now())
	// CalculatePodStatusObservedGeneration: the generation the status is for.
	upd.ObservedGeneration = ps.pod.Generation
	scratch := upd.Conditions
	if ps.sendsStatus() {
		k.c.PatchPodStatusOf(ps.statusBase(), upd, done)
	} else {
		upd.Conditions = nil // the write is dropped
		done(nil, nil)
	}
	k.condScratch = scratch[:0]
}

// stored keeps the API server's answer to a status write as the kubelet's
// copy; false when the write failed.
func (k *Kubelet) stored(ps *podState, obj runtime.Object, err *apiserver.Status) bool {
	if err != nil {
		return false
	}
	if p, ok := obj.(*corev1.Pod); ok && ps.static != nil {
		ps.storeStatic(p)
	} else if ok {
		dt, dg := ps.pod.DeletionTimestamp, ps.pod.DeletionGracePeriodSeconds
		ps.pod = p // the stored object, shared read-only
		if p.DeletionTimestamp == nil && dt != nil {
			ps.pod = withDeletion(p, dt, dg)
		}
	}
	return true
}

// writeStatus is patchStatus for a proc: it parks until the write is
// answered and reports whether it was stored.
func (k *Kubelet) writeStatus(p *engine.Proc, ps *podState, upd *corev1.PodStatus) bool {
	var answered, ok bool
	k.sendStatus(ps, upd, func(obj runtime.Object, err *apiserver.Status) {
		answered, ok = true, k.stored(ps, obj, err)
		p.Wake()
	})
	for !answered {
		p.Park()
	}
	return ok
}

// statusCopy is the kubelet's next status for pod (the status manager's
// working copy; upstream deep-copies the whole pod, status_manager.go): only
// the status, since only the status is written, and a shallow copy of it
// sharing the stored object's read-only parts. The conditions, which
// setCond changes in place, are the copy's own, in a slice with room for
// the ones the kubelet sets (the five of a running pod), so setCond appends
// without regrowing. Whoever changes anything else in place clones it
// first; every other field is replaced whole.
//
// The conditions are set in the kubelet's scratch buffer, which sendStatus
// takes back once the request has its own copy (PatchPodStatusOf); a
// second status built before the first is sent gets a new buffer.
func (k *Kubelet) statusCopy(pod *corev1.Pod) *corev1.PodStatus {
	out := new(corev1.PodStatus)
	*out = pod.Status
	buf := k.condScratch
	k.condScratch = nil
	if buf == nil {
		buf = make([]corev1.PodCondition, 0, 8)
	}
	out.Conditions = append(buf[:0], pod.Status.Conditions...) // a condition holds no pointer but its times' locations
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
		st := corev1.ContainerStatus{Name: c.Name, Image: c.Image, RestartCount: ps.hist().restartCount[c.Name], Started: ptrBool(true),
			State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: at}}}
		if last, ok := ps.hist().lastState[c.Name]; ok {
			st.LastTerminationState = last
		}
		out = append(out, st)
	}
	return out
}

// ptrBool is b's address for a status field: one of two shared, read-only
// values (no status writer changes a *bool in place; each sets a new one).
func ptrBool(b bool) *bool {
	if b {
		return truePtr
	}
	return falsePtr
}

var truePtr, falsePtr = new(true), new(false)

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

// describeProbe writes a probe's handler as kubectl describe pod does
// (k8s.io/kubectl pkg/describe/describe.go DescribeProbe, v0.37):
// "http-get http://:http/healthz", "tcp-socket :8080", "exec [cat /tmp/ok]",
// "grpc <pod>:9000 " — the same words in every output language.
func describeProbe(p *corev1.Probe) string {
	switch {
	case p.HTTPGet != nil:
		scheme := strings.ToLower(string(p.HTTPGet.Scheme))
		if scheme == "" {
			scheme = "http" // the API server's default
		}
		u := &url.URL{Scheme: scheme, Host: net.JoinHostPort(p.HTTPGet.Host, p.HTTPGet.Port.String()), Path: p.HTTPGet.Path}
		return "http-get " + u.String()
	case p.TCPSocket != nil:
		return "tcp-socket " + net.JoinHostPort(p.TCPSocket.Host, p.TCPSocket.Port.String())
	case p.GRPC != nil:
		service := ""
		if p.GRPC.Service != nil {
			service = *p.GRPC.Service
		}
		return strings.TrimSpace(fmt.Sprintf("grpc <pod>:%d %s", p.GRPC.Port, service))
	case p.Exec != nil:
		return "exec [" + strings.Join(p.Exec.Command, " ") + "]"
	}
	return "probe"
}

func setCond(s *corev1.PodStatus, t corev1.PodConditionType, ok bool) {
	st := corev1.ConditionFalse
	if ok {
		st = corev1.ConditionTrue
	}
	for i := range s.Conditions {
		if c := &s.Conditions[i]; c.Type == t {
			c.Status = st
			if ok {
				// a True condition the kubelet generates carries no reason
				// or message (pkg/kubelet/status/generate.go
				// GenerateContainersReadyCondition, GeneratePodReadyCondition,
				// GeneratePodInitializedCondition, v1.37); the status
				// manager's patch removes the False one's
				c.Reason, c.Message = "", ""
			}
			return
		}
	}
	s.Conditions = append(s.Conditions, corev1.PodCondition{Type: t, Status: st})
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
