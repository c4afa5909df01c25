package quiz

import (
	"fmt"
	"sort"
	"strings"

	"github.com/AlecAivazis/survey/v2"

	"github.com/k8sexplain/k8sexplain/internal/report"
)

// Order is the type of a question whose steps must be put in order.
const Order = "order"

// orderKind: `choices` are the steps in the right order, shown shuffled;
// the learner gives the step numbers in order.
type orderKind struct{}

func (orderKind) About() About {
	return About{Name: Order, Fields: []string{"choices"},
		Usage: Usage{"order the steps", "step numbers in the right order:", "3 1 4 2"}}
}

func (orderKind) Validate(q *Question, bad func(string, ...any)) {
	for i, c := range q.Choices {
		if c.Why != nil {
			bad("choices[%d].why: order steps have no why", i)
		}
	}
	if len(q.Choices) < 3 {
		bad("order needs at least 3 steps")
	}
}

func (orderKind) Present(p *Presentation) {
	if sort.IntsAreSorted(p.Shown) && len(p.Shown) > 1 {
		// never show the answer itself: rotate by one
		p.Shown = append(p.Shown[1:], p.Shown[0])
	}
	p.Hint = msg(p.Lang, "step numbers in the right order")
}

// Ask lets the learner pick the steps one at a time from those left; the
// last one needs no pick.
func (orderKind) Ask(p *Presentation, head string, opts []survey.AskOpt) (string, error) {
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

// Grade scores the fraction of step pairs the answer puts in the right
// relative order (Kendall's tau distance, normalised); steps left out count
// as wrong pairs. Misplaced steps are those outside a longest increasing
// subsequence: the fewest steps that must move to fix the order.
func (orderKind) Grade(q *Question, shown []int, answer, lang string) Result {
	n := len(q.Choices)
	picks, err := parseNumbers(answer, n, lang)
	if err != nil {
		return Result{Unreadable: err.Error()}
	}
	seq := original(shown, picks)
	seen := map[int]bool{}
	for _, s := range seq {
		if seen[s] {
			return Result{Unreadable: msg(lang, "a step is repeated")}
		}
		seen[s] = true
	}
	good := 0
	for i := range seq {
		for j := i + 1; j < len(seq); j++ {
			if seq[i] < seq[j] {
				good++
			}
		}
	}
	r := Result{Score: float64(good) / float64(n*(n-1)/2)}
	keep := map[int]bool{}
	for _, s := range longestIncreasing(seq) {
		keep[s] = true
	}
	for i, c := range q.Choices {
		if !keep[i] {
			r.Misplaced = append(r.Misplaced, c.In(lang))
		}
	}
	return r
}

// longestIncreasing returns one longest strictly increasing subsequence of
// seq (O(n²); the steps of a question are few).
func longestIncreasing(seq []int) []int {
	if len(seq) == 0 {
		return nil
	}
	length, prev := make([]int, len(seq)), make([]int, len(seq))
	best := 0
	for i := range seq {
		length[i], prev[i] = 1, -1
		for j := 0; j < i; j++ {
			if seq[j] < seq[i] && length[j]+1 > length[i] {
				length[i], prev[i] = length[j]+1, j
			}
		}
		if length[i] > length[best] {
			best = i
		}
	}
	var out []int
	for i := best; i >= 0; i = prev[i] {
		out = append(out, seq[i])
	}
	sort.Ints(out)
	return out
}

// Review names the steps out of place and, after a wrong answer, gives the
// right order, numbering the steps as they were shown, so "3) …" is what
// was typed.
func (orderKind) Review(d *report.Doc, a *Answered, lang string) {
	reviewItem(d, msg(lang, "Out of place"), a.Result.Misplaced)
	if a.Result.Verdict == Correct {
		return
	}
	shownAs := make([]int, len(a.Q.Choices))
	for i := range shownAs {
		shownAs[i] = i
	}
	if a.P != nil {
		for disp, orig := range a.P.Shown {
			shownAs[orig] = disp
		}
	}
	steps := make([]string, len(a.Q.Choices))
	for i, c := range a.Q.Choices {
		steps[i] = fmt.Sprintf("%d) %s", shownAs[i]+1, c.In(lang))
	}
	d.P(msg(lang, "Right order") + ": " + strings.Join(steps, " → "))
}

// Model gives every step, in order.
func (orderKind) Model(p *Presentation) string {
	all := make([]int, len(p.Q.Choices))
	for i := range all {
		all[i] = i
	}
	return shownNumbers(p, all)
}
