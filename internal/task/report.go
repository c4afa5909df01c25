package task

import (
	"fmt"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
)

// Status is a task's place in the learner's progress.
type Status string

// The statuses `task list` shows.
const (
	New    Status = "new"
	Passed Status = "passed"
	Failed Status = "failed"
	Due    Status = "due"
)

// ListItem is one row of `task list --format json`.
type ListItem struct {
	ID     string `json:"id"`
	Topic  string `json:"topic"`
	Level  string `json:"level"`
	Title  string `json:"title"`
	Status Status `json:"status"`
}

// ListData is the documented JSON of `task list` (k8sexplain.task-list/v1).
type ListData struct {
	Items []ListItem `json:"items"`
}

// ListDoc is `task list`: every task with its status (status by id).
func ListDoc(tasks []*Task, status map[string]Status, lang string) *report.Doc {
	data := &ListData{Items: []ListItem{}}
	t := &report.Table{Header: []string{msg(lang, "Task"), msg(lang, "Topic"), msg(lang, "Level"), msg(lang, "Status"), ""}}
	passed := 0
	for _, tk := range tasks {
		st := status[tk.ID]
		if st == "" {
			st = New
		}
		if st == Passed {
			passed++
		}
		data.Items = append(data.Items, ListItem{ID: tk.ID, Topic: tk.Topic, Level: tk.Level, Title: tk.Title.In(lang), Status: st})
		t.Rows = append(t.Rows, []string{tk.ID, tk.Topic, tk.Level, msg(lang, string(st)), tk.Title.In(lang)})
	}
	d := &report.Doc{Title: msg(lang, "Tasks"), Data: data}
	d.P(msgf(lang, "{1:# task|# tasks}, {2} passed", len(tasks), passed))
	d.T(t)
	return d
}

// StartDoc is `task start`: the situation, the starting cluster, the goal
// and its conditions; written names the starter file, if one was written.
func StartDoc(t *Task, lang, written, checkCmd string) *report.Doc {
	d := &report.Doc{Title: msg(lang, "Task") + " " + t.ID + " — " + t.Title.In(lang)}
	d.P(t.Topic + " · " + t.Level)
	d.H(1, msg(lang, "Situation"))
	d.P(t.Situation.In(lang))
	d.H(1, msg(lang, "Starting cluster"))
	nodes := &report.Table{Header: []string{msg(lang, "Nodes"), "cpu", "memory", msg(lang, "labels"), "taints"}}
	for _, o := range t.nodes {
		n := o.Obj.(*corev1.Node)
		var taints []string
		for _, tt := range n.Spec.Taints {
			taints = append(taints, fmt.Sprintf("%s=%s:%s", tt.Key, tt.Value, tt.Effect))
		}
		var lbls []string
		for _, k := range sortedKeys(n.Labels) {
			lbls = append(lbls, k+"="+n.Labels[k])
		}
		cpu, mem := n.Status.Capacity[corev1.ResourceCPU], n.Status.Capacity[corev1.ResourceMemory]
		nodes.Rows = append(nodes.Rows, []string{n.Name, cpu.String(), mem.String(), dash(strings.Join(lbls, ", ")), dash(strings.Join(taints, ", "))})
	}
	d.T(nodes)
	if len(t.given) > 0 {
		var objs []string
		for _, o := range t.given {
			ref := o.Kind + "/" + o.Name
			if o.Namespace != "" {
				ref += " (" + o.Namespace + ")"
			}
			objs = append(objs, ref)
		}
		d.P(msg(lang, "Objects") + ": " + strings.Join(objs, ", "))
		d.C("yaml", strings.TrimSpace(clusterObjects(t.Cluster)))
	}
	if a := t.Action; a != nil {
		d.H(1, msg(lang, "What happens next"))
		d.P(actionText(a, lang))
	}
	d.H(1, msg(lang, "Goal"))
	d.P(t.Goal.In(lang))
	d.H(2, msg(lang, "Conditions checked"))
	var items []string
	for _, g := range t.Goals {
		items = append(items, g.ID+": "+g.Text.In(lang))
	}
	d.L(items...)
	if len(t.Forbid) > 0 {
		d.H(2, msg(lang, "Forbidden"))
		var rules []string
		for _, r := range t.Forbid {
			rules = append(rules, r.ID+": "+r.Text.In(lang))
		}
		d.L(rules...)
	}
	if written != "" {
		d.P(msgf(lang, "The starter manifest was written to {1}: edit it, then run {2}", written, checkCmd))
	} else {
		d.P(msgf(lang, "Then run {1}", checkCmd))
	}
	return d
}

func actionText(a *Action, lang string) string {
	if a.SetImage != "" {
		return msgf(lang, "kubectl set image {1} after your objects are up", a.SetImage)
	}
	if a.Drain != "" {
		return msgf(lang, "`kubectl drain {1} --ignore-daemonsets --timeout 2m` after your objects are up", a.Drain)
	}
	if a.Load != "" {
		curve, _ := a.curve() // validated with the task
		every := curve.Every
		return msgf(lang, "a CPU load of {1} (of the starting replicas' requests, a step every {2}) on Deployment {3} after your objects are up", a.Load, every, a.Target)
	}
	return msgf(lang, "the first Ready pod of {1} stops answering its {2} probe", a.Selector, a.Fail)
}

// clusterObjects is the starting manifest without its Nodes (shown in the
// table above it).
func clusterObjects(cluster string) string {
	var keep []string
	for _, doc := range strings.Split(cluster, "\n---\n") {
		if strings.Contains(doc, "kind: Node\n") {
			continue
		}
		keep = append(keep, strings.TrimSpace(doc))
	}
	return strings.Join(keep, "\n---\n")
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// HintDoc is the hint alone (`task start --hint`, `task check --hint`).
func hint(d *report.Doc, t *Task, lang string) {
	d.H(1, msg(lang, "Hint"))
	d.P(t.Hint.In(lang))
}

// CheckData is the documented JSON of `task check` (k8sexplain.task-check/v1).
type CheckData struct {
	Task       string          `json:"task"`
	Files      []string        `json:"files"`
	Passed     bool            `json:"passed"`
	End        string          `json:"end"`
	Action     string          `json:"action_failed,omitempty"`
	Kubectl    string          `json:"kubectl_error,omitempty"`
	Conditions []CheckCondData `json:"conditions"`
	Hint       string          `json:"hint,omitempty"`
}

// CheckCondData is one condition of CheckData.
type CheckCondData struct {
	ID     string     `json:"id"`
	Type   string     `json:"type"`
	Text   string     `json:"text"`
	Pass   bool       `json:"pass"`
	At     string     `json:"at,omitempty"`
	Reason string     `json:"reason,omitempty"`
	Steps  []StepData `json:"steps,omitempty"`
}

// StepData is a trace step that explains a failed condition.
type StepData struct {
	At     string `json:"at"`
	Actor  string `json:"actor"`
	Kind   string `json:"kind"`
	Object string `json:"object,omitempty"`
	Text   string `json:"text"`
}

// CheckDoc is `task check`'s report; withHint adds the task's hint.
func CheckDoc(r *Result, lang string, withHint bool) *report.Doc {
	t := r.Task
	data := &CheckData{Task: t.ID, Files: r.Files, Passed: r.Passed(), End: clock(r.End), Conditions: []CheckCondData{}}
	d := &report.Doc{Title: msg(lang, "Task") + " " + t.ID + " — " + t.Title.In(lang), Data: data}
	d.P("k8sexplain task check " + t.ID + " " + strings.Join(r.Files, " ") + " — " + msgf(lang, "ends at {1} (virtual time)", clock(r.End)))
	if r.Action != nil {
		data.Action = r.Action.In(lang)
		d.Styled("warn", msg(lang, "The action")+" ("+actionText(t.Action, lang)+"): "+data.Action)
	}
	if r.Failed != "" {
		data.Kubectl = r.Failed
		d.Styled("warn", msg(lang, "kubectl refused an object")+": "+r.Failed)
	}
	tbl := &report.Table{Header: []string{msg(lang, "Condition"), msg(lang, "Result"), ""}}
	passed := 0
	for _, c := range r.Conditions {
		cd := CheckCondData{ID: c.Goal.ID, Type: c.Goal.Type, Text: c.Goal.Text.In(lang), Pass: c.Pass}
		verdict := "✓ " + msg(lang, "pass")
		if c.Pass {
			passed++
		} else {
			cd.At, cd.Reason = clock(c.At), c.Finding.In(lang)
			verdict = "✗ " + msg(lang, "fail") + " " + msgf(lang, "at {1}", clock(c.At))
		}
		tbl.Rows = append(tbl.Rows, []string{c.Goal.ID, verdict, c.Goal.Text.In(lang)})
		tbl.Highlight = append(tbl.Highlight, !c.Pass)
		data.Conditions = append(data.Conditions, cd)
	}
	d.T(tbl)
	for i, c := range r.Conditions {
		if c.Pass {
			continue
		}
		d.H(2, "✗ "+c.Goal.ID+" "+msgf(lang, "at {1}", clock(c.At)))
		d.P(c.Finding.In(lang))
		if len(c.Steps) == 0 {
			continue
		}
		d.P(msg(lang, "Trace steps that explain it") + ":")
		var lines []string
		for _, s := range c.Steps {
			text := trace.Text(lang, &s)
			at := clock(s.At - r.Trace.Start)
			lines = append(lines, fmt.Sprintf("%s  %-24s %s", at, s.Actor, text))
			data.Conditions[i].Steps = append(data.Conditions[i].Steps, StepData{At: at, Actor: s.Actor, Kind: string(s.Kind), Object: s.Object, Text: text})
		}
		d.C("", strings.Join(lines, "\n"))
	}
	if r.Passed() {
		d.Styled("ok", msgf(lang, "Passed: {1} of {2} conditions.", passed, len(r.Conditions)))
	} else {
		d.Styled("bad", msgf(lang, "Not passed: {1} of {2} conditions.", passed, len(r.Conditions)))
	}
	if withHint {
		data.Hint = t.Hint.In(lang)
		hint(d, t, lang)
	}
	d.P(msg(lang, "Reference solution") + ": k8sexplain task solution " + t.ID)
	return d
}

// SolutionDoc is `task solution`: the reference manifest, the hint, why
// each wrong solution fails, and the sources.
func SolutionDoc(t *Task, lang string) *report.Doc {
	d := &report.Doc{Title: msg(lang, "Reference solution") + ": " + t.ID}
	d.C("yaml", strings.TrimSpace(t.Solution))
	hint(d, t, lang)
	d.H(1, msg(lang, "Why the wrong ones fail"))
	var items []string
	for _, w := range t.Wrong {
		items = append(items, w.Fails+": "+w.Why.In(lang))
	}
	d.L(items...)
	d.H(1, msg(lang, "Sources"))
	var refs []string
	for _, s := range t.Sources {
		refs = append(refs, s+" ("+t.Checked+")")
	}
	d.L(refs...)
	return d
}

// clock is a virtual time as the traces print it (00:01.500).
func clock(d time.Duration) string { return trace.Clock(d) }
