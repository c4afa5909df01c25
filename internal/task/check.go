package task

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/sim"
	"github.com/k8sexplain/k8sexplain/internal/sim/story"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// Result is a graded attempt.
type Result struct {
	Task  *Task
	Files []string
	// Conditions are the task's goals, in order, each passed or failed.
	Conditions []Condition
	// Action is why the task's action could not play out, if it could
	// not (a Deployment the solution did not create, a container without
	// the probe that would notice the failure).
	Action *Finding
	// Failed is kubectl's first error: file:line and the API server's
	// message for an object it refused.
	Failed string
	// End is the virtual time the run ended, from the learner's apply.
	End   time.Duration
	Trace *trace.Trace

	drain *sim.DrainResult
}

// Passed reports whether every condition passed.
func (r *Result) Passed() bool {
	for _, c := range r.Conditions {
		if !c.Pass {
			return false
		}
	}
	return true
}

// Condition is one goal's verdict: when it failed (the end of the run, or
// the first change that broke a history goal), why, and the trace steps
// that explain it.
type Condition struct {
	Goal    *Goal
	Pass    bool
	At      time.Duration
	Finding *Finding
	Steps   []trace.Step
}

// Refusal is a solution that touches what the task forbids: nothing ran.
type Refusal struct {
	Rule   string
	Text   Text
	Where  string // file:line
	Object string // Kind/name
}

func (r *Refusal) Error() string {
	return fmt.Sprintf("%s: %s: the task forbids it (rule %s): %s", r.Where, r.Object, r.Rule, r.Text.En)
}

// givenRule keeps the starting objects: apply only creates objects, so a
// manifest that names one would be ignored, and the grading would be of
// the starting state instead of the solution.
var givenRule = Text{
	En: "the starting objects are given: write objects of your own (kubectl apply would leave the existing one unchanged)",
	Ru: "исходные объекты заданы: пишите свои объекты (kubectl apply оставил бы существующий без изменений)",
}

// Refuse returns the rule objs break, or nil.
func (t *Task) Refuse(objs []manifest.Object) *Refusal {
	for _, o := range objs {
		ns := o.Namespace
		if ns == "" {
			ns = "default"
		}
		where := fmt.Sprintf("%s:%d", o.Pos.File, o.Pos.Line)
		what := o.Kind + "/" + o.Name
		for _, r := range t.Forbid {
			if slices.Contains(r.Kinds, o.Kind) && (len(r.Names) == 0 || slices.Contains(r.Names, o.Name)) {
				return &Refusal{Rule: r.ID, Text: r.Text, Where: where, Object: what}
			}
		}
		for _, g := range append(slices.Clone(t.given), t.nodes...) {
			gns := g.Namespace
			if gns == "" {
				gns = "default"
			}
			if g.Kind == o.Kind && g.Name == o.Name && (g.Kind == "Node" || g.Kind == "Namespace" || gns == ns) {
				return &Refusal{Rule: "given", Text: givenRule, Where: where, Object: what}
			}
		}
	}
	return nil
}

// Options shape a check.
type Options struct {
	Seed int64
}

// startFor bounds the starting state's settling. Run windows: the learner's objects settle within settleFor, the
// action plays out within actionFor (a rollout of a few pods takes
// seconds; the quota controller's retries stop well before).
const (
	startFor  = 30 * time.Second
	settleFor = 2 * time.Minute
	actionFor = 10 * time.Minute
)

// Check runs objs (the learner's manifests, read from files) on the task's
// starting cluster and grades the result. A refusal comes back as the
// error.
func Check(t *Task, objs []manifest.Object, files []string, o Options) (*Result, error) {
	if r := t.Refuse(objs); r != nil {
		return nil, r
	}
	nodes, err := sim.WorkerNodes(t.nodes)
	if err != nil {
		return nil, fmt.Errorf("task %s: %v", t.ID, err)
	}
	// The deadline ends the run for good (a ReplicaSet refused by a quota
	// retries for ever): the starting state settles within seconds, then
	// the learner's objects and the action get their windows.
	deadline := startFor + settleFor
	if t.Action != nil {
		deadline += actionFor
	}
	draining := t.Action != nil && t.Action.Drain != ""
	loading := t.Action != nil && t.Action.Load != ""
	var horizon time.Duration // a load runs through its curve and the scale-down window
	if loading {
		curve, _ := t.Action.curve() // validated with the task
		horizon = curve.Horizon()
		deadline += horizon
	}
	// A drain needs the disruption controller (PDB status for the
	// eviction API) and the node lifecycle controller (the cordon's taint).
	c, err := sim.NewCluster(sim.Config{Seed: o.Seed, Nodes: nodes, Deadline: deadline, Disruption: draining, Heartbeats: draining, Autoscaling: loading,
		StatefulSets: sim.NeedsStatefulSets(append(slices.Clone(t.given), objs...)), Volumes: sim.NeedsVolumes(append(slices.Clone(t.given), objs...))})
	if err != nil {
		return nil, fmt.Errorf("task %s: %v", t.ID, err)
	}
	h := newHistory(t.Goals, c.Now)
	c.OnCommit(h.commit)
	if len(t.given) > 0 {
		c.Apply(t.given, []string{t.ID + "/cluster.yaml"})
	}
	c.Settle()
	scene := story.New(c)
	res := &Result{Task: t, Files: files}
	h.on = t.Action == nil
	c.Apply(objs, files)
	c.RunFor(settleFor)
	if t.Action != nil {
		h.start()
		res.Action, res.drain = act(scene, t.Action)
		if loading {
			// The HPA and metrics-server run on background timers.
			c.RunThrough(settleFor + horizon)
		} else {
			c.RunFor(settleFor + actionFor)
		}
	}
	res.Failed = c.Failed()
	command := "k8sexplain task check " + t.ID + " " + strings.Join(files, " ")
	tr := c.Story(command, "task")
	res.Trace, res.End = tr, tr.Summary.End
	st := endState(c)
	for i := range t.Goals {
		g := &t.Goals[i]
		cond := Condition{Goal: g, Pass: true, At: res.End}
		if g.History() {
			if v, bad := h.first[g.ID]; bad {
				cond.Pass, cond.At, cond.Finding = false, v.at-tr.Start, v.find
			}
		} else if g.Type == "peakReady" {
			if f := h.peakFinding(g); f != nil {
				cond.Pass, cond.Finding = false, f
			}
		} else if g.Type == "drained" {
			if f := drained(res.drain); f != nil {
				cond.Pass, cond.Finding = false, f
			}
		} else if f := g.check(st); f != nil {
			cond.Pass, cond.Finding = false, f
		}
		if !cond.Pass {
			cond.Steps = explaining(tr, g, cond.At)
		}
		res.Conditions = append(res.Conditions, cond)
	}
	return res, nil
}

// drainTimeout is the task's kubectl drain --timeout: a budget that
// allows nothing makes the drain give up with kubectl's own error.
const drainTimeout = 2 * time.Minute

// drained judges the drain goal: kubectl drain returned and printed
// "drained".
func drained(r *sim.DrainResult) *Finding {
	switch {
	case r == nil:
		return found("no drain ran")
	case !r.Done:
		return found("kubectl drain had not returned at the end of the run")
	case !r.Drained:
		return found("kubectl drain failed: {1}", r.Err)
	}
	return nil
}

// act plays the task's action; a Finding says why it could not.
func act(c *story.Scene, a *Action) (*Finding, *sim.DrainResult) {
	if a.Drain != "" {
		return nil, c.Drain(sim.DrainOptions{Node: a.Drain, IgnoreDaemonSets: true, Timeout: drainTimeout})
	}
	return play(c, a), nil
}

// play runs a set image or a probe failure.
func play(c *story.Scene, a *Action) *Finding {
	ns := a.Namespace
	if ns == "" {
		ns = "default"
	}
	if a.Load != "" {
		return applyLoad(c, a, ns)
	}
	if a.SetImage != "" {
		ref, change, _ := strings.Cut(a.SetImage, " ")
		name := strings.TrimPrefix(ref, "deployment/")
		container, image, _ := strings.Cut(change, "=")
		dep := c.Deployment(ns, name)
		if dep == nil {
			return found("no Deployment {1} to roll out", name)
		}
		c.MarkHistory(ns, name)
		if err := c.SetImage(dep, container, image); err != nil {
			return found("kubectl set image: {1}", err.Error())
		}
		return nil
	}
	sel, _ := labels.Parse(a.Selector)
	for _, p := range c.Pods() {
		if p.Namespace == ns && sel.Matches(labels.Set(p.Labels)) && podReady(p) && p.DeletionTimestamp == nil {
			if err := c.Crash(p, a.Fail, 1); err != nil {
				return found("the kubelet cannot notice: {1}", err.Error())
			}
			return nil
		}
	}
	return found("no Ready pod matches {1}", a.Selector)
}

// endState lists what the goals read from the API server.
func endState(c *sim.Cluster) *state {
	s := &state{nodes: map[string]*corev1.Node{}}
	for _, o := range c.Objects("pods") {
		s.pods = append(s.pods, o.(*corev1.Pod))
	}
	for _, o := range c.Objects("nodes") {
		n := o.(*corev1.Node)
		s.nodes[n.Name] = n
	}
	for _, o := range c.Objects("endpointslices") {
		s.slices = append(s.slices, o.(*discoveryv1.EndpointSlice))
	}
	for _, o := range c.Objects("deployments") {
		s.deps = append(s.deps, o.(*appsv1.Deployment))
	}
	return s
}

// historyKinds are the steps that explain a history goal's violation: the
// rollout's scaling decisions and the pods' deletion.
var historyKinds = map[trace.Kind]bool{"deployment.rollout": true, "replicaset.shrink": true, "replicaset.diff": true,
	"apiserver.graceful": true, "deployment.newrs": true, "deployment.recreatewait": true,
	"eviction.evicted": true, "eviction.nopdb": true, "drain.evicting": true}

// maxSteps is how many trace steps explain one failed condition.
const maxSteps = 4

// explaining picks the trace steps that explain a failed condition: the
// Warning events and kubectl's errors in the goal's namespace (each
// message once: FailedScheduling, FailedCreate with the quota's refusal,
// Unhealthy…), and for a history goal the steps of the moment it broke.
func explaining(tr *trace.Trace, g *Goal, at time.Duration) []trace.Step {
	var out []trace.Step
	seen := map[string]bool{}
	add := func(s trace.Step, key string) {
		if seen[key] || len(out) >= maxSteps {
			return
		}
		seen[key] = true
		out = append(out, s)
	}
	inNS := func(s *trace.Step) bool {
		parts := strings.SplitN(s.Object, "/", 3)
		return len(parts) == 3 && parts[1] == g.Namespace || s.Kind.Component() == "drain"
	}
	if g.History() {
		// the controllers' decisions and the deletions in the second
		// before the change that broke the goal, nearest last
		var near []trace.Step
		for _, s := range tr.Steps {
			t := s.At - tr.Start
			if !s.Verbose && t <= at && t >= at-time.Second && inNS(&s) && historyKinds[s.Kind] {
				near = append(near, s)
			}
		}
		for i := len(near) - 1; i >= 0 && len(out) < maxSteps; i-- {
			add(near[i], string(near[i].Kind)+near[i].Object+near[i].Get("message"))
		}
		slices.Reverse(out)
		return out
	}
	for _, s := range tr.Steps {
		switch {
		case s.Kind == trace.KindKubectlError, s.Kind.Component() == "story", s.Kind == trace.KindDrainFailed:
			add(s, string(s.Kind)+s.Get("message"))
		case s.Kind == trace.KindEvictionRefused:
			add(s, string(s.Kind)+s.Get("cause"))
		case s.Kind == trace.KindEvent && s.Get("type") == "Warning" && inNS(&s):
			// one per reason and message, the pod names left out
			add(s, s.Get("reason")+stripNames(s.Get("message")))
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At < out[j].At })
	return out
}

// stripNames drops quoted and generated names from an event message, so
// that the same refusal for two pods counts once.
func stripNames(msg string) string {
	msg = strings.TrimPrefix(msg, "(combined from similar events): ")
	if i := strings.Index(msg, "is forbidden"); i >= 0 {
		return msg[i:]
	}
	return msg
}
