package apiserver

import (
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/trace"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// Webhook is one admission webhook of a MutatingWebhookConfiguration or
// ValidatingWebhookConfiguration (admissionregistration.k8s.io/v1) whose
// backend never answers: the API server's call runs into timeoutSeconds
// and failurePolicy decides what follows. It matches CREATE of one
// resource in every namespace its namespaceSelector does not leave out.
// An answering webhook (a patch, a denial) is not modelled: its effect
// would be whatever the webhook's own code decides.
type Webhook struct {
	Configuration string // the configuration object's name
	Name          string // the webhook's name (a qualified domain name)
	Mutating      bool
	// Service, Namespace, Path and Port are clientConfig.service (port
	// 443 when 0).
	Service, Namespace, Path string
	Port                     int32
	// TimeoutSeconds bounds the call (admissionregistration/v1 default 10,
	// validation allows 1 to 30).
	TimeoutSeconds int32
	// Ignore is failurePolicy Ignore; false is Fail, v1's default.
	Ignore bool
	// Resource is the rule's resource (operations: CREATE).
	Resource string
	// SkipNamespaces is the namespaceSelector
	// kubernetes.io/metadata.name NotIn [...].
	SkipNamespaces []string
}

// Webhook defaults of admissionregistration/v1
// (pkg/apis/admissionregistration/v1/defaults.go: TimeoutSeconds 10,
// FailurePolicy Fail; clientConfig.service.port 443).
const (
	DefaultWebhookTimeoutSeconds int32 = 10
	defaultWebhookPort           int32 = 443
)

// URL is where the API server POSTs the AdmissionReview: the Service's
// cluster DNS name (its service resolver, webhook/util
// serviceResolver.ResolveEndpoint) and the timeout the REST client adds as
// a query parameter (request.go Timeout: ?timeout=10s, from the call's
// context deadline rounded up to whole seconds).
func (w Webhook) URL() string {
	port := w.Port
	if port == 0 {
		port = defaultWebhookPort
	}
	u := url.URL{Scheme: "https", Host: w.Service + "." + w.Namespace + ".svc:" + strconv.Itoa(int(port)), Path: w.Path,
		RawQuery: "timeout=" + (time.Duration(w.timeoutSeconds()) * time.Second).String()}
	return u.String()
}

func (w Webhook) timeoutSeconds() int32 {
	if w.TimeoutSeconds == 0 {
		return DefaultWebhookTimeoutSeconds
	}
	return w.TimeoutSeconds
}

// Policy is failurePolicy as the object writes it.
func (w Webhook) Policy() string {
	if w.Ignore {
		return "Ignore"
	}
	return "Fail"
}

// matches is the webhook's rules and namespaceSelector against a request:
// CREATE of its resource (no subresource) outside the skipped namespaces.
func (w Webhook) matches(r *request) bool {
	if r.verb != "create" || r.subresource != "" || r.res.Plural != w.Resource {
		return false
	}
	for _, ns := range w.SkipNamespaces {
		if r.ns == ns {
			return false
		}
	}
	return true
}

// timeoutError is the error a webhook that does not answer leaves: the
// REST client's Post ends with the context's deadline (net/http: Post
// "URL": context deadline exceeded), wrapped by callHook / callAttrMutatingHook
// as webhookutil.ErrCallingWebhook ("failed calling webhook %q: failed to
// call webhook: %w", staging/src/k8s.io/apiserver/pkg/util/webhook/error.go).
func (w Webhook) timeoutError() error {
	return fmt.Errorf("failed calling webhook %q: failed to call webhook: Post %q: context deadline exceeded", w.Name, w.URL())
}

// failedOpenKey is the audit annotation a webhook that failed open leaves
// on the request (mutating/dispatcher.go and validating/dispatcher.go
// addFailedOpenAnnotation: the prefix, round 0, the webhook's index).
func (w Webhook) failedOpenKey(index int) string {
	prefix := "failed-open.validating.webhook.admission.k8s.io/"
	if w.Mutating {
		prefix = "failed-open.mutation.webhook.admission.k8s.io/"
	}
	return fmt.Sprintf("%sround_0_index_%d", prefix, index)
}

// anyWebhook reports whether a webhook of the kind (mutating or
// validating) matches the request. Without one the pipeline goes on
// directly, with no continuation built for the webhooks: upstream's
// dispatchers call no hook and return at once when none matches
// (admission/plugin/webhook/mutating/dispatcher.go Dispatch's loop,
// validating/dispatcher.go: no relevant hooks, return nil).
func (k *call) anyWebhook(mutating bool) bool {
	for i := range k.c.s.Webhooks {
		if w := &k.c.s.Webhooks[i]; w.Mutating == mutating && w.matches(&k.req) {
			return true
		}
	}
	return false
}

// webhooks runs the admission webhooks of one kind (mutating or
// validating) that match the request, one after another as the
// dispatchers do (mutating in order; validating in parallel upstream,
// which with one that never answers ends at the same moment), then calls
// next. Each call waits its timeoutSeconds on the virtual clock; a
// failure with failurePolicy Fail refuses the request with 500
// InternalError (apierrors.NewInternalError of the call error), one with
// Ignore goes on (fails open). With no matching webhook next runs at once,
// so a server without webhooks keeps its timing.
func (k *call) webhooks(mutating bool, next func()) {
	k.runWebhooks(mutating, 0, 0, next)
}

// runWebhooks calls the matching webhooks from Webhooks[from]; index is the
// annotation's index: the mutating dispatcher counts every webhook of its
// kind before this one, the validating one only those that matched
// (its relevantHooks).
func (k *call) runWebhooks(mutating bool, from, index int, next func()) {
	for i := from; i < len(k.c.s.Webhooks); i++ {
		w := k.c.s.Webhooks[i]
		if w.Mutating != mutating {
			continue
		}
		if !w.matches(&k.req) {
			if mutating {
				index++
			}
			continue
		}
		k.webhookStep("apiserver.webhook.call", "type", webhookType(mutating), "webhook", w.Name, "configuration", w.Configuration,
			"url", w.URL(), "policy", w.Policy(), "seconds", int(w.timeoutSeconds()))
		k.c.s.eng.After(time.Duration(w.timeoutSeconds())*time.Second, func() {
			if !w.Ignore {
				k.webhookStep("apiserver.webhook.timeout", "webhook", w.Name, "timeout", time.Duration(w.timeoutSeconds())*time.Second)
				k.fail(AsStatus(apierrors.NewInternalError(w.timeoutError())))
				return
			}
			k.webhookStep("apiserver.webhook.failopen", "webhook", w.Name, "timeout", time.Duration(w.timeoutSeconds())*time.Second,
				"annotation", w.failedOpenKey(index))
			k.runWebhooks(mutating, i+1, index+1, next)
		})
		return
	}
	next()
}

// webhookStep records a webhook step: shown without -v, as it is what the
// story is about, in the phase of the request's client.
func (k *call) webhookStep(kind trace.Kind, fields ...any) {
	s, r := k.c.s, &k.req
	if s.rec.Full() {
		return
	}
	name := r.name
	if name == "" {
		name = Meta(r.obj).GetGenerateName() // named after mutating admission
	}
	s.rec.Add(trace.Step{Phase: k.apiPhase(), Actor: "kube-apiserver", Kind: kind,
		Object: r.res.Plural + "/" + r.ns + "/" + name, Fields: trace.F(fields...)})
}

func webhookType(mutating bool) any {
	if mutating {
		return trace.P("webhook.mutating")
	}
	return trace.P("webhook.validating")
}
