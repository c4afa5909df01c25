package explain

import (
	"strings"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/render"
	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/k8sexplain/k8sexplain/internal/trace"
)

// The scheduler's tables are translated in Russian and left alone in
// English; names and Kubernetes' messages are not words to translate.
func TestStepTableTranslated(t *testing.T) {
	s := &trace.Step{Kind: "scheduler.filter", Placement: &trace.Placement{Filtered: []trace.NodeVerdict{
		{Node: "node-a"},
		{Node: "node-c", Plugin: "NodeAffinity", Reasons: []string{"node(s) didn't match Pod's node affinity/selector"}},
	}}}
	en, ru := stepTable("en", s), stepTable("ru", s)
	if got := strings.Join(ru.Header, "|") + "|" + strings.Join(ru.Rows[0], "|"); got != "нода|фильтр|вердикт|node-a|все пройдены|подходит" {
		t.Errorf("ru: %s", got)
	}
	if ru.Rows[1][2] != en.Rows[1][2] {
		t.Errorf("translated a Kubernetes message: %v / %v", ru.Rows[1], en.Rows[1])
	}
	if got := strings.Join(en.Header, "|") + "|" + strings.Join(en.Rows[0], "|"); got != "node|filter|verdict|node-a|all passed|fits" {
		t.Errorf("en: %s", got)
	}
}

// The scale section inflects its counts and groups their digits in both
// languages (no "slice(s)", "нод(ах)"), writes durations per language and
// names the counted kube-proxies in the output's language.
func TestScaleSectionInflects(t *testing.T) {
	sc := &trace.Scale{Nodes: 30, Pods: 3, WatchEvents: map[string]int{"kube-proxy (other nodes)": 12500, "coredns": 2},
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
		if err := render.Render(&b, d, render.Options{Format: render.Text, Lang: lang, Width: 1000}); err != nil {
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
