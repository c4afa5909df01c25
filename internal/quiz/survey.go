package quiz

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/AlecAivazis/survey/v2"
	"github.com/AlecAivazis/survey/v2/core"
	"github.com/AlecAivazis/survey/v2/terminal"
)

// SurveyPrompter asks with github.com/AlecAivazis/survey/v2 on a terminal:
// arrow-key selection for choices, a step-by-step pick for order questions,
// a text input otherwise. Use it only when stdin and stdout are both
// terminals; survey needs the file descriptors (WithStdio).
//
// Survey puts the terminal in raw mode, which clears ISIG, so Ctrl-C arrives
// as terminal.InterruptErr rather than SIGINT; Ask returns ErrInterrupted.
type SurveyPrompter struct {
	Stdio terminal.Stdio
	// NoColor turns survey's colours off (--color never, NO_COLOR).
	NoColor bool
}

// Ask runs the survey prompts for one question.
func (s *SurveyPrompter) Ask(p *Presentation) (string, error) {
	// survey has one package-level switch for colour; a session asks one
	// question at a time, so setting it per question is safe.
	core.DisableColor = s.NoColor
	ans, err := s.ask(p)
	if errors.Is(err, terminal.InterruptErr) {
		return "", ErrInterrupted
	}
	return ans, err
}

func (s *SurveyPrompter) ask(p *Presentation) (string, error) {
	opts := []survey.AskOpt{survey.WithStdio(s.Stdio.In, s.Stdio.Out, s.Stdio.Err), survey.WithShowCursor(true)}
	head := fmt.Sprintf("%s · %s · %s\n  %s", fmt.Sprintf(msg(p.Lang, "Question %d of %d"), p.Number, p.Total),
		p.Q.Topic, p.Q.Difficulty, p.Prompt)
	switch p.Q.Type {
	case Single:
		var idx int
		err := survey.AskOne(&survey.Select{Message: head, Options: p.Choices}, &idx, opts...)
		return strconv.Itoa(idx + 1), err
	case Multi:
		var idx []int
		ms := &survey.MultiSelect{Message: head + "\n  " + msg(p.Lang, "Pick all that apply"), Options: p.Choices}
		err := survey.AskOne(ms, &idx, opts...)
		return joinNumbers(idx), err
	case Order:
		return s.askOrder(p, head, opts)
	default:
		var text string
		hint := p.Hint
		if p.Unit != "" {
			hint += " (" + p.Unit + ")"
		}
		err := survey.AskOne(&survey.Input{Message: head + "\n  " + hint + ":"}, &text, opts...)
		return text, err
	}
}

// askOrder lets the learner pick the steps one at a time from those left;
// the last one needs no pick.
func (s *SurveyPrompter) askOrder(p *Presentation, head string, opts []survey.AskOpt) (string, error) {
	left := make([]int, len(p.Choices))
	for i := range left {
		left[i] = i
	}
	var picked []int
	for len(left) > 1 {
		texts := make([]string, len(left))
		for i, c := range left {
			texts[i] = p.Choices[c]
		}
		message := head
		if len(picked) > 0 {
			message = fmt.Sprintf("%s (%d/%d)", msg(p.Lang, "Pick the next step"), len(picked)+1, len(p.Choices))
		}
		var idx int
		if err := survey.AskOne(&survey.Select{Message: message, Options: texts}, &idx, opts...); err != nil {
			return "", err
		}
		picked = append(picked, left[idx])
		left = append(left[:idx:idx], left[idx+1:]...)
	}
	picked = append(picked, left...)
	return joinNumbers(picked), nil
}

func joinNumbers(idx []int) string {
	parts := make([]string, len(idx))
	for i, v := range idx {
		parts[i] = strconv.Itoa(v + 1)
	}
	return strings.Join(parts, " ")
}
