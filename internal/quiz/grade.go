package quiz

import (
	"errors"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/l10n"
	fsrs "github.com/open-spaced-repetition/go-fsrs/v3"
)

// Verdicts of a graded answer.
const (
	Correct = "correct"
	Partial = "partial"
	Wrong   = "wrong"
)

// Result is a graded answer. Lists name choices, steps and concepts in the
// language of the session.
type Result struct {
	Score   float64 `json:"score"`
	Verdict string  `json:"verdict"`
	// Unreadable says why the answer could not be read (it scores 0).
	Unreadable string `json:"unreadable,omitempty"`
	// Multi: correct choices not picked, and wrong choices picked.
	MissedPicks []string `json:"missed_picks,omitempty"`
	WrongPicks  []string `json:"wrong_picks,omitempty"`
	// Order: the steps out of place (not in the longest run already in order).
	Misplaced []string `json:"misplaced,omitempty"`
	// Numeric: the value read (in the question's unit) and a note on the unit.
	Value *float64 `json:"value,omitempty"`
	Note  string   `json:"note,omitempty"`
	// Text: the rubric concepts found and missed (missed includes the
	// contradicted ones and those failed by a misconception), and the
	// checklist: every concept with its state and the quoted clause.
	Found  []string `json:"found,omitempty"`
	Missed []string `json:"missed,omitempty"`
	Checks []Check  `json:"checks,omitempty"`
	// Pass says the answer deserves a pass: a full score, or for free text
	// at least the question's `pass` concepts stated.
	Pass bool `json:"pass"`
}

// AutoRating is the FSRS rating a graded answer earns. Free text: every
// concept stated and no misconception Easy, a pass Good, some concepts
// Hard, none Again; other types by score (Rating).
func AutoRating(q *Question, r Result) fsrs.Rating {
	if q.Type != TextAns {
		return Rating(r.Score)
	}
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

// Rating maps a score to an FSRS rating: below 0.5 Again, below 0.8 Hard,
// below 1 Good, a full score Easy.
func Rating(score float64) fsrs.Rating {
	switch {
	case score < 0.5:
		return fsrs.Again
	case score < 0.8:
		return fsrs.Hard
	case score < 0.999:
		return fsrs.Good
	}
	return fsrs.Easy
}

// Grade grades answer, one line in the documented answer format, for q as
// presented with shown (shown[i] is the original index of the choice
// displayed as number i+1; nil means the original order).
func Grade(q *Question, shown []int, answer, lang string) Result {
	var r Result
	if strings.TrimSpace(answer) == "" {
		r.Unreadable = msg(lang, "no answer")
	} else {
		switch q.Type {
		case Single:
			r = gradeSingle(q, shown, answer, lang)
		case Multi:
			r = gradeMulti(q, shown, answer, lang)
		case Order:
			r = gradeOrder(q, shown, answer, lang)
		case NumType:
			r = gradeNumeric(q, answer, lang)
		case TextAns:
			r = gradeText(q, answer, lang)
		default:
			r.Unreadable = "unknown question type " + q.Type
		}
	}
	r.Score = math.Max(0, math.Min(1, r.Score))
	if q.Type != TextAns {
		r.Pass = r.Score >= 0.999
	}
	switch {
	case r.Score >= 0.999:
		r.Verdict = Correct
	case r.Score > 0:
		r.Verdict = Partial
	default:
		r.Verdict = Wrong
	}
	return r
}

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

func gradeSingle(q *Question, shown []int, answer, lang string) Result {
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

// gradeMulti gives hits/|correct| - wrongPicks/|incorrect|: each correct
// pick earns its share, each wrong pick costs its share, so ticking every
// box scores 0.
func gradeMulti(q *Question, shown []int, answer, lang string) Result {
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

// gradeOrder scores the fraction of step pairs the answer puts in the right
// relative order (Kendall's tau distance, normalised); steps left out count
// as wrong pairs. Misplaced steps are those outside a longest increasing
// subsequence: the fewest steps that must move to fix the order.
func gradeOrder(q *Question, shown []int, answer, lang string) Result {
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

// gradeText checks every rubric concept against the answer's clauses. The
// score is the share of concepts stated; a pass needs q.Pass of them (all
// by default).
func gradeText(q *Question, answer, lang string) Result {
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
