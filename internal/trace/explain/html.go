package explain

import (
	"strconv"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/k8sexplain/k8sexplain/internal/trace"
)

// stepID names the n-th shown step (1-based) in the HTML page; the
// diagram's arrows refer to it.
func stepID(n int) string { return "s" + strconv.Itoa(n) }

// htmlDoc is the trace as one page: the steps as a timeline beside the
// sequence diagram (each with its explanation, shown on a click), one
// foldable section per phase, then the story's tables (numbers also as a
// chart) and the summary.
func htmlDoc(tr *trace.Trace, o Options) *report.Doc {
	u := uiFor(o.Lang)
	d := &report.Doc{Title: title(tr, o.Builtin, u)}
	if tr.Cluster != nil {
		// Which cluster, and what its times mean (a real cluster's page).
		d.P(header(tr, o.Lang))
	}
	groups, titles := sections(tr, o.Verbose, u)
	tl := &report.Timeline{}
	n := 0
	for gi, steps := range groups {
		if len(steps) == 0 {
			continue
		}
		sec := report.TimelineSection{Title: titles[gi]}
		for i := range steps {
			n++
			sec.Steps = append(sec.Steps, timelineStep(tr, &steps[i], stepID(n), o.Lang))
		}
		tl.Sections = append(tl.Sections, sec)
	}
	if n > 0 {
		d.Timeline, d.Sequence = tl, sequence(tr, o)
	}
	rest := &report.Doc{}
	resultTables(rest, tr, o.Lang)
	for _, bl := range rest.Blocks {
		d.Blocks = append(d.Blocks, bl)
		if bl.Table != nil {
			if f := chartOf(bl.Table); f != nil {
				d.Blocks = append(d.Blocks, report.Block{Figure: f})
			}
		}
	}
	summary(d, tr, u, o.Lang)
	return d
}

// timelineStep is one step: time, actor, message; its explanation and
// (for every kind) its fields open on a click.
func timelineStep(tr *trace.Trace, s *trace.Step, id, lang string) report.TimelineStep {
	ts := report.TimelineStep{ID: id, Time: trace.Clock(s.At - tr.Start), Actor: s.Actor, Text: trace.Text(lang, s),
		Explain: trace.Explanation(lang, s), Table: stepTable(lang, s)}
	var fs []string
	if s.Object != "" {
		fs = append(fs, s.Object)
	}
	for _, f := range s.Fields {
		fs = append(fs, f.Key+"="+f.Value)
	}
	if len(fs) > 0 {
		ts.Detail = s.Kind + ": " + strings.Join(fs, ", ")
	}
	return ts
}

// chartOf draws a table whose cells are all integers (the rollout's
// ReplicaSet sizes sync by sync) as a step chart: the first column is the
// axis, every other column a line. Other tables get no chart.
func chartOf(t *report.Table) *report.Figure {
	if len(t.Rows) < 2 || len(t.Header) < 2 {
		return nil
	}
	c := &report.Chart{XLabel: t.Header[0]}
	for _, h := range t.Header[1:] {
		c.Series = append(c.Series, report.Series{Name: h})
	}
	for _, r := range t.Rows {
		if len(r) != len(t.Header) {
			return nil
		}
		for i, cell := range r {
			v, err := strconv.Atoi(cell)
			if err != nil {
				return nil
			}
			if i == 0 {
				c.X = append(c.X, cell)
			} else {
				c.Series[i-1].Values = append(c.Series[i-1].Values, float64(v))
			}
		}
	}
	return &report.Figure{Chart: c}
}
