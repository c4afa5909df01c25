package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/report"
)

// A value with terminal escapes (from a manifest: an image, a command)
// reaches no output as a control character: every format shows it
// escaped (issue 29).
func TestControlCharactersAreShownNotSent(t *testing.T) {
	evil := "nginx\x1b[31mRED\x07\x1b]0;title\x07\u009b2J\u202eevil"
	d := &report.Doc{Title: "t " + evil}
	d.H(1, "h "+evil)
	d.P("p " + evil)
	d.L("l " + evil)
	d.T(&report.Table{Header: []string{"a " + evil}, Rows: [][]string{{"c " + evil}}})
	d.B(&report.Bars{Unit: evil, Rows: []report.Bar{{Label: evil, Value: 1, Note: evil}}})
	d.Blocks = append(d.Blocks, report.Block{Code: &report.Code{Text: "code " + evil}})
	d.Sequence = &report.Sequence{Participants: []report.Participant{{ID: "a", Label: evil}, {ID: "b", Label: "b"}},
		Messages: []report.Message{{From: "a", To: "b", Text: evil}, {From: "a", Text: evil, Note: true}}}
	for _, f := range []Format{Text, Markdown, Mermaid, HTML, JSON} {
		var b bytes.Buffer
		if err := Render(&b, d, Options{Format: f}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for i, r := range out {
			if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || isControl(r) {
				t.Errorf("%s: control character %U at byte %d: %q", f, r, i, out[max(0, i-20):min(len(out), i+20)])
				break
			}
		}
		if f != JSON && !strings.Contains(out, `\x1b`) {
			t.Errorf("%s: the escape is not shown", f)
		}
	}
	if got := ShowControls("a\x1b[0m\tb\n\u202e"); got != `a\x1b[0m`+"\tb\n"+`\u202e` {
		t.Errorf("ShowControls: %q", got)
	}
}
