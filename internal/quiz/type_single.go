package quiz

import (
	"errors"
	"strconv"

	"github.com/AlecAivazis/survey/v2"

	"github.com/k8sexplain/k8sexplain/internal/report"
)

// Single is the type of a question with one right option among choices.
const Single = "single"

// singleKind: `choices` with `answer: [index]`; the learner picks one
// option, which scores 1 or 0.
type singleKind struct{}

func (singleKind) About() About {
	return About{Name: Single, Fields: []string{"answer", "choices"},
		Usage: Usage{"single choice", "the choice number:", "2"}}
}

func (singleKind) Validate(q *Question, bad func(string, ...any)) {
	if len(q.Choices) < 2 {
		bad("%s needs at least 2 choices", q.Type)
	}
	if len(q.Answer) != 1 {
		bad("single needs exactly one answer index, got %v", q.Answer)
	}
	validateAnswerIndices(q, bad)
}

func (singleKind) Present(p *Presentation) { p.Hint = msg(p.Lang, "choice number") }

func (singleKind) Ask(p *Presentation, head string, opts []survey.AskOpt) (string, error) {
	var idx int
	err := survey.AskOne(&survey.Select{Message: head, Options: p.Choices}, &idx, opts...)
	return strconv.Itoa(idx + 1), err
}

func (singleKind) Grade(q *Question, shown []int, answer, lang string) Result {
	picks, err := parseNumbers(answer, len(q.Choices), lang)
	if err == nil && len(picks) != 1 {
		err = errors.New(msg(lang, "one number expected"))
	}
	if err != nil {
		return Result{Unreadable: err.Error()}
	}
	if original(shown, picks)[0] == q.Answer[0] {
		return Result{Score: 1}
	}
	return Result{}
}

func (singleKind) Review(d *report.Doc, a *Answered, lang string) { reviewChoices(d, a, lang) }

func (singleKind) Model(p *Presentation) string { return shownNumbers(p, p.Q.Answer) }
