// Package apiserver models kube-apiserver in front of an etcd-like store:
// every request passes authentication, authorization (Node and RBAC),
// defaulting, mutating admission, validation and validating admission
// before it is written under /registry/... at a new global revision, and
// every write fans out to the watches that match it after a small virtual
// latency. Components hold a Client with their own identity; they never see
// each other, only the API.
//
// Writes are optimistic: an update carries the resourceVersion its writer
// read and is refused with 409 Conflict when the stored object has moved on
// by the time the write reaches etcd; a PATCH carries none and applies to
// whatever is stored.
//
// Left out on purpose: real TLS and tokens (identities are given), API
// priority and fairness, the watch cache and bookmarks, server-side apply
// field management, and webhooks.
package apiserver

import (
	"strconv"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/fnv1a"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// Latencies of the simulated control plane (virtual time).
const (
	RequestLatency = time.Millisecond     // client to API server, and back
	StoreLatency   = 2 * time.Millisecond // etcd commit (a Raft round on 3 members)
	WatchLatency   = time.Millisecond     // commit to a watcher's handler
)

// EventType is a watch event type.
type EventType string

// Watch event types.
const (
	Added    EventType = "ADDED"
	Modified EventType = "MODIFIED"
	Deleted  EventType = "DELETED"
)

// Event is one watch notification. Obj is shared between watchers and must
// be treated as read-only (DeepCopy before changing it).
type Event struct {
	Type EventType
	Obj  runtime.Object
	Rev  int64
	// Key is Obj's "namespace/name" ("name" when cluster-scoped), client-go's
	// MetaNamespaceKeyFunc: built once per change and shared by every
	// watcher's store.
	Key string
}

// MetaKey is obj's "namespace/name", or its name when cluster-scoped
// (client-go cache.MetaNamespaceKeyFunc).
func MetaKey(obj runtime.Object) string {
	m := Meta(obj)
	if ns := m.GetNamespace(); ns != "" {
		return ns + "/" + m.GetName()
	}
	return m.GetName()
}

// keyTail is MetaKey(obj) for the object m stored under the registry key
// key, which ends in it ("/registry/pods/ns/name", "/registry/minions/name"):
// cut from the key, not built again for every change.
func keyTail(key string, m metav1.Object) string {
	ns, name := m.GetNamespace(), m.GetName()
	n := len(name)
	if ns != "" {
		n += len(ns) + 1
	}
	if n >= len(key) || key[len(key)-n-1] != '/' {
		return MetaKey(m.(runtime.Object))
	}
	t := key[len(key)-n:]
	if ns == "" && t == name || ns != "" && t[len(ns)] == '/' && t[:len(ns)] == ns && t[len(ns)+1:] == name {
		return t
	}
	return MetaKey(m.(runtime.Object))
}

// Identity is who a client authenticates as.
type Identity struct {
	User   string
	Groups []string
	Method string // how it authenticated: "x509 client certificate", "service account token"
}

// stored is one object of the registry. Its resource is shared by every
// object of the resource (Server.resource): a Resource is 72 bytes, a
// pointer 8, and the store holds one stored per object. A write puts the
// new version into the object's entry in place (commitOp.write), so code
// that needs the version it read later keeps that obj, not the *stored.
//
// key is the entry's key in data, set by put: a write to a stored object
// finds its key there (lookup) instead of building the string again, and
// the watch event's Key is cut from it, so every informer that files the
// object keeps the same bytes, not a copy of its own.
type stored struct {
	obj runtime.Object
	res *Resource
	key string
}

type watch struct {
	actor   string
	plural  string
	node    string // for pods: only pods bound to this node (fieldSelector spec.nodeName)
	handler func(Event)
	events  int    // deliveries so far
	shared  string // a shared informer's watch: the components whose handlers hear it
}

// passiveActor names the counted, not simulated, watchers.
const passiveActor = "kube-proxy (other nodes)"

// WatchEventsBy counts watch deliveries by the watching component.
func (s *Server) WatchEventsBy() map[string]int {
	by := map[string]int{}
	count := func(w *watch) {
		if w.events > 0 {
			by[w.actor] += w.events
		}
	}
	for _, ws := range s.watches {
		for _, w := range ws {
			count(w)
		}
	}
	for _, byNode := range s.nodeWatches {
		for _, ws := range byNode {
			for _, w := range ws {
				count(w)
			}
		}
	}
	if s.passiveEvents > 0 {
		by[passiveActor] = s.passiveEvents
	}
	return by
}

// Server is the simulated API server plus its store.
type Server struct {
	eng  *engine.Engine
	rec  *trace.Recorder
	data map[string]*stored
	// byPlural indexes data by resource, so a watch's initial LIST and
	// List read one resource, not the whole store (the watch cache keeps
	// one store per resource too: storage/cacher). Pods are left out:
	// they are most of the store, so reading them from data (each) costs
	// little more than an index of their own would, which would hold a
	// second map entry per pod (a key and a pointer the GC scans).
	byPlural map[string]map[string]*stored
	pods     int // pods stored (data's entries of plural "pods")
	// resources holds one copy of each Resource stored objects name.
	resources map[Resource]*Resource
	// eventKeys are the Events written: kept by key only. Upstream keeps
	// Events in etcd under a 1 h TTL and not in the API server's memory
	// (the watch cache is off for events, DefaultWatchCacheSizes); nothing
	// in the simulator reads one back (describe and the oracle read the
	// trace and the write log), so their bodies are not kept, only a
	// 64-bit hash of the key that makes a generated name unique.
	eventKeys keySet
	rev       int64
	first     int64

	watches     map[string][]*watch            // by plural
	passive     map[string]int                 // watchers counted but not simulated, by plural
	nodeWatches map[string]map[string][]*watch // pods by node name
	rbac        *RBAC

	Requests    map[string]int // by actor
	WatchEvents int
	// passiveEvents counts the deliveries to counted, not simulated,
	// watchers (CountWatchers); WatchEventsBy adds each watch's own count.
	// BytesEncoded is the protobuf size of every object written (the watch
	// cache encodes each event once, storage/cacher cachingObject) and
	// BytesSent that size times the watchers it went to.
	passiveEvents           int
	BytesEncoded, BytesSent int64
	Conflicts               int // writes refused with 409 Conflict (stale resourceVersion)
	// EventsCreated, EventsPatched and EventsDropped count what the
	// core/v1 event recorders did with the events recorded: POST a new
	// Event, PATCH the count of one written before, or drop it in the
	// spam filter (eventcorrelate.go).
	EventsCreated, EventsPatched, EventsDropped int
	lastEventNano                               int64 // the last Event name's timestamp (eventName)
	serviceIPs                                  *ipAllocator
	nodePorts                                   map[int32]bool  // node ports the Service registry handed out
	limitNoted                                  map[string]bool // LimitRanger defaults already shown, by namespace/generateName

	// EventsBuilt counts the Event requests built into real objects and
	// sent through the pipeline; the others were only counted
	// (eventcount.go). BuildEvents, set by tests, builds every one, so a
	// test can compare a run that counts with one that builds.
	EventsBuilt int
	BuildEvents bool
	statuses    statusIntern // what stored pod statuses share (statusintern.go)

	// Default applies the API server's defaulting to a decoded object and
	// returns the field paths it filled; Validate returns the API server's
	// rejection (a *Status with code 422) or nil. Wired by the simulator.
	Default  func(runtime.Object) []string
	Validate func(runtime.Object) error

	// LogWrites makes the server keep Writes, the log of every write
	// request in the order they were answered (the oracle comparison reads
	// it as the real API server's audit log).
	LogWrites bool
	Writes    []Write

	// OnCommit, when set, is told every committed change before it is
	// delivered to the watches (the cluster's state log). It must not
	// change the object.
	OnCommit func(Event)
	// OnEvent, when set, is told every Event the store writes (Events have
	// no watchers here, so OnCommit does not see them). It must not change
	// the object.
	OnEvent func(Event)
	// Webhooks are the admission webhooks registered (webhook.go).
	Webhooks []Webhook
	// fields is field management, nil unless EnableFieldManagement.
	fields *fieldManagement
	// batches are delivered batches kept for reuse (deliverAll).
	batches []*batch
}

// New returns an empty API server on the engine.
func New(eng *engine.Engine, rec *trace.Recorder, serviceCIDR string) (*Server, error) {
	alloc, err := newIPAllocator(serviceCIDR)
	if err != nil {
		return nil, err
	}
	return &Server{
		eng: eng, rec: rec, data: map[string]*stored{}, byPlural: map[string]map[string]*stored{}, eventKeys: keySet{},
		watches: map[string][]*watch{}, passive: map[string]int{}, nodeWatches: map[string]map[string][]*watch{},
		rbac: bootstrapRBAC(), Requests: map[string]int{}, serviceIPs: alloc,
		resources: map[Resource]*Resource{},
	}, nil
}

// Revision is the store's current global revision.
func (s *Server) Revision() int64 { return s.rev }

// FirstRevision is the revision of the first write after bootstrap.
func (s *Server) FirstRevision() int64 { return s.first }

// Seed writes obj directly, as cluster bootstrap did before the story
// starts (nodes, the kubernetes Service, system objects). No steps.
func (s *Server) Seed(obj runtime.Object) {
	r := ResourceOf(obj)
	m := Meta(obj)
	s.stamp(m)
	s.put(Key(r, m.GetNamespace(), m.GetName()), &stored{obj: obj, res: s.resource(r)})
}

// SeedBefore stores obj as written before the trace starts, without
// moving the store's revision or drawing from the random stream: it
// shares the current resourceVersion, so that adding it changes no other
// object's resourceVersion, uid or generated name.
func (s *Server) SeedBefore(obj runtime.Object) {
	r := ResourceOf(obj)
	m := Meta(obj)
	m.SetResourceVersion(strconv.FormatInt(s.rev, 10))
	if m.GetUID() == "" {
		m.SetUID(types.UID("bootstrap-" + r.Plural + "-" + m.GetNamespace() + "-" + m.GetName()))
	}
	m.SetCreationTimestamp(TimeAt(s.eng.Now()))
	s.put(Key(r, m.GetNamespace(), m.GetName()), &stored{obj: obj, res: s.resource(r)})
}

// resource returns the registry's one copy of r (see stored). The copy
// is made apart: a &r here would move r to the heap on every call, found
// or not.
func (s *Server) resource(r Resource) *Resource {
	if p := s.resources[r]; p != nil {
		return p
	}
	p := new(Resource)
	*p = r
	s.resources[r] = p
	return p
}

// put stores st under key (and in its resource's index).
func (s *Server) put(key string, st *stored) {
	if st.res.Kind == "Event" {
		s.eventKeys.add(key)
		return
	}
	if prev := s.data[key]; prev != nil && prev.res.Plural == unindexed {
		s.pods--
	}
	if st.res.Plural == unindexed {
		s.pods++
	}
	st.key = key
	s.data[key] = st
	if st.res.Plural == unindexed {
		return
	}
	idx := s.byPlural[st.res.Plural]
	if idx == nil {
		idx = map[string]*stored{}
		s.byPlural[st.res.Plural] = idx
	}
	idx[key] = st
}

// keySet is a set of store keys held as 64-bit FNV-1a hashes (16 bytes an
// entry instead of the key string): a false "present" (odds 2^-64 a pair)
// would only make generateName draw another suffix.
type keySet map[uint64]struct{}

func hashKey(k string) uint64 { return uint64(fnv1a.Offset.Str(k)) }

func (ks keySet) add(k string)      { ks[hashKey(k)] = struct{}{} }
func (ks keySet) has(k string) bool { _, ok := ks[hashKey(k)]; return ok }

// hasBytes is has(string(k)), with no string made.
func (ks keySet) hasBytes(k []byte) bool {
	_, ok := ks[uint64(fnv1a.Offset.Bytes(k))]
	return ok
}

// eventExists reports whether key is an Event already written.
func (s *Server) eventExists(r Resource, key string) bool {
	return r.Kind == "Event" && s.eventKeys.has(key)
}

// del removes key from the store.
func (s *Server) del(key string) {
	if st := s.data[key]; st != nil {
		if st.res.Plural == unindexed {
			s.pods--
		} else {
			delete(s.byPlural[st.res.Plural], key)
		}
	}
	delete(s.data, key)
}

// lookup returns the stored entry of an object and its key: the entry's
// own (no string built), or Key's when nothing is stored.
func (s *Server) lookup(r Resource, ns, name string) (*stored, string) {
	var buf [160]byte
	if st := s.data[string(appendKey(buf[:0], r, ns, name))]; st != nil {
		return st, st.key
	}
	return nil, Key(r, ns, name)
}

// Get returns a copy of the stored object, or nil.
func (s *Server) Get(r Resource, ns, name string) runtime.Object {
	st := s.data[Key(r, ns, name)]
	if st == nil {
		return nil
	}
	return st.obj.DeepCopyObject()
}

func (s *Server) stamp(m metav1.Object) {
	s.rev++
	m.SetResourceVersion(strconv.FormatInt(s.rev, 10))
	if m.GetUID() == "" {
		m.SetUID(types.UID(s.drawUID().String()))
	}
	if ts := m.GetCreationTimestamp(); ts.IsZero() {
		m.SetCreationTimestamp(TimeAt(s.eng.Now()))
	}
}

// Epoch is the wall-clock time the virtual clock's zero stands for.
var Epoch = time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)

// Watch registers a watch on a resource (plural). For "pods", node limits
// it to pods bound to that node, as the kubelet's fieldSelector does.
// Existing objects are delivered first as ADDED (the LIST of list+watch).
func (s *Server) watch(actor, plural, node string, h func(Event)) *watch {
	w := &watch{actor: actor, plural: plural, node: node, handler: h}
	if node != "" {
		if s.nodeWatches[plural] == nil {
			s.nodeWatches[plural] = map[string][]*watch{}
		}
		s.nodeWatches[plural][node] = append(s.nodeWatches[plural][node], w)
	} else {
		s.watches[plural] = append(s.watches[plural], w)
	}
	b := s.newBatch(Event{}, nil)
	for _, k := range s.sortedKeys(plural) {
		st := s.data[k]
		if node == "" || nodeOf(st.obj) == node {
			b.ds = append(b.ds, delivery{w, Event{Type: Added, Obj: st.obj, Rev: s.rev, Key: keyTail(k, Meta(st.obj))}})
		}
	}
	s.deliverAll(b)
	return w
}

// fanOut notifies every matching watch of a committed change.
func (s *Server) fanOut(ev Event, res Resource, oldNode string) {
	if s.OnCommit != nil {
		s.OnCommit(ev)
	}
	before := s.WatchEvents
	if n := s.passive[res.Plural]; n > 0 {
		s.WatchEvents += n
		s.passiveEvents += n
	}
	ws := s.watches[res.Plural]
	if ev.Key == "" {
		ev.Key = MetaKey(ev.Obj)
	}
	b := s.newBatch(ev, ws)
	if byNode := s.nodeWatches[res.Plural]; byNode != nil {
		n := nodeOf(ev.Obj)
		nev := ev
		if oldNode != n && ev.Type == Modified {
			nev.Type = Added // a field-selector watch sees an object that starts matching as ADDED
		}
		for _, w := range byNode[n] {
			b.ds = append(b.ds, delivery{w, nev})
		}
		if oldNode != "" && oldNode != n {
			for _, w := range byNode[oldNode] {
				b.ds = append(b.ds, delivery{w, Event{Type: Deleted, Obj: ev.Obj, Rev: ev.Rev, Key: ev.Key}})
			}
		}
	}
	s.deliverAll(b)
	if sz, ok := ev.Obj.(interface{ Size() int }); ok {
		n := int64(sz.Size())
		s.BytesEncoded += n
		s.BytesSent += n * int64(s.WatchEvents-before)
	}
}

// Pods returns the stored pods in key order (for the run's summary).
func (s *Server) Pods() []*corev1.Pod {
	var out []*corev1.Pod
	for _, k := range s.sortedKeys("pods") {
		if p, ok := s.data[k].obj.(*corev1.Pod); ok {
			out = append(out, p)
		}
	}
	return out
}

// EachPod calls fn for every stored pod in no particular order (for counts:
// no sorting, no slice).
func (s *Server) EachPod(fn func(*corev1.Pod)) {
	s.each("pods", func(_ string, st *stored) {
		if p, ok := st.obj.(*corev1.Pod); ok {
			fn(p)
		}
	})
}

// CountWatchers registers n identical watchers of plural whose deliveries
// are counted but not simulated: on a large cluster every node's kube-proxy
// watches Services and EndpointSlices, and simulating a sample of them
// tells the same story at a fraction of the cost.
func (s *Server) CountWatchers(plural string, n int) {
	s.passive[plural] += n
	s.Requests[passiveActor] += n
}

// List returns the stored objects of a resource (plural) in key order.
func (s *Server) List(plural string) []runtime.Object {
	var out []runtime.Object
	if s.count(plural) == 0 { // admission lists LimitRanges, quotas and PriorityClasses for every pod: mostly none
		return nil
	}
	for _, k := range s.sortedKeys(plural) {
		out = append(out, s.data[k].obj)
	}
	return out
}

// ResetFirstRevision makes the next write the first of a new story.
func (s *Server) ResetFirstRevision() { s.first = 0 }
