// Package explain turns a grpclb.Result (simulated or measured live) into
// the report grpc-skew prints, in English or Russian. All prose lives in
// the catalogues (catalogue_en.go, catalogue_ru.go); the model never
// formats text for people.
package explain

import (
	"fmt"
	"github.com/k8sexplain/k8sexplain/internal/l10n"
	"math"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/k8sexplain/k8sexplain/internal/sim/grpclb"
)

// cat is this report's catalogue in one language. F writes a float64
// with two decimals and the language's mark ("1.50" / "1,50"); durations
// and counts are written per language by the catalogue itself.
type cat struct {
	t    l10n.Texts
	lang string
}

// Catalog holds both languages (for the completeness test).
var Catalog = l10n.LazyCatalog(func() (map[string]string, map[string]string) { return en(), ru() })

func catalogue(lang string) cat {
	t := Catalog.In(lang)
	return cat{t, t.Lang()}
}

// F fills the text of key with localised arguments.
func (c cat) F(key string, args ...any) string {
	for i, a := range args {
		if v, ok := a.(float64); ok {
			args[i] = l10n.Fix{V: v, Prec: 2}
		}
	}
	return c.t.T(key, args...)
}

// num writes f with prec decimals and the language's decimal mark.
func (c cat) num(f float64, prec int) string { return l10n.Fixed(c.lang, f, prec) }

// maxConnRows is how many connections the connection table lists.
const maxConnRows = 12

// Build makes the report for r in lang (en or ru).
func Build(r *grpclb.Result, lang string) *report.Doc {
	c := catalogue(lang)
	cfg := r.Config
	d := &report.Doc{Title: c.F("title", plural(c, "client", cfg.Clients), plural(c, "pod", cfg.Pods), cfg.RPCs)}
	if r.Live != nil {
		d.Title = c.F("title.live", plural(c, "client", cfg.Clients), plural(c, "pod", cfg.Pods), cfg.RPCs)
		d.Styled("note", c.F("input.live", r.Live.Version, cfg.Pods, r.Live.Proxy, cfg.Clients, cfg.RPCs, r.Live.Elapsed.Round(time.Millisecond)))
	} else {
		d.Styled("note", c.F("input.sim", plural(c, "client", cfg.Clients), cfg.RPCs, cfg.Duration, cfg.Duration/time.Duration(cfg.RPCs),
			plural(c, "pod", cfg.Pods), grpclb.ClusterIP, grpclb.Port, cfg.Seed))
	}
	d.H(1, c.F("why.h"))
	d.P(c.F("why.p"))
	sideBySide(d, c, r)
	clusterIPSection(d, c, r)
	headlessSection(d, c, r)
	if m := modeOf(r, grpclb.ModeEnvoy); m != nil {
		envoySection(d, c, r, m)
	}
	if r.Live == nil && (cfg.ScaleUp > 0 || cfg.MaxConnectionAge > 0 || cfg.KillPod) {
		overTime(d, c, r)
	}
	fixes(d, c, r)
	d.Data = data(r)
	d.Sequence = sequence(c, r)
	return d
}

func modeOf(r *grpclb.Result, mode string) *grpclb.ModeResult {
	for i := range r.Modes {
		if r.Modes[i].Mode == mode {
			return &r.Modes[i]
		}
	}
	return nil
}

// allPods lists every pod that served during the run.
func allPods(r *grpclb.Result) []int {
	out := make([]int, len(r.Pods))
	for i := range out {
		out[i] = i
	}
	return out
}

// share is n's part of total as a percentage with one decimal, written
// the language's way: "16.7%", "16,7 %" (CLDR's Russian percent pattern,
// a no-break space before the sign).
func (c cat) share(n, total int) string {
	v := 0.0
	if total > 0 {
		v = 100 * float64(n) / float64(total)
	}
	if c.lang == "ru" {
		return c.num(v, 1) + "\u00a0%"
	}
	return c.num(v, 1) + "%"
}

func sum(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}

// sideBySide is the comparison table: RPCs and share per pod in each mode,
// then the summary numbers.
func sideBySide(d *report.Doc, c cat, r *grpclb.Result) {
	d.H(1, c.F("side.h"))
	t := &report.Table{Header: []string{c.F("col.pod"), c.F("col.address")}, Right: []bool{false, false}}
	for _, m := range r.Modes {
		t.Header = append(t.Header, c.F("mode.short."+m.Mode), "%")
		t.Right = append(t.Right, true, true)
	}
	for p, pod := range r.Pods {
		name := pod.Name
		switch {
		case pod.Added > 0:
			name += " " + c.F("pod.new")
		case pod.Stopped:
			name += " " + c.F("pod.stopped")
		}
		row := []string{name, pod.IP}
		for _, m := range r.Modes {
			row = append(row, fmt.Sprint(m.Counts[p]), c.share(m.Counts[p], sum(m.Counts)))
		}
		t.Rows = append(t.Rows, row)
	}
	d.T(t)
	s := &report.Table{Header: []string{""}, Right: []bool{false}}
	conns, ratio, idle := []string{c.F("row.conns")}, []string{c.F("row.ratio")}, []string{c.F("row.idle")}
	for _, m := range r.Modes {
		s.Header = append(s.Header, c.F("mode.short."+m.Mode))
		s.Right = append(s.Right, true)
		q, idleN := grpclb.Stats(m.Counts, allPods(r))
		n := len(m.Conns)
		if r.Live != nil && m.Mode == grpclb.ModeClusterIP {
			n = len(r.Live.ProxyChoices) // what the proxy accepted
		}
		conns = append(conns, fmt.Sprint(n))
		ratio = append(ratio, c.num(q, 2))
		idle = append(idle, fmt.Sprintf("%d / %d", idleN, len(r.Pods)))
	}
	s.Rows = [][]string{conns, ratio, idle}
	if m := modeOf(r, grpclb.ModeEnvoy); m != nil {
		conns[len(conns)-1] = "—"
	}
	d.T(s)
	d.L(c.F("side.ratio"), c.F("side.idle"), c.F("side.conns"))
}

func bars(c cat, r *grpclb.Result, m *grpclb.ModeResult) *report.Bars {
	b := &report.Bars{}
	total := sum(m.Counts)
	for p, pod := range r.Pods {
		b.Rows = append(b.Rows, report.Bar{Label: pod.Name, Value: float64(m.Counts[p]), Note: c.share(m.Counts[p], total)})
	}
	return b
}

// clusterIPSection explains the pick_first numbers connection by connection.
func clusterIPSection(d *report.Doc, c cat, r *grpclb.Result) {
	m := modeOf(r, grpclb.ModeClusterIP)
	cfg := r.Config
	d.H(1, c.F("ci.h"))
	d.B(bars(c, r, m))
	q, idle := grpclb.Stats(m.Counts, allPods(r))
	if r.Live != nil {
		d.P(c.F("ci.live", plural(c, "connection", len(r.Live.ProxyChoices)), r.Live.Proxy))
	} else {
		d.P(c.F("ci.p", grpclb.ClusterIP, grpclb.Port))
	}
	connTable(d, c, r, m)
	if r.Live != nil && cfg.MaxConnectionAge > 0 {
		// Say the calls spread only if every client's did.
		key := "ci.liveage"
		used := map[int]map[int]bool{}
		for _, cn := range m.Conns {
			if cn.RPCs > 0 {
				if used[cn.Client] == nil {
					used[cn.Client] = map[int]bool{}
				}
				used[cn.Client][cn.Pod] = true
			}
		}
		for cl := 0; cl < cfg.Clients; cl++ {
			if len(used[cl]) < 2 {
				key = "ci.liveage.stuck"
			}
		}
		d.P(c.F(key, cfg.MaxConnectionAge, plural(c, "connection", len(r.Live.ProxyChoices)), cfg.Clients))
	}
	if idle == 0 {
		d.P(c.F("ci.numbers.spread", q, len(r.Pods)))
	} else {
		d.P(c.F("ci.numbers", q, idle, len(r.Pods)))
	}
	if cfg.Clients > 1 && r.Live == nil {
		n := float64(cfg.Pods)
		exp := n * math.Pow(1-1/n, float64(cfg.Clients))
		d.P(c.F("ci.many", cfg.Clients, cfg.Pods, cfg.Pods, cfg.Pods, cfg.Clients, c.num(exp, 1), firstIdle(m, cfg)))
	}
}

func connTable(d *report.Doc, c cat, r *grpclb.Result, m *grpclb.ModeResult) {
	live := r.Live != nil
	t := &report.Table{Header: []string{c.F("col.client"), c.F("col.opened"), c.F("col.closed"), c.F("col.pod"), c.F("col.chain"), c.F("col.rpcs")},
		Right: []bool{false, true, false, false, false, true}}
	if live {
		t.Header = []string{c.F("col.client"), c.F("col.pod"), c.F("col.rpcs")}
		t.Right = []bool{false, false, true}
	}
	for i, cn := range m.Conns {
		if i == maxConnRows {
			break
		}
		client := fmt.Sprintf("client-%d", cn.Client)
		if live {
			t.Rows = append(t.Rows, []string{client, r.Pods[cn.Pod].Name, fmt.Sprint(cn.RPCs)})
			continue
		}
		closed := "—"
		if cn.Reason != "" {
			closed = l10n.Duration(c.lang, cn.Closed.Round(time.Millisecond)) + " " + c.F("reason."+cn.Reason)
		}
		t.Rows = append(t.Rows, []string{client, l10n.Duration(c.lang, cn.Opened), closed, r.Pods[cn.Pod].Name, cn.Chain, fmt.Sprint(cn.RPCs)})
	}
	d.T(t)
	if len(m.Conns) > maxConnRows {
		d.Styled("note", c.F("conns.more", len(m.Conns)-maxConnRows))
	}
}

func headlessSection(d *report.Doc, c cat, r *grpclb.Result) {
	m := modeOf(r, grpclb.ModeHeadless)
	d.H(1, c.F("hl.h"))
	if r.Live != nil {
		d.P(c.F("hl.live", len(r.Pods)))
	} else {
		d.P(c.F("hl.dns", grpclb.ServiceName+"-headless", grpclb.Namespace))
		d.C("", dnsAnswer(r))
	}
	d.B(bars(c, r, m))
	q, idle := grpclb.Stats(m.Counts, allPods(r))
	if r.Live != nil {
		d.P(c.F("hl.livep", q, idle, len(r.Pods)))
		if r.Config.MaxConnectionAge > 0 {
			d.P(c.F("hl.warm.age"))
		} else {
			d.P(c.F("hl.warm"))
		}
		return
	}
	d.P(c.F("hl.p", r.Config.Pods, q, idle, len(r.Pods)))
	if r.Config.ScaleUp > 0 {
		d.P(c.F("hl.later"))
	}
}

// firstIdle counts the pods that none of the clients' first connections
// reached.
func firstIdle(m *grpclb.ModeResult, cfg grpclb.Config) int {
	hit, seen := map[int]bool{}, map[int]bool{}
	for _, cn := range m.Conns {
		if !seen[cn.Client] {
			seen[cn.Client], hit[cn.Pod] = true, true
		}
	}
	return cfg.Pods - len(hit)
}

func envoySection(d *report.Doc, c cat, r *grpclb.Result, m *grpclb.ModeResult) {
	d.H(1, c.F("envoy.h"))
	d.B(bars(c, r, m))
	q, _ := grpclb.Stats(m.Counts, allPods(r))
	d.P(c.F("envoy.p", q))
}

// plural writes n with the catalogue's form of a counted noun (the key's
// plural placeholder, CLDR rules).
func plural(c cat, key string, n int) string { return c.t.T(key, n) }

func joinNames(r *grpclb.Result, pods []int) string {
	var s []string
	for _, p := range pods {
		s = append(s, r.Pods[p].Name)
	}
	return strings.Join(s, ", ")
}
