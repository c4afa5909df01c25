package sim

import (
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/simtest"
)

// A mutating webhook on pod CREATE that never answers, failurePolicy Fail:
// every pod create waits timeoutSeconds and is refused with upstream's
// error, so the ReplicaSet creates nothing and reports FailedCreate.
func TestWebhookTimeoutFailsClosed(t *testing.T) {
	c := exampleCluster(t, "app.yaml", Config{Seed: 1, Workers: 3, Webhooks: []Webhook{StuckPodWebhook(true, 0, false)}})
	tr := c.Run("t")
	if tr.Summary.Pods != 0 {
		t.Fatalf("failurePolicy Fail: want no pod created, got %d", tr.Summary.Pods)
	}
	calls := simtest.StepsOf(tr, "apiserver.webhook.call")
	fails := simtest.StepsOf(tr, "apiserver.webhook.timeout")
	if len(calls) < 5 || len(fails) != len(calls) {
		t.Fatalf("want every call to time out and the ReplicaSet to retry: %d calls, %d timeouts", len(calls), len(fails))
	}
	if d := fails[0].At - calls[0].At; d != 10*time.Second {
		t.Fatalf("the call waits timeoutSeconds (default 10 s), waited %v", d)
	}
	want := `Error creating: Internal error occurred: failed calling webhook "sidecar-injector.example.com": failed to call webhook: ` +
		`Post "https://sidecar-injector.webhooks.svc:443/mutate?timeout=10s": context deadline exceeded`
	ev, ok := simtest.FirstAt(tr, "event", "reason", "FailedCreate")
	if !ok || ev.Get("message") != want {
		t.Fatalf("FailedCreate:\n got %q\nwant %q", ev.Get("message"), want)
	}
}

// failurePolicy Ignore: each create waits the timeout, then goes on; the
// pods are created and become Ready, the audit annotation names the
// webhook. A validating webhook runs after validation, so the pod already
// has its generated name.
func TestWebhookTimeoutFailsOpen(t *testing.T) {
	c := exampleCluster(t, "app.yaml", Config{Seed: 1, Workers: 3, Webhooks: []Webhook{StuckPodWebhook(false, 3, true)}})
	tr := c.Run("t")
	if tr.Summary.Pods != 3 || !tr.Summary.AllReady {
		t.Fatalf("failurePolicy Ignore: want 3 pods Ready, got %d (%d ready)", tr.Summary.Pods, tr.Summary.ReadyPods)
	}
	opens := simtest.StepsOf(tr, "apiserver.webhook.failopen")
	if len(opens) != 3 {
		t.Fatalf("want one fail-open per pod, got %d", len(opens))
	}
	if a := opens[0].Get("annotation"); a != "failed-open.validating.webhook.admission.k8s.io/round_0_index_0" {
		t.Fatalf("audit annotation %q", a)
	}
	if tr.Summary.ReadyAt < 6*time.Second {
		t.Fatalf("two slow-start batches each wait 3 s: Ready at %v", tr.Summary.ReadyAt)
	}
}
