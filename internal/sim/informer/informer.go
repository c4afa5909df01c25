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
// the same order, as one that kept its own map.
package informer

import (
	"slices"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
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

// Informer mirrors one resource of the API server through a client's watch.
type Informer[T runtime.Object] struct {
	plural   string
	items    map[string]T
	sorted   []string // the keys in order; nil when a key came or went since
	indexers map[string]IndexFunc[T]
	indices  map[string]map[string]map[string]struct{} // index → value → keys
	values   map[string]map[string][]string            // index → key → values it is filed under
	handlers []func(Event[T])
	running  bool
}

// NamespaceIndex is the index every informer keeps: objects by namespace
// (client-go cache.NamespaceIndex).
const NamespaceIndex = "namespace"

// New returns an informer for plural (e.g. "pods"); Run opens its watch.
// T is the resource's object type (*corev1.Pod for "pods").
func New[T runtime.Object](plural string) *Informer[T] {
	inf := &Informer[T]{plural: plural, items: map[string]T{}, indexers: map[string]IndexFunc[T]{},
		indices: map[string]map[string]map[string]struct{}{}, values: map[string]map[string][]string{}}
	inf.AddIndexer(NamespaceIndex, func(obj T) []string {
		if ns := meta(obj).GetNamespace(); ns != "" {
			return []string{ns}
		}
		return nil
	})
	return inf
}

// AddIndexer adds an index (client-go Indexer.AddIndexers); the objects
// already stored are filed at once.
func (inf *Informer[T]) AddIndexer(name string, f IndexFunc[T]) *Informer[T] {
	inf.indexers[name] = f
	inf.indices[name] = map[string]map[string]struct{}{}
	inf.values[name] = map[string][]string{}
	for k, obj := range inf.items {
		inf.file(name, k, obj)
	}
	return inf
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
	k := Key(obj)
	old, had := inf.items[k]
	if ev.Type == apiserver.Deleted {
		inf.remove(k)
	} else {
		inf.put(k, obj)
	}
	e := Event[T]{Type: ev.Type, Obj: obj, Old: old, Rev: ev.Rev, had: had}
	for _, h := range inf.handlers {
		h(e)
	}
}

// Write puts the result of the component's own write into the store before
// its watch event arrives, so the next sync reads the new resourceVersion
// (client-go's MutationCache serves the same purpose). No handler runs;
// the watch event that follows replaces it.
func (inf *Informer[T]) Write(obj T) { inf.put(Key(obj), obj) }

func (inf *Informer[T]) put(k string, obj T) {
	if _, ok := inf.items[k]; !ok {
		inf.sorted = nil
	}
	inf.items[k] = obj
	for name, f := range inf.indexers {
		vals := f(obj)
		if old, ok := inf.values[name][k]; ok && slices.Equal(old, vals) {
			continue // filed where it was: most updates change no indexed field
		}
		inf.unfile(name, k)
		inf.fileAs(name, k, vals)
	}
}

func (inf *Informer[T]) remove(k string) {
	if _, ok := inf.items[k]; !ok {
		return
	}
	delete(inf.items, k)
	inf.sorted = nil
	for name := range inf.indexers {
		inf.unfile(name, k)
	}
}

func (inf *Informer[T]) file(name, k string, obj T) { inf.fileAs(name, k, inf.indexers[name](obj)) }

func (inf *Informer[T]) fileAs(name, k string, vals []string) {
	if len(vals) == 0 {
		return
	}
	idx := inf.indices[name]
	for _, v := range vals {
		set := idx[v]
		if set == nil {
			set = map[string]struct{}{}
			idx[v] = set
		}
		set[k] = struct{}{}
	}
	inf.values[name][k] = vals
}

func (inf *Informer[T]) unfile(name, k string) {
	vals, ok := inf.values[name][k]
	if !ok {
		return
	}
	idx := inf.indices[name]
	for _, v := range vals {
		delete(idx[v], k)
		if len(idx[v]) == 0 {
			delete(idx, v)
		}
	}
	delete(inf.values[name], k)
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

// List returns every stored object in key order.
func (inf *Informer[T]) List() []T {
	if inf.sorted == nil {
		inf.sorted = make([]string, 0, len(inf.items))
		for k := range inf.items {
			inf.sorted = append(inf.sorted, k)
		}
		slices.Sort(inf.sorted)
	}
	out := make([]T, len(inf.sorted))
	for i, k := range inf.sorted {
		out[i] = inf.items[k]
	}
	return out
}

// ByNamespace returns the objects of one namespace in name order.
func (inf *Informer[T]) ByNamespace(namespace string) []T {
	return inf.ByIndex(NamespaceIndex, namespace)
}

// ByIndex returns the objects filed under value in index, in key order
// (client-go Indexer.ByIndex, sorted here so that a caller's loop is
// deterministic).
func (inf *Informer[T]) ByIndex(index, value string) []T {
	idx, ok := inf.indices[index]
	if !ok {
		panic("informer: no index " + index + " on " + inf.plural)
	}
	set := idx[value]
	if len(set) == 0 {
		return nil
	}
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]T, len(keys))
	for i, k := range keys {
		out[i] = inf.items[k]
	}
	return out
}

// Key is the store key of obj: "namespace/name", or "name" for a
// cluster-scoped object (client-go cache.MetaNamespaceKeyFunc).
func Key(obj runtime.Object) string {
	m := meta(obj)
	if ns := m.GetNamespace(); ns != "" {
		return ns + "/" + m.GetName()
	}
	return m.GetName()
}

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

// ByController is the IndexFunc of ControllerIndex.
func ByController[T runtime.Object](obj T) []string {
	if ref := metav1.GetControllerOf(meta(obj)); ref != nil {
		return []string{string(ref.UID)}
	}
	return nil
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
