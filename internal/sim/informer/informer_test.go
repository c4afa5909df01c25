package informer

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

type env struct {
	t     *testing.T
	eng   *engine.Engine
	api   *apiserver.Server
	admin *apiserver.Client
}

func newEnv(t *testing.T) *env {
	t.Helper()
	eng := engine.New(1)
	rec := trace.NewRecorder(eng.Now, -1)
	api, err := apiserver.New(eng, rec, "10.96.0.0/12")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"default", "other"} {
		ns := &corev1.Namespace{}
		ns.Name = name
		api.Seed(ns)
	}
	admin := api.NewClient("kubectl", apiserver.Identity{User: "kubernetes-admin", Groups: []string{"kubeadm:cluster-admins", "system:authenticated"}}, trace.PhaseKubectl)
	return &env{t: t, eng: eng, api: api, admin: admin}
}

func (e *env) run() { e.t.Helper(); e.eng.Run(time.Minute) }

func pod(ns, name, node string, owner string) *corev1.Pod {
	p := &corev1.Pod{}
	p.Namespace, p.Name = ns, name
	p.Spec.NodeName = node
	p.Spec.Containers = []corev1.Container{{Name: "c", Image: "nginx"}}
	if owner != "" {
		yes := true
		p.OwnerReferences = []metav1.OwnerReference{{Kind: "ReplicaSet", Name: owner, UID: types.UID("uid-" + owner), Controller: &yes}}
	}
	return p
}

func (e *env) create(obj runtime.Object) {
	e.admin.Create(obj, func(_ runtime.Object, err *apiserver.Status) {
		if err != nil {
			e.t.Errorf("create %s: %s", Key(obj), err.Message)
		}
	})
}

func names(pods []*corev1.Pod) []string {
	var out []string
	for _, p := range pods {
		out = append(out, Key(p))
	}
	return out
}

// The store follows the watch: a list of what existed before Run, then
// every change, with namespace, index and sorted reads.
func TestInformerMirrorsTheWatch(t *testing.T) {
	e := newEnv(t)
	e.api.Seed(pod("default", "b", "node-a", "rs1")) // before the watch: arrives as the initial list
	inf := New[*corev1.Pod]("pods").AddIndexer("node", func(p *corev1.Pod) []string {
		if p.Spec.NodeName == "" {
			return nil
		}
		return []string{p.Spec.NodeName}
	}).AddReuseIndexer(ControllerIndex, ByController[*corev1.Pod])
	c := e.api.NewClient("watcher", apiserver.Identity{User: "kubernetes-admin", Groups: []string{"kubeadm:cluster-admins"}}, trace.PhaseController)
	inf.Run(c)
	if inf.Len() != 0 {
		t.Fatal("the initial list must arrive through the engine, not synchronously")
	}
	e.create(pod("default", "a", "node-b", "rs1"))
	e.create(pod("other", "c", "node-a", ""))
	e.create(pod("default", "d", "", "rs2"))
	e.run()
	if got := names(inf.List()); !slices.Equal(got, []string{"default/a", "default/b", "default/d", "other/c"}) {
		t.Fatalf("List: %v", got)
	}
	if got := names(inf.ByNamespace("default")); !slices.Equal(got, []string{"default/a", "default/b", "default/d"}) {
		t.Fatalf("ByNamespace: %v", got)
	}
	if got := names(inf.ByIndex("node", "node-a")); !slices.Equal(got, []string{"default/b", "other/c"}) {
		t.Fatalf("ByIndex node-a: %v", got)
	}
	if got := names(inf.ByIndex(ControllerIndex, "uid-rs1")); !slices.Equal(got, []string{"default/a", "default/b"}) {
		t.Fatalf("ByIndex controller: %v", got)
	}
	// A change that moves an object between index values refiles it.
	cur, _ := inf.Get("other", "c")
	moved := cur.DeepCopy()
	moved.OwnerReferences = pod("", "", "", "rs2").OwnerReferences
	e.admin.Update(moved, nil)
	e.admin.DeleteGrace(apiserver.ResourceOf(moved), "default", "b", 0, nil) // bound: grace 0 removes it at once
	e.run()
	if got := names(inf.ByIndex("node", "node-a")); !slices.Equal(got, []string{"other/c"}) {
		t.Fatalf("node-a after the delete: %v", got)
	}
	if got := names(inf.ByIndex(ControllerIndex, "uid-rs1")); !slices.Equal(got, []string{"default/a"}) {
		t.Fatalf("rs1 after the delete: %v", got)
	}
	if got := names(inf.ByIndex(ControllerIndex, "uid-rs2")); !slices.Equal(got, []string{"default/d", "other/c"}) {
		t.Fatalf("rs2 after the adoption: %v", got)
	}
	if _, ok := inf.Get("default", "b"); ok || inf.Len() != 3 {
		t.Fatalf("deleted pod still stored (%d objects)", inf.Len())
	}
}

// Handlers run after the store took the event and see what it held
// before; HandlerFuncs tells adds from updates by the store.
func TestInformerHandlers(t *testing.T) {
	e := newEnv(t)
	inf := New[*corev1.Pod]("pods")
	var log []string
	inf.AddEventHandler(func(ev Event[*corev1.Pod]) {
		// The store holds the very object the watch delivered: shared, not a copy.
		if cur, ok := inf.Get(ev.Obj.Namespace, ev.Obj.Name); ok != !ev.Deleted() || (ok && cur != ev.Obj) {
			t.Errorf("%s %s: the store does not hold the event's object", ev.Type, Key(ev.Obj))
		}
		old := "-"
		if ev.Old != nil {
			old = ev.Old.Labels["v"]
		}
		log = append(log, string(ev.Type)+" "+ev.Obj.Name+" old="+old+" now="+ev.Obj.Labels["v"])
	})
	var funcs []string
	inf.AddEventHandler(HandlerFuncs[*corev1.Pod]{
		AddFunc: func(p *corev1.Pod, _ int64) { funcs = append(funcs, "add "+p.Name) },
		UpdateFunc: func(old, p *corev1.Pod, _ int64) {
			funcs = append(funcs, "update "+p.Name+" "+old.Labels["v"]+"→"+p.Labels["v"])
		},
		DeleteFunc: func(p *corev1.Pod, _ int64) { funcs = append(funcs, "delete "+p.Name) },
	}.Handle)
	inf.Run(e.api.NewClient("watcher", apiserver.Identity{User: "kubernetes-admin", Groups: []string{"kubeadm:cluster-admins"}}, trace.PhaseController))
	e.create(pod("default", "a", "", ""))
	e.run()
	cur, _ := inf.Get("default", "a")
	upd := cur.DeepCopy() // the store's object is read-only: copy, then change
	upd.Labels = map[string]string{"v": "2"}
	e.admin.Update(upd, nil)
	e.run()
	if cur.Labels["v"] != "" {
		t.Fatal("the stored object changed under the informer")
	}
	e.admin.Delete(apiserver.ResourceOf(upd), "default", "a", nil)
	e.run()
	want := []string{"ADDED a old=- now=", "MODIFIED a old= now=2", "DELETED a old=2 now=2"}
	if !slices.Equal(log, want) {
		t.Fatalf("events:\n got %q\nwant %q", log, want)
	}
	if wantF := []string{"add a", "update a →2", "delete a"}; !slices.Equal(funcs, wantF) {
		t.Fatalf("HandlerFuncs: %q, want %q", funcs, wantF)
	}
}

// Write puts a component's own write result into the store without
// running handlers; the watch event that follows replaces it.
func TestInformerWrite(t *testing.T) {
	inf := New[*corev1.Pod]("pods").AddIndexer("node", func(p *corev1.Pod) []string { return []string{p.Spec.NodeName} })
	calls := 0
	inf.AddEventHandler(func(Event[*corev1.Pod]) { calls++ })
	p := pod("default", "a", "node-a", "")
	inf.Write(p)
	if got, _ := inf.Get("default", "a"); got != p || calls != 0 {
		t.Fatalf("Write: stored %v, %d handler calls", got, calls)
	}
	q := pod("default", "a", "node-b", "")
	inf.handle(apiserver.Event{Type: apiserver.Modified, Obj: q, Rev: 2})
	if got := inf.ByIndex("node", "node-a"); len(got) != 0 || calls != 1 {
		t.Fatalf("after the watch event: node-a %v, %d calls", names(got), calls)
	}
	// A cluster-scoped object is keyed by its name alone.
	n := &corev1.Node{}
	n.Name = "node-a"
	if Key(n) != "node-a" || Key(p) != "default/a" {
		t.Fatalf("keys: %q %q", Key(n), Key(p))
	}
}

func TestInformerRunsOnce(t *testing.T) {
	e := newEnv(t)
	inf := New[*corev1.Pod]("pods")
	c := e.api.NewClient("watcher", apiserver.Identity{User: "kubernetes-admin"}, trace.PhaseController)
	inf.Run(c)
	defer func() {
		if recover() == nil {
			t.Fatal("a second Run must panic: it would open a second watch")
		}
	}()
	inf.Run(c)
}

// With DetectMutations, a caller that changes a stored object in place is
// caught when the next event for it arrives.
func TestInformerDetectsMutation(t *testing.T) {
	DetectMutations = true
	defer func() { DetectMutations = false }()
	inf := New[*corev1.Pod]("pods")
	p := pod("default", "a", "", "")
	inf.handle(apiserver.Event{Type: apiserver.Added, Obj: p, Rev: 1})
	q := pod("default", "a", "", "")
	q.Labels = map[string]string{"v": "2"}
	inf.handle(apiserver.Event{Type: apiserver.Modified, Obj: q, Rev: 2}) // untouched: no panic
	stored, _ := inf.Get("default", "a")
	stored.Labels["v"] = "changed in place"
	defer func() {
		msg, _ := recover().(string)
		if msg == "" || !strings.Contains(msg, "pods default/a was changed") {
			t.Fatalf("panic %q, want the mutation named", msg)
		}
	}()
	inf.handle(apiserver.Event{Type: apiserver.Deleted, Obj: q, Rev: 3})
}

// A watch event carries its object's key, built once by the API server for
// every watcher: storing an update of a known object allocates nothing.
func TestHandleUsesTheEventKey(t *testing.T) {
	if DetectMutations {
		t.Skip("the mutation detector copies every object")
	}
	inf := New[*corev1.Pod]("pods")
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web-1"}}
	ev := apiserver.Event{Type: apiserver.Added, Obj: p, Rev: 1, Key: "default/web-1"}
	inf.handle(ev)
	ev.Type = apiserver.Modified
	if n := testing.AllocsPerRun(100, func() { inf.handle(ev) }); n != 0 {
		t.Errorf("an update of a stored object allocated %v times, want 0", n)
	}
	if got, ok := inf.GetByKey("default/web-1"); !ok || got != p {
		t.Errorf("stored under the event's key: %v %v", got, ok)
	}
}

// An index that files an object under several values, then one, then
// none, finds it under exactly those (index.multi and index.val).
func TestIndexRefilesMultipleValues(t *testing.T) {
	inf := New[*corev1.Pod]("pods").AddIndexer("labels", func(p *corev1.Pod) []string {
		return strings.Fields(p.Labels["vals"])
	})
	p := func(vals string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "a", Labels: map[string]string{"vals": vals}}}
	}
	inf.Write(p("x y"))
	inf.Write(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "b", Labels: map[string]string{"vals": "y"}}})
	check := func(v string, want ...string) {
		t.Helper()
		if got := names(inf.ByIndex("labels", v)); !slices.Equal(got, want) {
			t.Fatalf("ByIndex %s: %v, want %v", v, got, want)
		}
	}
	check("x", "ns/a")
	check("y", "ns/a", "ns/b")
	inf.Write(p("y"))
	check("x")
	check("y", "ns/a", "ns/b")
	inf.Write(p("z x"))
	check("x", "ns/a")
	check("y", "ns/b")
	inf.Write(p(""))
	check("x")
	check("z")
	check("y", "ns/b")
}
