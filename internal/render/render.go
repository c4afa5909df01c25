// Package render writes a report.Doc in each output format, one file per
// format: text (with colour on a terminal), Markdown, a Mermaid
// sequenceDiagram, JSON and a self-contained HTML page. Renderers know the
// document model only; what a command says is decided before, in the
// explain package of its model.
package render

import (
	"io"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/report"
)

// Options control rendering.
type Options struct {
	Format report.Format
	Color  bool   // ANSI colour in text output (never in the other formats)
	Width  int    // wrap width for text paragraphs; 0 means 100
	Lang   string // the page language of --format html ("en" when empty)
}

// withoutFigures returns d without its figure blocks, which only HTML draws.
func withoutFigures(d *report.Doc) *report.Doc {
	keep := false
	for _, bl := range d.Blocks {
		keep = keep || bl.Figure != nil
	}
	if !keep {
		return d
	}
	c := *d
	c.Blocks = nil
	for _, bl := range d.Blocks {
		if bl.Figure == nil {
			c.Blocks = append(c.Blocks, bl)
		}
	}
	return &c
}

// Render writes d to w in the requested format.
func Render(w io.Writer, d *report.Doc, o Options) error {
	if o.Format == report.HTML {
		return renderHTML(w, d, o)
	}
	d = withoutFigures(d)
	switch o.Format {
	case report.Text, "":
		return renderText(w, d, o)
	case report.Markdown:
		return renderMarkdown(w, d, o)
	case report.Mermaid:
		return renderMermaid(w, d)
	case report.JSON:
		return renderJSON(w, d)
	}
	return exitcode.Inputf("unknown format %q (want text, markdown, mermaid, json or html)", o.Format)
}

// ParseFormat checks a --format value.
func ParseFormat(s string) (report.Format, error) {
	for _, f := range report.Formats {
		if s == f {
			return report.Format(s), nil
		}
	}
	return "", exitcode.Inputf("invalid --format %q: want one of %s", s, strings.Join(report.Formats, ", "))
}
