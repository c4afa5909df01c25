package quiz

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/AlecAivazis/survey/v2"
	fsrs "github.com/open-spaced-repetition/go-fsrs/v3"

	"github.com/k8sexplain/k8sexplain/internal/report"
)

// builtinKinds pins the registry to the five built-in types for a test
// whose expected messages list them, so that registering a new type does
// not mean editing these tests.
func builtinKinds(t *testing.T) {
	saved := kinds
	kinds = []Kind{singleKind{}, multiKind{}, orderKind{}, numericKind{}, textKind{}}
	t.Cleanup(func() { kinds = saved })
}

// The registry is consistent: Types are its names in order, the built-in
// types keep their documented order, names are unique, each type's answer
// fields are rows of answerFields, and every row is used.
func TestKindRegistry(t *testing.T) {
	if !slices.Equal(Types, typeNames()) {
		t.Errorf("Types = %v, the registry has %v", Types, typeNames())
	}
	var builtin []string
	for _, name := range Types {
		if slices.Contains([]string{Single, Multi, Order, NumType, TextAns}, name) {
			builtin = append(builtin, name)
		}
	}
	if want := []string{Single, Multi, Order, NumType, TextAns}; !slices.Equal(builtin, want) {
		t.Errorf("the built-in types are %v in the registry, want %v", builtin, want)
	}
	seen := map[string]bool{}
	used := map[string]bool{}
	for _, k := range kinds {
		a := k.About()
		if a.Name == "" || seen[a.Name] {
			t.Errorf("kind %T: name %q empty or registered twice", k, a.Name)
		}
		seen[a.Name] = true
		if a.Usage.Label == "" || a.Usage.Form == "" {
			t.Errorf("kind %s: no usage line for quiz --help: %+v", a.Name, a.Usage)
		}
		if got := KindOf(&Question{Type: a.Name}); got != k {
			t.Errorf("KindOf(%s) = %T", a.Name, got)
		}
		for _, f := range a.Fields {
			if !slices.ContainsFunc(answerFields, func(r answerField) bool { return r.name == f }) {
				t.Errorf("kind %s uses field %q, which answerFields does not list", a.Name, f)
			}
			used[f] = true
		}
	}
	for _, f := range answerFields {
		if !used[f.name] {
			t.Errorf("answer field %q is used by no type", f.name)
		}
	}
	if _, ok := KindOf(&Question{Type: "essay"}).(unknownKind); !ok {
		t.Errorf("an unregistered type does not get unknownKind")
	}
	if !selfRated(&Question{Type: TextAns}) || selfRated(&Question{Type: Multi}) {
		t.Errorf("only free text rates its own answers")
	}
}

// An unknown type in a YAML file loads (the decoder knows no types) and
// fails validation naming file:line; it is asked as free text and cannot
// be graded.
func TestUnknownTypeIsAFileLineError(t *testing.T) {
	builtinKinds(t)
	fsys := fstest.MapFS{"x.yaml": {Data: []byte(`- id: q-ok
  topic: pods
  difficulty: middle
  type: numeric
  prompt: {en: p, ru: п}
  numeric: {value: 1, tolerance: 0, unit: {en: "", ru: ""}}
  explanation: {en: e, ru: о}
  see: {run: "k8sexplain quiz list", look: {en: l, ru: л}, doc: "https://kubernetes.io/"}
- id: q-essay
  topic: pods
  difficulty: middle
  type: essay
  prompt: {en: p, ru: п}
  choices: [{en: a, ru: а}, {en: b, ru: б}]
  explanation: {en: e, ru: о}
  see: {run: "k8sexplain quiz list", look: {en: l, ru: л}, doc: "https://kubernetes.io/"}
`)}}
	b, err := Load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if errs := Validate(b.Get("q-ok")); len(errs) > 0 {
		t.Fatalf("the valid question fails: %v", errs)
	}
	q := b.Get("q-essay")
	var got []string
	for _, err := range Validate(q) {
		got = append(got, err.Error())
	}
	want := []string{
		`x.yaml:9 (q-essay): type "essay" is not one of ` + strings.Join(Types, ", "), // the registry: kinds
		`x.yaml:9 (q-essay): choices are only for single, multi and order`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("Validate:\n got %q\nwant %q", got, want)
	}
	if r := Grade(q, nil, "1", "en"); r.Unreadable != "unknown question type essay" || r.Verdict != Wrong {
		t.Errorf("grading an unknown type: %+v", r)
	}
	if p := Present(q, 1, 1, "en", 1); p.Hint != "free text on one line" {
		t.Errorf("an unknown type is presented with hint %q", p.Hint)
	}
}

// Validate rejects answer data of another type, listing the types that use
// the field from the registry.
func TestValidateAnswerFieldsFromRegistry(t *testing.T) {
	builtinKinds(t)
	base := func(typ string) *Question {
		return &Question{ID: "q", Topic: "pods", Difficulty: "middle", Type: typ,
			Prompt: Text{En: "p", Ru: "п"}, Explanation: Text{En: "e", Ru: "о"},
			See: See{Run: "k8sexplain quiz list", Look: Text{En: "l", Ru: "л"}, Doc: "https://kubernetes.io/"}}
	}
	q := base(NumType)
	q.Numeric = &Numeric{Value: 1}
	q.Answer = []int{0}
	q.Choices = []Choice{{En: "a", Ru: "а"}}
	q.Rubric = []Concept{{}}
	var got []string
	for _, err := range Validate(q) {
		got = append(got, strings.TrimPrefix(err.Error(), " (q): "))
	}
	want := []string{"answer is only for single and multi", "choices are only for single, multi and order",
		"rubric and pass are only for text questions"}
	if !slices.Equal(got, want) {
		t.Errorf("numeric with others' data:\n got %q\nwant %q", got, want)
	}
	q = base(Order)
	q.Choices = []Choice{{En: "a", Ru: "а"}, {En: "b", Ru: "б", Why: &Text{En: "w", Ru: "п"}}}
	q.Numeric = &Numeric{}
	got = nil
	for _, err := range Validate(q) {
		got = append(got, strings.TrimPrefix(err.Error(), " (q): "))
	}
	want = []string{"choices[1].why: order steps have no why", "order needs at least 3 steps", "numeric is only for numeric questions"}
	if !slices.Equal(got, want) {
		t.Errorf("order with a why and numeric data:\n got %q\nwant %q", got, want)
	}
}

// probeKind is a question type registered only by the test: everything a
// type decides must reach it through the registry, with no switch on the
// type left elsewhere in the package.
type probeKind struct{ graded, reviewed *int }

func (probeKind) About() About {
	return About{Name: "probe", Fields: []string{"numeric"},
		Usage: Usage{"probe", "the word yes:", "yes"}}
}
func (probeKind) Validate(q *Question, bad func(string, ...any)) {
	if q.Numeric == nil {
		bad("probe needs numeric")
	}
}
func (probeKind) Present(p *Presentation) { p.Hint, p.Unit = "the word yes", "words" }
func (probeKind) Ask(p *Presentation, head string, opts []survey.AskOpt) (string, error) {
	return "yes", nil
}
func (k probeKind) Grade(q *Question, shown []int, answer, lang string) Result {
	*k.graded++
	if answer == "yes" {
		return Result{Score: 1.5} // Grade clamps
	}
	return Result{Score: 0.5, Pass: true} // a type may pass less than full marks
}
func (k probeKind) Review(d *report.Doc, a *Answered, lang string) {
	*k.reviewed++
	d.P("probe review: " + a.Answer)
}
func (probeKind) Model(p *Presentation) string           { return "yes" }
func (probeKind) Rate(q *Question, r Result) fsrs.Rating { return fsrs.Hard }

func TestKindPlugsIn(t *testing.T) {
	graded, reviewed := 0, 0
	builtinKinds(t)
	kinds = append(kinds, probeKind{&graded, &reviewed})

	q := &Question{ID: "q-probe", Topic: "pods", Difficulty: "middle", Type: "probe",
		Prompt: Text{En: "p", Ru: "п"}, Explanation: Text{En: "e", Ru: "о"}, Numeric: &Numeric{},
		See: See{Run: "k8sexplain quiz list", Look: Text{En: "l", Ru: "л"}, Doc: "https://kubernetes.io/"}}
	if errs := Validate(q); len(errs) > 0 {
		t.Errorf("a valid probe question fails: %v", errs)
	}
	q.Numeric = nil
	if errs := Validate(q); len(errs) != 1 || !strings.Contains(errs[0].Error(), "probe needs numeric") {
		t.Errorf("the probe's own check is not run: %v", errs)
	}
	p := Present(q, 1, 1, "en", 1)
	if p.Hint != "the word yes" || !strings.Contains(FormatQuestion(p), "Answer: the word yes (words)") {
		t.Errorf("the probe's presentation is not used:\n%s", FormatQuestion(p))
	}
	if ModelAnswer(p) != "yes" {
		t.Errorf("ModelAnswer = %q", ModelAnswer(p))
	}
	if r := Grade(q, nil, "yes", "en"); r.Score != 1 || !r.Pass || r.Verdict != Correct {
		t.Errorf("full marks: %+v", r)
	}
	if r := Grade(q, nil, "maybe", "en"); r.Verdict != Partial || !r.Pass {
		t.Errorf("a pass below full marks: %+v", r)
	}
	if r := Grade(q, nil, "  ", "en"); !r.Reveal || r.Verdict != Revealed || graded != 2 {
		t.Errorf("an empty answer reached the type (%d grades): %+v", graded, r)
	}
	if AutoRating(q, Result{Score: 1}) != fsrs.Hard {
		t.Errorf("the probe's own rating (Rater) is not used")
	}
	rated := 0
	s := &Session{Questions: []*Question{q}, Prompter: &ScriptedPrompter{Answers: map[string]string{"q-probe": "yes"}},
		Lang: "en", Now: func() time.Time { return time.Unix(0, 0) },
		Feedback: func(a *Answered) error {
			if out := render(t, FeedbackDoc(a, "en")); !strings.Contains(out, "probe review: yes") {
				t.Errorf("feedback without the probe's review:\n%s", out)
			}
			return nil
		},
		Rate: func(a *Answered, auto fsrs.Rating) (fsrs.Rating, error) { rated++; return auto, nil }}
	out, err := s.Run()
	if err != nil || len(out.Answers) != 1 {
		t.Fatalf("session: %v, %+v", err, out)
	}
	if rated != 1 || out.Answers[0].Rating != fsrs.Hard || reviewed != 1 {
		t.Errorf("a self-rated type: rate asked %d times, rating %v, reviewed %d times", rated, out.Answers[0].Rating, reviewed)
	}
}
