package report

import (
	"io"
	"strings"
)

// mermaidText makes s safe inside a sequenceDiagram message: ';' and '#'
// would end the statement or start an entity, so they become entity codes,
// and line breaks become <br/>.
func mermaidText(s string) string {
	r := strings.NewReplacer("#", "#35;", ";", "#59;", "\n", "<br/>")
	return r.Replace(s)
}

// RenderSequence writes a Mermaid sequenceDiagram.
func RenderSequence(w io.Writer, title string, s *Sequence) error {
	var b strings.Builder
	b.WriteString("sequenceDiagram\n")
	if title != "" {
		b.WriteString("    title " + mermaidText(title) + "\n")
	}
	for _, p := range s.Participants {
		b.WriteString("    participant " + p.ID + " as " + mermaidText(p.Label) + "\n")
	}
	first, last := "", ""
	if len(s.Participants) > 0 {
		first, last = s.Participants[0].ID, s.Participants[len(s.Participants)-1].ID
	}
	for _, m := range s.Messages {
		switch {
		case m.Section:
			b.WriteString("    Note over " + first + "," + last + ": " + mermaidText(m.Text) + "\n")
		case m.Note:
			over := m.From
			if m.To != "" && m.To != m.From {
				over += "," + m.To
			}
			b.WriteString("    Note over " + over + ": " + mermaidText(m.Text) + "\n")
		default:
			arrow := "->>"
			if m.Reply {
				arrow = "-->>"
			}
			b.WriteString("    " + m.From + arrow + m.To + ": " + mermaidText(m.Text) + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
