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

// Format names an output format.
type Format string

// The formats every command accepts with --format.
const (
	Text     Format = "text"
	Markdown Format = "markdown"
	Mermaid  Format = "mermaid"
	JSON     Format = "json"
	// HTML is one self-contained page (no network): SVG drawn here, a
	// little inline CSS and script, light and dark themes, print CSS.
	HTML Format = "html"
)

// Options control rendering.
type Options struct {
	Format Format
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

// renderers are the formats in help order, each with the function of its
// file that writes a document: a new format is a file and a line here.
var renderers = []struct {
	format Format
	write  func(io.Writer, *report.Doc, Options) error
}{
	{Text, renderText},
	{Markdown, renderMarkdown},
	{Mermaid, renderMermaid},
	{JSON, renderJSON},
	{HTML, renderHTML},
}

// Formats lists the valid --format values in help order.
var Formats = func() []string {
	var fs []string
	for _, r := range renderers {
		fs = append(fs, string(r.format))
	}
	return fs
}()

// Choices names the formats for help and errors: "text, markdown, mermaid,
// json or html".
func Choices() string {
	last := len(Formats) - 1
	return strings.Join(Formats[:last], ", ") + " or " + Formats[last]
}

// Render writes d to w in the requested format (text when none is set).
// Figures are drawn in HTML only; the other formats carry the same facts
// in the blocks around them.
func Render(w io.Writer, d *report.Doc, o Options) error {
	f := o.Format
	if f == "" {
		f = Text
	}
	if f != HTML {
		d = withoutFigures(d)
	}
	for _, r := range renderers {
		if r.format == f {
			return r.write(w, d, o)
		}
	}
	return exitcode.Inputf("unknown format %q (want %s)", o.Format, Choices())
}

// ParseFormat checks a --format value.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats {
		if s == f {
			return Format(s), nil
		}
	}
	return "", exitcode.Inputf("invalid --format %q: want one of %s", s, strings.Join(Formats, ", "))
}
