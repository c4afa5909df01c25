package quiz

import (
	"fmt"

	"github.com/AlecAivazis/survey/v2"
	fsrs "github.com/open-spaced-repetition/go-fsrs/v3"

	"github.com/k8sexplain/k8sexplain/internal/report"
)

// TextAns is the type of a question answered in free text.
const TextAns = "text"

// textKind: `rubric` (concepts with their patterns and misconceptions)
// and `pass`; the learner writes a line, which the rubric grades offline
// (rubric.go, text.go; the pattern language is in doc.go).
type textKind struct{}

func (textKind) About() About {
	return About{Name: TextAns, Fields: []string{"rubric"},
		Usage: Usage{"free text", "the answer on one line", ""}}
}

func (textKind) Validate(q *Question, bad func(string, ...any)) {
	if len(q.Rubric) == 0 {
		bad("text needs a rubric")
	}
	for i, c := range q.Rubric {
		needBoth(bad, fmt.Sprintf("rubric[%d].name", i), c.Name)
		patterns := func(field string, w Words) {
			if len(w.En) == 0 || len(w.Ru) == 0 {
				bad("%s needs patterns in both en and ru", field)
			}
			for _, s := range append(append([]string{}, w.En...), w.Ru...) {
				if _, err := parsePattern(s); err != nil {
					bad("%s: %v", field, err)
				}
			}
		}
		patterns(fmt.Sprintf("rubric[%d].says", i), c.Says)
		for j, m := range c.Wrong {
			needBoth(bad, fmt.Sprintf("rubric[%d].wrong[%d].name", i, j), m.Name)
			patterns(fmt.Sprintf("rubric[%d].wrong[%d].says", i, j), m.Says)
		}
	}
	if q.Pass < 0 || q.Pass > len(q.Rubric) {
		bad("pass %d out of range 0..%d", q.Pass, len(q.Rubric))
	}
}

// Present: the hint is the line mode's (pipes, files): one line per
// answer there, while an answers file and the terminal's editor field take
// several lines (askText has its own words).
func (textKind) Present(p *Presentation) {
	p.Hint = msg(p.Lang, "free text on one line here (several lines in an answers file or on a terminal); an empty line or ? shows the model answer")
}

func (textKind) Ask(p *Presentation, head string, opts []survey.AskOpt) (string, error) {
	return askText(p, head, opts)
}

// Grade checks every rubric concept against the answer's clauses. The
// score is the share of concepts stated; a pass needs q.Pass of them (all
// by default).
func (textKind) Grade(q *Question, shown []int, answer, lang string) Result {
	cls := clauses(answer)
	var r Result
	stated := 0
	ccs := compiledRubric(q)
	for i, c := range q.Rubric {
		ch := gradeConcept(answer, cls, c, ccs[i], lang)
		r.Checks = append(r.Checks, ch)
		if ch.State == Stated {
			stated++
			r.Found = append(r.Found, ch.Concept)
		} else {
			r.Missed = append(r.Missed, ch.Concept)
		}
	}
	if len(q.Rubric) > 0 {
		r.Score = float64(stated) / float64(len(q.Rubric))
	}
	r.Pass = stated > 0 && stated >= q.needed()
	return r
}

// needed is how many concepts a pass needs.
func (q *Question) needed() int {
	if q.Pass <= 0 || q.Pass > len(q.Rubric) {
		return len(q.Rubric)
	}
	return q.Pass
}

// Rate: every concept stated and no misconception Easy, a pass Good, some
// concepts Hard, none Again.
func (textKind) Rate(q *Question, r Result) fsrs.Rating {
	switch {
	case r.Score >= 0.999:
		return fsrs.Easy
	case r.Pass:
		return fsrs.Good
	case r.Score > 0:
		return fsrs.Hard
	}
	return fsrs.Again
}

// Review gives the checklist of key points.
func (textKind) Review(d *report.Doc, a *Answered, lang string) {
	r := a.Result
	if len(r.Checks) == 0 {
		return
	}
	if r.Reveal {
		d.P(msgf(lang, "Key points ({1} needed for a pass):", a.Q.needed()))
	} else {
		d.P(msgf(lang, "Key points ({1} of {2} recognised, {3} needed for a pass):", len(r.Found), len(r.Checks), a.Q.needed()))
	}
	d.L(Checklist(r, lang)...)
}

// Reveal lists the key points to compare with, none checked.
func (textKind) Reveal(q *Question, lang string) Result {
	var r Result
	for _, c := range q.Rubric {
		r.Checks = append(r.Checks, Check{Concept: c.Name.In(lang), State: Missing})
		r.Missed = append(r.Missed, c.Name.In(lang))
	}
	return r
}

// Checklist renders the key points of a graded free-text answer, one line
// each, in three states: ✓ stated (with the words of the answer that
// state it), ✗ contradicted — only when the answer states a named
// misconception (quoted) — and "not recognised", which asks the learner
// to compare with the model answer: a lexical grader misses paraphrases,
// and a negation it reads around a right sentence is no proof, so it
// never tells a learner a sentence says the opposite. An answer that asked
// for the model answer (Reveal) gets the bare list.
func Checklist(r Result, lang string) []string {
	var out []string
	for _, c := range r.Checks {
		switch {
		case r.Reveal:
			out = append(out, c.Concept)
		case c.State == Stated:
			out = append(out, fmt.Sprintf("✓ %s — «%s»", c.Concept, c.Quote))
		case c.State == Misconception:
			out = append(out, fmt.Sprintf("✗ %s — %s: %s («%s»)", c.Concept, msg(lang, "misconception"), c.Misconception, c.Quote))
		default:
			out = append(out, fmt.Sprintf("? %s — %s", c.Concept, msg(lang, "not recognised: compare with the model answer")))
		}
	}
	return out
}

// Model is the explanation itself, which must earn full credit from its
// own rubric.
func (textKind) Model(p *Presentation) string { return p.Q.Explanation.In(p.Lang) }
