package informer

import (
	"slices"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"k8s.io/apimachinery/pkg/runtime"
)

// Factory is a SharedInformerFactory (staging/src/k8s.io/client-go/
// informers/factory.go, stored copy at a23f4d7): one informer per resource
// on one client, shared by every controller that asks for it, each
// controller adding its own handlers. kube-controller-manager builds one on
// its root client ("shared-informers", CreateControllerContext), hands it
// to every controller, and starts it after them
// (cmd/kube-controller-manager/app/controllermanager.go, stored copy at
// 824153f: StartControllers, then InformerFactory.Start), so a pod change
// is one watch event for the whole process, not one per controller.
type Factory struct {
	c       *apiserver.Client
	infs    map[string]shared
	order   []string // plurals in the order first asked for
	private bool     // one component's own informers: plain watches
}

// shared is what the factory needs of an Informer[T].
type shared interface {
	startShared(c *apiserver.Client, named bool)
	isRunning() bool
}

// NewFactory returns a factory whose informers watch through c.
func NewFactory(c *apiserver.Client) *Factory {
	return &Factory{c: c, infs: map[string]shared{}}
}

// Or returns f to build informers from, or, when f is nil, a factory of
// c's own that the caller starts itself (own; nil when f is shared): a
// controller built alone, as the tests build one, watches on its own
// client as before.
func Or(f *Factory, c *apiserver.Client) (use, own *Factory) {
	if f != nil {
		return f, nil
	}
	f = NewFactory(c)
	f.private = true
	return f, f
}

// For is the factory's informer for plural (InformerFor): made on the
// first request, the same one afterwards.
func For[T runtime.Object](f *Factory, plural string) *Informer[T] {
	if inf, ok := f.infs[plural]; ok {
		return inf.(*Informer[T])
	}
	inf := New[T](plural)
	f.infs[plural] = inf
	f.order = append(f.order, plural)
	return inf
}

// Start opens the watch of every informer not started yet, in the order
// they were first asked for (client-go ranges over a map: its order is not
// defined; this one is, so runs replay byte for byte). A nil factory
// starts nothing.
func (f *Factory) Start() {
	if f == nil {
		return
	}
	for _, p := range f.order {
		if inf := f.infs[p]; !inf.isRunning() {
			inf.startShared(f.c, !f.private)
		}
	}
}

// Name is the factory client's name.
func (f *Factory) Name() string { return f.c.Actor }

// AddEventHandlerFor adds the handler of the component named name (on a
// shared informer the watch event is shown once, naming each component
// whose handler hears it).
func (inf *Informer[T]) AddEventHandlerFor(name string, h func(Event[T])) *Informer[T] {
	if !slices.Contains(inf.names, name) {
		inf.names = append(inf.names, name)
	}
	return inf.AddEventHandler(h)
}

// EnsureIndexer adds an index unless one of that name is there already,
// as two controllers sharing an informer both ask for the same index
// (pkg/controller's AddPodControllerUIDIndexer checks before it adds).
func (inf *Informer[T]) EnsureIndexer(name string, f ReuseIndexFunc[T]) *Informer[T] {
	if inf.index(name) != nil {
		return inf
	}
	return inf.AddReuseIndexer(name, f)
}

func (inf *Informer[T]) isRunning() bool { return inf.running }

func (inf *Informer[T]) startShared(c *apiserver.Client, named bool) {
	if !named {
		inf.Run(c)
		return
	}
	inf.start()
	c.WatchShared(inf.plural, strings.Join(inf.names, ", "), inf.handle)
}
