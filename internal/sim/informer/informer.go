// Package informer is the simulator's client-go informer: one watch of one
// resource mirrored into a local store keyed namespace/name, with indexes,
// a lister that reads the store, and event handlers called after the store
// has taken each change (client-go tools/cache: Reflector, Indexer and
// sharedIndexInformer's processor in one, since the simulated watch already
// lists before it watches).
//
// Objects in the store are the ones the watch delivered: shared with every
// other watcher and READ-ONLY. The informer never changes them, and no
// lister hands out a copy; a caller that wants to modify one copies it
// first (DeepCopy, or a shallow copy of the top-level struct when only a
// whole field is replaced).
//
// Delivery adds no engine event: each watch event reaches the store and the
// handlers in the callback the API server schedules for it, so a component
// that reads through an informer sees changes at the same virtual time, in
// the same order, as one that kept its own map. kube-controller-manager's
// controllers share one Factory (factory.go): one watch per resource for
// the process, a handler per controller; the other components keep their
// own informers, each watch a request of its component.
//
// Reads are sorted by key, so a loop over a lister is the same on every
// run (a Go map's order is not).
package informer

import (
	"slices"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Event is one watch event as a handler sees it, after the store took it.
type Event[T runtime.Object] struct {
	// Type is the event as the watch delivered it (a field-selector watch
	// reports an object that starts matching as ADDED).
	Type apiserver.EventType
	// Obj is the object now; for DELETED, its last state.
	Obj T
	// Old is what the store held under the same key before this event,
	// the zero value (nil) when it held nothing.
	Old T
	// Rev is the store revision the event carries.
	Rev int64
	had bool // the store held Old
}

// Deleted reports a DELETED event.
func (e Event[T]) Deleted() bool { return e.Type == apiserver.Deleted }

// IndexFunc returns the values an object is indexed under (client-go
// cache.IndexFunc); none leaves it out of the index.
type IndexFunc[T runtime.Object] func(obj T) []string

// ReuseIndexFunc is an IndexFunc handed the values the object is filed
// under now (nil for a new object): it returns that same slice when they
// still hold, so an update that changes no indexed field (most do not)
// builds no values. The store files the object under what it returns.
type ReuseIndexFunc[T runtime.Object] func(obj T, prev []string) []string

// Informer mirrors one resource of the API server through a client's watch.
type Informer[T runtime.Object] struct {
	plural   string
	items    map[string]T
	sorted   []string // the keys in order; nil when a key came or went since
	indexers []*index[T]
	handlers []func(Event[T])
	names    []string // the components whose handlers these are (shared informers)
	running  bool
	// snaps, with DetectMutations, hold a copy of each item taken on
	// receipt (apart from items, which stays a key and a pointer an
	// object without it).
	snaps map[string]runtime.Object
}

// DetectMutations makes every informer keep a deep copy of each object it
// stores and check, when the object is replaced or removed, that nobody
// changed it in the meantime; a change panics, naming the object. It is
// for tests (client-go's cache mutation detector,
// KUBE_CACHE_MUTATION_DETECTOR, tools/cache/mutation_detector.go): the
// stored objects are shared with the API server and every other watcher.
var DetectMutations bool

type index[T runtime.Object] struct {
	name string
	f    ReuseIndexFunc[T]
	keys map[string]map[string]struct{} // value → keys
	// one holds, for each value some object is filed under alone, one
	// slice []string{value} that every such entry shares: most indexes
	// file an object under one value that many objects share (its node,
	// its controller's uid), and a slice each would be 16 bytes a pod
	// an index. Index functions never change the slice they are handed.
	one map[string][]string
	// vals are the values each key is filed under, none for an object the
	// index leaves out. They are kept here, not beside the object in
	// items: most informers have no index, and an entry holding both
	// would be an allocation an object (32 bytes, scanned by the GC). A
	// key filed under one value (every index here) keeps only that value
	// (a string, not a slice header: 8 bytes less a key); its slice is
	// one's. multi holds the keys filed under two values or more.
	val   map[string]string
	multi map[string][]string
}

// vals are the values k is filed under now (nil for none).
func (ix *index[T]) vals(k string) []string {
	if v, ok := ix.val[k]; ok {
		return ix.one[v]
	}
	return ix.multi[k]
}

// New returns an informer for plural (e.g. "pods"); Run opens its watch.
// T is the resource's object type (*corev1.Pod for "pods").
func New[T runtime.Object](plural string) *Informer[T] {
	return &Informer[T]{plural: plural, items: map[string]T{}}
}

// AddIndexer adds an index (client-go Indexer.AddIndexers); the objects
// already stored are filed at once.
func (inf *Informer[T]) AddIndexer(name string, f IndexFunc[T]) *Informer[T] {
	return inf.AddReuseIndexer(name, func(obj T, _ []string) []string { return f(obj) })
}

// AddReuseIndexer is AddIndexer with a ReuseIndexFunc.
func (inf *Informer[T]) AddReuseIndexer(name string, f ReuseIndexFunc[T]) *Informer[T] {
	if name == NamespaceIndex || inf.index(name) != nil {
		panic("informer: index " + name + " added twice on " + inf.plural)
	}
	ix := &index[T]{name: name, f: f, keys: map[string]map[string]struct{}{}, one: map[string][]string{}, val: map[string]string{}, multi: map[string][]string{}}
	inf.indexers = append(inf.indexers, ix)
	for k, obj := range inf.items {
		ix.refile(k, nil, f(obj, nil))
	}
	return inf
}

func (inf *Informer[T]) index(name string) *index[T] {
	for _, ix := range inf.indexers {
		if ix.name == name {
			return ix
		}
	}
	return nil
}

// AddEventHandler adds a handler; handlers run in the order they were
// added, after the store has taken the event.
func (inf *Informer[T]) AddEventHandler(h func(Event[T])) *Informer[T] {
	inf.handlers = append(inf.handlers, h)
	return inf
}

// Run opens the informer's watch on c: existing objects arrive first as
// ADDED (list, then watch). An informer runs once.
func (inf *Informer[T]) Run(c *apiserver.Client) {
	inf.start()
	c.Watch(inf.plural, inf.handle)
}

// RunOnNode opens a watch of the objects bound to node (the kubelet's
// fieldSelector spec.nodeName=node).
func (inf *Informer[T]) RunOnNode(c *apiserver.Client, node string) {
	inf.start()
	c.WatchNode(inf.plural, node, inf.handle)
}

func (inf *Informer[T]) start() {
	if inf.running {
		panic("informer: " + inf.plural + " informer started twice")
	}
	inf.running = true
}

func (inf *Informer[T]) handle(ev apiserver.Event) {
	obj := ev.Obj.(T)
	k := ev.Key
	if k == "" {
		k = Key(obj)
	}
	e := Event[T]{Type: ev.Type, Obj: obj, Rev: ev.Rev}
	if cur, had := inf.items[k]; had {
		e.Old, e.had = cur, true
		inf.check(k, cur)
	}
	if ev.Type == apiserver.Deleted {
		inf.remove(k)
	} else {
		inf.store(k, e.had, obj)
	}
	for _, h := range inf.handlers {
		h(e)
	}
}

// Write puts the result of the component's own write into the store before
// its watch event arrives, so the next sync reads the new resourceVersion
// (client-go's MutationCache serves the same purpose). No handler runs;
// the watch event that follows replaces it.
func (inf *Informer[T]) Write(obj T) {
	k := Key(obj)
	cur, had := inf.items[k]
	if had {
		inf.check(k, cur)
	}
	inf.store(k, had, obj)
}

func (inf *Informer[T]) check(k string, cur T) {
	if snap := inf.snaps[k]; snap != nil && !equality.Semantic.DeepEqual(snap, runtime.Object(cur)) {
		panic("informer: " + inf.plural + " " + k + " was changed in the informer's store; shared objects are read-only (copy before changing)")
	}
}

// store puts obj under k; had tells whether the store held k.
func (inf *Informer[T]) store(k string, had bool, obj T) {
	inf.items[k] = obj
	if !had {
		inf.sorted = nil
	}
	switch {
	case DetectMutations:
		if inf.snaps == nil {
			inf.snaps = map[string]runtime.Object{}
		}
		inf.snaps[k] = obj.DeepCopyObject()
	case inf.snaps != nil:
		delete(inf.snaps, k)
	}
	for _, ix := range inf.indexers {
		prev := ix.vals(k)
		if vals := ix.f(obj, prev); !slices.Equal(prev, vals) { // most updates change no indexed field
			ix.refile(k, prev, vals)
		}
	}
}

func (inf *Informer[T]) remove(k string) {
	if _, had := inf.items[k]; !had {
		return
	}
	delete(inf.items, k)
	delete(inf.snaps, k)
	inf.sorted = nil
	for _, ix := range inf.indexers {
		ix.refile(k, ix.vals(k), nil)
	}
}

// refile moves k from the values prev to vals.
func (ix *index[T]) refile(k string, prev, vals []string) {
	ix.unfile(k, prev)
	switch vals = ix.file(k, vals); len(vals) {
	case 0:
		delete(ix.val, k)
		delete(ix.multi, k)
	case 1:
		ix.val[k] = vals[0]
		delete(ix.multi, k)
	default:
		delete(ix.val, k)
		ix.multi[k] = vals
	}
}

// file files k under vals and returns the slice to keep: vals, or for a
// single value the one slice of that value (index.one).
func (ix *index[T]) file(k string, vals []string) []string {
	for _, v := range vals {
		set := ix.keys[v]
		if set == nil {
			set = map[string]struct{}{}
			ix.keys[v] = set
		}
		set[k] = struct{}{}
	}
	if len(vals) != 1 {
		return vals
	}
	if shared, ok := ix.one[vals[0]]; ok {
		return shared
	}
	ix.one[vals[0]] = vals
	return vals
}

func (ix *index[T]) unfile(k string, vals []string) {
	for _, v := range vals {
		delete(ix.keys[v], k)
		if len(ix.keys[v]) == 0 {
			delete(ix.keys, v)
			delete(ix.one, v)
		}
	}
}

// Get returns the stored object namespace/name (name alone for a
// cluster-scoped resource); ok is false when the store has none.
func (inf *Informer[T]) Get(namespace, name string) (obj T, ok bool) {
	if namespace == "" {
		return inf.GetByKey(name)
	}
	return inf.GetByKey(namespace + "/" + name)
}

// GetByKey returns the object stored under key ("namespace/name" or "name").
func (inf *Informer[T]) GetByKey(key string) (obj T, ok bool) {
	obj, ok = inf.items[key]
	return obj, ok
}

// Len is how many objects the store holds.
func (inf *Informer[T]) Len() int { return len(inf.items) }

func (inf *Informer[T]) keys() []string {
	if inf.sorted == nil {
		inf.sorted = make([]string, 0, len(inf.items))
		for k := range inf.items {
			inf.sorted = append(inf.sorted, k)
		}
		slices.Sort(inf.sorted)
	}
	return inf.sorted
}

func (inf *Informer[T]) objects(keys []string) []T {
	out := make([]T, len(keys))
	for i, k := range keys {
		out[i] = inf.items[k]
	}
	return out
}

// List returns every stored object in key order.
func (inf *Informer[T]) List() []T { return inf.objects(inf.keys()) }

// NamespaceIndex names the objects of one namespace (client-go
// cache.NamespaceIndex). It needs no index of its own here: the sorted
// keys of a namespace ("namespace/name") lie together.
const NamespaceIndex = "namespace"

// ByNamespace returns the objects of one namespace in name order.
func (inf *Informer[T]) ByNamespace(namespace string) []T {
	keys := inf.keys()
	prefix := namespace + "/"
	from, _ := slices.BinarySearch(keys, prefix)
	to := from
	for to < len(keys) && strings.HasPrefix(keys[to], prefix) {
		to++
	}
	return inf.objects(keys[from:to])
}

// ByIndex returns the objects filed under value in index, in key order
// (client-go Indexer.ByIndex, sorted here so that a caller's loop is
// deterministic).
func (inf *Informer[T]) ByIndex(index, value string) []T {
	if index == NamespaceIndex {
		return inf.ByNamespace(value)
	}
	ix := inf.index(index)
	if ix == nil {
		panic("informer: no index " + index + " on " + inf.plural)
	}
	set := ix.keys[value]
	if len(set) == 0 {
		return nil
	}
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return inf.objects(keys)
}

// Key is the store key of obj: "namespace/name", or "name" for a
// cluster-scoped object (client-go cache.MetaNamespaceKeyFunc).
func Key(obj runtime.Object) string { return apiserver.MetaKey(obj) }

func meta(obj runtime.Object) metav1.Object {
	if m, ok := obj.(metav1.Object); ok {
		return m
	}
	return apiserver.Meta(obj)
}

// ControllerIndex files an object under the UID of its controller (the
// ownerReference with controller: true), as the ReplicaSet and Deployment
// controllers look up the pods and ReplicaSets they own.
const ControllerIndex = "controller"

// ByController is the ReuseIndexFunc of ControllerIndex.
func ByController[T runtime.Object](obj T, prev []string) []string {
	ref := metav1.GetControllerOfNoCopy(meta(obj))
	if ref == nil {
		return nil
	}
	return One(prev, string(ref.UID))
}

// One is a ReuseIndexFunc's answer for an object filed under the single
// value v: prev when it is already exactly that, else a new slice.
func One(prev []string, v string) []string {
	if len(prev) == 1 && prev[0] == v {
		return prev
	}
	return []string{v}
}

// HandlerFuncs adapts add, update and delete functions to a handler
// (client-go cache.ResourceEventHandlerFuncs): an event is an add when the
// store held nothing under its key, an update otherwise. Nil functions are
// skipped.
type HandlerFuncs[T runtime.Object] struct {
	AddFunc    func(obj T, rev int64)
	UpdateFunc func(old, obj T, rev int64)
	DeleteFunc func(obj T, rev int64)
}

// Handle dispatches one event.
func (f HandlerFuncs[T]) Handle(ev Event[T]) {
	switch {
	case ev.Deleted():
		if f.DeleteFunc != nil {
			f.DeleteFunc(ev.Obj, ev.Rev)
		}
	case !ev.had:
		if f.AddFunc != nil {
			f.AddFunc(ev.Obj, ev.Rev)
		}
	default:
		if f.UpdateFunc != nil {
			f.UpdateFunc(ev.Old, ev.Obj, ev.Rev)
		}
	}
}
