package explain

import (
	"fmt"
	"github.com/k8sexplain/k8sexplain/internal/l10n"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/k8sexplain/k8sexplain/internal/sim/grpclb"
)

// overTime shows the spread per interval and explains each event.
func overTime(d *report.Doc, c cat, r *grpclb.Result) {
	cfg := r.Config
	d.H(1, c.F("time.h", grpclb.Intervals, cfg.Duration/grpclb.Intervals))
	t := &report.Table{Header: []string{c.F("col.interval"), c.F("col.pods")}, Right: []bool{false, true}}
	for _, m := range r.Modes {
		t.Header = append(t.Header, c.F("mode.tiny."+m.Mode), c.F("col.idle"), c.F("col.sofar"))
		t.Right = append(t.Right, true, true, true)
	}
	sofar := make([][]int, len(r.Modes))
	for i := range sofar {
		sofar[i] = make([]int, len(r.Pods))
	}
	for iv := 0; iv < grpclb.Intervals; iv++ {
		start := cfg.Duration * time.Duration(iv) / grpclb.Intervals
		pods := r.Alive(start)
		row := []string{l10n.Duration(c.lang, start) + "–" + l10n.Duration(c.lang, r.IntervalEnd(iv)), fmt.Sprint(len(pods))}
		var seen []int // every pod ready at some point so far
		for p, pod := range r.Pods {
			if pod.Added <= start {
				seen = append(seen, p)
			}
		}
		for i, m := range r.Modes {
			q, idle := grpclb.Stats(m.PerInterval[iv], pods)
			for p, n := range m.PerInterval[iv] {
				sofar[i][p] += n
			}
			qs, _ := grpclb.Stats(sofar[i], seen)
			row = append(row, c.num(q, 2), fmt.Sprint(idle), c.num(qs, 2))
		}
		t.Rows = append(t.Rows, row)
	}
	d.T(t)
	d.Styled("note", c.F("time.note"))
	var items []string
	if cfg.MaxConnectionAge > 0 {
		items = append(items, maxAgeItems(c, r)...)
	}
	if cfg.ScaleUp > 0 {
		items = append(items, scaleItems(c, r)...)
	}
	if cfg.KillPod && r.Killed >= 0 {
		items = append(items, killItems(c, r)...)
	}
	d.L(items...)
}

func pickup(c cat, m *grpclb.ModeResult) string {
	if m.Pickup < 0 {
		return c.F("never")
	}
	return l10n.Duration(c.lang, m.Pickup)
}

func maxAgeItems(c cat, r *grpclb.Result) []string {
	cfg := r.Config
	age := cfg.MaxConnectionAge
	ci, hl := modeOf(r, grpclb.ModeClusterIP), modeOf(r, grpclb.ModeHeadless)
	first, _ := grpclb.Stats(ci.PerInterval[0], r.Alive(0))
	last, _ := grpclb.Stats(ci.PerInterval[grpclb.Intervals-1], r.Alive(cfg.Duration-1))
	lastHL, _ := grpclb.Stats(hl.PerInterval[grpclb.Intervals-1], r.Alive(cfg.Duration-1))
	return []string{
		c.F("age.goaway", age, age-age/10, age+age/10),
		ciSummary(c, ci, r, last, first),
		c.F("age.hl", len(hl.Conns), len(hl.Resolutions), lastHL),
	}
}

// EvenMaxMean is the max/mean at or below which a summed load may be
// called even: the busiest pod within 20 % of the mean.
const EvenMaxMean = 1.2

// ciSummary says whether the summed ClusterIP load evened out, by its
// numbers: "evens out" only when the run's max/mean is at most
// EvenMaxMean and lower than after the first interval.
func ciSummary(c cat, ci *grpclb.ModeResult, r *grpclb.Result, last, first float64) string {
	cfg := r.Config
	q, _ := grpclb.Stats(ci.Counts, allPods(r))
	key := "age.ci"
	switch {
	case q >= first:
		key = "age.ci.uneven"
	case q > EvenMaxMean:
		key = "age.ci.partly"
	}
	return c.F(key, len(ci.Conns), len(ci.Conns)-cfg.Clients, cfg.Duration/grpclb.Intervals, last, first, q)
}

func scaleItems(c cat, r *grpclb.Result) []string {
	cfg := r.Config
	var added []int
	for p := cfg.Pods; p < len(r.Pods); p++ {
		added = append(added, p)
	}
	ci, hl := modeOf(r, grpclb.ModeClusterIP), modeOf(r, grpclb.ModeHeadless)
	items := []string{c.F("scale.event", r.Event, len(added), joinNames(r, added))}
	if ci.Pickup < 0 {
		items = append(items, c.F("scale.ci.never"))
	} else {
		items = append(items, c.F("scale.ci", pickup(c, ci)))
	}
	switch {
	case hl.Pickup < 0 && (cfg.MaxConnectionAge > 0 || cfg.KillPod):
		items = append(items, c.F("scale.hl.wait", grpclb.MinResolutionInterval))
	case hl.Pickup < 0:
		items = append(items, c.F("scale.hl.never", grpclb.MinResolutionInterval))
	default:
		items = append(items, c.F("scale.hl", pickup(c, hl), hl.Pickup-r.Event, grpclb.MinResolutionInterval))
	}
	if m := modeOf(r, grpclb.ModeEnvoy); m != nil {
		items = append(items, c.F("scale.envoy", pickup(c, m)))
	}
	return items
}

func killItems(c cat, r *grpclb.Result) []string {
	ci, hl := modeOf(r, grpclb.ModeClusterIP), modeOf(r, grpclb.ModeHeadless)
	name := r.Pods[r.Killed].Name
	closed, reopened := 0, map[int]bool{}
	var to []int
	for _, cn := range ci.Conns {
		if cn.Reason == "stopped" {
			closed++
			reopened[cn.Client] = true
		}
	}
	for _, cn := range ci.Conns {
		if reopened[cn.Client] && cn.Opened >= r.Event {
			to = append(to, cn.Pod)
			delete(reopened, cn.Client)
		}
	}
	items := []string{c.F("kill.event", r.Event, name)}
	if closed == 0 {
		items = append(items, c.F("kill.ci.none", name))
	} else {
		names := joinNames(r, to)
		if names == "" {
			names = "—"
		}
		items = append(items, c.F("kill.ci", closed, name, names))
	}
	var after []time.Duration
	for _, t := range hl.Resolutions {
		if t >= r.Event {
			after = append(after, t)
		}
	}
	if len(after) == 0 {
		return append(items, c.F("kill.hl.never", name, grpclb.MinResolutionInterval))
	}
	return append(items, c.F("kill.hl", name, after[0]))
}
