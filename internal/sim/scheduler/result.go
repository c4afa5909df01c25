package scheduler

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// Result is what one scheduling cycle did, for the trace.
type Result struct {
	// Node is the chosen node; "" when the pod is unschedulable.
	Node string
	// Filtered has one verdict per evaluated node, in evaluation order
	// (with Scheduler.Summary, only the rejected nodes).
	Filtered []NodeVerdict
	// Scores has one entry per feasible node, in evaluation order; empty
	// when fewer than two nodes fit (upstream does not score one node).
	Scores []NodeScore
	// Skipped lists the score plugins that returned Skip at PreScore.
	Skipped []string
	// Ties lists the nodes that shared the top total, when more than one
	// did; Node was drawn among them.
	Ties []string
	// Message is the FailedScheduling event message when Node is "".
	Message string

	NumAllNodes       int
	NumFeasibleToFind int // numFeasibleNodesToFind
	Evaluated         int // nodes run through Filter (processed)
	Feasible          int
}

// NodeVerdict is Filter's verdict on one node: Plugin is the plugin that
// rejected it ("" when the node fits), Reasons its upstream reason texts.
type NodeVerdict struct {
	Node    string
	Plugin  string
	Code    Code
	Reasons []string
	Detail  string
}

// NodeScore is one feasible node's scores.
type NodeScore struct {
	Node    string
	Plugins []PluginScore // in profile order, skipped plugins left out; nil with Scheduler.Summary
	Total   int64         // Σ Normalized × Weight
}

// PluginScore is one plugin's score for one node.
type PluginScore struct {
	Plugin     string
	Raw        int64 // what Score returned
	Normalized int64 // after NormalizeScore (= Raw when the plugin has none)
	Weight     int64
	Weighted   int64 // Normalized × Weight
}

// Clone returns a copy of r whose slices do not alias the Scheduler's buffers.
func (r Result) Clone() Result {
	c := r
	c.Filtered = slices.Clone(r.Filtered)
	c.Skipped = slices.Clone(r.Skipped)
	c.Ties = slices.Clone(r.Ties)
	c.Scores = make([]NodeScore, len(r.Scores))
	for i, ns := range r.Scores {
		ns.Plugins = slices.Clone(ns.Plugins)
		c.Scores[i] = ns
	}
	return c
}

// buffers are reused across cycles so a cycle allocates little.
type buffers struct {
	skipFilter []string
	filters    []FilterPlugin
	skipScore  []string
	feasible   []*NodeInfo
	verdicts   []NodeVerdict
	scores     []NodeScore
	plugins    []PluginScore
	raw        []int64
	totals     []int64
	ties       []string
}

func (b *buffers) reset() {
	b.verdicts = b.verdicts[:0]
	b.scores = b.scores[:0]
	b.plugins = b.plugins[:0]
	b.skipScore = b.skipScore[:0]
}

// score runs PreScore, Score and NormalizeScore and fills res.Scores.
func (s *Scheduler) score(pod *corev1.Pod, feasible []*NodeInfo, res *Result) {
	active := make([]bool, len(s.profile.Score))
	nActive := 0
	for i, ws := range s.profile.Score {
		active[i] = true
		if pre, ok := ws.Plugin.(PreScorePlugin); ok {
			if st := pre.PreScore(&s.st, pod, feasible); st != nil && st.Code == Skip {
				active[i] = false
				s.buf.skipScore = append(s.buf.skipScore, ws.Plugin.Name())
				continue
			}
		}
		nActive++
	}
	res.Skipped = s.buf.skipScore

	// table is a flat [node][active plugin] table, kept only for detail.
	detail := !s.Summary
	need := len(feasible) * nActive
	if !detail {
		need = 0
	}
	if cap(s.buf.plugins) < need {
		s.buf.plugins = make([]PluginScore, need)
	}
	table := s.buf.plugins[:need]
	if cap(s.buf.raw) < len(feasible) {
		s.buf.raw = make([]int64, len(feasible))
		s.buf.totals = make([]int64, len(feasible))
	}
	raw, totals := s.buf.raw[:len(feasible)], s.buf.totals[:len(feasible)]
	clear(totals)
	col := 0
	for i, ws := range s.profile.Score {
		if !active[i] {
			continue
		}
		name := ws.Plugin.Name()
		if b, ok := ws.Plugin.(batchScorer); ok {
			b.scoreAll(&s.st, pod, feasible, raw)
		} else {
			for j, n := range feasible {
				raw[j] = ws.Plugin.Score(&s.st, pod, n)
			}
		}
		if detail {
			for j := range feasible {
				table[j*nActive+col] = PluginScore{Plugin: name, Raw: raw[j], Weight: ws.Weight}
			}
		}
		if norm, ok := ws.Plugin.(NormalizeScorer); ok {
			norm.NormalizeScore(&s.st, pod, feasible, raw)
		}
		for j := range feasible {
			totals[j] += raw[j] * ws.Weight
			if detail {
				ps := &table[j*nActive+col]
				ps.Normalized, ps.Weighted = raw[j], raw[j]*ws.Weight
			}
		}
		col++
	}
	for j, n := range feasible {
		ns := NodeScore{Node: n.name, Total: totals[j]}
		if detail {
			ns.Plugins = table[j*nActive : (j+1)*nActive : (j+1)*nActive]
		}
		s.buf.scores = append(s.buf.scores, ns)
	}
	res.Scores = s.buf.scores
}

// Reasons preemption gives per node (framework/preemption/preemption.go).
const (
	reasonPreemptionNotHelpful = "Preemption is not helpful for scheduling"
	reasonNoVictims            = "No preemption victims found for incoming pod"
)

// failureMessage builds the FailedScheduling message as FitError.Error does
// (framework/types.go): "0/N nodes are available: " + the reason histogram
// ("COUNT REASON", sorted as strings, joined ", ") + ".", then " " and the
// PostFilter message. This simulator has no priorities, so preemption never
// finds victims: nodes rejected as UnschedulableAndUnresolvable are "not
// helpful", the others yield "No preemption victims found".
func failureMessage(pod *corev1.Pod, numAll int, verdicts []NodeVerdict, dra bool) string {
	reasons := map[string]int{}
	preempt := map[string]int{}
	for _, v := range verdicts {
		for _, r := range v.Reasons {
			reasons[r]++
		}
		if v.Code == UnschedulableAndUnresolvable {
			preempt[reasonPreemptionNotHelpful]++
		} else {
			preempt[reasonNoVictims]++
		}
	}
	msg := fmt.Sprintf("0/%d nodes are available:", numAll)
	if h := histogram(reasons); h != "" {
		msg += " " + h + "."
	}
	post := ""
	if p := pod.Spec.PreemptionPolicy; p != nil && *p == corev1.PreemptNever {
		post = "preemption: not eligible due to preemptionPolicy=Never."
	} else {
		post = fmt.Sprintf("preemption: 0/%d nodes are available: %s.", numAll, histogram(preempt))
	}
	if dra {
		post = "no new claims to deallocate, " + post
	}
	return msg + " " + post
}

// WithoutPostFilter is a FailedScheduling message without its PostFilter
// sentence, for the scheduler to add its own: preemption's success
// message, or why a pod is not eligible.
func WithoutPostFilter(msg string) string {
	for _, cut := range []string{" no new claims to deallocate, preemption: ", " preemption: "} {
		if i := strings.Index(msg, cut); i >= 0 {
			return msg[:i]
		}
	}
	return msg
}

func histogram(counts map[string]int) string {
	parts := make([]string, 0, len(counts))
	for r, n := range counts {
		parts = append(parts, fmt.Sprintf("%d %s", n, r))
	}
	sort.Strings(parts) // upstream sorts the strings: "10 …" before "2 …"
	return strings.Join(parts, ", ")
}
