package report

import (
	"fmt"
	"io"
	"strings"
)

// mdCell escapes what would break a Markdown table cell.
func mdCell(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", "<br>")
}

func renderMarkdown(w io.Writer, d *Doc) error {
	var b strings.Builder
	if d.Title != "" {
		b.WriteString("# " + d.Title + "\n")
	}
	for i, bl := range d.Blocks {
		if i > 0 || d.Title != "" {
			b.WriteString("\n")
		}
		switch {
		case bl.Heading != nil:
			b.WriteString(strings.Repeat("#", bl.Heading.Level+1) + " " + bl.Heading.Text + "\n")
		case bl.Para != nil:
			if bl.Para.Style != "" {
				for _, l := range strings.Split(bl.Para.Text, "\n") {
					b.WriteString(strings.TrimRight("> "+l, " ") + "\n")
				}
			} else {
				b.WriteString(bl.Para.Text + "\n")
			}
		case bl.List != nil:
			for j, it := range bl.List.Items {
				if bl.List.Numbered {
					fmt.Fprintf(&b, "%d. %s\n", j+1, it)
				} else {
					b.WriteString("- " + it + "\n")
				}
			}
		case bl.Table != nil:
			mdTable(&b, bl.Table)
		case bl.Bars != nil:
			t := &Table{Header: []string{"", "", ""}, Right: []bool{false, true, false}} // no words: the same in every language
			for _, r := range bl.Bars.Rows {
				v := formatValue(r.Value)
				if bl.Bars.Unit != "" {
					v += " " + bl.Bars.Unit
				}
				t.Rows = append(t.Rows, []string{r.Label, v, r.Note})
			}
			mdTable(&b, t)
		case bl.Code != nil:
			b.WriteString("```" + bl.Code.Lang + "\n" + strings.TrimRight(bl.Code.Text, "\n") + "\n```\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mdTable(b *strings.Builder, t *Table) {
	row := func(cells []string, hl bool) {
		b.WriteString("|")
		for i := range t.Header {
			c := ""
			if i < len(cells) {
				c = mdCell(cells[i])
			}
			if hl && c != "" {
				c = "**" + c + "**"
			}
			b.WriteString(" " + c + " |")
		}
		b.WriteString("\n")
	}
	row(t.Header, false)
	b.WriteString("|")
	for i := range t.Header {
		if i < len(t.Right) && t.Right[i] {
			b.WriteString("---:|")
		} else {
			b.WriteString("---|")
		}
	}
	b.WriteString("\n")
	for i, r := range t.Rows {
		row(r, i < len(t.Highlight) && t.Highlight[i])
	}
}
