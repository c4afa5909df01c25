package render

import (
	"fmt"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/report"
)

// ShowControls writes every control character of s as a visible escape
// (ESC as \x1b, BEL as \x07, U+009B as \u009b, a bidi override as
// \u202e), so a value from a manifest (an image, a command, an apiVersion)
// is shown, never sent to the terminal, the Markdown viewer or the
// browser (issue 29). Line feeds and tabs stay: the renderers lay them out.
func ShowControls(s string) string {
	if !hasControl(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for _, r := range s {
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case isControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func hasControl(s string) bool {
	for _, r := range s {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || isControl(r) {
			return true
		}
	}
	return false
}

// isControl: C1 controls (U+0080–U+009F, U+009B is a CSI on many
// terminals), the bidi embeddings, overrides and isolates (U+202A–U+202E,
// U+2066–U+2069, "Trojan Source") and U+FFFD's neighbour U+FEFF, which
// reorder or hide what is shown.
func isControl(r rune) bool {
	return (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0xfeff
}

// textDoc is d with every string passed through ShowControls, for the
// text renderer (the one format without escaping of its own).
func textDoc(d *report.Doc) *report.Doc {
	out := *d
	out.Title = ShowControls(d.Title)
	out.Blocks = make([]report.Block, len(d.Blocks))
	strs := func(in []string) []string {
		o := make([]string, len(in))
		for i, s := range in {
			o[i] = ShowControls(s)
		}
		return o
	}
	for i, bl := range d.Blocks {
		switch {
		case bl.Heading != nil:
			h := *bl.Heading
			h.Text = ShowControls(h.Text)
			bl.Heading = &h
		case bl.Para != nil:
			p := *bl.Para
			p.Text = ShowControls(p.Text)
			bl.Para = &p
		case bl.List != nil:
			l := *bl.List
			l.Items = strs(l.Items)
			bl.List = &l
		case bl.Table != nil:
			t := *bl.Table
			t.Header = strs(t.Header)
			t.Rows = make([][]string, len(bl.Table.Rows))
			for j, r := range bl.Table.Rows {
				t.Rows[j] = strs(r)
			}
			bl.Table = &t
		case bl.Bars != nil:
			bs := *bl.Bars
			bs.Unit = ShowControls(bs.Unit)
			bs.Rows = make([]report.Bar, len(bl.Bars.Rows))
			for j, r := range bl.Bars.Rows {
				r.Label, r.Note = ShowControls(r.Label), ShowControls(r.Note)
				bs.Rows[j] = r
			}
			bl.Bars = &bs
		case bl.Code != nil:
			c := *bl.Code
			c.Text = ShowControls(c.Text)
			bl.Code = &c
		}
		out.Blocks[i] = bl
	}
	return &out
}
