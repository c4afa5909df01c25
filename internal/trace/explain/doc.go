package explain

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/k8sversion"
	"github.com/k8sexplain/k8sexplain/internal/l10n"
	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/k8sexplain/k8sexplain/internal/trace"
)

// Options select what the document of a trace holds.
type Options struct {
	Lang    string
	Verbose bool
	Builtin bool // the input was the built-in example
}

// Doc turns tr into the one document every format prints: the title, the
// version and latencies line (text and Markdown), the steps as a timeline
// block (one section per phase of `trace apply`, one for the other
// stories) with the sequence diagram the HTML page draws beside it, the
// story's tables (numbers also as a chart, drawn by HTML only) and the
// summary. Sequence is the diagram kept under Mermaid's size limit, which
// --format mermaid prints untitled and Markdown embeds; Data is the
// k8sexplain.trace/v1 structure --format json prints (docs/trace-schema.md).
func Doc(tr *trace.Trace, o Options) *report.Doc {
	u := uiFor(o.Lang)
	d := &report.Doc{Title: title(tr, o.Builtin, u), Data: func() any { return jsonOf(tr, o) }}
	// A real cluster's page says which cluster, and what its times mean;
	// the simulation's line stays out of the page.
	d.Blocks = append(d.Blocks, report.Block{Para: &report.Para{Text: header(tr, o.Lang), Plain: tr.Cluster == nil}})
	groups, titles := sections(tr, o.Verbose, u)
	tl := &report.Timeline{}
	var shown []trace.Step
	for gi, steps := range groups {
		if len(steps) == 0 {
			continue
		}
		sec := report.TimelineSection{Title: titles[gi]}
		for i := range steps {
			sec.Steps = append(sec.Steps, timelineStep(tr, &steps[i], stepID(len(shown)+i+1), o.Lang))
		}
		shown = append(shown, steps...)
		tl.Sections = append(tl.Sections, sec)
	}
	full := sequence(tr, groups, titles, o.Lang)
	d.Sequence = mermaidSequence(full, o.Lang)
	if len(shown) > 0 {
		tl.Diagram = full
		d.Line(tl)
		if tr.State != nil {
			d.Player = player(tr, shown)
		}
	}
	resultTables(d, tr, o.Lang)
	summary(d, tr, u, o.Lang)
	return d
}

// subst fills a catalogue message's placeholders with already written
// values (l10n.Format with string arguments).
func subst(s string, kv ...string) string {
	return l10n.Format("", s, func(name string) (any, bool) {
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == name {
				return kv[i+1], true
			}
		}
		return nil, false
	})
}

// title is the document's title: the story's and the command line.
func title(tr *trace.Trace, builtin bool, u ui) string {
	if builtin {
		// The first line says that no file was given.
		return u.Title + " — " + strings.TrimSuffix(u.Builtin, ".")
	}
	title := u.Title
	if t, ok := storyTitle(u.Lang, tr.Story); ok {
		title = t
	}
	return title + " — " + tr.Command
}

// resultTables adds the story's result tables, translated.
func resultTables(d *report.Doc, tr *trace.Trace, lang string) {
	lead := false
	for _, t := range tr.Tables {
		heading := strings.ReplaceAll(word(lang, t.Title), "{subject}", t.Subject)
		d.H(1, heading)
		rt := &report.Table{Right: make([]bool, len(t.Header))}
		for i, h := range t.Header {
			rt.Header = append(rt.Header, word(lang, h))
			rt.Right[i] = i > 0 && !t.Left
		}
		for _, r := range t.Rows {
			row := append([]string{}, r...)
			for i := range row {
				row[i] = word(lang, row[i]) // labels and notes may be catalogue keys too
				// A duration column is written per language; English keeps the cell.
				if i < len(t.Decimals) && t.Decimals[i] && lang != "en" {
					row[i] = strings.Replace(row[i], ".", l10n.Mark(lang), 1)
				}
				if i < len(t.Durations) && t.Durations[i] && lang != "en" {
					if d, err := time.ParseDuration(row[i]); err == nil {
						row[i] = l10n.Duration(lang, d)
					}
				}
				if i < len(t.Decimals) && t.Decimals[i] {
					row[i] = strings.Replace(row[i], ".", l10n.Mark(lang), 1)
				}
			}
			for i, cell := range row {
				if i > 0 && (cell == "" || cell[0] < '0' || cell[0] > '9') {
					rt.Right[i] = false // a text column reads better left-aligned
				}
			}
			rt.Rows = append(rt.Rows, row)
		}
		d.T(rt)
		if f := chartOf(rt); f != nil && !t.Left { // a text table (kubectl's columns) is no chart
			// The story's first chart (a rollout's ReplicaSet sizes) is
			// what the page is about: it comes first.
			if !lead {
				f.Lead, f.Title, lead = true, heading, true
			}
			d.Fig(f)
		}
	}
}

// header is the line under the title: the Kubernetes version the
// simulator models (one, internal/k8sversion), and the fixed latencies the
// run used.
func header(tr *trace.Trace, lang string) string {
	u := uiFor(lang)
	if c := tr.Cluster; c != nil {
		return clusterHeader(c, lang)
	}
	line := subst(u.Modelled, "version", k8sversion.MinorString)
	if l := tr.Latencies; l != nil {
		ms := func(d time.Duration) string { return l10n.Duration(lang, d) }
		line += " " + subst(u.Latencies, "request", ms(l.Request), "commit", ms(l.Commit), "watch", ms(l.Watch))
	}
	return line
}

// sections splits the steps into titled groups: the eight phases for the
// apply story, one timeline for every other story.
func sections(tr *trace.Trace, verbose bool, u ui) ([][]trace.Step, []string) {
	if tr.Story != "" && tr.Story != "apply" {
		var all []trace.Step
		for _, s := range tr.Steps {
			if !s.Verbose || verbose {
				all = append(all, s)
			}
		}
		sort.SliceStable(all, func(i, j int) bool { return all[i].At < all[j].At })
		return [][]trace.Step{all}, []string{u.Timeline}
	}
	g := trace.ByPhase(tr.Steps, verbose)
	var groups [][]trace.Step
	var titles []string
	for _, ph := range trace.Phases {
		groups = append(groups, g[ph])
		titles = append(titles, u.Phases[ph])
	}
	return groups, titles
}

// pendingShown is how many Pending pods the summary lists by name.
const pendingShown = 20

func summary(d *report.Doc, tr *trace.Trace, u ui, lang string) {
	s := tr.Summary
	d.H(1, u.Summary)
	if tr.Failed != "" {
		d.Styled("bad", u.Failed+": "+tr.Failed)
	}
	allReady, notReady, revisions := u.AllReady, u.NotReady, u.Revisions
	if tr.Cluster != nil {
		// Times of a real cluster are not virtual; its revisions are
		// the resourceVersions its watch showed.
		allReady, notReady, revisions = liveWord(lang, "allReady"), liveWord(lang, "notReady"), liveWord(lang, "revisions")
	}
	if s.AllReady {
		d.Styled("ok", subst(allReady, "pods", fmt.Sprint(s.Pods), "at", trace.Clock(s.ReadyAt)))
	} else if s.Pods > 0 {
		d.Styled("warn", subst(notReady, "ready", fmt.Sprint(s.ReadyPods), "pods", fmt.Sprint(s.Pods), "at", trace.Clock(s.End)))
	}
	if len(s.PendingPods) > 0 {
		// The first pendingShown pods; the rest are counted (the JSON keeps
		// every one: at most the Pending allowance, README Bounds).
		shown := s.PendingPods[:min(len(s.PendingPods), pendingShown)]
		items := make([]string, 0, len(shown)+1)
		for _, p := range shown {
			items = append(items, p.Name+": "+p.Message)
		}
		if more := len(s.PendingPods) - len(shown); more > 0 {
			items = append(items, trace.T(lang, "ui.pendingMore", more))
		}
		d.P(u.Pending + ":")
		d.L(items...)
	}
	t := &report.Table{Header: []string{u.Component, u.Count}, Right: []bool{false, true}}
	keys := make([]string, 0, len(s.Requests))
	for k := range s.Requests {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	total := 0
	for _, k := range keys {
		total += s.Requests[k]
	}
	t.Rows = append(t.Rows, requestRows(s.Requests, keys, u.Lang)...)
	t.Rows = append(t.Rows, []string{"Σ", fmt.Sprint(total)})
	d.P(u.Requests + ":")
	d.T(t)
	lines := []string{
		fmt.Sprintf("%s: %d", u.WatchEvents, s.WatchEvents),
		fmt.Sprintf("%s: %d–%d", revisions, s.FirstRevision, s.LastRevision),
	}
	if tr.Cluster == nil {
		lines = append(lines, fmt.Sprintf("%s: %d", u.Events, s.Events))
	}
	if s.StepsDropped > 0 && (s.Scale == nil || s.Scale.StepLimit >= 0) { // a --summary run says it in the scale section
		lines = append(lines, fmt.Sprintf("%d %s", s.StepsDropped, u.Dropped))
	}
	d.L(lines...)
	if len(s.Unmodeled) > 0 {
		d.P(u.Unmodeled + ":")
		d.L(s.Unmodeled...)
	}
	if s.Scale != nil {
		scaleSection(d, s.Scale, lang)
	}
}

// perNodeRows is how many rows of one per-node component (kubelet/node-a,
// kubelet/node-b…) the summary lists before it adds up the rest, so a
// 1,000-node summary stays a summary.
const perNodeRows = 5

// requestRows are the rows of the requests table: keys in order, except
// that a per-node component with more than perNodeRows nodes keeps its
// perNodeRows busiest nodes (ties by name) and one row for the rest.
func requestRows(req map[string]int, keys []string, lang string) [][]string {
	byComp := map[string][]string{}
	for _, k := range keys {
		if i := strings.IndexByte(k, '/'); i > 0 && !strings.Contains(k, " ") {
			byComp[k[:i]] = append(byComp[k[:i]], k)
		}
	}
	shown := map[string]bool{}
	rest := map[string][2]int{} // component → nodes, requests beyond the shown
	for comp, ks := range byComp {
		sorted := append([]string(nil), ks...)
		sort.SliceStable(sorted, func(i, j int) bool { return req[sorted[i]] > req[sorted[j]] })
		for i, k := range sorted {
			if i < perNodeRows || len(sorted) <= perNodeRows+1 {
				shown[k] = true
				continue
			}
			r := rest[comp]
			rest[comp] = [2]int{r[0] + 1, r[1] + req[k]}
		}
	}
	var rows [][]string
	for i, k := range keys {
		j := strings.IndexByte(k, '/')
		perNode := j > 0 && !strings.Contains(k, " ")
		if !perNode || shown[k] {
			rows = append(rows, []string{word(lang, k), fmt.Sprint(req[k])}) // "kube-proxy (other nodes)" is a word
		}
		// The rest goes after the component's last row.
		if perNode && (i+1 == len(keys) || !strings.HasPrefix(keys[i+1], k[:j]+"/")) {
			if r, ok := rest[k[:j]]; ok {
				rows = append(rows, []string{k[:j] + "/* (" + otherNodes(lang, r[0]) + ")", fmt.Sprint(r[1])})
			}
		}
	}
	return rows
}

// otherNodes is "27 more nodes" / "ещё 27 нод".
func otherNodes(lang string, n int) string { return trace.T(lang, "ui.otherNodes", n) }

// participants of the Mermaid diagram, in the course diagrams' order.
var participants = []report.Participant{
	{ID: "kubectl", Label: "kubectl"}, {ID: "apiserver", Label: "kube-apiserver"}, {ID: "etcd", Label: "etcd"},
	{ID: "cm", Label: "controller-manager"}, {ID: "sched", Label: "scheduler"}, {ID: "kubelet", Label: "kubelet"},
	{ID: "containerd", Label: "containerd"}, {ID: "proxy", Label: "kube-proxy"}, {ID: "dns", Label: "CoreDNS"},
}

func participantOf(actor string) string {
	switch {
	case actor == "kubectl":
		return "kubectl"
	case actor == "kube-apiserver":
		return "apiserver"
	case strings.HasSuffix(actor, "-controller"), actor == "kube-controller-manager":
		return "cm"
	case actor == "default-scheduler":
		return "sched"
	case strings.HasPrefix(actor, "kubelet/"):
		return "kubelet"
	case strings.HasPrefix(actor, "containerd/"):
		return "containerd"
	case strings.HasPrefix(actor, "kube-proxy/"):
		return "proxy"
	case actor == "coredns":
		return "dns"
	}
	return "apiserver"
}

// sequence draws the trace as the course's sequence diagram: requests to
// the API server as arrows, watch deliveries as dashed arrows back,
// in-process work as notes. Each step's arrow carries its time apart from
// its text (the HTML diagram puts the time on its axis and ties the arrow
// to the step's explanation; mermaidSequence joins them).
func sequence(tr *trace.Trace, groups [][]trace.Step, titles []string, lang string) *report.Sequence {
	seq := &report.Sequence{Participants: participants}
	n := 0 // the step's number, as stepID names it in the HTML page
	for g, steps := range groups {
		if len(steps) == 0 {
			continue
		}
		seq.Messages = append(seq.Messages, report.Message{Section: true, Text: titles[g]})
		for i := range steps {
			s := &steps[i]
			n++
			m := arrow(s, participantOf(s.Actor))
			m.Text, m.Time, m.Kind, m.Ref, m.Minor = trace.Text(lang, s), trace.Clock(s.At-tr.Start), string(s.Kind), stepID(n), s.Verbose
			seq.Messages = append(seq.Messages, m)
		}
	}
	return seq
}

// arrow is how the diagram draws a step by who: a write to etcd, an
// answer or watch delivery from the API server, a request to it (or to
// the step's To), else a note over who.
func arrow(s *trace.Step, who string) report.Message {
	switch s.Kind {
	case trace.KindEtcdPut:
		if who == "apiserver" {
			return report.Message{From: "apiserver", To: "etcd"}
		}
	case trace.KindAPIServerResponse, trace.KindAPIServerUpdated:
		return report.Message{From: "apiserver", To: "kubectl", Reply: true}
	case trace.KindWatchEvent, trace.KindWatchShared, trace.KindControllerObserve, trace.KindSchedulerQueue, trace.KindKubeletAdmit, trace.KindDNSRecord:
		return report.Message{From: "apiserver", To: who, Reply: true}
	case trace.KindDeploymentNewRS, trace.KindReplicaSetDiff, trace.KindKubeletRunning, trace.KindEvent, trace.KindEventPatch, trace.KindDeploymentStatus:
		return request(s, who)
	}
	switch s.Kind.Component() {
	case "kubeproxy":
		return report.Message{From: "apiserver", To: who, Reply: true}
	case "endpointslice":
		return request(s, who)
	}
	if s.To != "" {
		return request(s, who)
	}
	return report.Message{From: who, Note: true}
}

// request is an arrow from who to the step's To, or to the API server.
func request(s *trace.Step, who string) report.Message {
	to := "apiserver"
	if s.To != "" {
		to = participantOf(s.To)
	}
	return report.Message{From: who, To: to}
}

// JSON schema k8sexplain.trace/v1 (docs/trace-schema.md).
type jsonTrace struct {
	Schema  string `json:"schema"`
	Command string `json:"command"`
	// Source is "cluster" for a trace observed on a real cluster (absent:
	// the simulation), Cluster which one.
	Source  string       `json:"source,omitempty"`
	Cluster *jsonCluster `json:"cluster,omitempty"`
	// Kubernetes is the release the simulator models ("v1.37").
	Kubernetes string      `json:"kubernetes"`
	Story      string      `json:"story"`
	Tables     []jsonTable `json:"tables,omitempty"`
	Lang       string      `json:"lang"`
	Builtin    bool        `json:"builtin"`
	Failed     string      `json:"failed,omitempty"`
	Steps      []jsonStep  `json:"steps"`
	Summary    jsonSummary `json:"summary"`
}

type jsonStep struct {
	AtMS    int64             `json:"at_ms"`
	Phase   int               `json:"phase"`
	Actor   string            `json:"actor"`
	To      string            `json:"to,omitempty"`
	Kind    trace.Kind        `json:"kind"`
	Object  string            `json:"object,omitempty"`
	Verbose bool              `json:"verbose,omitempty"`
	Fields  map[string]string `json:"fields,omitempty"`
	Message string            `json:"message"`
	Table   *jsonTable        `json:"table,omitempty"`
}

type jsonTable struct {
	Title   string     `json:"title,omitempty"`
	Subject string     `json:"subject,omitempty"`
	Header  []string   `json:"header"`
	Rows    [][]string `json:"rows"`
}

type jsonSummary struct {
	AllReady      bool              `json:"all_ready"`
	ReadyAtMS     int64             `json:"ready_at_ms"`
	EndMS         int64             `json:"end_ms"`
	Pods          int               `json:"pods"`
	ReadyPods     int               `json:"ready_pods"`
	Pending       map[string]string `json:"pending,omitempty"`
	Requests      map[string]int    `json:"requests"`
	WatchEvents   int               `json:"watch_events"`
	FirstRevision int64             `json:"first_revision"`
	LastRevision  int64             `json:"last_revision"`
	Events        int               `json:"events"`
	StepsDropped  int               `json:"steps_dropped"`
	Unmodeled     []string          `json:"unmodeled,omitempty"`
}

func ms(d time.Duration) int64 { return d.Milliseconds() }

// jsonOf is the trace as --format json prints it.
func jsonOf(tr *trace.Trace, o Options) jsonTrace {
	story := tr.Story
	if story == "" {
		story = "apply"
	}
	out := jsonTrace{Schema: "k8sexplain.trace/v1", Command: tr.Command, Kubernetes: k8sversion.MinorString, Story: story, Lang: o.Lang, Builtin: o.Builtin, Failed: tr.Failed, Steps: []jsonStep{}}
	if c := tr.Cluster; c != nil {
		out.Source, out.Kubernetes = tr.Source, c.Version
		out.Cluster = &jsonCluster{Server: c.Server, Context: c.Context, Version: c.Version, Namespace: c.Namespace, DryRun: c.DryRun}
	}
	for _, t := range tr.Tables {
		jt := jsonTable{Title: t.Title, Subject: t.Subject, Rows: t.Rows}
		jt.Header = append(jt.Header, t.Header...)
		out.Tables = append(out.Tables, jt)
	}
	groups, _ := sections(tr, o.Verbose, uiFor(o.Lang))
	for _, steps := range groups {
		for _, s := range steps {
			js := jsonStep{AtMS: ms(s.At - tr.Start), Phase: int(s.Phase), Actor: s.Actor, To: s.To, Kind: s.Kind, Object: s.Object,
				Verbose: s.Verbose, Message: trace.Text(o.Lang, &s)}
			if len(s.Fields) > 0 {
				js.Fields = map[string]string{}
				for _, f := range s.Fields {
					js.Fields[f.Key] = f.Value
				}
			}
			if t := stepTable("en", &s); t != nil { // JSON keeps the recorded English words
				js.Table = &jsonTable{Header: t.Header, Rows: t.Rows}
			}
			out.Steps = append(out.Steps, js)
		}
	}
	s := tr.Summary
	out.Summary = jsonSummary{AllReady: s.AllReady, ReadyAtMS: ms(s.ReadyAt), EndMS: ms(s.End), Pods: s.Pods, ReadyPods: s.ReadyPods,
		Requests: s.Requests, WatchEvents: s.WatchEvents, FirstRevision: s.FirstRevision, LastRevision: s.LastRevision,
		Events: s.Events, StepsDropped: s.StepsDropped, Unmodeled: s.Unmodeled}
	if len(s.PendingPods) > 0 {
		out.Summary.Pending = map[string]string{}
		for _, p := range s.PendingPods {
			out.Summary.Pending[p.Name] = p.Message
		}
	}
	if out.Summary.Requests == nil {
		out.Summary.Requests = map[string]int{}
	}
	return out
}
