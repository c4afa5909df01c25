package render

import (
	"bytes"
	"strings"
	"testing"

	_ "github.com/k8sexplain/k8sexplain/internal/golden"
	"github.com/k8sexplain/k8sexplain/internal/report"
)

func TestSequenceEscapes(t *testing.T) {
	var b bytes.Buffer
	seq := &report.Sequence{Participants: []report.Participant{{ID: "loop", Label: "LIST in a loop"}, {ID: "api", Label: "kube-apiserver"}},
		Messages: []report.Message{{From: "loop", To: "api", Text: "GET /pods; again #2"}, {From: "api", Note: true, Text: "a\nb"}}}
	if err := RenderSequence(&b, "", seq); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"participant loop_ as LIST in a loop", "loop_->>api: GET /pods#59; again #35;2", "Note over api: a<br/>b"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}

func TestTextTableAndWrap(t *testing.T) {
	d := &report.Doc{Title: "T"}
	d.T(&report.Table{Header: []string{"node", "score"}, Rows: [][]string{{"node-a", "7"}, {"узел-б", "100"}}, Right: []bool{false, true}, Highlight: []bool{false, true}})
	var b bytes.Buffer
	if err := Render(&b, d, Options{Format: Text}); err != nil {
		t.Fatal(err)
	}
	want := "T\n=\n\nnode    score\n------  -----\nnode-a      7\nузел-б    100  ◀\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
	if got := Wrap("aaa bbb ccc", 7, "  "); got != "  aaa\n  bbb\n  ccc" && got != "  aaa bbb\n  ccc" {
		t.Errorf("wrap: %q", got)
	}
	if _, err := ParseFormat("yaml"); err == nil {
		t.Error("yaml is not a format")
	}
}

func TestMarkdownEscapesCells(t *testing.T) {
	d := &report.Doc{}
	d.T(&report.Table{Header: []string{"a|b"}, Rows: [][]string{{"x|y"}}})
	var b bytes.Buffer
	_ = Render(&b, d, Options{Format: Markdown})
	if !strings.Contains(b.String(), `| x\|y |`) {
		t.Errorf("pipe not escaped: %q", b.String())
	}
}

// A no-break space groups digits and never breaks a line.
func TestWrapKeepsNoBreakSpace(t *testing.T) {
	got := Wrap("событие размером 2\u00a0738 Б", 18, "")
	if got != "событие размером\n2\u00a0738 Б" {
		t.Errorf("%q", got)
	}
}
