package trace

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/report"
)

// stepID names the n-th shown step (1-based) in the HTML page; the
// diagram's arrows refer to it.
func stepID(n int) string { return "s" + strconv.Itoa(n) }

// renderHTML writes the trace as one page: the sequence diagram beside the
// steps (each with its explanation, shown on a click), one foldable section
// per phase, then the story's tables (numbers also as a chart) and the
// summary.
func renderHTML(w io.Writer, tr *Trace, o Options) error {
	u := uiFor(o.Lang)
	d := doc(tr, Options{Lang: o.Lang, Format: report.Text, Builtin: o.Builtin})
	var b strings.Builder
	report.HTMLStart(&b, o.Lang, d.Title)
	groups, titles := sections(tr, o.Verbose, u)
	shown := 0
	for _, g := range groups {
		shown += len(g)
	}
	if shown > 0 {
		b.WriteString("<div class=\"layout\">\n<div class=\"diagram\">\n")
		report.SequenceSVG(&b, sequence(tr, o))
		b.WriteString("</div>\n<div class=\"steplist\">\n")
		n := 0
		for gi, steps := range groups {
			if len(steps) == 0 {
				continue
			}
			fmt.Fprintf(&b, "<details class=\"sec phase\" open><summary><h2>%s</h2> <span class=\"fields\">(%d)</span></summary>\n<ol class=\"steps\">\n",
				report.Esc(titles[gi]), len(steps))
			for i := range steps {
				n++
				stepHTML(&b, tr, &steps[i], stepID(n), o.Lang)
			}
			b.WriteString("</ol>\n</details>\n")
		}
		b.WriteString("</div>\n</div>\n")
	}
	rest := &report.Doc{}
	resultTables(rest, tr, o.Lang)
	var blocks []report.Block
	for _, bl := range rest.Blocks {
		blocks = append(blocks, bl)
		if bl.Table != nil {
			if f := chartOf(bl.Table); f != nil {
				blocks = append(blocks, report.Block{Figure: f})
			}
		}
	}
	sum := &report.Doc{}
	summary(sum, tr, u, o.Lang)
	report.HTMLBlocks(&b, append(blocks, sum.Blocks...))
	report.HTMLEnd(&b)
	_, err := io.WriteString(w, b.String())
	return err
}

// stepHTML writes one step: time, actor, message; its explanation (or,
// for a kind without one, its fields) opens on a click.
func stepHTML(b *strings.Builder, tr *Trace, s *Step, id, lang string) {
	fmt.Fprintf(b, "<li class=\"step\" id=\"%s\" data-ref=\"%s\" tabindex=\"0\"><span class=\"t\">%s</span><span class=\"who\">%s</span><span class=\"msg\">%s</span>",
		id, id, Clock(s.At-tr.Start), report.Esc(s.Actor), report.Esc(Text(lang, s)))
	b.WriteString("<div class=\"ex\">")
	if ex := Lookup(lang, s.Kind).Explain; ex != "" {
		b.WriteString(report.Esc(ex))
	}
	var fs []string
	if s.Object != "" {
		fs = append(fs, s.Object)
	}
	for _, f := range s.Fields {
		fs = append(fs, f.Key+"="+f.Value)
	}
	if len(fs) > 0 {
		b.WriteString("<div class=\"fields\">" + report.Esc(s.Kind+": "+strings.Join(fs, ", ")) + "</div>")
	}
	b.WriteString("</div>")
	if s.Table != nil {
		report.HTMLTable(b, StepTable(lang, s.Table))
	}
	b.WriteString("</li>\n")
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
