package live

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Observer turns what a cluster reports — the objects its informers
// deliver, in the order they arrive — into the steps of the simulated
// trace: the same kinds and fields wherever the simulator has a kind for
// what was seen, so each step reads with the same explanation. It keeps
// only the transitions: a pod update that changes nothing the trace shows
// adds no step. It is safe for the informers' concurrent handlers.
//
// It formats no text (the trace catalogue does) and reads no clock: each
// call passes the time the change arrived.
type Observer struct {
	mu    sync.Mutex
	start time.Time
	steps []trace.Step

	deploys map[string]*deploySeen // by name
	rs      map[string]string      // ReplicaSet name → Deployment name
	rsFail  map[string]string      // ReplicaSet name → FailedCreate message
	pods    map[string]*podSeen    // by name
	slices  map[string]string      // slice name → last endpoints seen
	sliceOf map[string]string      // slice name → Service
	events  map[string]int32       // event name → count seen
	watch   int
	minRV   int64
	maxRV   int64
	last    time.Duration
	readyAt time.Duration
}

type deploySeen struct {
	replicas int32
	status   string
}

type podSeen struct {
	rs, node                            string
	bound, admitted, ip, running, ready bool
	finished                            bool // Succeeded or Failed: a Job's pod, done
	runningAt                           time.Time
	started                             map[string]bool
	waiting                             map[string]string
	blocked                             string // why it will not become Ready
}

// NewObserver starts observing at start, the time the first request of
// the apply was sent: step times are measured from it.
func NewObserver(start time.Time) *Observer {
	return &Observer{start: start, deploys: map[string]*deploySeen{}, rs: map[string]string{}, rsFail: map[string]string{},
		pods: map[string]*podSeen{}, slices: map[string]string{}, sliceOf: map[string]string{}, events: map[string]int32{}}
}

// Since is at as the trace's time (from the start of the apply).
func (o *Observer) Since(at time.Time) time.Duration {
	d := at.Sub(o.start)
	if d < 0 {
		return 0
	}
	return d
}

// add records a step at at; clusterTime, when set, is the cluster's own
// timestamp of what the step reports.
func (o *Observer) add(at time.Time, s trace.Step, clusterTime time.Time) {
	s.At = o.Since(at)
	if !clusterTime.IsZero() {
		s.Fields = append(s.Fields, trace.Field{Key: "cluster_time", Value: clusterTime.UTC().Format(time.RFC3339Nano)})
	}
	o.steps = append(o.steps, s)
	if s.At > o.last {
		o.last = s.At
	}
}

// Add records a step the caller built (the apply's own requests).
func (o *Observer) Add(at time.Time, s trace.Step) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.add(at, s, time.Time{})
}

func (o *Observer) seen(m *metav1.ObjectMeta) {
	o.watch++
	if rv, err := strconv.ParseInt(m.ResourceVersion, 10, 64); err == nil {
		if o.minRV == 0 || rv < o.minRV {
			o.minRV = rv
		}
		o.maxRV = max(o.maxRV, rv)
	}
}

// Deployment is a Deployment as the informer delivered it.
func (o *Observer) Deployment(at time.Time, d *appsv1.Deployment) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.seen(&d.ObjectMeta)
	ds := o.deploys[d.Name]
	if ds == nil {
		ds = &deploySeen{}
		o.deploys[d.Name] = ds
	}
	ds.replicas = 1
	if d.Spec.Replicas != nil {
		ds.replicas = *d.Spec.Replicas
	}
	if d.Status.ObservedGeneration == 0 {
		return // the controller has not written a status yet
	}
	avail := "False"
	for _, c := range d.Status.Conditions {
		if c.Type == appsv1.DeploymentAvailable {
			avail = string(c.Status)
		}
	}
	status := fmt.Sprint(d.Status.ReadyReplicas, "/", ds.replicas, avail)
	if status == ds.status {
		return
	}
	ds.status = status
	// The same fields as the simulated deployment.status step.
	o.add(at, trace.Step{Phase: trace.PhaseReady, Actor: "deployment-controller", Kind: "deployment.status",
		Object: "deployments/" + d.Namespace + "/" + d.Name,
		Fields: trace.F("available", d.Status.AvailableReplicas, "availableCond", avail, "minAvailable", minAvailable(d, ds.replicas),
			"ready", d.Status.ReadyReplicas, "replicas", ds.replicas)}, time.Time{})
}

// minAvailable is replicas − maxUnavailable (a percentage rounded down, as
// deployment/util MaxUnavailable does).
func minAvailable(d *appsv1.Deployment, replicas int32) int32 {
	if d.Spec.Strategy.Type != appsv1.RollingUpdateDeploymentStrategyType || d.Spec.Strategy.RollingUpdate == nil || d.Spec.Strategy.RollingUpdate.MaxUnavailable == nil {
		return replicas
	}
	mu, err := intstr.GetScaledValueFromIntOrPercent(d.Spec.Strategy.RollingUpdate.MaxUnavailable, int(replicas), false)
	if err != nil {
		return replicas
	}
	return max(replicas-int32(mu), 0)
}

// ReplicaSet is a ReplicaSet as the informer delivered it.
func (o *Observer) ReplicaSet(at time.Time, rs *appsv1.ReplicaSet) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.seen(&rs.ObjectMeta)
	if _, ok := o.rs[rs.Name]; ok {
		return
	}
	owner := ""
	for _, ref := range rs.OwnerReferences {
		if ref.Kind == "Deployment" {
			owner = ref.Name
		}
	}
	o.rs[rs.Name] = owner
	if owner == "" {
		return
	}
	var replicas int32 = 1
	if rs.Spec.Replicas != nil {
		replicas = *rs.Spec.Replicas
	}
	o.add(at, trace.Step{Phase: trace.PhaseController, Actor: "deployment-controller", Kind: "deployment.newrs",
		Object: "replicasets/" + rs.Namespace + "/" + rs.Name,
		Fields: trace.F("hash", rs.Labels[appsv1.DefaultDeploymentUniqueLabelKey], "replicas", replicas,
			"revision", rs.Annotations["deployment.kubernetes.io/revision"], "rs", rs.Name)}, rs.CreationTimestamp.Time)
}

// Pod is a pod as the informer delivered it.
func (o *Observer) Pod(at time.Time, p *corev1.Pod) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.seen(&p.ObjectMeta)
	ps := o.pods[p.Name]
	obj := "pods/" + p.Namespace + "/" + p.Name
	if ps == nil {
		ps = &podSeen{started: map[string]bool{}, waiting: map[string]string{}}
		o.pods[p.Name] = ps
		for _, ref := range p.OwnerReferences {
			if ref.Kind == "ReplicaSet" {
				ps.rs = ref.Name
			}
		}
		if ps.rs != "" {
			o.add(at, trace.Step{Phase: trace.PhaseController, Actor: "replicaset-controller", Kind: "live.podcreated", Object: obj,
				Fields: trace.F("pod", p.Name, "rs", ps.rs)}, p.CreationTimestamp.Time)
		}
	}
	if n := p.Spec.NodeName; n != "" && !ps.bound {
		ps.bound, ps.node = true, n
		// kube-scheduler binds through the pods/binding subresource
		// (pkg/scheduler/framework/plugins/defaultbinder, v1.37).
		o.add(at, trace.Step{Phase: trace.PhaseScheduler, Actor: "default-scheduler", Kind: "scheduler.bind", Object: obj,
			Fields: trace.F("node", n, "path", "/api/v1/namespaces/"+p.Namespace+"/pods/"+p.Name+"/binding", "pod", p.Name)},
			condTime(p, corev1.PodScheduled))
	}
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse && c.Reason == corev1.PodReasonUnschedulable {
			ps.blocked = c.Message
		}
	}
	kubelet := "kubelet/" + ps.node
	if ps.bound && !ps.admitted && p.Status.StartTime != nil {
		// status.startTime is the time the kubelet acknowledged the pod
		// (pkg/kubelet/kubelet_pods.go generateAPIPodStatus, v1.37).
		ps.admitted = true
		o.add(at, trace.Step{Phase: trace.PhaseKubelet, Actor: kubelet, Kind: "kubelet.admit", Object: obj,
			Fields: trace.F("node", ps.node, "qos", p.Status.QOSClass)}, p.Status.StartTime.Time)
	}
	if ip := p.Status.PodIP; ip != "" && !ps.ip {
		ps.ip = true
		o.add(at, trace.Step{Phase: trace.PhaseRuntime, Actor: "containerd/" + ps.node, Kind: "live.podip", Object: obj,
			Fields: trace.F("ip", ip, "node", ps.node, "pod", p.Name)}, time.Time{})
	}
	for _, cs := range p.Status.ContainerStatuses {
		if w := cs.State.Waiting; w != nil && blockingReasons[w.Reason] && ps.waiting[cs.Name] != w.Reason {
			ps.waiting[cs.Name] = w.Reason
			ps.blocked = w.Reason + ": " + w.Message
			o.add(at, trace.Step{Phase: trace.PhaseKubelet, Actor: kubelet, Kind: "live.waiting", Object: obj,
				Fields: trace.F("container", cs.Name, "message", w.Message, "pod", p.Name, "reason", w.Reason)}, time.Time{})
		}
		if r := cs.State.Running; r != nil && !ps.started[cs.Name] {
			ps.started[cs.Name] = true
			delete(ps.waiting, cs.Name)
			var cmd any = trace.P("imagecmd")
			for _, c := range p.Spec.Containers {
				if c.Name == cs.Name && len(c.Command)+len(c.Args) > 0 {
					cmd = strings.Join(append(append([]string{}, c.Command...), c.Args...), " ")
				}
			}
			o.add(at, trace.Step{Phase: trace.PhaseRuntime, Actor: "containerd/" + ps.node, Kind: "runtime.start", Object: obj,
				Fields: trace.F("cmd", cmd, "container", cs.Name)}, r.StartedAt.Time)
		}
	}
	ps.finished = p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed
	ready := podReady(p)
	if p.Status.Phase == corev1.PodRunning && !ps.running {
		ps.running = true
		ps.runningAt = condTime(p, corev1.PodReadyToStartContainers)
		var names []string
		for _, c := range p.Spec.Containers {
			names = append(names, c.Name)
		}
		o.add(at, trace.Step{Phase: trace.PhaseReady, Actor: kubelet, Kind: "kubelet.running", Object: obj,
			Fields: trace.F("containers", strings.Join(names, ", "), "ip", p.Status.PodIP, "ready", ready)}, time.Time{})
	}
	if ready && !ps.ready {
		ps.ready, ps.blocked = true, ""
		o.readyAt = o.Since(at)
		readyTime := condTime(p, corev1.PodReady)
		if probe := readinessProbe(p); probe != nil {
			after := time.Duration(0)
			if !ps.runningAt.IsZero() && !readyTime.IsZero() {
				after = readyTime.Sub(ps.runningAt)
			}
			o.add(at, trace.Step{Phase: trace.PhaseReady, Actor: kubelet, Kind: "kubelet.probe", Object: obj,
				Fields: trace.F("after", after, "probe", describeProbe(probe))}, readyTime)
		} else {
			o.add(at, trace.Step{Phase: trace.PhaseReady, Actor: kubelet, Kind: "live.ready", Object: obj,
				Fields: trace.F("pod", p.Name, "why", trace.P("live.noprobe"))}, readyTime)
		}
	}
}

// blockingReasons are the waiting reasons of a container that do not go
// away by waiting (pkg/kubelet/images/types.go, kuberuntime, v1.37).
var blockingReasons = map[string]bool{
	"ErrImagePull": true, "ImagePullBackOff": true, "InvalidImageName": true, "ErrImageNeverPull": true,
	"CrashLoopBackOff": true, "CreateContainerConfigError": true, "CreateContainerError": true,
}

func podReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

func condTime(p *corev1.Pod, t corev1.PodConditionType) time.Time {
	for _, c := range p.Status.Conditions {
		if c.Type == t {
			return c.LastTransitionTime.Time
		}
	}
	return time.Time{}
}

func readinessProbe(p *corev1.Pod) *corev1.Probe {
	for _, c := range p.Spec.Containers {
		if c.ReadinessProbe != nil {
			return c.ReadinessProbe
		}
	}
	return nil
}

// describeProbe writes a probe as the simulated kubelet.probe step does.
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

// EndpointSlice is a slice as the informer delivered it.
func (o *Observer) EndpointSlice(at time.Time, s *discoveryv1.EndpointSlice) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.seen(&s.ObjectMeta)
	svc := s.Labels[discoveryv1.LabelServiceName]
	if svc == "" {
		return
	}
	type ep struct {
		name, ip string
		ready    bool
	}
	var eps []ep
	for _, e := range s.Endpoints {
		if len(e.Addresses) == 0 {
			continue
		}
		name := e.Addresses[0]
		if e.TargetRef != nil {
			name = e.TargetRef.Name
		}
		eps = append(eps, ep{name, e.Addresses[0], e.Conditions.Ready != nil && *e.Conditions.Ready})
	}
	sort.Slice(eps, func(i, j int) bool { return eps[i].name < eps[j].name })
	items := make([]any, len(eps))
	ready := 0
	for i, e := range eps {
		state := "endpoint.notready"
		if e.ready {
			state, ready = "endpoint.ready", ready+1
		}
		items[i] = trace.P(state, e.ip, e.name)
	}
	var desc any = trace.Phrases{Sep: ", ", Items: items}
	if len(eps) == 0 {
		desc = "-"
	}
	key := fmt.Sprint(desc)
	prev, known := o.slices[s.Name]
	if known && prev == key {
		return
	}
	o.slices[s.Name], o.sliceOf[s.Name] = key, svc
	kind := trace.Kind("endpointslice.update")
	if !known {
		kind = "endpointslice.create"
	}
	o.add(at, trace.Step{Phase: trace.PhaseReady, Actor: "endpointslice-controller", Kind: kind, Object: "services/" + s.Namespace + "/" + svc,
		Fields: trace.F("endpoints", desc, "ready", ready, "service", svc, "total", len(eps))}, time.Time{})
}

// Event is an Event (core/v1, which also shows those written through
// events.k8s.io/v1) as the informer delivered it.
func (o *Observer) Event(at time.Time, e *corev1.Event) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.seen(&e.ObjectMeta)
	count := e.Count
	if e.Series != nil {
		count = e.Series.Count
	}
	count = max(count, 1)
	prev, known := o.events[e.Name]
	if known && prev >= count {
		return
	}
	o.events[e.Name] = count
	actor, phase := eventSource(e)
	kind := trace.KindEvent
	fields := trace.F("kind", e.InvolvedObject.Kind, "about", trace.EventTarget(e.InvolvedObject.Kind, e.InvolvedObject.Name), "message", e.Message, "reason", e.Reason, "type", e.Type)
	if known {
		kind = trace.KindEventPatch
		fields = append(fields, trace.F("count", count)...)
	}
	when := e.EventTime.Time
	if when.IsZero() {
		when = e.LastTimestamp.Time
	}
	o.add(at, trace.Step{Phase: phase, Actor: actor, Kind: kind,
		Object: strings.ToLower(e.InvolvedObject.Kind) + "s/" + e.InvolvedObject.Namespace + "/" + e.InvolvedObject.Name, Fields: fields}, when)
	switch {
	case e.Reason == "FailedScheduling" && e.InvolvedObject.Kind == "Pod":
		if ps := o.pods[e.InvolvedObject.Name]; ps != nil && !ps.ready {
			ps.blocked = e.Message
		}
	case e.Reason == "FailedCreate" && e.InvolvedObject.Kind == "ReplicaSet":
		o.rsFail[e.InvolvedObject.Name] = e.Message
	}
}

// eventSource is the actor and the phase of an event's step: who wrote it
// (source.component, or reportingController for events.k8s.io/v1 ones),
// the kubelet named by its node as the simulated trace names it.
func eventSource(e *corev1.Event) (string, trace.Phase) {
	actor := e.Source.Component
	if actor == "" {
		actor = e.ReportingController
	}
	host := e.Source.Host
	if host == "" {
		host = e.ReportingInstance
	}
	switch {
	case actor == "kubelet":
		return "kubelet/" + host, trace.PhaseKubelet
	case actor == "default-scheduler":
		return actor, trace.PhaseScheduler
	case strings.HasPrefix(actor, "endpoint"):
		return actor, trace.PhaseReady
	case actor == "":
		return "kube-controller-manager", trace.PhaseController
	}
	return actor, trace.PhaseController
}

// Gone is a delete the informer delivered.
func (o *Observer) Gone(at time.Time, resource, namespace, name string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.watch++
	if resource == "pods" {
		delete(o.pods, name)
	}
	o.add(at, trace.Step{Phase: trace.PhaseController, Actor: "kube-apiserver", Kind: "live.gone", Verbose: true,
		Object: resource + "/" + namespace + "/" + name}, time.Time{})
}

// Settled reports whether the apply has come to rest: every Deployment
// has as many Ready pods as it wants, and every pod is Ready, or the
// cluster reported why it will not get there (blocked: a FailedScheduling
// event, a container that cannot start, a FailedCreate of its ReplicaSet,
// quota). With no Deployment and no pod there is nothing to wait for.
func (o *Observer) Settled() (settled bool, blocked []string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	readyBy := map[string]int32{}
	for _, name := range sortedKeys(o.pods) {
		ps := o.pods[name]
		switch {
		case ps.ready:
			readyBy[o.rs[ps.rs]]++
		case ps.finished:
		case ps.blocked != "":
			blocked = append(blocked, name+": "+ps.blocked)
		default:
			return false, nil
		}
	}
	for _, name := range sortedKeys(o.deploys) {
		d := o.deploys[name]
		if readyBy[name] >= d.replicas {
			continue
		}
		why := ""
		for rs, owner := range o.rs {
			if owner == name && o.rsFail[rs] != "" {
				why = o.rsFail[rs]
			}
		}
		if why == "" && len(blocked) == 0 {
			return false, nil
		}
		if why != "" {
			blocked = append(blocked, "deployment/"+name+": "+why)
		}
	}
	return true, blocked
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Trace is what was observed as a trace: the steps in the order they
// arrived and the summary the simulated trace has, counted from what the
// cluster showed.
func (o *Observer) Trace(command string, requests int) *trace.Trace {
	o.mu.Lock()
	defer o.mu.Unlock()
	steps := append([]trace.Step(nil), o.steps...)
	sort.SliceStable(steps, func(i, j int) bool { return steps[i].At < steps[j].At })
	tr := &trace.Trace{Command: command, Steps: steps, Story: "apply", Source: "cluster"}
	s := &tr.Summary
	s.Requests = map[string]int{"k8sexplain": requests}
	s.WatchEvents, s.Events, s.FirstRevision, s.LastRevision, s.End = o.watch, o.watch, o.minRV, o.maxRV, o.last
	for _, name := range sortedKeys(o.pods) {
		ps := o.pods[name]
		s.Pods++
		if ps.ready {
			s.ReadyPods++
		} else if ps.blocked != "" {
			s.PendingPods = append(s.PendingPods, trace.PendingPod{Name: name, Message: ps.blocked})
		}
	}
	s.AllReady = s.Pods > 0 && s.ReadyPods == s.Pods
	if s.AllReady {
		s.ReadyAt = o.readyAt
	}
	return tr
}
