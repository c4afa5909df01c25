package explain

import (
	"fmt"
	"strconv"

	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/k8sexplain/k8sexplain/internal/trace"
)

// stepTable is the table a step carries, in lang: a scheduler cycle's
// scores when it has them, else its filter verdicts; nil for every other
// step.
func stepTable(lang string, s *trace.Step) *report.Table {
	switch {
	case s.Placement == nil:
		return nil
	case len(s.Placement.Scores) > 0:
		return translated(lang, scoreTable(*s.Placement))
	}
	return translated(lang, filterTable(*s.Placement))
}

// filterTable and scoreTable write their headers and verdicts as words of
// the trace catalogue ("node", "fits"), which translated writes in lang.

// translated is t in lang: the headers and verdicts that are English words
// of the catalogue (word.*: "node", "fits") are translated; names, plugin
// names, numbers and Kubernetes' own messages are not words of it and stay
// as they are.
func translated(lang string, t *report.Table) *report.Table {
	if t == nil || lang == "en" {
		return t
	}
	out := *t
	out.Header = make([]string, len(t.Header))
	for i, h := range t.Header {
		out.Header[i] = word(lang, h)
	}
	out.Rows = make([][]string, len(t.Rows))
	for i, row := range t.Rows {
		out.Rows[i] = make([]string, len(row))
		for j, c := range row {
			out.Rows[i][j] = word(lang, c)
		}
	}
	return &out
}

func filterTable(res trace.Placement) *report.Table {
	t := &report.Table{Header: []string{"node", "filter", "verdict"}}
	for _, v := range res.Filtered {
		if v.Plugin == "" {
			t.Rows = append(t.Rows, []string{v.Node, "all passed", "fits"})
			continue
		}
		reason := ""
		for i, r := range v.Reasons {
			if i > 0 {
				reason += "; "
			}
			reason += r
		}
		t.Rows = append(t.Rows, []string{v.Node, v.Plugin, reason})
	}
	return t
}

func scoreTable(res trace.Placement) *report.Table {
	t := &report.Table{Header: []string{"node"}}
	if len(res.Scores) == 0 {
		return t
	}
	for _, p := range res.Scores[0].Plugins {
		t.Header = append(t.Header, fmt.Sprintf("%s ×%d", p.Plugin, p.Weight))
	}
	t.Header = append(t.Header, "total")
	t.Right = make([]bool, len(t.Header))
	for i := 1; i < len(t.Right); i++ {
		t.Right[i] = true
	}
	for _, ns := range res.Scores {
		row := []string{ns.Node}
		for _, p := range ns.Plugins {
			row = append(row, strconv.FormatInt(p.Normalized, 10))
		}
		row = append(row, strconv.FormatInt(ns.Total, 10))
		t.Rows = append(t.Rows, row)
		t.Highlight = append(t.Highlight, ns.Node == res.Node)
	}
	return t
}
