package manifest

import (
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	certificatesv1 "k8s.io/api/certificates/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	eventsv1 "k8s.io/api/events/v1"
	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	networkingv1 "k8s.io/api/networking/v1"
	nodev1 "k8s.io/api/node/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"reflect"
	"sync"
)

// servedGroups are the group versions a current API server serves as
// stable, with the package of their Go types. k8s.io/api still ships
// removed versions (extensions/v1beta1, policy/v1beta1, batch/v1beta1,
// ...); they are left out on purpose, so a manifest that uses one fails the
// way kubectl fails against a real cluster.
var servedGroups = []struct {
	group, pkg string
	add        func(*runtime.Scheme) error
}{
	{"", "k8s.io/api/core/v1", corev1.AddToScheme},
	{"apps", "k8s.io/api/apps/v1", appsv1.AddToScheme},
	{"batch", "k8s.io/api/batch/v1", batchv1.AddToScheme},
	{"networking.k8s.io", "k8s.io/api/networking/v1", networkingv1.AddToScheme},
	{"rbac.authorization.k8s.io", "k8s.io/api/rbac/v1", rbacv1.AddToScheme},
	{"policy", "k8s.io/api/policy/v1", policyv1.AddToScheme},
	{"discovery.k8s.io", "k8s.io/api/discovery/v1", discoveryv1.AddToScheme},
	{"storage.k8s.io", "k8s.io/api/storage/v1", storagev1.AddToScheme},
	{"autoscaling", "k8s.io/api/autoscaling/v1", autoscalingv1.AddToScheme},
	{"autoscaling", "k8s.io/api/autoscaling/v2", autoscalingv2.AddToScheme},
	{"scheduling.k8s.io", "k8s.io/api/scheduling/v1", schedulingv1.AddToScheme},
	{"coordination.k8s.io", "k8s.io/api/coordination/v1", coordinationv1.AddToScheme},
	{"admissionregistration.k8s.io", "k8s.io/api/admissionregistration/v1", admissionregistrationv1.AddToScheme},
	{"certificates.k8s.io", "k8s.io/api/certificates/v1", certificatesv1.AddToScheme},
	{"events.k8s.io", "k8s.io/api/events/v1", eventsv1.AddToScheme},
	{"node.k8s.io", "k8s.io/api/node/v1", nodev1.AddToScheme},
	{"flowcontrol.apiserver.k8s.io", "k8s.io/api/flowcontrol/v1", flowcontrolv1.AddToScheme},
}

// scheme knows the served group versions. Registering all of them costs
// milliseconds that most runs do not need (a Deployment and a Service use
// two groups, version and help none), so a group is registered the first
// time something asks about it. The lock covers registration and lookups:
// runtime.Scheme is not safe to read while it is written.
var scheme = &lazyScheme{}

type lazyScheme struct {
	mu   sync.Mutex
	s    *runtime.Scheme // nil until first used
	done []bool          // by index in servedGroups
	all  bool
	// kinds remembers the kind of each Go type of a served group's package
	// once that group is registered, when nothing registered later can
	// change the answer: the API server asks for every object it handles.
	kinds map[reflect.Type]schema.GroupVersionKind
}

// with registers the served groups that match and not registered yet; the
// caller holds mu.
func (l *lazyScheme) with(match func(group, pkg string) bool) {
	if l.s == nil {
		l.s, l.done = runtime.NewScheme(), make([]bool, len(servedGroups))
	}
	if l.all {
		return
	}
	for i, g := range servedGroups {
		if l.done[i] || !match(g.group, g.pkg) {
			continue
		}
		if err := g.add(l.s); err != nil {
			// Registration of generated types cannot fail unless
			// k8s.io/api itself is broken; surface it loudly in tests.
			panic("manifest: building scheme: " + err.Error())
		}
		l.done[i] = true
	}
}

func (l *lazyScheme) withAll() {
	l.with(func(string, string) bool { return true })
	l.all = true
}

// New returns a new object of a served kind, or false.
func (l *lazyScheme) New(gvk schema.GroupVersionKind) (runtime.Object, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.with(func(group, _ string) bool { return group == gvk.Group })
	if !l.s.Recognizes(gvk) {
		return nil, false
	}
	obj, err := l.s.New(gvk)
	return obj, err == nil
}

// Kind returns the first kind of obj's Go type: its package names the
// group; a type from elsewhere (metav1.Status) is looked up in every group.
func (l *lazyScheme) Kind(obj runtime.Object) (schema.GroupVersionKind, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	t := reflect.TypeOf(obj)
	if gvk, ok := l.kinds[t]; ok {
		return gvk, true
	}
	pkg := ""
	if t != nil && t.Kind() == reflect.Pointer {
		pkg = t.Elem().PkgPath()
	}
	served := false
	l.with(func(_, p string) bool {
		served = served || p == pkg
		return p == pkg
	})
	gvks, _, err := l.s.ObjectKinds(obj)
	if err != nil && !l.all {
		l.withAll()
		gvks, _, err = l.s.ObjectKinds(obj)
	}
	if err != nil || len(gvks) == 0 {
		return schema.GroupVersionKind{}, false
	}
	if served {
		if l.kinds == nil {
			l.kinds = map[reflect.Type]schema.GroupVersionKind{}
		}
		l.kinds[t] = gvks[0]
	}
	return gvks[0], true
}

// AllKnownTypes registers every group and lists its kinds.
func (l *lazyScheme) AllKnownTypes() []schema.GroupVersionKind {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.withAll()
	out := make([]schema.GroupVersionKind, 0, len(l.s.AllKnownTypes()))
	for gvk := range l.s.AllKnownTypes() {
		out = append(out, gvk)
	}
	return out
}

// builtinGroups are the API groups a kube-apiserver serves itself (or has
// served in the past). A kind the scheme does not know in one of these
// groups is a mistake or a removed version, not a custom resource.
var builtinGroups = map[string]bool{
	"": true, "apps": true, "batch": true, "extensions": true, "policy": true,
	"autoscaling": true, "networking.k8s.io": true, "rbac.authorization.k8s.io": true,
	"discovery.k8s.io": true, "storage.k8s.io": true, "scheduling.k8s.io": true,
	"coordination.k8s.io": true, "admissionregistration.k8s.io": true,
	"certificates.k8s.io": true, "events.k8s.io": true, "node.k8s.io": true,
	"flowcontrol.apiserver.k8s.io": true, "resource.k8s.io": true,
	"authentication.k8s.io": true, "authorization.k8s.io": true,
	"internal.apiserver.k8s.io": true, "storagemigration.k8s.io": true,
	"apiextensions.k8s.io": true, "apiregistration.k8s.io": true,
}

// servedUntyped are built-in kinds served by the aggregated servers
// (apiextensions-apiserver, kube-aggregator) whose Go types live outside
// k8s.io/api; they load as unstructured objects.
var servedUntyped = map[schema.GroupVersionKind]bool{
	{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}: true,
	{Group: "apiregistration.k8s.io", Version: "v1", Kind: "APIService"}:             true,
}

// clusterScoped lists the built-in kinds that have no namespace.
var clusterScoped = map[schema.GroupKind]bool{
	{Kind: "Namespace"}: true, {Kind: "Node"}: true, {Kind: "PersistentVolume"}: true,
	{Kind: "ComponentStatus"}:                                                         true,
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole"}:                         true,
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRoleBinding"}:                  true,
	{Group: "storage.k8s.io", Kind: "StorageClass"}:                                   true,
	{Group: "storage.k8s.io", Kind: "CSIDriver"}:                                      true,
	{Group: "storage.k8s.io", Kind: "CSINode"}:                                        true,
	{Group: "storage.k8s.io", Kind: "VolumeAttachment"}:                               true,
	{Group: "storage.k8s.io", Kind: "VolumeAttributesClass"}:                          true,
	{Group: "scheduling.k8s.io", Kind: "PriorityClass"}:                               true,
	{Group: "networking.k8s.io", Kind: "IngressClass"}:                                true,
	{Group: "networking.k8s.io", Kind: "IPAddress"}:                                   true,
	{Group: "networking.k8s.io", Kind: "ServiceCIDR"}:                                 true,
	{Group: "node.k8s.io", Kind: "RuntimeClass"}:                                      true,
	{Group: "certificates.k8s.io", Kind: "CertificateSigningRequest"}:                 true,
	{Group: "flowcontrol.apiserver.k8s.io", Kind: "FlowSchema"}:                       true,
	{Group: "flowcontrol.apiserver.k8s.io", Kind: "PriorityLevelConfiguration"}:       true,
	{Group: "admissionregistration.k8s.io", Kind: "MutatingWebhookConfiguration"}:     true,
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingWebhookConfiguration"}:   true,
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicy"}:        true,
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicyBinding"}: true,
	{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}:                 true,
	{Group: "apiregistration.k8s.io", Kind: "APIService"}:                             true,
}

// Namespaced reports whether objects of kind gk live in a namespace. known
// is false for custom resources, whose scope only their CRD can tell.
func Namespaced(gk schema.GroupKind) (namespaced, known bool) {
	if clusterScoped[gk] {
		return false, true
	}
	if builtinGroups[gk.Group] {
		return true, true
	}
	return true, false
}

// groupKindOf returns the qualified kind of obj as API errors print it
// (Deployment.apps, Service).
func groupKindOf(obj runtime.Object) schema.GroupKind {
	return KindOf(obj).GroupKind()
}
