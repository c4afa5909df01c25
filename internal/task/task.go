package task

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/quiz"
	"gopkg.in/yaml.v3"
)

// Text is a string in English and Russian.
type Text = quiz.Text

// Task is one hands-on task, as a tasks/*.yaml file writes it.
type Task struct {
	ID    string `yaml:"id"`
	Topic string `yaml:"topic"`
	// Level is middle, senior or staff, as the quiz's difficulties.
	Level string `yaml:"level"`
	Title Text   `yaml:"title"`
	// Situation describes the starting cluster and what is wrong with it;
	// Goal is what the learner must achieve, in words.
	Situation Text `yaml:"situation"`
	Goal      Text `yaml:"goal"`
	Hint      Text `yaml:"hint"`
	// Cluster is the starting state as manifests: kind: Node objects are
	// the worker nodes, the rest is applied and settled before the
	// learner's manifests.
	Cluster string `yaml:"cluster"`
	// Action is what happens once the learner's objects have settled.
	Action *Action `yaml:"action"`
	// Starter is the manifest `task start` writes for the learner to edit.
	Starter  string  `yaml:"starter"`
	Solution string  `yaml:"solution"`
	Wrong    []Wrong `yaml:"wrong"`
	Forbid   []Rule  `yaml:"forbid"`
	Goals    []Goal  `yaml:"goals"`
	// Sources are the upstream files the task's hint and goals rely on;
	// Checked is the release they were read against.
	Sources []string `yaml:"sources"`
	Checked string   `yaml:"checked"`

	file  string
	nodes []manifest.Object
	given []manifest.Object
}

// Action is what the task makes happen after the learner's objects settle:
// `kubectl set image` on a Deployment, or a container that stops
// answering its probes.
type Action struct {
	// SetImage is "deployment/NAME CONTAINER=IMAGE" in namespace Namespace.
	SetImage  string `yaml:"setImage"`
	Namespace string `yaml:"namespace"`
	// Fail makes the first container of the first Ready pod (by name)
	// matching Selector fail its probes: "liveness" (the process hangs) or
	// "readiness" (it answers 503).
	Fail     string `yaml:"fail"`
	Selector string `yaml:"selector"`
	// Drain runs kubectl drain NODE --ignore-daemonsets (--timeout 2m),
	// with the disruption controller keeping the budgets' status.
	Drain string `yaml:"drain"`
	// Load puts a CPU load curve ("300%,20%": percentages of the starting
	// replicas' summed requests, one per Every, default 1m) on the pods
	// of Deployment Target, as trace autoscale --cpu does, with the HPA
	// controller and metrics-server running.
	Load   string `yaml:"load"`
	Every  string `yaml:"every"`
	Target string `yaml:"target"`
}

// Wrong is a plausible wrong solution and the condition it must fail (a
// goal's id, or "forbidden:RULE" for a refusal).
type Wrong struct {
	Manifest string `yaml:"manifest"`
	Fails    string `yaml:"fails"`
	Why      Text   `yaml:"why"`
}

// Rule is what a solution must not touch: objects of Kinds (named Names,
// when given). Every task also keeps its starting objects (rule "given").
type Rule struct {
	ID    string   `yaml:"id"`
	Kinds []string `yaml:"kinds"`
	Names []string `yaml:"names"`
	Text  Text     `yaml:"text"`
}

// Levels are the tasks' levels.
var Levels = []string{"middle", "senior", "staff"}

// Topics are the interview topics tasks cover.
var Topics = []string{"scheduling", "rollouts", "probes", "quota", "services", "disruption", "statefulset", "autoscaling"}

var idPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// load reads every tasks/*.yaml of fsys, in file name order.
func load(fsys fs.FS) ([]*Task, error) {
	names, err := fs.Glob(fsys, "*.yaml")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []*Task
	seen := map[string]string{}
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		t, err := parse(name, data)
		if err != nil {
			return nil, err
		}
		if prev, dup := seen[t.ID]; dup {
			return nil, fmt.Errorf("%s: duplicate id %q (first in %s)", name, t.ID, prev)
		}
		seen[t.ID] = name
		out = append(out, t)
	}
	return out, nil
}

// parse decodes and checks one task file.
func parse(name string, data []byte) (*Task, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	t := &Task{file: name}
	if err := dec.Decode(t); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if err := t.validate(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return t, nil
}

// validate checks what the schema cannot: required fields in both
// languages, known topics and levels, goals that say what they need, a
// starting cluster that parses.
func (t *Task) validate() error {
	switch {
	case !idPattern.MatchString(t.ID):
		return fmt.Errorf("id %q: want lower-case words joined by -", t.ID)
	case strings.TrimSuffix(path.Base(t.file), ".yaml") != t.ID:
		return fmt.Errorf("id %q: the file must be named %s.yaml", t.ID, t.ID)
	case !slices.Contains(Topics, t.Topic):
		return fmt.Errorf("topic %q: want one of %v", t.Topic, Topics)
	case !slices.Contains(Levels, t.Level):
		return fmt.Errorf("level %q: want one of %v", t.Level, Levels)
	case t.Solution == "":
		return fmt.Errorf("no solution")
	case len(t.Wrong) == 0:
		return fmt.Errorf("no wrong solution")
	case len(t.Goals) == 0:
		return fmt.Errorf("no goals")
	case len(t.Sources) == 0 || t.Checked == "":
		return fmt.Errorf("no sources or checked")
	}
	for field, x := range map[string]Text{"title": t.Title, "situation": t.Situation, "goal": t.Goal, "hint": t.Hint} {
		if x.En == "" || x.Ru == "" {
			return fmt.Errorf("%s: want en and ru", field)
		}
	}
	ids := map[string]bool{}
	for i := range t.Goals {
		g := &t.Goals[i]
		if err := g.validate(); err != nil {
			return fmt.Errorf("goal %d (%s): %v", i+1, g.ID, err)
		}
		if ids[g.ID] {
			return fmt.Errorf("goal %q twice", g.ID)
		}
		ids[g.ID] = true
	}
	for _, r := range t.Forbid {
		if r.ID == "" || len(r.Kinds) == 0 || r.Text.En == "" || r.Text.Ru == "" {
			return fmt.Errorf("forbid %q: want id, kinds and text in en and ru", r.ID)
		}
		ids["forbidden:"+r.ID] = true
	}
	ids["forbidden:given"] = true
	for i, w := range t.Wrong {
		if !ids[w.Fails] {
			return fmt.Errorf("wrong %d: fails %q is no goal id or forbidden:RULE", i+1, w.Fails)
		}
		if w.Why.En == "" || w.Why.Ru == "" {
			return fmt.Errorf("wrong %d: why wants en and ru", i+1)
		}
	}
	if a := t.Action; a != nil {
		n := 0
		for _, set := range []bool{a.SetImage != "", a.Fail != "", a.Drain != "", a.Load != ""} {
			if set {
				n++
			}
		}
		if n != 1 {
			return fmt.Errorf("action: want one of setImage, fail, drain, load")
		}
		if err := a.validateLoad(); err != nil {
			return err
		}
		if a.Fail != "" && a.Fail != "liveness" && a.Fail != "readiness" {
			return fmt.Errorf("action: fail %q: want liveness or readiness", a.Fail)
		}
		if a.Fail != "" && a.Selector == "" {
			return fmt.Errorf("action: fail wants a selector")
		}
	}
	objs, err := manifest.Parse(t.ID+"/cluster.yaml", []byte(t.Cluster))
	if err != nil {
		return fmt.Errorf("cluster: %v", err)
	}
	for _, o := range objs {
		if o.Kind == "Node" {
			t.nodes = append(t.nodes, o)
		} else {
			t.given = append(t.given, o)
		}
	}
	return nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
