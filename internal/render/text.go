package render

import (
	"fmt"
	"io"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fatih/color"
	"github.com/k8sexplain/k8sexplain/internal/l10n"
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
	d = textDoc(withTimelines(d, false, o.Width))
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
			if o.Width > 0 && Width(t) > width {
				t = Wrap(t, width, "") // a terminal would break it inside a word
			}
			if bl.Heading.Level <= 1 {
				under := 0
				for _, l := range strings.Split(t, "\n") {
					under = max(under, Width(l))
				}
				b.WriteString(p.head.Sprint(t) + "\n" + strings.Repeat("-", under) + "\n")
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
			textTable(&b, fitTable(bl.Table, o.Width), p)
		case bl.Bars != nil:
			textBars(&b, bl.Bars, o.Lang)
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
	if strings.Join(t.Header, "") != "" { // a table of blocks has no header
		line(t.Header, false)
		seps := make([]string, len(ws))
		for i, n := range ws {
			seps[i] = strings.Repeat("-", n)
		}
		b.WriteString(strings.Join(seps, "  ") + "\n")
	}
	for i, r := range t.Rows {
		line(r, i < len(t.Highlight) && t.Highlight[i])
	}
}

// fitTable returns t as it is, or, on a terminal of width columns (0: not
// a terminal, where the full table stays greppable) that t does not fit,
// t turned on its side: one row per column of t, one column per row, its
// highlighted row marked in the header. A score table of three nodes and
// six plugins is 131 columns wide as rows and 64 on its side. When even that
// does not fit, each row becomes a block of "header  value" lines.
func fitTable(t *report.Table, width int) *report.Table {
	if width <= 0 || tableWidth(t) <= width || len(t.Header) < 2 {
		return t
	}
	side := &report.Table{Header: []string{t.Header[0]}}
	for r, row := range t.Rows {
		h := ""
		if len(row) > 0 {
			h = row[0]
		}
		if r < len(t.Highlight) && t.Highlight[r] {
			h += " ◀"
		}
		side.Header = append(side.Header, h)
		side.Right = append(side.Right, true)
	}
	side.Right[0] = false
	side.Right = append(side.Right, true)
	for i := 1; i < len(t.Header); i++ {
		row := []string{t.Header[i]}
		for _, r := range t.Rows {
			c := ""
			if i < len(r) {
				c = r[i]
			}
			row = append(row, c)
		}
		side.Rows = append(side.Rows, row)
	}
	if tableWidth(side) <= width {
		return side
	}
	// Each row as a block of "header  value" lines, as kubectl describe
	// prints one object; a long value wraps under itself.
	blocks := &report.Table{Header: []string{"", ""}}
	hw := 0
	for _, h := range t.Header {
		hw = max(hw, Width(h))
	}
	room := max(width-hw-2-3, 20) // the header column, the gap, a mark
	for r, row := range t.Rows {
		if r > 0 {
			blocks.Rows = append(blocks.Rows, []string{"", ""})
			blocks.Highlight = append(blocks.Highlight, false)
		}
		for i, h := range t.Header {
			c := ""
			if i < len(row) {
				c = row[i]
			}
			for k, l := range wrapWords(c, room) {
				if k > 0 {
					h = ""
				}
				blocks.Rows = append(blocks.Rows, []string{h, l})
				blocks.Highlight = append(blocks.Highlight, i == 0 && k == 0 && r < len(t.Highlight) && t.Highlight[r])
			}
		}
	}
	return blocks
}

// wrapWords breaks s at spaces into lines of at most n runes (a longer
// word stays whole on its line).
func wrapWords(s string, n int) []string {
	var lines []string
	cur := ""
	for _, w := range strings.Fields(s) {
		switch {
		case cur == "":
			cur = w
		case Width(cur)+1+Width(w) <= n:
			cur += " " + w
		default:
			lines = append(lines, cur)
			cur = w
		}
	}
	return append(lines, cur)
}

// tableWidth is how wide textTable prints t.
func tableWidth(t *report.Table) int {
	w := 0
	for _, n := range colWidths(t) {
		w += n + 2
	}
	if len(t.Highlight) > 0 {
		w += 3 // "  ◀"
	}
	return w - 2
}

const barWidth = 40

func textBars(b *strings.Builder, bs *report.Bars, lang string) {
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
		s := fmt.Sprintf("%s  %s %s", pad(r.Label, lw, false), pad(bar, barWidth, false), formatValue(lang, r.Value))
		if bs.Unit != "" {
			s += " " + bs.Unit
		}
		if r.Note != "" {
			s += "  " + r.Note
		}
		b.WriteString(strings.TrimRight(s, " ") + "\n")
	}
}

// formatValue writes a chart's number: an integer as it is, anything else
// with two decimals and the language's decimal mark (33.33, 33,33).
func formatValue(lang string, v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return fmt.Sprintf("%d", int64(v))
	}
	return l10n.Fixed(lang, v, 2)
}
