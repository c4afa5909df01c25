package apiserver

import (
	"strings"
	"sync"

	"github.com/k8sexplain/k8sexplain/internal/manifest"
	appsv1 "k8s.io/api/apps/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	eventsv1 "k8s.io/api/events/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// Resource describes how the API serves one kind.
type Resource struct {
	Group      string // "" for the core group
	Version    string
	Kind       string
	Plural     string // the REST resource, also the etcd key segment
	Namespaced bool
}

// GroupKind prints like the API server's error messages: "Deployment.apps", "Pod".
func (r Resource) GroupKind() string {
	if r.Group == "" {
		return r.Kind
	}
	return r.Kind + "." + r.Group
}

// builtin are the kinds the simulator knows how to key and route. Cluster-
// scoped kinds are listed explicitly; everything else is namespaced.
var clusterScoped = map[string]bool{
	"Namespace": true, "Node": true, "PersistentVolume": true, "ClusterRole": true,
	"ClusterRoleBinding": true, "StorageClass": true, "CustomResourceDefinition": true,
	"PriorityClass": true, "IngressClass": true, "MutatingWebhookConfiguration": true,
	"ValidatingWebhookConfiguration": true, "APIService": true, "CSIDriver": true,
	"RuntimeClass": true, "ValidatingAdmissionPolicy": true, "ValidatingAdmissionPolicyBinding": true,
	"IPAddress": true, "ServiceCIDR": true,
}

// irregular plurals (upstream RESTMapper lower-cases and pluralises the kind).
var plurals = map[string]string{
	"Endpoints": "endpoints", "Ingress": "ingresses", "NetworkPolicy": "networkpolicies",
	"PodSecurityPolicy": "podsecuritypolicies", "StorageClass": "storageclasses",
	"IngressClass": "ingressclasses", "PriorityClass": "priorityclasses", "RuntimeClass": "runtimeclasses",
	"ValidatingAdmissionPolicy": "validatingadmissionpolicies",
}

// Plural returns the REST resource name of a kind.
func Plural(kind string) string {
	if p, ok := plurals[kind]; ok {
		return p
	}
	if p, ok := commonPlurals[kind]; ok {
		return p
	}
	return regularPlural(kind)
}

// commonPlurals are the regular plurals of the kinds the cluster writes all
// the time, computed once instead of on every request.
var commonPlurals = func() map[string]string {
	m := map[string]string{}
	for _, k := range []string{"Pod", "ReplicaSet", "Deployment", "Event", "EndpointSlice", "Service",
		"Node", "Lease", "Namespace", "ServiceAccount", "ConfigMap", "Secret", "ResourceQuota", "LimitRange", "Binding"} {
		m[k] = regularPlural(k)
	}
	return m
}()

// regularPlural is the RESTMapper's rule: lower-cased, then s, es or ies.
func regularPlural(kind string) string {
	l := strings.ToLower(kind)
	switch {
	case strings.HasSuffix(l, "s"):
		return l + "es"
	case strings.HasSuffix(l, "y") && !strings.HasSuffix(l, "ey"):
		return l[:len(l)-1] + "ies"
	}
	return l + "s"
}

// ResourceOf describes obj. Typed objects carry no TypeMeta after decoding
// into Go structs, so the kind comes from the Go type where needed.
func ResourceOf(obj runtime.Object) Resource {
	if r, ok := commonResource(obj); ok {
		return r
	}
	return resourceOf(obj)
}

func resourceOf(obj runtime.Object) Resource {
	gvk := manifest.KindOf(obj)
	kind := gvk.Kind
	if u, ok := obj.(*unstructured.Unstructured); ok && kind == "" {
		kind = u.GetKind()
	}
	r := resourceOfKind(kind)
	r.Group, r.Version = gvk.Group, gvk.Version
	return r
}

// resourceOfKind is the Resource of kind as resourceOf derives it: its
// plural and scope (group and version left out).
func resourceOfKind(kind string) Resource {
	return Resource{Kind: kind, Plural: Plural(kind), Namespaced: !clusterScoped[kind]}
}

// Key is the etcd key the API server stores obj under:
// /registry/<resource>/<namespace>/<name>, or /registry/<resource>/<name>
// for cluster-scoped kinds. Upstream prefixes custom resources with their
// group (/registry/<group>/<resource>/...), and stores a few kinds under
// historical names (services under /registry/services/specs).
func Key(r Resource, ns, name string) string {
	res := keyRes(r)
	if !r.Namespaced {
		return "/registry/" + res + "/" + name
	}
	return "/registry/" + res + "/" + ns + "/" + name
}

// keyRes is the segment Key files r's objects under.
func keyRes(r Resource) string {
	switch {
	case r.Kind == "Service" && r.Group == "":
		return "services/specs"
	case r.Kind == "Endpoints" && r.Group == "":
		return "services/endpoints"
	case r.Kind == "Node" && r.Group == "":
		return "minions"
	case !isBuiltinGroup(r.Group):
		return r.Group + "/" + r.Plural
	}
	return r.Plural
}

// appendKey appends Key(r, ns, name) to b: a key looked up with
// m[string(b)] and then dropped is never allocated.
func appendKey(b []byte, r Resource, ns, name string) []byte {
	b = append(append(append(b, "/registry/"...), keyRes(r)...), '/')
	if r.Namespaced {
		b = append(append(b, ns...), '/')
	}
	return append(b, name...)
}

// Path is the REST path of obj (or of its collection when name is "").
func Path(r Resource, ns, name string) string {
	p := "/api/v1"
	if r.Group != "" {
		p = "/apis/" + r.Group + "/" + r.Version
	}
	if r.Namespaced {
		p += "/namespaces/" + ns
	}
	p += "/" + r.Plural
	if name != "" {
		p += "/" + name
	}
	return p
}

func isBuiltinGroup(g string) bool {
	if g == "" || !strings.Contains(g, ".") {
		return true // apps, batch, policy, autoscaling...
	}
	return strings.HasSuffix(g, ".k8s.io") && !strings.HasSuffix(g, ".x-k8s.io")
}

// Meta returns obj's metadata accessor; every object we store has one.
func Meta(obj runtime.Object) metav1.Object {
	m, err := meta.Accessor(obj)
	if err != nil {
		panic("apiserver: object without metadata: " + err.Error())
	}
	return m
}

// The Resources of the types written on every pod's way, each found once
// (the scheme's lookup by Go type takes its lock and a map, Plural and the
// scope two more maps) instead of on every request.
var (
	resOfPod           = onceResource(&corev1.Pod{})
	resOfCoreEvent     = onceResource(&corev1.Event{})
	resOfEvent         = onceResource(&eventsv1.Event{})
	resOfReplicaSet    = onceResource(&appsv1.ReplicaSet{})
	resOfEndpointSlice = onceResource(&discoveryv1.EndpointSlice{})
	resOfLease         = onceResource(&coordinationv1.Lease{})
	resOfNode          = onceResource(&corev1.Node{})
)

// onceResource is resourceOf(obj), found on first use.
func onceResource(obj runtime.Object) func() Resource {
	return sync.OnceValue(func() Resource { return resourceOf(obj) })
}

// commonResource is ResourceOf for an object of one of those types whose
// TypeMeta is empty, as typed objects built in Go are (a set TypeMeta is
// what KindOf reads); false for any other.
func commonResource(obj runtime.Object) (Resource, bool) {
	var of func() Resource
	switch obj.(type) {
	case *corev1.Pod:
		of = resOfPod
	case *corev1.Event:
		of = resOfCoreEvent
	case *eventsv1.Event:
		of = resOfEvent
	case *appsv1.ReplicaSet:
		of = resOfReplicaSet
	case *discoveryv1.EndpointSlice:
		of = resOfEndpointSlice
	case *coordinationv1.Lease:
		of = resOfLease
	case *corev1.Node:
		of = resOfNode
	default:
		return Resource{}, false
	}
	if tm := obj.GetObjectKind(); tm == nil || tm.GroupVersionKind().Kind != "" {
		return Resource{}, false
	}
	return of(), true
}
