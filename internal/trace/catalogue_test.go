package trace

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	_ "github.com/k8sexplain/k8sexplain/internal/golden"
	"github.com/k8sexplain/k8sexplain/internal/k8sversion"
	"github.com/k8sexplain/k8sexplain/internal/report"
)

// Every key has an English and a Russian text with the same placeholders
// (an explanation is a key of its own, explain.<kind>, so it too exists in
// both languages or in neither), and plural placeholders give CLDR's
// number of forms.
func TestCatalogueParity(t *testing.T) {
	for _, err := range catalogue.Check() {
		t.Error(err)
	}
}

// stepKinds finds the step kinds the simulator's source records: Kind:
// "x.y" literals, the kind argument of its step helpers, and the CRI calls
// (criStep("PullImage") records cri.PullImage).
var stepKinds = []*regexp.Regexp{
	regexp.MustCompile(`Kind:\s*"([a-z][a-z-]*\.[A-Za-z.]+)"`),
	regexp.MustCompile(`[sS]tep\([^"()]*"([a-z][a-z-]*\.[A-Za-z.]+)"`),
	regexp.MustCompile(`criStep\("([A-Za-z]+)"`),
}

// Every step kind the simulator can emit has a text: the kinds are read
// from the simulator's source, so a new kind without a catalogue entry
// fails here, not as a bare key in a user's trace.
func TestEverySimulatorStepKindHasText(t *testing.T) {
	found := map[string]string{}
	err := filepath.WalkDir(filepath.Join("..", "sim"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, re := range stepKinds {
			for _, m := range re.FindAllStringSubmatch(string(src), -1) {
				kind := m[1]
				if i == 2 {
					kind = "cri." + kind
				}
				found[kind] = path
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) < 50 {
		t.Fatalf("found only %d step kinds in the simulator's source; the patterns no longer match it", len(found))
	}
	for kind, path := range found {
		if !Has(kind) {
			t.Errorf("%s (recorded in %s) has no catalogue text", kind, path)
		}
	}
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

// The scheduler's tables are translated in Russian and left alone in
// English; names and Kubernetes' messages are not words to translate.
func TestStepTableTranslated(t *testing.T) {
	tab := &report.Table{Header: []string{"node", "filter", "verdict"},
		Rows: [][]string{{"node-a", "all passed", "fits"}, {"node-c", "NodeAffinity", "node(s) didn't match Pod's node affinity/selector"}}}
	ru := StepTable("ru", tab)
	if got := strings.Join(ru.Header, "|") + "|" + strings.Join(ru.Rows[0], "|"); got != "нода|фильтр|вердикт|node-a|все пройдены|подходит" {
		t.Errorf("ru: %s", got)
	}
	if ru.Rows[1][2] != tab.Rows[1][2] || tab.Header[0] != "node" {
		t.Errorf("translated a Kubernetes message or changed the recorded table: %v / %v", ru.Rows[1], tab.Header)
	}
	if StepTable("en", tab) != tab {
		t.Error("English is the table as recorded")
	}
}

// The scale section inflects its counts and groups their digits in both
// languages (no "slice(s)", "нод(ах)"), writes durations per language and
// names the counted kube-proxies in the output's language.
func TestScaleSectionInflects(t *testing.T) {
	sc := &Scale{Nodes: 30, Pods: 3, WatchEvents: map[string]int{"kube-proxy (other nodes)": 12500, "coredns": 2},
		Scheduled: 3, FirstBind: time.Second, LastBind: time.Second + 5*time.Millisecond,
		SliceWrites: 7, Slices: 1, MaxEndpointsPerSlice: 100, ProxiesSimulated: 10, ProxiesCounted: 21,
		ProxySyncs: 3, ProxyEndpointsWritten: 4, ProxyLargestSync: 1, StepLimit: -1, StepsCounted: 12500}
	for lang, want := range map[string][]string{
		"en": {"3 pods bound in 5ms", "7 slice writes for 1 slice of at most 100 endpoints", "the largest sync 1 endpoint",
			"simulated on 10 nodes; the other 21 nodes' kube-proxies are counted", "12,500 counted", "kube-proxy (other nodes)"},
		"ru": {"3 пода привязано за 5 мс", "7 записей слайсов для 1 слайса", "крупнейшая синхронизация — 1 эндпоинт",
			"моделируется на 10 нодах; kube-proxy остальных 21 ноды", "посчитано 12\u00a0500", "kube-proxy (остальные ноды)"},
	} {
		d := &report.Doc{}
		scaleSection(d, sc, lang)
		var b strings.Builder
		if err := report.Render(&b, d, report.Options{Format: "text", Lang: lang, Width: 1000}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: no %q in\n%s", lang, w, out)
			}
		}
		if strings.Contains(out, "(s)") || strings.Contains(out, "(ов)") || strings.Contains(out, "(ах)") {
			t.Errorf("%s: a plural written by hand:\n%s", lang, out)
		}
	}
}
