package sim

import "github.com/k8sexplain/k8sexplain/internal/sim/apiserver"

// Webhook is an admission webhook whose backend never answers
// (apiserver.Webhook).
type Webhook = apiserver.Webhook

// StuckPodWebhook is the webhook trace apply --webhook registers on pod
// CREATE: a mutating sidecar injector (MutatingWebhookConfiguration
// sidecar-injector) or a validating policy (ValidatingWebhookConfiguration
// pod-policy), served by a Service in namespace webhooks whose pods no
// longer answer. Its namespaceSelector leaves kube-system out, as such
// webhooks are told to, so the control plane's own pods do not depend on
// it. timeoutSeconds 0 is admissionregistration/v1's default, 10.
func StuckPodWebhook(mutating bool, timeoutSeconds int32, ignore bool) Webhook {
	w := Webhook{Configuration: "pod-policy", Name: "pod-policy.example.com", Service: "pod-policy", Path: "/validate"}
	if mutating {
		w = Webhook{Configuration: "sidecar-injector", Name: "sidecar-injector.example.com", Service: "sidecar-injector", Path: "/mutate"}
	}
	w.Mutating, w.Namespace, w.TimeoutSeconds, w.Ignore = mutating, "webhooks", timeoutSeconds, ignore
	w.Resource, w.SkipNamespaces = "pods", []string{"kube-system"}
	return w
}
