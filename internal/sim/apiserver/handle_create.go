package apiserver

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// admitCreate runs a create's 3. defaulting (decoding applies defaults)
// and 4. the built-in mutating admission plugins; false when it refused.
func (k *call) admitCreate(obj runtime.Object) bool {
	s, c, r := k.c.s, k.c, &k.req
	if s.Default != nil {
		if filled := s.Default(obj); len(filled) > 0 && c.Loud {
			k.apiStep("apiserver.defaulted", "fields", strings.Join(filled, ", "))
		}
	}
	// NamespaceLifecycle, the first mutating plugin, implements only
	// Admit (plugin/pkg/admission/namespace/lifecycle/admission.go): no
	// new object in a namespace that does not exist, refused with the
	// NotFound of its namespace GET before any other plugin or
	// validation runs.
	if r.res.Namespaced && !s.namespaceExists(r.ns) {
		k.fail(&Status{Code: http.StatusNotFound, Reason: "NotFound", Message: fmt.Sprintf("namespaces %q not found", r.ns)})
		return false
	}
	plugins, mutated, st := s.mutate(obj)
	if st != nil {
		k.fail(st)
		return false
	}
	if mutated {
		k.apiStep("apiserver.mutating", "plugins", trace.Phrases{Sep: "; ", Items: plugins})
		s.noteLimitRanger(c, *r, obj)
	}
	return true
}

// prepareCreate is the registry's BeforeCreate after mutating admission:
// PrepareForCreate, the generated name and a Service's allocations; false
// when it refused.
func (k *call) prepareCreate(obj runtime.Object) bool {
	m := Meta(obj)
	m.SetGeneration(1)
	prepareForCreate(obj)
	k.name(m)
	// The Service registry allocates the ClusterIP after admission and
	// before validation (its BeginCreate hook), and sets ipFamilies there.
	if svc, ok := obj.(*corev1.Service); ok {
		return k.allocate(svc)
	}
	return true
}

// prepareForCreate is the registry strategies' PrepareForCreate of the
// kinds whose new objects start with a status of the server's.
func prepareForCreate(obj runtime.Object) {
	switch o := obj.(type) {
	case *corev1.Pod:
		// pkg/registry/core/pod/strategy.go: whatever status the request
		// carried, a new pod is Pending with its QoS class computed from
		// what admission left.
		o.Status = corev1.PodStatus{Phase: corev1.PodPending, QOSClass: manifest.PodQOS(o)}
	case *corev1.Namespace:
		// pkg/registry/core/namespace/strategy.go: a new namespace is
		// Active and carries the kubernetes finalizer, which the
		// namespace controller removes once it has emptied it.
		o.Status = corev1.NamespaceStatus{Phase: corev1.NamespaceActive}
		if !slices.Contains(o.Spec.Finalizers, corev1.FinalizerKubernetes) {
			o.Spec.Finalizers = append(o.Spec.Finalizers, corev1.FinalizerKubernetes)
		}
	}
}

// name gives a new object its generated name and the request its name.
func (k *call) name(m metav1.Object) {
	s, r := k.c.s, &k.req
	if m.GetName() == "" && m.GetGenerateName() != "" {
		m.SetName(s.generateName(r.res, m.GetNamespace(), m.GetGenerateName()))
	}
	r.name = m.GetName()
}

// allocate takes a new Service's ClusterIP and then its node ports
// (alloc.go txnAllocNodePorts, the same BeginCreate); a failed create
// gives both back (call.release).
func (k *call) allocate(svc *corev1.Service) bool {
	s, c := k.c.s, k.c
	rel, err := s.allocateClusterIP(c, svc, k.apiStep)
	if err != nil {
		k.fail(err)
		return false
	}
	relPorts, err := s.allocateNodePorts(svc, k.apiStep)
	if err != nil {
		if rel != nil {
			rel()
		}
		k.fail(err)
		return false
	}
	k.setRelease(func() {
		if rel != nil {
			rel()
		}
		if relPorts != nil {
			relPorts()
		}
	})
	return true
}

// setRelease makes f undo what the request allocated if it fails. The
// request's rare args may be the sender's: the call takes a copy.
func (k *call) setRelease(f func()) {
	var ra rareArgs
	if k.req.rare != nil {
		ra = *k.req.rare
	}
	ra.release = f
	k.req.rare = &ra
}

// namespaceExists reports whether namespace ns is stored, looking up its key
// (Key of a Namespace) without building the key string: an index by a
// []byte converted in place does not allocate.
func (s *Server) namespaceExists(ns string) bool {
	var buf [96]byte
	key := append(append(buf[:0], "/registry/namespaces/"...), ns...)
	return s.data[string(key)] != nil
}
