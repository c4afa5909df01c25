package quiz

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/l10n"
	"github.com/k8sexplain/k8sexplain/internal/report"
)

// What the choice types (single, multi, order) share: reading choice
// numbers, mapping displayed numbers to choices and back, and the review of
// a wrong pick.

// ParseNumbers reads choice numbers (1-based, separated by commas, spaces or
// semicolons) and returns them 0-based, checking each is in 1..n.
func ParseNumbers(s string, n int) ([]int, error) { return parseNumbers(s, n, "en") }

func parseNumbers(s string, n int, lang string) ([]int, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' || r == ' ' || r == '\t' })
	out := make([]int, 0, len(fields))
	for _, f := range fields {
		v, err := strconv.Atoi(strings.TrimSuffix(f, "."))
		if err != nil {
			return nil, errors.New(msgf(lang, "{1} is not a choice number", l10n.Quoted(f)))
		}
		if v < 1 || v > n {
			return nil, errors.New(msgf(lang, "choice {1} is not between 1 and {2}", v, n))
		}
		out = append(out, v-1)
	}
	if len(out) == 0 {
		return nil, errors.New(msg(lang, "no choice numbers"))
	}
	return out, nil
}

// original maps displayed positions to original choice indices.
func original(shown []int, picks []int) []int {
	if shown == nil {
		return picks
	}
	out := make([]int, len(picks))
	for i, p := range picks {
		out[i] = shown[p]
	}
	return out
}

// shownNumbers writes original choice indices as the numbers p displays
// them under, in the answer format.
func shownNumbers(p *Presentation, origs []int) string {
	var parts []string
	for _, orig := range origs {
		for shown, o := range p.Shown {
			if o == orig {
				parts = append(parts, strconv.Itoa(shown+1))
			}
		}
	}
	return strings.Join(parts, " ")
}

// validateAnswerIndices checks a choice question's answer indices: every
// one in range and none repeated.
func validateAnswerIndices(q *Question, bad func(string, ...any)) {
	seen := map[int]bool{}
	for _, a := range q.Answer {
		if a < 0 || a >= len(q.Choices) {
			bad("answer index %d out of range 0..%d", a, len(q.Choices)-1)
		}
		if seen[a] {
			bad("answer index %d repeated", a)
		}
		seen[a] = true
	}
}

// reviewChoices adds, after a wrong single or multi answer, the right
// option(s), why each wrong pick is wrong and the right options missed.
func reviewChoices(d *report.Doc, a *Answered, lang string) {
	r := a.Result
	if r.Verdict == Correct {
		return
	}
	var right []string
	for _, i := range a.Q.Answer {
		right = append(right, a.Q.Choices[i].In(lang))
	}
	label := msg(lang, "Right answer")
	if len(right) > 1 {
		label = msg(lang, "Right answers")
	}
	d.P(label + ": " + strings.Join(right, "; "))
	var whys []string
	for _, i := range wrongPicks(a) {
		c := a.Q.Choices[i]
		why := msg(lang, "not right here; see the model answer")
		if c.Why != nil {
			why = c.Why.In(lang)
		}
		whys = append(whys, fmt.Sprintf("%s — %s", c.In(lang), why))
	}
	if len(whys) > 0 {
		d.P(msg(lang, "Why your pick is wrong") + ":")
		d.L(whys...)
	}
	reviewItem(d, msg(lang, "Not picked"), r.MissedPicks)
}

// wrongPicks returns the original indices of the wrong options the answer
// picked (none when it could not be read).
func wrongPicks(a *Answered) []int {
	var shown []int
	if a.P != nil {
		shown = a.P.Shown
	}
	picks, err := parseNumbers(a.Answer, len(a.Q.Choices), "en")
	if err != nil {
		return nil
	}
	right := map[int]bool{}
	for _, i := range a.Q.Answer {
		right[i] = true
	}
	var out []int
	seen := map[int]bool{}
	for _, p := range original(shown, picks) {
		if !right[p] && !seen[p] {
			out = append(out, p)
			seen[p] = true
		}
	}
	return out
}

// reviewItem adds "label: a; b" when xs is not empty.
func reviewItem(d *report.Doc, label string, xs []string) {
	if len(xs) > 0 {
		d.P(label + ": " + strings.Join(xs, "; "))
	}
}
