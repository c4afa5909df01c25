package quiz

import (
	"fmt"
	"io/fs"
	"path"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// Text is a string in both languages of the tool.
type Text struct {
	En string `yaml:"en" json:"en"`
	Ru string `yaml:"ru" json:"ru"`
}

// In returns the text in lang ("ru" or anything else for English), falling
// back to the other language when one is missing.
func (t Text) In(lang string) string {
	if lang == "ru" && t.Ru != "" {
		return t.Ru
	}
	if t.En == "" {
		return t.Ru
	}
	return t.En
}

// Words is a list of words or phrases in both languages.
type Words struct {
	En []string `yaml:"en" json:"en"`
	Ru []string `yaml:"ru" json:"ru"`
}

// Numeric is the answer data of a numeric question.
type Numeric struct {
	Value     float64 `yaml:"value" json:"value"`
	Tolerance float64 `yaml:"tolerance" json:"tolerance"`
	Unit      Text    `yaml:"unit" json:"unit"`
}

// Concept is one key idea a free-text answer should state: Says holds the
// patterns that state it, Wrong the misconceptions its author expects.
// The pattern language is documented in doc.go.
type Concept struct {
	Name  Text      `yaml:"name" json:"name"`
	Says  Words     `yaml:"says" json:"says"`
	Wrong []Mistake `yaml:"wrong" json:"wrong,omitempty"`
}

// Mistake is a named misconception: a match fails its concept, and the
// feedback names it.
type Mistake struct {
	Name Text  `yaml:"name" json:"name"`
	Says Words `yaml:"says" json:"says"`
}

// See points a learner at the simulator and the upstream documentation:
// the command that shows the topic, what to look for in its output and the
// upstream page that covers it. Exit is the exit code the command ends
// with, 0 unless the point is a refusal: an apply the API server rejects
// exits 1, as kubectl does.
type See struct {
	Run  string `yaml:"run" json:"run"`
	Look Text   `yaml:"look" json:"look"`
	Doc  string `yaml:"doc" json:"doc"`
	Exit int    `yaml:"exit,omitempty" json:"exit,omitempty"`
}

// SeeIn is a See in one language, as the reports print it.
type SeeIn struct {
	Run  string `json:"run"`
	Look string `json:"look"`
	Doc  string `json:"doc"`
}

// In returns the See with its look in lang.
func (s See) In(lang string) SeeIn { return SeeIn{Run: s.Run, Look: s.Look.In(lang), Doc: s.Doc} }

// Choice is one option of a single, multi or order question. In YAML it is
// {en, ru} with an optional why: {en, ru}, one line saying why the option
// is wrong (shown when a learner picks it) or, for a right option, why it
// is right.
type Choice struct {
	En  string `yaml:"en" json:"en"`
	Ru  string `yaml:"ru" json:"ru"`
	Why *Text  `yaml:"why" json:"why,omitempty"`
}

// In is Text.In for a choice.
func (c Choice) In(lang string) string { return Text{En: c.En, Ru: c.Ru}.In(lang) }

// Topics and Difficulties are the valid values of those fields (Types,
// the question types, come from the registry in kind.go).
var (
	Difficulties = []string{"middle", "senior", "staff"}
	Topics       = []string{"control-plane", "reconcile", "watch", "apply", "security", "etcd", "scheduler",
		"runtime", "pods", "probes", "deployments", "lifecycle", "shutdown", "services", "dns", "grpc",
		"api-machinery", "resources"}
)

// Question is one entry of questions/<topic>.yaml. The schema:
//
//	id          unique kebab-case name
//	topic       one of Topics
//	tags        free words
//	difficulty  middle | senior | staff
//	type        one of Types: single | multi | order | numeric | text (kind.go, type_*.go)
//	prompt      {en, ru}
//	choices     single/multi: the options, each {en, ru, why: {en, ru}} (why optional: one
//	            line on why the option is wrong, shown when it is picked);
//	            order: the steps in the CORRECT order (shown shuffled)
//	answer      single: [index]; multi: indices of all correct choices (0-based); absent otherwise
//	numeric     numeric only: {value, tolerance, unit: {en, ru}}
//	rubric      text only: concepts, each {name: {en, ru}, says: {en: [...], ru: [...]},
//	            wrong: [{name: {en, ru}, says: {en: [...], ru: [...]}}]} (see doc.go)
//	pass        text only: concepts needed for a pass (default: all)
//	explanation {en, ru}: the model answer
//	see         {run, look: {en, ru}, doc}: run is a k8sexplain command line that
//	            shows the topic with the built-in examples (works from any directory),
//	            look says what to look for in its output (text in backticks must occur
//	            in that output), doc is the upstream page (https, kubernetes.io, etcd.io,
//	            github.com/kubernetes/..., ...) that covers the topic
//
// How a rubric matches is documented in doc.go ("Free-text rubrics"). The
// bank lint grades each model answer against its own rubric (full credit),
// "I don't know" against it (nothing), and every other question's model
// answer against it (never full credit), in both languages.
type Question struct {
	ID          string    `yaml:"id" json:"id"`
	Topic       string    `yaml:"topic" json:"topic"`
	Tags        []string  `yaml:"tags" json:"tags,omitempty"`
	Difficulty  string    `yaml:"difficulty" json:"difficulty"`
	Type        string    `yaml:"type" json:"type"`
	Prompt      Text      `yaml:"prompt" json:"prompt"`
	Choices     []Choice  `yaml:"choices" json:"choices,omitempty"`
	Answer      []int     `yaml:"answer" json:"answer,omitempty"`
	Numeric     *Numeric  `yaml:"numeric" json:"numeric,omitempty"`
	Rubric      []Concept `yaml:"rubric" json:"rubric,omitempty"`
	Pass        int       `yaml:"pass" json:"pass,omitempty"`
	Explanation Text      `yaml:"explanation" json:"explanation"`
	See         See       `yaml:"see" json:"see"`

	// File is where the question was loaded from (file:line), for messages.
	File string `yaml:"-" json:"-"`
}

// answerFields are the fields of Question that carry one type's answer
// data. A Kind names those it uses (About.Fields); Validate rejects the
// others with only, %s being the types that use the field.
var answerFields = []answerField{
	{"answer", "answer is only for %s", func(q *Question) bool { return len(q.Answer) > 0 }},
	{"choices", "choices are only for %s", func(q *Question) bool { return len(q.Choices) > 0 }},
	{"numeric", "numeric is only for %s questions", func(q *Question) bool { return q.Numeric != nil }},
	{"rubric", "rubric and pass are only for %s questions", func(q *Question) bool { return len(q.Rubric) > 0 || q.Pass != 0 }},
}

type answerField struct {
	name, only string
	set        func(q *Question) bool
}

// Bank is the loaded question bank, in file order (files sorted by name).
type Bank struct {
	Questions []*Question
	byID      map[string]*Question
}

// Get returns the question with id, or nil.
func (b *Bank) Get(id string) *Question { return b.byID[id] }

// Load reads every *.yaml file at the top of fsys. It fails on YAML errors
// and unknown fields, naming file:line; semantic checks are in Validate.
func Load(fsys fs.FS) (*Bank, error) {
	names, err := fs.Glob(fsys, "*.yaml")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	b := &Bank{byID: map[string]*Question{}}
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		qs, err := parseFile(name, data)
		if err != nil {
			return nil, err
		}
		for _, q := range qs {
			if prev := b.byID[q.ID]; prev != nil && q.ID != "" {
				return nil, fmt.Errorf("%s: duplicate id %q (first at %s)", q.File, q.ID, prev.File)
			}
			b.byID[q.ID] = q
			b.Questions = append(b.Questions, q)
		}
	}
	return b, nil
}

func parseFile(name string, data []byte) ([]*Question, error) {
	// One parse: the text becomes a node tree once, each question is
	// checked for unknown fields on the tree (checkKnown) and decoded from
	// it. Marshalling every question back to YAML for a strict decoder
	// (as before) parsed the bank three times, most of `quiz list`'s
	// start-up (issue 26 §3).
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	list := doc.Content[0]
	if list.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("%s:%d: want a list of questions", name, list.Line)
	}
	qs := make([]*Question, 0, len(list.Content))
	for _, n := range list.Content {
		q := &Question{}
		if err := decodeStrict(n, q); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, n.Line, err)
		}
		q.File = fmt.Sprintf("%s:%d", path.Base(name), n.Line)
		qs = append(qs, q)
	}
	return qs, nil
}

// decodeStrict decodes one node, rejecting unknown fields (a typo such as
// "explaination" would otherwise silently drop the model answer), as
// yaml.v3's Decoder.KnownFields does, without parsing the text again.
func decodeStrict(n *yaml.Node, v any) error {
	if err := checkKnown(n, reflect.TypeOf(v)); err != nil {
		return err
	}
	return n.Decode(v)
}

// checkKnown walks a node tree along the Go type it decodes into and
// reports the first mapping key that names no field, as yaml.v3 words it:
// "line 3: field explaination not found in type quiz.Question".
func checkKnown(n *yaml.Node, t reflect.Type) error {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t.Kind() == reflect.Struct && n.Kind == yaml.MappingNode:
		fields := yamlFields(t)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			f, ok := fields[k.Value]
			if !ok {
				return fmt.Errorf("line %d: field %s not found in type %s", k.Line, k.Value, t.String())
			}
			if err := checkKnown(n.Content[i+1], f); err != nil {
				return err
			}
		}
	case (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && n.Kind == yaml.SequenceNode:
		for _, c := range n.Content {
			if err := checkKnown(c, t.Elem()); err != nil {
				return err
			}
		}
	}
	return nil
}

// yamlFields maps the YAML keys of a struct type to their field types.
var yamlFieldCache sync.Map // reflect.Type -> map[string]reflect.Type

func yamlFields(t reflect.Type) map[string]reflect.Type {
	if m, ok := yamlFieldCache.Load(t); ok {
		return m.(map[string]reflect.Type)
	}
	m := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		key, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		switch key {
		case "-":
			continue
		case "":
			key = strings.ToLower(f.Name)
		}
		m[key] = f.Type
	}
	yamlFieldCache.Store(t, m)
	return m
}

// Filter returns the questions matching every non-empty criterion.
func (b *Bank) Filter(topics []string, difficulty string) []*Question {
	var out []*Question
	for _, q := range b.Questions {
		if len(topics) > 0 && !slices.Contains(topics, q.Topic) {
			continue
		}
		if difficulty != "" && q.Difficulty != difficulty {
			continue
		}
		out = append(out, q)
	}
	return out
}
