package render

import (
	"fmt"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/report"
)

// withTimelines returns d with each Timeline block written out as the
// plain formats print it: per section a level-1 heading, then its steps
// ("time  actor  message", the explanation of a kind under its first
// step), a step's table after it. Text gets the steps as verbatim lines,
// wrapped to width on a terminal (width > 0); Markdown as a list.
func withTimelines(d *report.Doc, markdown bool, width int) *report.Doc {
	has := false
	for _, bl := range d.Blocks {
		has = has || bl.Timeline != nil
	}
	if !has {
		return d
	}
	c := *d
	c.Blocks = nil
	explained := map[string]bool{}
	for _, bl := range d.Blocks {
		if bl.Timeline == nil {
			c.Blocks = append(c.Blocks, bl)
			continue
		}
		for _, sec := range bl.Timeline.Sections {
			c.Blocks = append(c.Blocks, sectionBlocks(sec, explained, markdown, width)...)
		}
	}
	return &c
}

// sectionBlocks is one timeline section as headings, lines and tables.
func sectionBlocks(sec report.TimelineSection, explained map[string]bool, markdown bool, width int) []report.Block {
	if len(sec.Steps) == 0 {
		return nil
	}
	out := []report.Block{{Heading: &report.Heading{Level: 1, Text: sec.Title}}}
	var lines []string
	flush := func() {
		if len(lines) == 0 {
			return
		}
		if markdown {
			out = append(out, report.Block{List: &report.List{Items: lines, Markdown: true}})
		} else {
			out = append(out, report.Block{Code: &report.Code{Text: strings.Join(lines, "\n")}})
		}
		lines = nil
	}
	for i := range sec.Steps {
		s := &sec.Steps[i]
		first := s.Explain != "" && !explained[s.Kind]
		if first {
			explained[s.Kind] = true
		}
		if markdown {
			line := fmt.Sprintf("`%s` **%s** — %s", s.Time, MDText(s.Actor), MDText(s.Text))
			if first {
				line += "<br>\n  *" + MDText(s.Explain) + "*"
			}
			lines = append(lines, line)
		} else {
			lines = append(lines, stepLine(s, width))
			if first {
				w := 100
				if width > 0 {
					w = width
				}
				lines = append(lines, Wrap(s.Explain, w, strings.Repeat(" ", 11)+"│ "))
			}
		}
		if s.Table != nil {
			flush()
			out = append(out, report.Block{Table: s.Table})
		}
	}
	flush()
	return out
}

// stepLine is a step as text prints it; on a terminal (width > 0) a long
// step wraps under its message.
func stepLine(s *report.TimelineStep, width int) string {
	line := fmt.Sprintf("%s  %-24s %s", s.Time, s.Actor, s.Text)
	if width > 0 && Width(line) > width {
		head := line[:len(line)-len(s.Text)]
		if rest := width - Width(head); rest >= 20 {
			body := Wrap(s.Text, rest, "")
			line = head + strings.ReplaceAll(body, "\n", "\n"+strings.Repeat(" ", Width(head)))
		}
	}
	return line
}
