package quiz

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/AlecAivazis/survey/v2"
	"github.com/AlecAivazis/survey/v2/core"
	"github.com/AlecAivazis/survey/v2/terminal"
	fsrs "github.com/open-spaced-repetition/go-fsrs/v3"
)

// SurveyPrompter asks with github.com/AlecAivazis/survey/v2 on a terminal,
// each type its own way (Kind.Ask): arrow-key selection for choices, a
// step-by-step pick for order questions, a text input otherwise. Use it only when stdin and stdout are both
// terminals; survey needs the file descriptors (WithStdio).
//
// Survey puts the terminal in raw mode, which clears ISIG, so Ctrl-C arrives
// as terminal.InterruptErr rather than SIGINT; Ask returns ErrInterrupted.
type SurveyPrompter struct {
	Stdio terminal.Stdio
	// NoColor turns survey's colours off (--color never, NO_COLOR).
	NoColor bool

	// a timed exam (Presentation.Left > 0) reads through timed and writes
	// through out, for the live countdown (countdown.go); now is the
	// clock, time.Now if nil
	timed *timedIn
	out   *lockedOut
	now   func() time.Time
}

// survey's templates carry English key hints; the catalogue has their
// Russian (survey has no localisation of its own). The replacer is made on
// first use: it reads the catalogue, which is built on first use too.
var (
	surveyTemplates = [...]*string{&survey.SelectQuestionTemplate, &survey.MultiSelectQuestionTemplate, &survey.InputQuestionTemplate, &survey.MultilineQuestionTemplate}
	surveyEnglish   = [...]string{survey.SelectQuestionTemplate, survey.MultiSelectQuestionTemplate, survey.InputQuestionTemplate, survey.MultilineQuestionTemplate}
	surveyRussian   = sync.OnceValue(func() *strings.Replacer {
		return surveyReplacer("ru",
			"[Use arrows to move, space to select,",
			"[Use arrows to move, enter to select, type to continue]",
			"[Use arrows to move, type to filter",
			" <right> to all,",
			" <left> to none,",
			" type to filter",
			" for more help",
			" for help",
			"[Enter 2 empty lines to finish]",
		)
	})
)

// surveyReplacer replaces each English fragment of survey's templates with
// its text in lang.
func surveyReplacer(lang string, fragments ...string) *strings.Replacer {
	var kv []string
	for _, f := range fragments {
		kv = append(kv, f, msg(lang, f))
	}
	return strings.NewReplacer(kv...)
}

// localise sets survey's package-level templates for lang; a session asks
// one question at a time, so setting them per question is safe.
func localise(lang string) {
	for i, t := range surveyTemplates {
		*t = surveyEnglish[i]
		if lang == "ru" {
			*t = surveyRussian().Replace(surveyEnglish[i])
		}
	}
}

// Ask runs the survey prompts for one question.
func (s *SurveyPrompter) Ask(p *Presentation) (string, error) {
	// survey has one package-level switch for colour; a session asks one
	// question at a time, so setting it per question is safe.
	core.DisableColor = s.NoColor
	localise(p.Lang)
	var ans string
	var err error
	if p.Left > 0 {
		ans, err = s.withCountdown(p.Lang, p.Left, func(stdio terminal.Stdio, live bool) (string, error) { return s.ask(stdio, p, live) })
	} else {
		ans, err = s.ask(s.Stdio, p, false)
	}
	switch {
	case errors.Is(err, terminal.InterruptErr):
		return "", ErrInterrupted
	case errors.Is(err, ErrTimeUp):
		return "", ErrTimeUp
	}
	return ans, err
}

// ask asks one question; live: the countdown runs on the top row, so the
// header does not repeat the time left at the start.
func (s *SurveyPrompter) ask(stdio terminal.Stdio, p *Presentation, live bool) (string, error) {
	opts := []survey.AskOpt{survey.WithStdio(stdio.In, stdio.Out, stdio.Err), survey.WithShowCursor(true)}
	left := timeLeft(p)
	if live {
		left = ""
	}
	head := fmt.Sprintf("%s · %s · %s%s\n  %s", msgf(p.Lang, "Question {1} of {2}", p.Number, p.Total),
		topicName(p.Lang, p.Q.Topic), levelName(p.Lang, p.Q.Difficulty), left, p.Prompt)
	if p.Retry != "" {
		head = fmt.Sprintf("%s\n  %s", head, retryLine(p))
	}
	return KindOf(p.Q).Ask(p, head, opts)
}

// askLine asks for one line of text with the answer's hint (and unit).
func askLine(p *Presentation, head string, opts []survey.AskOpt) (string, error) {
	var text string
	hint := p.Hint
	if p.Unit != "" {
		hint += " (" + p.Unit + ")"
	}
	err := survey.AskOne(&survey.Input{Message: head + "\n  " + hint + ":"}, &text, opts...)
	return text, err
}

// askText asks for a free-text answer on several lines (survey's
// Multiline: Enter on two empty lines finishes it); nothing, or "?", asks
// for the model answer.
func askText(p *Presentation, head string, opts []survey.AskOpt) (string, error) {
	var text string
	err := survey.AskOne(&survey.Multiline{Message: head + "\n  " + msg(p.Lang, "free text, several lines allowed; nothing or ? shows the model answer") + ":"}, &text, opts...)
	return text, err
}

// Ratings are the FSRS ratings in the order the rating prompt lists them.
var Ratings = []fsrs.Rating{fsrs.Again, fsrs.Hard, fsrs.Good, fsrs.Easy}

// RatingName is the learner-facing name of an FSRS rating.
func RatingName(r fsrs.Rating, lang string) string {
	switch r {
	case fsrs.Again:
		return msg(lang, "Again — did not know it")
	case fsrs.Hard:
		return msg(lang, "Hard — partly, with gaps")
	case fsrs.Good:
		return msg(lang, "Good — knew the key points")
	}
	return msg(lang, "Easy — knew it all")
}

// Rate asks the learner to confirm or change the automatic rating of an
// answer, the automatic one preselected, among RatingChoices (Anki's
// honest loop: an offline grader can be wrong, the learner has seen the
// model answer and the checklist; a right pick may have been a guess).
func (s *SurveyPrompter) Rate(a *Answered, auto fsrs.Rating) (fsrs.Rating, error) {
	core.DisableColor = s.NoColor
	localise(a.P.Lang)
	choices := RatingChoices(a.Q, auto)
	opts := make([]string, len(choices))
	def := 0
	for i, r := range choices {
		opts[i] = RatingName(r, a.P.Lang)
		if r == fsrs.Hard && !selfRated(a.Q) {
			opts[i] = msg(a.P.Lang, "Hard — I guessed")
		}
		if r == auto {
			def = i
		}
	}
	var idx int
	q := &survey.Select{Message: msg(a.P.Lang, "How well did you know it? (the automatic rating is preselected)"), Options: opts, Default: opts[def]}
	err := survey.AskOne(q, &idx, survey.WithStdio(s.Stdio.In, s.Stdio.Out, s.Stdio.Err), survey.WithShowCursor(true))
	if errors.Is(err, terminal.InterruptErr) {
		return auto, ErrInterrupted
	}
	if err != nil {
		return auto, err
	}
	return choices[idx], nil
}

func joinNumbers(idx []int) string {
	parts := make([]string, len(idx))
	for i, v := range idx {
		parts[i] = strconv.Itoa(v + 1)
	}
	return strings.Join(parts, " ")
}
