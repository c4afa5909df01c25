package controller

import (
	"slices"
	"sort"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/sim/informer"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// MaxEndpointsPerSlice is the endpointslice controller's
// --max-endpoints-per-slice default.
const MaxEndpointsPerSlice = 100

// listLimit is how many endpoints a step lists by name before it only counts.
const listLimit = 10

// EndpointSlice is the endpointslice controller: for every Service with a
// selector it keeps EndpointSlices of at most 100 endpoints listing the
// matching pods that have an IP, each with ready/serving/terminating
// conditions (pkg/controller/endpointslice). A pod keeps its slice, so a
// change rewrites one slice, not the whole Service.
type EndpointSlice struct {
	c        *apiserver.Client
	eng      *engine.Engine
	rec      *trace.Recorder
	services *informer.Informer[*corev1.Service]
	sels     map[string]labels.Selector // each Service's selector, parsed once
	// selecting lists, per namespace, the Services with a selector in key
	// order (as the lister lists them), for the pod handler: a pod event
	// then reads one short list instead of listing the namespace's
	// Services and building each one's key.
	selecting map[string][]svcSelector
	pods      *informer.Informer[*corev1.Pod]
	state     map[string]*svcSlices
	queue     *workQueue // syncs queued
	// Writes counts the slices written (created or updated), for the
	// summary's scale section.
	Writes int
	// BatchPeriod is kube-controller-manager's
	// --endpoint-updates-batch-period (default 0): a pod change queues
	// its Service after this delay, so the changes within it are written
	// together (endpointslice_controller.go onPodUpdate: queue.AddAfter).
	BatchPeriod time.Duration
	informers   *informer.Factory // its own, when built without kube-controller-manager's
	pendingBuf  []int             // reconcile's buffer, reused
	nodes       nodeNames         // the endpoints' nodeName pointers, one per node
}

// svcSlices is the controller's view of one Service's slices.
type svcSlices struct {
	slot    map[string]uint64 // selected pod's name → index of the slice that holds it (sliceState.members has the pod) | its position there +1 <<32 (a hint: packSlot)
	slices  []*sliceState
	pending map[int]bool // indexes of the dirty slices: a sync visits these, not every slice
	room    int          // no slice before this index has room (a new pod's search starts here)
	ready   int          // ready endpoints over all slices
	total   int
	// labels are sliceLabels of labelsSvc, the Service version they were
	// built for: every slice of the Service, and every version of each,
	// shares the one map read-only (stored objects are immutable).
	labels    map[string]string
	labelsSvc *corev1.Service
	ports     []discoveryv1.EndpointPort // resolvePorts of portsSvc, when no port is named (endpointslice_members.go)
	portsSvc  *corev1.Service
}

// labelsOf is sliceLabels(svc), built once per version of the Service.
func (st *svcSlices) labelsOf(svc *corev1.Service) map[string]string {
	if st.labels == nil || st.labelsSvc != svc {
		st.labels, st.labelsSvc = sliceLabels(svc), svc
	}
	return st.labels
}

type sliceState struct {
	obj      *discoveryv1.EndpointSlice // as stored (nil until created)
	members  []sliceMember              // the slice's pods, by name (endpointslice_members.go)
	dirty    bool
	creating bool
	updating bool // an update is in flight: the next waits for its resourceVersion
	ready    int
	total    int
	sig      uint64 // hash of what the last write contained, to skip no-op updates
}

// NewEndpointSlice builds the controller on its client; Start opens its
// watches.
func NewEndpointSlice(f *informer.Factory, c *apiserver.Client, eng *engine.Engine, rec *trace.Recorder) *EndpointSlice {
	f, own := informer.Or(f, c)
	e := &EndpointSlice{c: c, eng: eng, rec: rec, services: informer.For[*corev1.Service](f, "services"), sels: map[string]labels.Selector{},
		selecting: map[string][]svcSelector{}, pods: informer.For[*corev1.Pod](f, "pods"), state: map[string]*svcSlices{}, informers: own, nodes: nodeNames{}}
	e.queue = newWorkQueue(eng, e.syncService)
	e.services.AddEventHandlerFor(c.Actor, func(ev informer.Event[*corev1.Service]) {
		svc := ev.Obj
		k := svc.Namespace + "/" + svc.Name
		if ev.Deleted() {
			delete(e.sels, k)
			e.listSelecting(svc.Namespace)
			return
		}
		if len(svc.Spec.Selector) > 0 {
			e.sels[k] = labels.SelectorFromSet(svc.Spec.Selector)
		} else {
			delete(e.sels, k)
		}
		e.listSelecting(svc.Namespace)
		e.reindex(k, svc)
		e.queue.add(k)
	})
	e.pods.AddEventHandlerFor(c.Actor, func(ev informer.Event[*corev1.Pod]) {
		pod := ev.Obj
		for _, s := range e.selecting[pod.Namespace] {
			if s.sel.Matches(labels.Set(pod.Labels)) {
				e.touch(s.key, pod, ev.Deleted())
				e.queue.addAfter(s.key, e.BatchPeriod)
			}
		}
	})
	return e
}

// svcSelector is a Service's key and parsed selector.
type svcSelector struct {
	key string
	sel labels.Selector
}

// listSelecting rebuilds the namespace's list of Services with a selector,
// after one of them changed.
func (e *EndpointSlice) listSelecting(ns string) {
	var list []svcSelector
	for _, svc := range e.services.ByNamespace(ns) {
		k := svc.Namespace + "/" + svc.Name
		if sel := e.sels[k]; sel != nil {
			list = append(list, svcSelector{k, sel})
		}
	}
	if len(list) == 0 {
		delete(e.selecting, ns)
		return
	}
	e.selecting[ns] = list
}

// Name is the controller's client name.
func (e *EndpointSlice) Name() string { return e.c.Actor }

// Start opens the controller's own watches (Services, then pods); on
// shared informers kube-controller-manager opens them.
func (e *EndpointSlice) Start() { e.informers.Start() }

// touch records a pod change and marks the slice that holds it dirty.
func (e *EndpointSlice) touch(k string, pod *corev1.Pod, deleted bool) {
	st := e.state[k]
	if st == nil {
		return
	}
	v, ok := st.slot[pod.Name]
	i, at := unpackSlot(v)
	if !ok && !deleted {
		i = -1
		for j := st.room; j < len(st.slices); j++ {
			if len(st.slices[j].members) < MaxEndpointsPerSlice {
				i = j
				break
			}
		}
		if i < 0 {
			sl := &sliceState{}
			if len(st.slices) > 0 { // the others are full: this one will likely fill too
				sl.members = make([]sliceMember, 0, MaxEndpointsPerSlice)
			}
			st.slices = append(st.slices, sl)
			i = len(st.slices) - 1
		}
		st.room = i // the first slice with room: the same choice as a scan from 0, in O(1) while slices fill
	}
	if deleted {
		if ok {
			st.slices[i].remove(pod.Name)
			delete(st.slot, pod.Name)
			st.room = min(st.room, i)
		}
	} else if pos := st.slices[i].put(pod, at); !ok || pos != at {
		st.slot[pod.Name] = packSlot(i, pos)
	}
	if ok || !deleted {
		st.dirty(i)
	}
}

// packSlot packs a slice index and the pod's position among its members
// into a slot value; the position is a hint, checked before use, that
// spares put a binary search while the slice's members stay put.
func packSlot(i, pos int) uint64 { return uint64(uint32(i)) | uint64(uint32(pos+1))<<32 }

// unpackSlot is packSlot's inverse; the position is -1 when not known.
func unpackSlot(v uint64) (i, pos int) { return int(uint32(v)), int(uint32(v>>32)) - 1 }

// dirty marks slice i for the next sync.
func (st *svcSlices) dirty(i int) {
	st.slices[i].dirty = true
	st.pending[i] = true
}

// syncService is syncService (pkg/controller/endpointslice/
// endpointslice_controller.go, read at kubernetes master 0b1dcab): the
// Service from the lister, no selector and nothing is managed, else the
// reconciler makes its slices match the pods it selects.
func (e *EndpointSlice) syncService(p *engine.Proc, key string) error {
	svc, _ := e.services.GetByKey(key)
	st := e.state[key]
	if svc == nil || st == nil || len(svc.Spec.Selector) == 0 {
		return nil // no selector: the user manages endpoints
	}
	e.reconcile(key, svc, st)
	return nil
}

// sliceWrite is one create or update finalize sends.
type sliceWrite struct {
	i   int
	obj *discoveryv1.EndpointSlice
}

// reconcile is the reconciler's Reconcile (staging/src/k8s.io/endpointslice/
// reconciler.go at 0b1dcab): the desired slices, then finalize writes
// them. The pod → slice assignment is kept incrementally by touch (a pod
// keeps its slice, as reconcileByPortMapping keeps an endpoint where it
// is), so only the slices marked dirty are rebuilt; a slice with a write
// in flight waits for it (its write queues the Service again).
func (e *EndpointSlice) reconcile(k string, svc *corev1.Service, st *svcSlices) {
	if len(st.slices) == 0 {
		// The placeholder: a Service with no endpoints still gets a slice.
		st.slices = []*sliceState{{}}
		st.dirty(0)
	}
	var writes []sliceWrite
	pending := e.pendingBuf[:0] // the dirty slices' indexes, in order
	for i := range st.pending {
		pending = append(pending, i)
	}
	slices.Sort(pending)
	e.pendingBuf = pending
	for _, i := range pending {
		sl := st.slices[i]
		if sl.creating || sl.updating {
			continue
		}
		delete(st.pending, i)
		if !sl.dirty {
			continue
		}
		sl.dirty = false
		if obj := e.desiredSlice(k, svc, st, i); obj != nil {
			writes = append(writes, sliceWrite{i, obj})
		}
	}
	e.finalize(k, st, writes)
}

// finalize is the reconciler's finalize: it creates the new slices and
// updates the changed ones, each write on a proc of its own, so a
// Service's slices go out in the same engine event. Upstream sends them one
// after another and its sync returns when the last is answered; this sync
// returns once they are sent (a slice with a write in flight is skipped
// by the next sync, and its write queues the Service again). That is the
// timing the simulator's traces have always had: waiting for the writes
// (an engine.WaitGroup) moves steps and removes simulation events from the
// goldens, a fidelity change for a commit of its own.
func (e *EndpointSlice) finalize(k string, st *svcSlices, writes []sliceWrite) {
	for _, w := range writes {
		e.eng.Go(func(wp *engine.Proc) { e.writeSlice(wp, k, st, w.i, w.obj) })
	}
}

// writeSlice sends one slice: a create for a slice not stored yet, else an
// update carrying the resourceVersion of the last write stored — one write
// per slice at a time, since a second update sent with the same version
// would be refused with 409 Conflict.
func (e *EndpointSlice) writeSlice(p *engine.Proc, k string, st *svcSlices, i int, obj *discoveryv1.EndpointSlice) {
	sl := st.slices[i]
	if sl.obj == nil {
		sl.creating = true
		stored, err := e.c.In(p).Create(obj)
		sl.creating = false
		if err == nil {
			sl.obj = stored.(*discoveryv1.EndpointSlice)
		}
	} else {
		sl.updating = true
		stored, err := e.c.In(p).Update(obj)
		sl.updating = false
		if err == nil {
			sl.obj = stored.(*discoveryv1.EndpointSlice)
		} else {
			sl.dirty = true
			sl.sig = 0 // rewrite it
		}
	}
	if sl.dirty { // pods changed while the slice was being written
		st.dirty(i)
		e.queue.add(k)
	}
}

// desiredSlice rebuilds slice i of service k as it should be stored, and
// records the step; nil when nothing an endpoint shows has changed. It
// reads the slice's member array, which touch keeps current, and builds an
// Endpoint only for a pod whose endpoint changed.
func (e *EndpointSlice) desiredSlice(k string, svc *corev1.Service, st *svcSlices, i int) *discoveryv1.EndpointSlice {
	sl := st.slices[i]
	h, n := sl.signature()
	if sl.obj != nil && uint64(h) == sl.sig {
		return nil // nothing an endpoint shows has changed
	}
	sl.sig = uint64(h)
	obj := &discoveryv1.EndpointSlice{AddressType: discoveryv1.AddressTypeIPv4}
	ready := 0
	obj.Endpoints = make([]discoveryv1.Endpoint, 0, n)
	var first *corev1.Pod
	for j := range sl.members {
		m := &sl.members[j]
		if m.ip == "" {
			continue
		}
		if first == nil {
			first = m.pod
		}
		obj.Endpoints = append(obj.Endpoints, m.endpoint(e.nodes).ep)
		if m.named { // the pod itself is read only when it has a hostname
			withHostname(&obj.Endpoints[len(obj.Endpoints)-1], svc, m.pod)
		}
		if m.ready && !m.term {
			ready++
		}
	}
	obj.Ports = st.portsOf(svc, first)
	st.ready += ready - sl.ready
	st.total += n - sl.total
	sl.ready, sl.total = ready, n
	if sl.obj != nil {
		meta := sl.obj.ObjectMeta // shallow: the labels are replaced below, not copied
		meta.Labels = nil
		meta.DeepCopyInto(&obj.ObjectMeta)
	} else {
		obj.Namespace = svc.Namespace
		obj.GenerateName = svc.Name + "-"
	}
	obj.Labels = st.labelsOf(svc)
	e.Writes++
	kind := trace.Kind("endpointslice.update")
	if sl.obj == nil {
		kind = "endpointslice.create"
	}
	if !e.rec.Full() {
		e.rec.Add(trace.Step{Phase: trace.PhaseReady, Actor: e.c.Actor, Kind: kind, Object: "services/" + k,
			Fields: trace.F("service", svc.Name, "ready", st.ready, "total", st.total, "endpoints", e.describe(st))})
	}
	return obj
}

// withHostname is podToEndpoint's hostname: a pod whose spec.subdomain
// names this Service (in its namespace) and that has a spec.hostname
// publishes it on its endpoint, which gives it the DNS name
// <hostname>.<service>.<namespace>.svc.<zone> (a StatefulSet's pods).
func withHostname(ep *discoveryv1.Endpoint, svc *corev1.Service, p *corev1.Pod) {
	if p.Spec.Hostname != "" && p.Spec.Subdomain == svc.Name && p.Namespace == svc.Namespace {
		h := p.Spec.Hostname
		ep.Hostname = &h
	}
}

// describe lists a Service's endpoints for the trace, or counts them when
// there are too many to read.
func (e *EndpointSlice) describe(st *svcSlices) any {
	if st.total == 0 {
		return "-"
	}
	if st.total > listLimit {
		return trace.P("endpoints.count", st.total, len(st.slices))
	}
	var pods []*corev1.Pod
	for _, sl := range st.slices {
		for j := range sl.members {
			if p := sl.members[j].pod; p.Status.PodIP != "" {
				pods = append(pods, p)
			}
		}
	}
	sort.Slice(pods, func(i, j int) bool { return pods[i].Name < pods[j].Name })
	out := make([]any, len(pods))
	for i, p := range pods {
		state := "endpoint.ready"
		if !PodReady(p) || p.DeletionTimestamp != nil {
			state = "endpoint.notready"
		}
		out[i] = trace.P(state, p.Status.PodIP, p.Name)
	}
	return trace.Phrases{Sep: ", ", Items: out}
}

// reindex recomputes which pods a Service selects (on Service add/update).
func (e *EndpointSlice) reindex(k string, svc *corev1.Service) {
	st := e.state[k]
	if st == nil {
		st = &svcSlices{slot: map[string]uint64{}, pending: map[int]bool{}}
		e.state[k] = st
	}
	if len(svc.Spec.Selector) == 0 {
		return
	}
	sel := labels.SelectorFromSet(svc.Spec.Selector)
	for _, p := range e.pods.ByNamespace(svc.Namespace) { // in name order
		if sel.Matches(labels.Set(p.Labels)) {
			e.touch(k, p, false)
		}
	}
}

// resolvePorts turns Service ports into EndpointSlice ports, resolving a
// named targetPort against the pod's container ports.
func resolvePorts(svc *corev1.Service, pod *corev1.Pod) []discoveryv1.EndpointPort {
	var out []discoveryv1.EndpointPort
	for _, sp := range svc.Spec.Ports {
		name, proto := sp.Name, sp.Protocol
		port := sp.TargetPort.IntVal
		if sp.TargetPort.StrVal != "" {
			port = 0
			if pod != nil {
				for _, c := range pod.Spec.Containers {
					for _, cp := range c.Ports {
						if cp.Name == sp.TargetPort.StrVal {
							port = cp.ContainerPort
						}
					}
				}
			}
			if port == 0 {
				continue
			}
		}
		if port == 0 {
			port = sp.Port
		}
		p := port
		out = append(out, discoveryv1.EndpointPort{Name: &name, Protocol: &proto, Port: &p})
	}
	return out
}

func flag(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// sliceLabels are a slice's labels: the Service's own, then the headless
// marker and the two reserved ones (k8s.io/endpointslice v0.37 utils.go
// setEndpointSliceLabels; the oracle's statefulset recording shows app:
// nginx copied from the Service).
func sliceLabels(svc *corev1.Service) map[string]string {
	l := make(map[string]string, len(svc.Labels)+3)
	for k, v := range svc.Labels {
		if k != discoveryv1.LabelServiceName && k != discoveryv1.LabelManagedBy && k != corev1.IsHeadlessService {
			l[k] = v
		}
	}
	if svc.Spec.ClusterIP == corev1.ClusterIPNone || svc.Spec.ClusterIP == "" {
		l[corev1.IsHeadlessService] = ""
	}
	l[discoveryv1.LabelServiceName] = svc.Name
	l[discoveryv1.LabelManagedBy] = "endpointslice-controller.k8s.io"
	return l
}
