package explain

import (
	"strings"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/k8sversion"
	"github.com/k8sexplain/k8sexplain/internal/render"
	"github.com/k8sexplain/k8sexplain/internal/trace"
)

// Every trace names the one Kubernetes version the simulator models, the
// version k8sversion ties to go.mod, once, in both languages; and states the
// fixed latencies when the run used them.
func TestHeaderNamesVersion(t *testing.T) {
	tr := &trace.Trace{Story: "rollout", Latencies: &trace.Latencies{Request: time.Millisecond, Commit: 2 * time.Millisecond, Watch: time.Millisecond}}
	for lang, want := range map[string]string{
		"en": "Modelled on Kubernetes " + k8sversion.MinorString + ". Fixed latencies: API request 1ms, etcd commit 2ms, watch delivery 1ms",
		"ru": "Моделируется Kubernetes " + k8sversion.MinorString + ". Задержки фиксированные: запрос к API 1 мс, коммит в etcd 2 мс, доставка по watch 1 мс",
	} {
		var b strings.Builder
		if err := render.Render(&b, Doc(tr, Options{Lang: lang}), render.Options{Lang: lang}); err != nil {
			t.Fatal(err)
		}
		out := strings.Join(strings.Fields(b.String()), " ") // the paragraph is wrapped
		if n := strings.Count(out, k8sversion.MinorString); n != 1 || !strings.Contains(out, want) {
			t.Errorf("%s: want %q once, got:\n%s", lang, want, b.String())
		}
	}
}

// The summary names the first Pending pods and counts the rest (issue 27:
// 128,176 Pending pods printed 33 MB); JSON keeps every one.
func TestSummaryPendingListIsBounded(t *testing.T) {
	tr := &trace.Trace{}
	for i := range 1000 {
		tr.Summary.PendingPods = append(tr.Summary.PendingPods, trace.PendingPod{Name: "default/web-" + string(rune('a'+i%26)) + strings.Repeat("x", i/26), Message: "0/4 nodes are available"})
	}
	tr.Summary.Pods = 1000
	for lang, more := range map[string]string{"en": "… and 980 more pods", "ru": "… и ещё 980 подов"} {
		var b strings.Builder
		if err := render.Render(&b, Doc(tr, Options{Lang: lang}), render.Options{Lang: lang}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if n := strings.Count(out, "0/4 nodes are available"); n != pendingShown || !strings.Contains(out, more) {
			t.Errorf("%s: %d Pending pods listed, want %d and %q", lang, n, pendingShown, more)
		}
	}
}
