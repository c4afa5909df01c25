package explain

import (
	"sort"
	"strconv"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/k8sexplain/k8sexplain/internal/trace"
)

// stepID names the n-th shown step (1-based) in the HTML page; the
// diagram's arrows refer to it.
func stepID(n int) string { return "s" + strconv.Itoa(n) }

// timelineStep is one step: time, actor, message; its explanation and
// (for every kind) its fields open on a click.
func timelineStep(tr *trace.Trace, s *trace.Step, id, lang string) report.TimelineStep {
	ts := report.TimelineStep{ID: id, Time: trace.Clock(s.At - tr.Start), Actor: s.Actor, Text: trace.Text(lang, s),
		Explain: trace.Explanation(lang, s), Table: stepTable(lang, s), Kind: string(s.Kind)}
	var fs []string
	if s.Object != "" {
		fs = append(fs, s.Object)
	}
	for _, f := range s.Fields {
		fs = append(fs, f.Key+"="+f.Value)
	}
	if len(fs) > 0 {
		ts.Detail = string(s.Kind) + ": " + strings.Join(fs, ", ")
	}
	return ts
}

// chartOf draws a result table as a step chart: the first column is the
// axis, and every other column whose cells are all integers a line (the
// rollout's ReplicaSet sizes sync by sync; the autoscaler's replicas and
// desired replicas at each sync, beside its text columns). A table with no
// such column gets no chart.
func chartOf(t *report.Table) *report.Figure {
	if len(t.Rows) < 2 || len(t.Header) < 2 {
		return nil
	}
	c := &report.Chart{XLabel: t.Header[0]}
	for col := 1; col < len(t.Header); col++ {
		vals := make([]float64, 0, len(t.Rows))
		for _, r := range t.Rows {
			if len(r) != len(t.Header) {
				return nil
			}
			v, err := strconv.Atoi(r[col])
			if err != nil {
				vals = nil
				break
			}
			vals = append(vals, float64(v))
		}
		if vals != nil {
			c.Series = append(c.Series, report.Series{Name: t.Header[col], Values: vals})
		}
	}
	if len(c.Series) == 0 {
		return nil
	}
	for _, r := range t.Rows {
		c.X = append(c.X, r[0])
	}
	return &report.Figure{Chart: c}
}

// player is the state of the cluster at each shown step (in page order,
// ids s1, s2, …), from the run's state log: the page replays the changes
// up to a step to draw its tables.
func player(tr *trace.Trace, shown []trace.Step) *report.Player {
	p := &report.Player{Dropped: tr.State.Dropped}
	kind := map[string]int{}
	for i, k := range trace.StateKinds {
		kind[k.Kind] = i
		p.Kinds = append(p.Kinds, report.PlayerKind{Kind: k.Kind, Title: k.TableTitle(), Header: k.Header})
	}
	for _, c := range tr.State.Changes {
		pc := report.PlayerChange{K: kind[c.Kind], N: c.Name, C: c.Cols, D: c.Deleted, A: (c.Created - tr.Start).Milliseconds()}
		if c.Restarted != 0 {
			r := (c.Restarted - tr.Start).Milliseconds()
			pc.R = &r
		}
		p.Changes = append(p.Changes, pc)
	}
	// The step shown just before each one in time: its changes end where
	// this step's begin.
	seqs := make([]int, len(shown))
	for i, s := range shown {
		seqs[i] = s.Seq
	}
	sort.Ints(seqs)
	for _, s := range shown {
		i := sort.SearchInts(seqs, s.Seq)
		prev := s.Seq - 1
		if i > 0 {
			prev = seqs[i-1]
		}
		p.Steps = append(p.Steps, report.PlayerStep{T: (s.At - tr.Start).Milliseconds(),
			N: tr.State.UptoSeq(s.Seq), P: tr.State.UptoSeq(prev)})
	}
	return p
}
