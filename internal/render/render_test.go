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

// On an 80-column terminal a score table too wide for it is printed on its
// side (one row per plugin, one column per node), so no line is wider than
// the terminal and the terminal never breaks a word; a pipe (width 0)
// keeps the table as it is.
func TestWideTablesFitTheTerminal(t *testing.T) {
	tab := &report.Table{Header: []string{"node", "TaintToleration ×3", "NodeResourcesFit ×1", "PodTopologySpread ×2", "NodeResourcesBalancedAllocation ×1", "ImageLocality ×1", "total"},
		Rows:  [][]string{{"node-a", "100", "95", "100", "73", "0", "668"}, {"node-b", "100", "95", "100", "73", "0", "668"}, {"node-c", "100", "91", "50", "74", "0", "565"}},
		Right: []bool{false, true, true, true, true, true, true}, Highlight: []bool{false, true, false}}
	d := &report.Doc{}
	d.T(tab)
	var term, pipe bytes.Buffer
	if err := Render(&term, d, Options{Format: Text, Width: 80}); err != nil {
		t.Fatal(err)
	}
	_ = Render(&pipe, d, Options{Format: Text})
	for _, l := range strings.Split(term.String(), "\n") {
		if Width(l) > 80 {
			t.Errorf("line of %d columns at 80:\n%s", Width(l), term.String())
		}
	}
	if !strings.Contains(term.String(), "node-b ◀") || !strings.Contains(term.String(), "NodeResourcesBalancedAllocation ×1") {
		t.Errorf("on its side the table lost its mark or a plugin:\n%s", term.String())
	}
	if !strings.Contains(pipe.String(), "node-a                 100") {
		t.Errorf("a pipe changed the table:\n%s", pipe.String())
	}
	// Twenty nodes do not fit on its side either: a block per node.
	many := &report.Table{Header: tab.Header}
	for i := 0; i < 20; i++ {
		many.Rows = append(many.Rows, tab.Rows[i%3])
	}
	d = &report.Doc{}
	d.T(many)
	term.Reset()
	_ = Render(&term, d, Options{Format: Text, Width: 80})
	for _, l := range strings.Split(term.String(), "\n") {
		if Width(l) > 80 {
			t.Fatalf("line of %d columns at 80:\n%s", Width(l), term.String())
		}
	}
}
