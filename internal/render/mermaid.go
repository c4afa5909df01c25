package render

import (
	"io"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/report"
)

// mermaidText makes s safe inside a sequenceDiagram message: ';' and '#'
// would end the statement or start an entity, so they become entity codes,
// and line breaks become <br/>.
func mermaidText(s string) string {
	r := strings.NewReplacer("#", "#35;", ";", "#59;", "\n", "<br/>")
	return r.Replace(ShowControls(s))
}

// mermaidWidth is where message and note text breaks into lines: mermaid
// sizes a box to its longest line, so one 300-character line makes a
// diagram nobody can read.
const mermaidWidth = 60

// mermaidLabel is mermaidText of s broken into lines of mermaidWidth.
func mermaidLabel(s string) string {
	if Width(s) <= mermaidWidth {
		return mermaidText(s)
	}
	return mermaidText(Wrap(s, mermaidWidth, ""))
}

// reserved are sequenceDiagram keywords that cannot be participant ids
// (mermaid's sequence grammar): such an id gets a trailing underscore.
var reserved = map[string]bool{
	"loop": true, "alt": true, "opt": true, "par": true, "end": true, "rect": true, "note": true, "critical": true,
	"break": true, "box": true, "participant": true, "actor": true, "else": true, "and": true, "autonumber": true,
	"activate": true, "deactivate": true, "title": true, "create": true, "destroy": true, "link": true, "links": true,
	"properties": true, "details": true, "over": true, "left": true, "right": true, "of": true,
}

func safeID(id string) string {
	if reserved[strings.ToLower(id)] {
		return id + "_"
	}
	return id
}

// renderMermaid writes the document's sequence diagram, titled unless it
// says otherwise.
func renderMermaid(w io.Writer, d *report.Doc, _ Options) error {
	if d.Sequence == nil {
		return exitcode.Inputf("--format mermaid: this output has no sequence diagram; use text, markdown or json")
	}
	title := d.Title
	if d.Sequence.Untitled {
		title = ""
	}
	return RenderSequence(w, title, d.Sequence)
}

// RenderSequence writes a Mermaid sequenceDiagram.
func RenderSequence(w io.Writer, title string, s *report.Sequence) error {
	var b strings.Builder
	b.WriteString("sequenceDiagram\n")
	if title != "" {
		b.WriteString("    title " + mermaidText(title) + "\n")
	}
	for _, p := range s.Participants {
		b.WriteString("    participant " + safeID(p.ID) + " as " + mermaidText(p.Label) + "\n")
	}
	first, last := "", ""
	if len(s.Participants) > 0 {
		first, last = safeID(s.Participants[0].ID), safeID(s.Participants[len(s.Participants)-1].ID)
	}
	for _, m := range s.Messages {
		switch {
		case m.Section:
			b.WriteString("    Note over " + first + "," + last + ": " + mermaidText(m.Text) + "\n")
		case m.Note:
			over := safeID(m.From)
			if m.To != "" && m.To != m.From {
				over += "," + safeID(m.To)
			}
			b.WriteString("    Note over " + over + ": " + mermaidLabel(m.Text) + "\n")
		default:
			arrow := "->>"
			if m.Reply {
				arrow = "-->>"
			}
			b.WriteString("    " + safeID(m.From) + arrow + safeID(m.To) + ": " + mermaidLabel(m.Text) + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
