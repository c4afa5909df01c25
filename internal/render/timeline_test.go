package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/report"
)

// One document, a timeline block every format draws its own way: text
// and Markdown explain a kind under its first step only and print the
// plain-only line; the page explains every step and leaves that line out;
// Mermaid draws the untitled sequence.
func TestTimelineBlockInEveryFormat(t *testing.T) {
	d := &report.Doc{Title: "story — cmd"}
	d.Blocks = append(d.Blocks, report.Block{Para: &report.Para{Text: "modelled line", Plain: true}})
	seq := &report.Sequence{Participants: []report.Participant{{ID: "a", Label: "a"}},
		Messages: []report.Message{{From: "a", Note: true, Text: "first", Time: "00:00.001", Ref: "s1"}}}
	d.Line(&report.Timeline{Diagram: seq, Sections: []report.TimelineSection{{Title: "Phase", Steps: []report.TimelineStep{
		{ID: "s1", Time: "00:00.001", Actor: "kubectl", Text: "first", Explain: "why it happens", Kind: "k"},
		{ID: "s2", Time: "00:00.002", Actor: "kubectl", Text: "second", Explain: "why it happens", Kind: "k"},
	}}}})
	d.Sequence = &report.Sequence{Participants: seq.Participants, Messages: seq.Messages, Untitled: true}
	out := func(f Format) string {
		var b bytes.Buffer
		if err := Render(&b, d, Options{Format: f}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	for _, f := range []Format{Text, Markdown} {
		s := out(f)
		if n := strings.Count(s, "why it happens"); n != 1 {
			t.Errorf("%s: explanation printed %d times, want once:\n%s", f, n, s)
		}
		if !strings.Contains(s, "modelled line") || !strings.Contains(s, "second") {
			t.Errorf("%s: missing the plain line or a step:\n%s", f, s)
		}
	}
	if s := out(Text); !strings.Contains(s, "00:00.002  kubectl                  second\n") {
		t.Errorf("text: step line not as trace prints it:\n%s", s)
	}
	page := out(HTML)
	if n := strings.Count(page, "why it happens"); n != 2 || strings.Contains(page, "modelled line") {
		t.Errorf("html: %d explanations (want 2), plain line shown: %v", n, strings.Contains(page, "modelled line"))
	}
	if m := out(Mermaid); strings.Contains(m, "title") {
		t.Errorf("mermaid: an untitled sequence got a title:\n%s", m)
	}
}
