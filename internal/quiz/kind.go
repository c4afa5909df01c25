package quiz

import (
	"slices"
	"strings"

	"github.com/AlecAivazis/survey/v2"
	fsrs "github.com/open-spaced-repetition/go-fsrs/v3"

	"github.com/k8sexplain/k8sexplain/internal/report"
)

// A Kind is one question type: everything that differs from one type to
// another, from the schema check to the review lines of the feedback. Each
// type lives in its own file (type_single.go, type_multi.go, ...) and is
// listed once in kinds. The rest of the package (loading, selection,
// sessions, the store, the report) never looks at Question.Type.
//
// Adding a type: write type_<name>.go with a value implementing Kind (and
// Rater if its answers earn a rating of their own), add it to kinds, and
// put its learner-facing texts in the message catalogue. A type that needs
// answer data of its own also adds the field to Question and a row to
// answerFields (question.go).
type Kind interface {
	// About names the type and says what help and validation list of it.
	About() About
	// Validate checks the type's answer data; bad reports one problem.
	Validate(q *Question, bad func(format string, args ...any))
	// Present sets the hint (and unit) of p. p.Shown already holds the
	// shuffled display order of the choices; Present may change it.
	Present(p *Presentation)
	// Ask asks p on a terminal (survey) and returns the answer in the
	// answer format; head is the question's header and prompt.
	Ask(p *Presentation, head string, opts []survey.AskOpt) (string, error)
	// Grade grades a non-empty answer to q as presented with shown (see
	// Grade). The score may leave [0, 1] (Grade clamps it); a full score
	// is always a pass, and Pass set here passes a lower score.
	Grade(q *Question, shown []int, answer, lang string) Result
	// Review adds the type's lines to the feedback on a graded answer:
	// what the right answer was and what went wrong.
	Review(d *report.Doc, a *Answered, lang string)
	// Model is the model answer in the answer format, numbered as p shows
	// the choices: what a learner who knows it would type.
	Model(p *Presentation) string
}

// A Rater is a Kind whose answers earn an FSRS rating of their own rather
// than by score (Rating). An offline grader of such a type can be wrong,
// so on a terminal the learner confirms or changes the rating after the
// feedback (Session.Rate).
type Rater interface {
	Rate(q *Question, r Result) fsrs.Rating
}

// About is what the registry, `quiz --help` and validation know of a
// type.
type About struct {
	// Name is the value of the question's `type:` field.
	Name string
	// Usage is the line of `quiz --help` that says how to answer.
	Usage Usage
	// Fields names the answer-data fields of Question the type uses (rows
	// of answerFields); Validate rejects the others.
	Fields []string
}

// Usage is one row of the answer formats `quiz --help` lists.
type Usage struct {
	Label   string // "single choice"
	Form    string // "the choice number:"
	Example string // "2"
}

// kinds is the registry of question types, in the order help, completion
// and errors list them.
var kinds = []Kind{singleKind{}, multiKind{}, orderKind{}, numericKind{}, textKind{}}

// Types are the valid values of a question's `type:` field.
var Types = typeNames()

func typeNames() []string {
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = k.About().Name
	}
	return out
}

// KindOf returns the Kind of q; a type not in the registry gets one that
// fails validation and grading.
func KindOf(q *Question) Kind {
	for _, k := range kinds {
		if k.About().Name == q.Type {
			return k
		}
	}
	return unknownKind{}
}

// Usages are the answer formats of every type, for `quiz --help`.
func Usages() []Usage {
	out := make([]Usage, len(kinds))
	for i, k := range kinds {
		out[i] = k.About().Usage
	}
	return out
}

// ModelAnswer is the model answer to p in the answer format.
func ModelAnswer(p *Presentation) string { return KindOf(p.Q).Model(p) }

// selfRated says the learner confirms the rating of q's answers.
func selfRated(q *Question) bool {
	_, ok := KindOf(q).(Rater)
	return ok
}

// usedBy lists, "a, b and c", the types that use an answer-data field.
func usedBy(field string) string {
	var names []string
	for _, k := range kinds {
		if a := k.About(); slices.Contains(a.Fields, field) {
			names = append(names, a.Name)
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// unknownKind is the type of a question whose `type:` is not registered:
// it fails validation, is asked as free text and cannot be graded.
type unknownKind struct{}

func (unknownKind) About() About { return About{} }

func (unknownKind) Validate(q *Question, bad func(string, ...any)) {
	bad("type %q is not one of %s", q.Type, strings.Join(Types, ", "))
}

func (unknownKind) Present(p *Presentation) { p.Hint = msg(p.Lang, "free text on one line") }

func (unknownKind) Ask(p *Presentation, head string, opts []survey.AskOpt) (string, error) {
	return askLine(p, head, opts)
}

func (unknownKind) Grade(q *Question, shown []int, answer, lang string) Result {
	return Result{Unreadable: "unknown question type " + q.Type}
}

func (unknownKind) Review(d *report.Doc, a *Answered, lang string) {}
func (unknownKind) Model(p *Presentation) string                   { return "" }
