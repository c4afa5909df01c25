package trace

import (
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	_ "github.com/k8sexplain/k8sexplain/internal/golden"
	"github.com/k8sexplain/k8sexplain/internal/k8sversion"
)

var placeholder = regexp.MustCompile(`\{[a-zA-Z]+\}`)

// Every step kind has an English and a Russian text with the same
// placeholders, and the same kinds carry an explanation.
func TestCatalogueParity(t *testing.T) {
	for kind, en := range catalogueEN {
		ru, ok := catalogueRU[kind]
		if !ok {
			t.Errorf("%s: no Russian text", kind)
			continue
		}
		if a, b := keys(en.Msg), keys(ru.Msg); a != b {
			t.Errorf("%s: placeholders differ: en %s, ru %s", kind, a, b)
		}
		if (en.Explain == "") != (ru.Explain == "") {
			t.Errorf("%s: explanation present in one language only", kind)
		}
	}
	for kind := range catalogueRU {
		if _, ok := catalogueEN[kind]; !ok {
			t.Errorf("%s: Russian text without English", kind)
		}
	}
}

func keys(s string) string {
	ks := placeholder.FindAllString(s, -1)
	sort.Strings(ks)
	out := ""
	for _, k := range ks {
		out += k
	}
	return out
}

func TestFillAndClock(t *testing.T) {
	s := &Step{Kind: "etcd.put", Fields: F("key", "/registry/pods/default/x", "rev", 12)}
	if got := Text("en", s); got != "etcd: PUT /registry/pods/default/x at revision 12" {
		t.Fatalf("Text: %q", got)
	}
	if got := Clock(61*time.Second + 5*time.Millisecond); got != "01:01.005" {
		t.Fatalf("Clock: %q", got)
	}
}

func TestRecorderLimit(t *testing.T) {
	r := NewRecorder(func() time.Duration { return time.Second }, 2)
	for i := 0; i < 5; i++ {
		r.Add(Step{Kind: "x"})
	}
	if len(r.Steps) != 2 || r.Dropped != 3 || r.Steps[0].At != time.Second {
		t.Fatalf("steps %d dropped %d", len(r.Steps), r.Dropped)
	}
}

// Every trace names the one Kubernetes version the simulator models, the
// version k8sversion ties to go.mod, once, in both languages; and states the
// fixed latencies when the run used them.
func TestHeaderNamesVersion(t *testing.T) {
	tr := &Trace{Story: "rollout", Latencies: &Latencies{Request: time.Millisecond, Commit: 2 * time.Millisecond, Watch: time.Millisecond}}
	for lang, want := range map[string]string{
		"en": "Modelled on Kubernetes " + k8sversion.MinorString + ". Fixed latencies: API request 1ms, etcd commit 2ms, watch delivery 1ms",
		"ru": "Моделируется Kubernetes " + k8sversion.MinorString + ". Задержки фиксированные: запрос к API 1 мс, коммит в etcd 2 мс, доставка по watch 1 мс",
	} {
		var b strings.Builder
		if err := Render(&b, tr, Options{Lang: lang}); err != nil {
			t.Fatal(err)
		}
		out := strings.Join(strings.Fields(b.String()), " ") // the paragraph is wrapped
		if n := strings.Count(out, k8sversion.MinorString); n != 1 || !strings.Contains(out, want) {
			t.Errorf("%s: want %q once, got:\n%s", lang, want, b.String())
		}
	}
}
