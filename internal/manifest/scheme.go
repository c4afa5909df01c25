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
	"sync"
)

// newScheme registers the group versions a current API server serves as
// stable. k8s.io/api still ships removed versions (extensions/v1beta1,
// policy/v1beta1, batch/v1beta1, ...); they are left out on purpose, so a
// manifest that uses one fails the way kubectl fails against a real cluster.
func newScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		corev1.AddToScheme,
		appsv1.AddToScheme,
		batchv1.AddToScheme,
		networkingv1.AddToScheme,
		rbacv1.AddToScheme,
		policyv1.AddToScheme,
		discoveryv1.AddToScheme,
		storagev1.AddToScheme,
		autoscalingv1.AddToScheme,
		autoscalingv2.AddToScheme,
		schedulingv1.AddToScheme,
		coordinationv1.AddToScheme,
		admissionregistrationv1.AddToScheme,
		certificatesv1.AddToScheme,
		eventsv1.AddToScheme,
		nodev1.AddToScheme,
		flowcontrolv1.AddToScheme,
	} {
		if err := add(s); err != nil {
			// Registration of generated types cannot fail unless
			// k8s.io/api itself is broken; surface it loudly in tests.
			panic("manifest: building scheme: " + err.Error())
		}
	}
	return s
}

// scheme is built on first use (a command that decodes nothing, such as
// version or help, does not pay for registering every API group) and is
// read-only shared state after that.
var scheme = sync.OnceValue(newScheme)

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
