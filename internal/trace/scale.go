package trace

import (
	"fmt"
	"sort"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/l10n"
	"github.com/k8sexplain/k8sexplain/internal/report"
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
func scaleSection(d *report.Doc, sc *Scale, lang string) {
	u := scaleFor(lang)
	d.H(2, u.title)
	rows, total := countRows(sc.WatchEvents, lang)
	rows = append(rows, []string{"Σ", fmt.Sprint(total)})
	d.P(u.watch)
	d.T(&report.Table{Header: []string{uiFor(lang).component, u.count}, Right: []bool{false, true}, Rows: rows})
	var lines []string
	lines = append(lines, subst(u.bytes, "enc", bytesText(sc.BytesEncoded), "sent", bytesText(sc.BytesSent)))
	if sc.Scheduled > 0 {
		span := sc.LastBind - sc.FirstBind
		rate := "—"
		if span > 0 {
			rate = l10n.Fixed(lang, float64(sc.Scheduled-1)/span.Seconds(), 0)
		}
		lines = append(lines, subst(u.sched, "pods", fmt.Sprint(sc.Scheduled), "span", l10n.Duration(lang, span.Round(time.Millisecond)), "rate", rate))
	}
	if sc.SliceWrites > 0 {
		per := "—"
		if sc.Pods > 0 {
			per = l10n.Fixed(lang, float64(sc.SliceWrites)/float64(sc.Pods), 2)
		}
		lines = append(lines, subst(u.slices, "writes", fmt.Sprint(sc.SliceWrites), "slices", fmt.Sprint(sc.Slices),
			"max", fmt.Sprint(sc.MaxEndpointsPerSlice), "perpod", per, "batch", l10n.Duration(lang, sc.BatchPeriod)))
	}
	lines = append(lines, subst(u.proxy, "syncs", fmt.Sprint(sc.ProxySyncs), "eps", fmt.Sprint(sc.ProxyEndpointsWritten), "largest", fmt.Sprint(sc.ProxyLargestSync)))
	if sc.ProxiesCounted > 0 {
		lines = append(lines, subst(u.sampled, "sim", fmt.Sprint(sc.ProxiesSimulated), "counted", fmt.Sprint(sc.ProxiesCounted)))
	}
	if sc.StepLimit < 0 {
		lines = append(lines, subst(u.stepsAll, "counted", fmt.Sprint(sc.StepsCounted)))
	} else if sc.StepsCounted > 0 {
		lines = append(lines, subst(u.steps, "kept", fmt.Sprint(sc.StepsKept), "limit", fmt.Sprint(sc.StepLimit), "counted", fmt.Sprint(sc.StepsCounted)))
	}
	d.L(lines...)
}

func bytesText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
