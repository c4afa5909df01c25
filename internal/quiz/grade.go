package quiz

import (
	"math"
	"strings"

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

// AutoRating is the FSRS rating a graded answer earns: the type's own
// (Rater; free text: every concept stated and no misconception Easy, a
// pass Good, some concepts Hard, none Again), else by score (Rating).
func AutoRating(q *Question, r Result) fsrs.Rating {
	if k, ok := KindOf(q).(Rater); ok {
		return k.Rate(q, r)
	}
	return Rating(r.Score)
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
// displayed as number i+1; nil means the original order). The type grades
// a non-empty answer (Kind.Grade); a full score is a pass, and a type may
// pass less (free text: the question's `pass` concepts).
func Grade(q *Question, shown []int, answer, lang string) Result {
	var r Result
	if strings.TrimSpace(answer) == "" {
		r.Unreadable = msg(lang, "no answer")
	} else {
		r = KindOf(q).Grade(q, shown, answer, lang)
	}
	r.Score = math.Max(0, math.Min(1, r.Score))
	r.Pass = r.Pass || r.Score >= 0.999
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
