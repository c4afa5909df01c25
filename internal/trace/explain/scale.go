package explain

import (
	"fmt"
	"sort"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/l10n"
	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/k8sexplain/k8sexplain/internal/trace"
)

// countRows turns counts by component into table rows in name order, with
// per-node components folded beyond a handful as in the requests table
// (requestRows), and returns the total.
func countRows(counts map[string]int, lang string) ([][]string, int) {
	keys := make([]string, 0, len(counts))
	total := 0
	for k, n := range counts {
		keys = append(keys, k)
		total += n
	}
	sort.Strings(keys)
	return requestRows(counts, keys, lang), total
}

// scaleSection renders the Scale section of the summary.
func scaleSection(d *report.Doc, sc *trace.Scale, lang string) {
	u := scaleFor(lang)
	d.H(2, u.title)
	rows, total := countRows(sc.WatchEvents, lang)
	rows = append(rows, []string{"Σ", fmt.Sprint(total)})
	d.P(u.watch)
	d.T(&report.Table{Header: []string{uiFor(lang).Component, u.count}, Right: []bool{false, true}, Rows: rows})
	t := func(key string, v l10n.Vars) string { return trace.T(lang, "scale."+key, v) }
	var lines []string
	lines = append(lines, t("bytes", l10n.Vars{"enc": bytesText(lang, sc.BytesEncoded), "sent": bytesText(lang, sc.BytesSent)}))
	if sc.Scheduled > 0 {
		span := sc.LastBind - sc.FirstBind
		var rate any = "—"
		if span > 0 {
			rate = l10n.Fix{V: float64(sc.Scheduled-1) / span.Seconds(), Prec: 0}
		}
		lines = append(lines, t("sched", l10n.Vars{"pods": l10n.Num(sc.Scheduled), "span": span.Round(time.Millisecond), "rate": rate}))
	}
	if sc.SliceWrites > 0 {
		var per any = "—"
		if sc.Pods > 0 {
			per = l10n.Fix{V: float64(sc.SliceWrites) / float64(sc.Pods), Prec: 2}
		}
		lines = append(lines, t("slices", l10n.Vars{"writes": l10n.Num(sc.SliceWrites), "slices": l10n.Num(sc.Slices),
			"max": l10n.Num(sc.MaxEndpointsPerSlice), "perpod": per, "batch": sc.BatchPeriod.String()})) // a flag keeps its value as typed
	}
	lines = append(lines, t("proxy", l10n.Vars{"syncs": l10n.Num(sc.ProxySyncs), "eps": l10n.Num(sc.ProxyEndpointsWritten), "largest": l10n.Num(sc.ProxyLargestSync)}))
	if sc.EventsCreated+sc.EventsPatched+sc.EventsDropped > 0 {
		lines = append(lines, t("events", l10n.Vars{"created": l10n.Num(sc.EventsCreated), "patched": l10n.Num(sc.EventsPatched), "dropped": l10n.Num(sc.EventsDropped)}))
	}
	if sc.ProxiesCounted > 0 {
		lines = append(lines, t("sampled", l10n.Vars{"sim": l10n.Num(sc.ProxiesSimulated), "counted": l10n.Num(sc.ProxiesCounted)}))
	}
	if sc.StepLimit < 0 {
		lines = append(lines, t("stepsAll", l10n.Vars{"counted": l10n.Num(sc.StepsCounted)}))
	} else if sc.StepsCounted > 0 {
		lines = append(lines, t("steps", l10n.Vars{"kept": l10n.Num(sc.StepsKept), "limit": l10n.Num(sc.StepLimit), "counted": l10n.Num(sc.StepsCounted)}))
	}
	d.L(lines...)
}

// bytesText writes a size in binary units with the language's decimal
// mark ("1.5 MiB", "1,5 MiB").
func bytesText(lang string, n int64) string {
	switch {
	case n >= 1<<30:
		return l10n.Fixed(lang, float64(n)/(1<<30), 2) + " GiB"
	case n >= 1<<20:
		return l10n.Fixed(lang, float64(n)/(1<<20), 1) + " MiB"
	case n >= 1<<10:
		return l10n.Fixed(lang, float64(n)/(1<<10), 1) + " KiB"
	}
	return l10n.Int(lang, n) + " B"
}
