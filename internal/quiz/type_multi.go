package quiz

import (
	"github.com/AlecAivazis/survey/v2"

	"github.com/k8sexplain/k8sexplain/internal/report"
)

// Multi is the type of a question with one or more right options.
const Multi = "multi"

// multiKind: `choices` with `answer` listing every right index; the
// learner picks all that apply.
type multiKind struct{}

func (multiKind) About() About {
	return About{Name: Multi, Fields: []string{"answer", "choices"},
		Usage: Usage{"multiple choice", "numbers, commas or spaces:", "1, 3"}}
}

func (multiKind) Validate(q *Question, bad func(string, ...any)) {
	if len(q.Choices) < 2 {
		bad("%s needs at least 2 choices", q.Type)
	}
	if len(q.Answer) < 1 {
		bad("multi needs at least one answer index")
	}
	validateAnswerIndices(q, bad)
}

func (multiKind) Present(p *Presentation) {
	p.Hint = msg(p.Lang, "choice numbers separated by commas or spaces")
}

func (multiKind) Ask(p *Presentation, head string, opts []survey.AskOpt) (string, error) {
	var idx []int
	ms := &survey.MultiSelect{Message: head + "\n  " + msg(p.Lang, "Pick all that apply"), Options: p.Choices}
	err := survey.AskOne(ms, &idx, opts...)
	return joinNumbers(idx), err
}

// Grade gives hits/|correct| - wrongPicks/|incorrect|: each correct pick
// earns its share, each wrong pick costs its share, so ticking every box
// scores 0.
func (multiKind) Grade(q *Question, shown []int, answer, lang string) Result {
	picks, err := parseNumbers(answer, len(q.Choices), lang)
	if err != nil {
		return Result{Unreadable: err.Error()}
	}
	picked := map[int]bool{}
	for _, p := range original(shown, picks) {
		picked[p] = true
	}
	correct := map[int]bool{}
	for _, a := range q.Answer {
		correct[a] = true
	}
	var r Result
	hits, wrong := 0, 0
	for i, c := range q.Choices {
		switch {
		case correct[i] && picked[i]:
			hits++
		case correct[i]:
			r.MissedPicks = append(r.MissedPicks, c.In(lang))
		case picked[i]:
			wrong++
			r.WrongPicks = append(r.WrongPicks, c.In(lang))
		}
	}
	r.Score = float64(hits) / float64(len(correct))
	if n := len(q.Choices) - len(correct); n > 0 {
		r.Score -= float64(wrong) / float64(n)
	}
	return r
}

func (multiKind) Review(d *report.Doc, a *Answered, lang string) { reviewChoices(d, a, lang) }

func (multiKind) Model(p *Presentation) string { return shownNumbers(p, p.Q.Answer) }
