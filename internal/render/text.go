package render

import (
	"fmt"
	"io"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fatih/color"
	"github.com/k8sexplain/k8sexplain/internal/report"
)

type palette struct{ title, head, note, warn, ok, bad, dim *color.Color }

func newPalette(on bool) palette {
	mk := func(a ...color.Attribute) *color.Color {
		c := color.New(a...)
		if on {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
		return c
	}
	return palette{
		title: mk(color.Bold, color.FgCyan), head: mk(color.Bold),
		note: mk(color.Faint), warn: mk(color.FgYellow), ok: mk(color.FgGreen),
		bad: mk(color.FgRed), dim: mk(color.Faint),
	}
}

// Width returns the display width of s (one column per rune: the tool's
// text is Latin, Cyrillic and box-drawing, all single-width).
func Width(s string) int { return utf8.RuneCountInString(s) }

func pad(s string, n int, right bool) string {
	gap := n - Width(s)
	if gap <= 0 {
		return s
	}
	if right {
		return strings.Repeat(" ", gap) + s
	}
	return s + strings.Repeat(" ", gap)
}

// Wrap breaks text into lines of at most width runes at spaces, keeping
// existing newlines and the indentation of continuation lines. A no-break
// space (digit grouping: "2 738 Б") never breaks.
func Wrap(text string, width int, indent string) string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		words := strings.FieldsFunc(line, func(r rune) bool { return r != '\u00a0' && unicode.IsSpace(r) })
		if len(words) == 0 {
			out = append(out, "")
			continue
		}
		cur := indent + words[0]
		for _, w := range words[1:] {
			if Width(cur)+1+Width(w) > width {
				out = append(out, cur)
				cur = indent + w
				continue
			}
			cur += " " + w
		}
		out = append(out, cur)
	}
	return strings.Join(out, "\n")
}

func renderText(w io.Writer, d *report.Doc, o Options) error {
	d = textDoc(d)
	p := newPalette(o.Color)
	width := o.Width
	if width == 0 {
		width = 100
	}
	var b strings.Builder
	if d.Title != "" {
		b.WriteString(p.title.Sprint(d.Title) + "\n")
		b.WriteString(strings.Repeat("=", Width(d.Title)) + "\n")
	}
	for i, bl := range d.Blocks {
		if i > 0 || d.Title != "" {
			b.WriteString("\n")
		}
		switch {
		case bl.Heading != nil:
			t := bl.Heading.Text
			if bl.Heading.Level <= 1 {
				b.WriteString(p.head.Sprint(t) + "\n" + strings.Repeat("-", Width(t)) + "\n")
			} else {
				b.WriteString(p.head.Sprint(t) + "\n")
			}
		case bl.Para != nil:
			text := Wrap(bl.Para.Text, width, "")
			switch bl.Para.Style {
			case "note":
				text = p.note.Sprint(text)
			case "warn":
				text = p.warn.Sprint(text)
			case "ok":
				text = p.ok.Sprint(text)
			case "bad":
				text = p.bad.Sprint(text)
			}
			b.WriteString(text + "\n")
		case bl.List != nil:
			for j, it := range bl.List.Items {
				mark := "  - "
				if bl.List.Numbered {
					mark = fmt.Sprintf("%3d. ", j+1)
				}
				wrapped := Wrap(it, width-Width(mark), strings.Repeat(" ", Width(mark)))
				b.WriteString(mark + strings.TrimLeft(wrapped, " ") + "\n")
			}
		case bl.Table != nil:
			textTable(&b, bl.Table, p)
		case bl.Bars != nil:
			textBars(&b, bl.Bars)
		case bl.Code != nil:
			b.WriteString(strings.TrimRight(bl.Code.Text, "\n") + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func colWidths(t *report.Table) []int {
	ws := make([]int, len(t.Header))
	for i, h := range t.Header {
		ws[i] = Width(h)
	}
	for _, r := range t.Rows {
		for i, c := range r {
			if i < len(ws) && Width(c) > ws[i] {
				ws[i] = Width(c)
			}
		}
	}
	return ws
}

func textTable(b *strings.Builder, t *report.Table, p palette) {
	ws := colWidths(t)
	line := func(cells []string, hl bool) {
		parts := make([]string, len(ws))
		for i := range ws {
			c := ""
			if i < len(cells) {
				c = cells[i]
			}
			right := i < len(t.Right) && t.Right[i]
			parts[i] = pad(c, ws[i], right)
		}
		s := strings.TrimRight(strings.Join(parts, "  "), " ")
		if hl {
			s = p.head.Sprint(s + "  ◀")
		}
		b.WriteString(s + "\n")
	}
	line(t.Header, false)
	seps := make([]string, len(ws))
	for i, n := range ws {
		seps[i] = strings.Repeat("-", n)
	}
	b.WriteString(strings.Join(seps, "  ") + "\n")
	for i, r := range t.Rows {
		line(r, i < len(t.Highlight) && t.Highlight[i])
	}
}

const barWidth = 40

func textBars(b *strings.Builder, bs *report.Bars) {
	top, lw := 0.0, 0
	for _, r := range bs.Rows {
		top = max(top, r.Value)
		lw = max(lw, Width(r.Label))
	}
	if bs.Max > 0 {
		top = bs.Max
	}
	for _, r := range bs.Rows {
		n := 0
		if top > 0 {
			n = min(barWidth, int(math.Round(r.Value/top*barWidth)))
		}
		bar := strings.Repeat("█", n)
		if n == 0 && r.Value > 0 {
			bar = "▏"
		}
		s := fmt.Sprintf("%s  %s %s", pad(r.Label, lw, false), pad(bar, barWidth, false), formatValue(r.Value))
		if bs.Unit != "" {
			s += " " + bs.Unit
		}
		if r.Note != "" {
			s += "  " + r.Note
		}
		b.WriteString(strings.TrimRight(s, " ") + "\n")
	}
}

func formatValue(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return fmt.Sprintf("%d", int64(v))
	}
	return fmt.Sprintf("%.2f", v)
}
