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
	// Passed is the verdict of an answer rated Good: a pass, not full marks.
	Passed = "pass"
	// Revealed is the verdict of an empty answer or "?": the learner asked
	// for the model answer (it is not called wrong).
	Revealed = "revealed"
)

// Result is a graded answer. Lists name choices, steps and concepts in the
// language of the session.
type Result struct {
	Score   float64 `json:"score"`
	Verdict string  `json:"verdict"`
	// Unreadable says why the answer could not be read (it scores 0).
	Unreadable string `json:"unreadable,omitempty"`
	// Reveal: the answer was empty or "?", the learner asked to see the
	// model answer (it scores 0 and is rated Again unless the learner
	// rates it otherwise).
	Reveal bool `json:"reveal,omitempty"`
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
// an answer (Kind.Grade); an empty one or "?" asks for the model answer
// (Reveal). A pass is an answer whose automatic rating is Good or Easy: a
// full score, a score of 0.8 or more, or for free text the question's
// `pass` concepts.
func Grade(q *Question, shown []int, answer, lang string) Result {
	var r Result
	if IsReveal(answer) {
		r.Reveal = true
		if rv, ok := KindOf(q).(Revealer); ok {
			r = rv.Reveal(q, lang)
			r.Reveal = true
		}
	} else {
		r = KindOf(q).Grade(q, shown, answer, lang)
	}
	r.Score = math.Max(0, math.Min(1, r.Score))
	// One pass definition for the grader, the eval test, the FSRS
	// suggestion and the report: the automatic rating is Good or Easy (a
	// full score; free text: the question's `pass` concepts; other types:
	// a score of 0.8 or more, Rating).
	_, rater := KindOf(q).(Rater)
	r.Pass = r.Pass || r.Score >= 0.999 || !rater && Rating(r.Score) >= fsrs.Good
	switch {
	case r.Reveal:
		r.Score, r.Pass, r.Verdict = 0, false, Revealed
	case r.Score >= 0.999:
		r.Verdict = Correct
	case r.Score > 0:
		r.Verdict = Partial
	default:
		r.Verdict = Wrong
	}
	return r
}

// IsReveal says the answer asks to see the model answer: empty, or "?".
func IsReveal(answer string) bool {
	a := strings.TrimSpace(answer)
	return a == "" || a == "?"
}

// A Revealer is a Kind that shows more than the model answer when the
// learner asks for it (free text: the key points to compare with).
type Revealer interface {
	Reveal(q *Question, lang string) Result
}

// The verdict of an answer is the rating the learner confirmed (or the
// automatic one when nobody asked): FSRS, the report, last_score,
// --mistakes, --weakest and `quiz stats` all read it. RatedScore is the
// score that stands for the rating: the grader's score when it earns that
// rating anyway (Rating), else the lowest score of the rating's band, so
// that Rating(RatedScore(s, r)) == r always.
func RatedScore(grader float64, r fsrs.Rating) float64 {
	if Rating(grader) == r {
		return grader
	}
	switch r {
	case fsrs.Again:
		return 0
	case fsrs.Hard:
		return 0.5
	case fsrs.Good:
		return revisitBelow
	}
	return 1
}

// RatedVerdict names a rating as a verdict: Easy correct, Good a pass,
// Hard partial, Again wrong (or revealed, for an answer that asked to see
// the model answer).
func RatedVerdict(r fsrs.Rating, reveal bool) string {
	switch {
	case r == fsrs.Easy:
		return Correct
	case r == fsrs.Good:
		return Passed
	case r == fsrs.Hard:
		return Partial
	case reveal:
		return Revealed
	}
	return Wrong
}

// RatingChoices are the ratings the learner may give an answer to q whose
// automatic rating is auto. Free text (a Rater's grader can be wrong both
// ways): all four. Objective types are graded exactly, so the learner may
// only lower the rating ("Hard — I guessed"); a wrong answer has nothing to
// choose.
func RatingChoices(q *Question, auto fsrs.Rating) []fsrs.Rating {
	if selfRated(q) {
		return Ratings
	}
	var out []fsrs.Rating
	for _, r := range Ratings {
		if r <= auto {
			out = append(out, r)
		}
	}
	return out
}

// ratingWords are the names a rating may be given by in an answer line
// ("2 #hard") or an answers file (rating: hard), English and Russian.
var ratingWords = map[string]fsrs.Rating{
	"again": fsrs.Again, "hard": fsrs.Hard, "good": fsrs.Good, "easy": fsrs.Easy,
	"снова": fsrs.Again, "трудно": fsrs.Hard, "хорошо": fsrs.Good, "легко": fsrs.Easy,
}

// ParseRating reads a rating name: again, hard, good, easy (or
// снова, трудно, хорошо, легко), any case.
func ParseRating(s string) (fsrs.Rating, bool) {
	r, ok := ratingWords[strings.ToLower(strings.TrimSpace(s))]
	return r, ok
}

// RatingWord is the English name of a rating, as answers files and the
// JSON report write it.
func RatingWord(r fsrs.Rating) string {
	switch r {
	case fsrs.Again:
		return "again"
	case fsrs.Hard:
		return "hard"
	case fsrs.Good:
		return "good"
	case fsrs.Easy:
		return "easy"
	}
	return ""
}

// SplitRating takes a rating off the end of an answer line: "2 #hard",
// "etcd needs a majority #good". The rating is a last word starting with
// "#" after a space (or the whole line); without one, ok is false and the
// answer is unchanged.
func SplitRating(line string) (answer string, r fsrs.Rating, ok bool) {
	t := strings.TrimRight(line, " \t\r\n")
	i := strings.LastIndex(t, "#")
	if i < 0 || (i > 0 && t[i-1] != ' ' && t[i-1] != '\t') {
		return line, 0, false
	}
	word := t[i+1:]
	r, ok = ParseRating(word)
	if !ok || strings.TrimSpace(word) != word {
		return line, 0, false
	}
	return strings.TrimSpace(t[:i]), r, true
}
