package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/report"
)

// MDText makes plain text safe as Markdown (CommonMark and GitHub's GFM):
// every character the reader would lose or see change is backslash-escaped
// (CommonMark 0.31 §2.4: any ASCII punctuation may be escaped), so
// "<deployment>-<hash>" stays text instead of vanishing as an HTML tag and
// "*" stays a star. A `code span` with its closing backtick is kept as it
// is: its content is shown verbatim anyway. Line starts that would begin a
// heading, a list or a quote are escaped too. Every renderer that writes
// Markdown passes its text through this one function.
func MDText(s string) string {
	s = ShowControls(s)
	var b strings.Builder
	b.Grow(len(s) + 8)
	lineStart := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '`' {
			if j := strings.IndexByte(s[i+1:], '`'); j > 0 && !strings.Contains(s[i+1:i+1+j], "\n") {
				b.WriteString(s[i : i+j+2])
				i += j + 1
				lineStart = false
				continue
			}
			b.WriteString("\\`")
			lineStart = false
			continue
		}
		if lineStart {
			// Leading spaces are kept; a marker after them still counts.
			if c == ' ' {
				b.WriteByte(c)
				continue
			}
			if blockMarker(s[i:]) {
				b.WriteByte('\\')
			}
			lineStart = false
		}
		if c == '_' && i > 0 && i+1 < len(s) && wordByte(s[i-1]) && wordByte(s[i+1]) {
			// An underscore inside a word never opens or closes emphasis
			// (CommonMark §6.2), so round_robin stays readable as written.
			b.WriteByte(c)
			continue
		}
		switch c {
		case '\\', '*', '_', '[', ']', '<', '>', '&', '|', '~', '$':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteByte(c)
			lineStart = true
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// blockMarker reports whether a line starting with s would start a block
// other than a paragraph (CommonMark 0.31 §4–5): an ATX heading ("# "), a
// quote (">"), a bullet ("- ", "+ ") or ordered ("1. ", "1) ") list item,
// or a thematic break or setext underline ("---", "===").
func blockMarker(s string) bool {
	line := s
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		line = s[:i]
	}
	spaceAfter := func(j int) bool { return j >= len(line) || line[j] == ' ' || line[j] == '\t' }
	switch c := line[0]; {
	case c == '>':
		return true
	case c == '#':
		j := 0
		for j < len(line) && line[j] == '#' {
			j++
		}
		return j <= 6 && spaceAfter(j)
	case c == '-' || c == '+' || c == '=' || c == '*' || c == '_':
		if strings.Trim(line, string(c)+" \t") == "" {
			return true
		}
		return (c == '-' || c == '+') && spaceAfter(1)
	case c >= '0' && c <= '9':
		j := 0
		for j < len(line) && line[j] >= '0' && line[j] <= '9' {
			j++
		}
		return j <= 9 && j < len(line) && (line[j] == '.' || line[j] == ')') && spaceAfter(j+1)
	}
	return false
}

// mdCell escapes a table cell: the text, and line breaks as <br>.
func mdCell(s string) string {
	return strings.ReplaceAll(MDText(s), "\n", "<br>")
}

func renderMarkdown(w io.Writer, d *report.Doc, o Options) error {
	d = withTimelines(d, true, 0)
	var b strings.Builder
	if d.Title != "" {
		b.WriteString("# " + MDText(d.Title) + "\n")
	}
	for i, bl := range d.Blocks {
		if i > 0 || d.Title != "" {
			b.WriteString("\n")
		}
		switch {
		case bl.Heading != nil:
			b.WriteString(strings.Repeat("#", bl.Heading.Level+1) + " " + MDText(bl.Heading.Text) + "\n")
		case bl.Para != nil:
			if bl.Para.Style != "" {
				for _, l := range strings.Split(bl.Para.Text, "\n") {
					b.WriteString(strings.TrimRight("> "+MDText(l), " ") + "\n")
				}
			} else {
				b.WriteString(MDText(bl.Para.Text) + "\n")
			}
		case bl.List != nil:
			for j, it := range bl.List.Items {
				if !bl.List.Markdown {
					it = strings.ReplaceAll(MDText(it), "\n", "\n  ")
				}
				if bl.List.Numbered {
					fmt.Fprintf(&b, "%d. %s\n", j+1, it)
				} else {
					b.WriteString("- " + it + "\n")
				}
			}
		case bl.Table != nil:
			mdTable(&b, bl.Table)
		case bl.Bars != nil:
			t := &report.Table{Header: []string{"", "", ""}, Right: []bool{false, true, false}} // no words: the same in every language
			for _, r := range bl.Bars.Rows {
				v := formatValue(o.Lang, r.Value)
				if bl.Bars.Unit != "" {
					v += " " + bl.Bars.Unit
				}
				t.Rows = append(t.Rows, []string{r.Label, v, r.Note})
			}
			mdTable(&b, t)
		case bl.Code != nil:
			b.WriteString("```" + bl.Code.Lang + "\n" + strings.TrimRight(ShowControls(bl.Code.Text), "\n") + "\n```\n")
		}
	}
	if d.Sequence != nil && len(d.Sequence.Messages) > 0 {
		// GitHub, GitLab, VS Code and Obsidian draw a fenced mermaid block.
		b.WriteString("\n## " + MDText(htmlWord(o.Lang, "sequence")) + "\n\n```mermaid\n")
		_ = RenderSequence(&b, "", d.Sequence)
		b.WriteString("```\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mdTable(b *strings.Builder, t *report.Table) {
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
