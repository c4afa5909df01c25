package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/report"
)

func TestFoldMergesAlikeNeighboursOnly(t *testing.T) {
	in := []report.Message{
		{Section: true, Text: "phase"},
		{From: "api", To: "cm", Reply: true, Kind: "watch", Text: "a"},
		{From: "api", To: "cm", Reply: true, Kind: "watch", Text: "b"},
		{From: "api", To: "sched", Reply: true, Kind: "watch", Text: "c"},
		{From: "api", To: "sched", Reply: true, Kind: "watch", Text: "d", Count: 3},
		{From: "kubelet", Note: true, Text: "n"},
		{From: "kubelet", Note: true, Text: "n"}, // no Kind: never merged
	}
	out := fold(in)
	if len(out) != 5 || out[1].Count != 2 || out[1].Text != "a" || out[2].Count != 4 || out[4].Count != 1 {
		t.Fatalf("fold: %+v", out)
	}
}

func TestSequenceSVGCountsLanesArrowsAndEscapes(t *testing.T) {
	s := &report.Sequence{Participants: []report.Participant{{ID: "a", Label: "kubectl"}, {ID: "b", Label: "kube-apiserver"}},
		Messages: []report.Message{
			{Section: true, Text: "1. <start>"},
			{From: "a", To: "b", Text: "POST <deployment>-<hash> & more", Time: "00:00.002", Ref: "s1", Kind: "post"},
			{From: "b", To: "a", Reply: true, Text: "201", Ref: "s2", Kind: "resp"},
			{From: "b", Note: true, Text: "note", Ref: "s3"},
			{From: "c", To: "a", Text: "from a lane nobody declared"},
		}}
	var b strings.Builder
	sequenceSVG(&b, s)
	out := b.String()
	if !strings.Contains(out, `data-lanes="3" data-arrows="3" data-notes="1"`) {
		t.Errorf("counts: %s", out[:300])
	}
	if strings.Count(out, `<g class="lane">`) != 3 || strings.Count(out, `<g class="arrow`) != 3 || strings.Count(out, `<g class="note"`) != 1 {
		t.Error("drawn elements disagree with the counts")
	}
	if strings.Contains(out, "<deployment>") || !strings.Contains(out, "&lt;deployment&gt;-&lt;hash&gt; &amp; more") || !strings.Contains(out, "1. &lt;start&gt;") {
		t.Error("text not escaped")
	}
	if !strings.Contains(out, `data-ref="s1"`) || !strings.Contains(out, ">00:00.002<") {
		t.Error("arrow lacks its step reference or its time")
	}
}

func TestHTMLPageIsSelfContainedAndDeterministic(t *testing.T) {
	d := &report.Doc{Title: "T <1>"}
	d.H(1, "Section")
	d.P("para")
	d.T(&report.Table{Header: []string{"n", "v"}, Rows: [][]string{{"a", "1"}}, Right: []bool{false, true}, Highlight: []bool{true}})
	d.B(&report.Bars{Rows: []report.Bar{{Label: "pod-1", Value: 3}, {Label: "pod-2", Value: 0}}})
	d.C("", "line0\nline1\n")
	d.Blocks[len(d.Blocks)-1].Code.Mark = []int{1}
	d.Fig(&report.Figure{Graph: &report.Graph{Nodes: []report.GraphNode{{ID: "x", Label: "X"}, {ID: "y", Label: "Y", Layer: 1, Hot: true}}, Edges: []report.GraphEdge{{From: "x", To: "y", Label: "0.5", Hot: true}}}})
	d.Fig(&report.Figure{Chart: &report.Chart{X: []string{"1", "2"}, Series: []report.Series{{Name: "old", Values: []float64{3, 2}}}}})
	d.Fig(&report.Figure{Sides: &report.Sides{Rows: []report.SidesRow{{Label: "after", Groups: [][]report.Member{{{Name: "etcd-1", Role: "leader"}}}, Down: []report.Member{{Name: "etcd-2", Role: "down"}}}}}})
	var a, b bytes.Buffer
	if err := Render(&a, d, Options{Format: HTML, Lang: "ru"}); err != nil {
		t.Fatal(err)
	}
	_ = Render(&b, d, Options{Format: HTML, Lang: "ru"})
	if a.String() != b.String() {
		t.Error("two renders differ")
	}
	out := a.String()
	for _, bad := range []string{"http://", "https://", "src=", "@import", "url(http"} {
		if strings.Contains(strings.ReplaceAll(out, `xmlns="http://www.w3.org/2000/svg"`, ""), bad) {
			t.Errorf("page refers to something outside itself: %q", bad)
		}
	}
	for _, want := range []string{`<html lang="ru">`, "<title>T &lt;1&gt;</title>", `<tr class="hl">`, `<td class="num">1</td>`, `<span class="hot">line1</span>`,
		`data-bars="2"`, `data-nodes="2" data-edges="1"`, `class="edge hot"`, `data-series="1"`, `class="member leader"`, "prefers-color-scheme:dark", "@media print", "Нажмите"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q", want)
		}
	}
	// The other formats skip figures and keep their bytes.
	var txt bytes.Buffer
	_ = Render(&txt, d, Options{Format: Text})
	if strings.Count(txt.String(), "\n\n") != 5 {
		t.Errorf("text output has a gap where a figure was skipped:\n%s", txt.String())
	}
}

func TestProseShowsCodeSpans(t *testing.T) {
	for in, want := range map[string]string{
		"run `kubectl apply` <now>": "run <code>kubectl apply</code> &lt;now&gt;",
		"a ` alone":                 "a ` alone",
		"`a` and `b":                "<code>a</code> and `b",
		"no code":                   "no code",
	} {
		if got := prose(in); got != want {
			t.Errorf("prose(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWrapLabelKeepsTwoLinesAndBreaksAtWords(t *testing.T) {
	got := wrapLabel("POST /api/v1/namespaces/default/services?fieldManager=kubectl", 20)
	if len(got) != 2 || got[0] != "POST" && !strings.HasSuffix(got[0], "/") {
		t.Errorf("break: %q", got)
	}
	for _, l := range got {
		if n := len([]rune(l)); n > 20 {
			t.Errorf("line %q is %d runes, over 20", l, n)
		}
	}
	if !strings.HasSuffix(got[1], "…") {
		t.Errorf("text left over but the last line %q does not end in …", got[1])
	}
	if got := wrapLabel("short", 20); len(got) != 1 || got[0] != "short" {
		t.Errorf("short label: %q", got)
	}
	if got := wrapLabel("one two three four", 10); strings.Join(got, "|") != "one two|three four" {
		t.Errorf("word break: %q", got)
	}
}

func TestLeadFigureComesFirstAndTheDiagramHasItsColumn(t *testing.T) {
	d := &report.Doc{Title: "T"}
	d.H(1, "Story")
	d.P("text")
	d.Fig(&report.Figure{Lead: true, Title: "the chart", Chart: &report.Chart{X: []string{"1", "2"}, Series: []report.Series{{Name: "old", Values: []float64{3, 2}}}}})
	d.Sequence = &report.Sequence{Participants: []report.Participant{{ID: "a", Label: "a"}, {ID: "b", Label: "b"}},
		Messages: []report.Message{{From: "a", To: "b", Text: "hi"}}}
	var out bytes.Buffer
	if err := Render(&out, d, Options{Format: HTML}); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	lead, layout, story := strings.Index(s, `<figure class="lead">`), strings.Index(s, `<div class="layout">`), strings.Index(s, "<h2>Story</h2>")
	if lead < 0 || layout < 0 || story < 0 || !(lead < layout && layout < story) {
		t.Errorf("order: lead figure at %d, layout at %d, first section at %d", lead, layout, story)
	}
	if strings.Index(s, `<div class="flow">`) > story {
		t.Error("the blocks are not in the flow column beside the diagram")
	}
	if !strings.Contains(s, `<ul class="legend"><li class="s0"><span class="sw"></span>old</li></ul>`) {
		t.Error("the chart's legend is not HTML text")
	}
}
