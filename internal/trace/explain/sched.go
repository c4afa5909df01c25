package explain

import (
	"fmt"
	"strconv"

	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/k8sexplain/k8sexplain/internal/trace"
)

// stepTable is the table a step carries: a scheduler cycle's scores when
// it has them, else its filter verdicts; nil for every other step.
func stepTable(s *trace.Step) *report.Table {
	switch {
	case s.Placement == nil:
		return nil
	case len(s.Placement.Scores) > 0:
		return scoreTable(*s.Placement)
	}
	return filterTable(*s.Placement)
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
