package cmd

import (
	"fmt"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/sim"
	"github.com/spf13/cobra"
)

// WebhookOptions are trace apply's admission webhook flags: a webhook on
// pod CREATE whose backend no longer answers.
type WebhookOptions struct {
	Type           string // --webhook: mutating or validating
	FailurePolicy  string // --failure-policy: Fail (v1's default) or Ignore
	TimeoutSeconds int    // --webhook-timeout-seconds (v1's default 10)
}

func (o *WebhookOptions) bind(c *cobra.Command) {
	c.Flags().StringVar(&o.Type, "webhook", "", "register an admission webhook on pod CREATE whose Service does not answer: mutating (a sidecar injector) or validating (a policy)")
	c.Flags().StringVar(&o.FailurePolicy, "failure-policy", "Fail", "the webhook's failurePolicy: Fail (the default in admissionregistration/v1) refuses the request when the call fails, Ignore lets it through")
	c.Flags().IntVar(&o.TimeoutSeconds, "webhook-timeout-seconds", 10, "the webhook's timeoutSeconds: how long the API server waits for its answer (1 to 30)")
}

// webhooks checks the flags as admissionregistration/v1's validation
// checks the fields (pkg/apis/admissionregistration/validation:
// failurePolicy Fail or Ignore; "the timeout value must be between 1 and
// 30 seconds") and returns the webhook to register, or nil.
func (o *WebhookOptions) webhooks() ([]sim.Webhook, error) {
	if o.Type == "" {
		if o.FailurePolicy != "Fail" || o.TimeoutSeconds != 10 {
			return nil, exitcode.Inputf("--failure-policy and --webhook-timeout-seconds need --webhook mutating|validating")
		}
		return nil, nil
	}
	if o.Type != "mutating" && o.Type != "validating" {
		return nil, exitcode.Inputf("invalid --webhook %q: want mutating or validating", o.Type)
	}
	if o.FailurePolicy != "Fail" && o.FailurePolicy != "Ignore" {
		return nil, exitcode.Inputf("invalid --failure-policy %q: supported values: \"Fail\", \"Ignore\"", o.FailurePolicy)
	}
	if o.TimeoutSeconds < 1 || o.TimeoutSeconds > 30 {
		return nil, exitcode.Inputf("invalid --webhook-timeout-seconds %d: the timeout value must be between 1 and 30 seconds", o.TimeoutSeconds)
	}
	return []sim.Webhook{sim.StuckPodWebhook(o.Type == "mutating", int32(o.TimeoutSeconds), o.FailurePolicy == "Ignore")}, nil
}

// args is the flags as the trace's command line repeats them.
func (o *WebhookOptions) args() string {
	if o.Type == "" {
		return ""
	}
	s := fmt.Sprintf(" --webhook %s --failure-policy %s", o.Type, o.FailurePolicy)
	if o.TimeoutSeconds != 10 {
		s += fmt.Sprintf(" --webhook-timeout-seconds %d", o.TimeoutSeconds)
	}
	return s
}
