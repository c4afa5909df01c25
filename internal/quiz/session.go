package quiz

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"time"

	fsrs "github.com/open-spaced-repetition/go-fsrs/v3"
)

// ErrInterrupted is what a Prompter returns when the learner presses Ctrl-C.
var ErrInterrupted = errors.New("interrupted")

// Prompter asks one question and returns the answer as one line in the
// answer format (see Presentation.Hint). It returns io.EOF when there are
// no more answers and ErrInterrupted on Ctrl-C.
type Prompter interface {
	Ask(p *Presentation) (string, error)
}

// Presentation is a question as the learner sees it.
type Presentation struct {
	Q             *Question
	Number, Total int
	Lang          string
	Prompt        string
	// Choices in display order; Shown[i] is the original index of Choices[i].
	Choices []string
	Shown   []int
	Unit    string // numeric questions: the expected unit
	Hint    string // how to write the answer
	// Retry, when set, says why the previous answer could not be read; the
	// question is being asked again.
	Retry string
	// Left is the time left in a timed exam (0: no limit).
	Left time.Duration
}

// Present prepares q for display. Choices and steps are shuffled by seed
// and the question id, so the same seed shows the same numbering everywhere
// (`quiz list --choices` prints it for preparing an answers file), while
// the answer's position in the file teaches nothing; the type then sets the
// hint and may adjust the order (Kind.Present).
func Present(q *Question, number, total int, lang string, seed int64) *Presentation {
	p := &Presentation{Q: q, Number: number, Total: total, Lang: lang, Prompt: q.Prompt.In(lang)}
	p.Shown = make([]int, len(q.Choices))
	for i := range p.Shown {
		p.Shown[i] = i
	}
	h := fnv.New64a()
	h.Write([]byte(q.ID))
	r := rand.New(rand.NewPCG(uint64(seed), h.Sum64()))
	r.Shuffle(len(p.Shown), func(i, j int) { p.Shown[i], p.Shown[j] = p.Shown[j], p.Shown[i] })
	KindOf(q).Present(p)
	for _, i := range p.Shown {
		p.Choices = append(p.Choices, q.Choices[i].In(lang))
	}
	return p
}

// Selection says which questions a session asks.
type Selection struct {
	Topics     []string
	Difficulty string
	Types      []string // only these question types
	IDs        []string // only these questions, in this order
	Count      int
	DueOnly    bool // `quiz review`: only questions due now
	NewOnly    bool // only questions never answered
	Mistakes   bool // only questions whose last answer scored below 0.8
	Weakest    bool // weakest topics first (see Select)
	Seed       int64
	Now        time.Time
}

// Select picks questions: due ones first (most overdue first), then new
// ones (never answered) in seeded random order, then the rest by due date;
// at most Count (0 means all). The drill options narrow that: NewOnly,
// Mistakes (answered, last score below 0.8, lowest first), Types, IDs
// (exactly those, in the given order). Weakest orders by topic, weakest
// first (TopicStrength: last scores weighted by FSRS retrievability, a
// question never answered counting 0), so a fresh or fading topic comes
// before a mastered one; inside a topic the usual order holds.
func Select(b *Bank, st *State, sel Selection) []*Question {
	if len(sel.IDs) > 0 {
		var out []*Question
		for _, id := range sel.IDs {
			if q := b.Get(id); q != nil {
				out = append(out, q)
			}
		}
		return out
	}
	var due, fresh, later []*Question
	for _, q := range b.Filter(sel.Topics, sel.Difficulty) {
		p := st.Cards[q.ID]
		switch {
		case len(sel.Types) > 0 && !slices.Contains(sel.Types, q.Type):
			continue
		case sel.NewOnly && p != nil:
			continue
		case sel.Mistakes && (p == nil || p.LastScore >= revisitBelow):
			continue
		case st.Due(q.ID, sel.Now):
			due = append(due, q)
		case p == nil:
			fresh = append(fresh, q)
		default:
			later = append(later, q)
		}
	}
	byDue := func(qs []*Question) {
		sort.SliceStable(qs, func(i, j int) bool {
			return st.Cards[qs[i].ID].Card.Due.Before(st.Cards[qs[j].ID].Card.Due)
		})
	}
	byDue(due)
	byDue(later)
	r := rand.New(rand.NewPCG(uint64(sel.Seed), 0x9e3779b97f4a7c15))
	r.Shuffle(len(fresh), func(i, j int) { fresh[i], fresh[j] = fresh[j], fresh[i] })
	out := due
	if !sel.DueOnly {
		out = append(append(out, fresh...), later...)
	}
	if sel.Mistakes {
		sort.SliceStable(out, func(i, j int) bool { return st.Cards[out[i].ID].LastScore < st.Cards[out[j].ID].LastScore })
	}
	if sel.Weakest {
		strength := TopicStrength(b, st, sel.Now)
		sort.SliceStable(out, func(i, j int) bool { return strength[out[i].Topic] < strength[out[j].Topic] })
	}
	if sel.Count > 0 && len(out) > sel.Count {
		out = out[:sel.Count]
	}
	return out
}

// TopicStrength is, per topic, the mean over all its questions of what the
// learner still knows of each: the last score times the FSRS
// retrievability of its card now (the probability of recalling it today),
// a question never answered counting 0.
func TopicStrength(b *Bank, st *State, now time.Time) map[string]float64 {
	sum, n := map[string]float64{}, map[string]int{}
	for _, q := range b.Questions {
		n[q.Topic]++
		if p := st.Cards[q.ID]; p != nil {
			at := now
			if at.Before(p.Card.LastReview) {
				at = p.Card.LastReview
			}
			r := scheduler.GetRetrievability(p.Card, at)
			if math.IsNaN(r) || r < 0 {
				r = 0
			}
			sum[q.Topic] += p.LastScore * math.Min(r, 1)
		}
	}
	out := map[string]float64{}
	for t, k := range n {
		out[t] = sum[t] / float64(k)
	}
	return out
}

// SessionSeed is the seed that picks a session's new questions when the
// learner gave none: the clock and the number of reviews so far, so a
// fresh learner's first session is not always the same ten questions,
// while a fixed clock (--now, tests) keeps it reproducible.
func SessionSeed(now time.Time, st *State) int64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%d", now.UnixNano(), st.Applied)
	return int64(h.Sum64() >> 1)
}

// Answered is one asked question with its answer and grade.
type Answered struct {
	Q       *Question
	P       *Presentation
	Answer  string
	Result  Result
	Seconds float64
	// Rating is the FSRS rating recorded: the automatic one (AutoRating)
	// unless the learner changed it. It is the answer's verdict everywhere
	// (Score, Verdict); the grader's own stays in Result.
	Rating fsrs.Rating
	// Auto is the automatic rating the grader suggested.
	Auto fsrs.Rating
}

// Score is the answer's score as its rating has it (RatedScore): what the
// log records, the report sums and --mistakes reads.
func (a *Answered) Score() float64 {
	if a.Rating == 0 {
		return a.Result.Score
	}
	return RatedScore(a.Result.Score, a.Rating)
}

// Verdict is the answer's verdict: the grader's (a pass below full marks
// is "pass") while the rating is the automatic one, else the one the
// learner's rating names (RatedVerdict).
func (a *Answered) Verdict() string {
	if a.Rating == 0 || a.Rating == a.Auto {
		if a.Result.Pass && a.Result.Verdict == Partial {
			return Passed
		}
		return a.Result.Verdict
	}
	return RatedVerdict(a.Rating, a.Result.Reveal)
}

// Session asks questions one by one, grades and records each answer before
// the next, and reports feedback unless it is an exam.
type Session struct {
	Questions []*Question
	Prompter  Prompter
	Store     *Store // nil: answers are not saved
	Lang      string
	Seed      int64
	Exam      bool
	Now       func() time.Time
	// Salt, if set, is added to Seed per question so that a question
	// reviewed again shows its choices in a new order (the command passes
	// the number of past reviews). Nil keeps the numbering of
	// `quiz list --choices`, which answers files rely on.
	Salt func(*Question) int64
	// Feedback is called after each answer, except in exam mode.
	Feedback func(*Answered) error
	// Rate, if set, lets the learner confirm or change the automatic
	// rating after the feedback, before it goes to FSRS (not in exam
	// mode), among RatingChoices: any rating for free text, a lower one
	// for the objective types ("Hard — I guessed"); it is not called when
	// there is no choice. Nil: the automatic rating stands. A rating
	// written at the end of the answer line ("2 #hard", SplitRating) is
	// taken instead, in every mode.
	Rate func(a *Answered, auto fsrs.Rating) (fsrs.Rating, error)
	// Reask: an answer that cannot be read (not a choice number, no
	// number) is asked again with the expected form instead of scoring 0.
	// An empty answer is not re-asked: it is the learner's "don't know".
	Reask bool
	// Deadline, if not zero, ends the session when reached (a timed exam);
	// each question shows the time left.
	Deadline time.Time
}

// Outcome is what a session did.
type Outcome struct {
	Answers     []*Answered
	Interrupted bool // Ctrl-C
	EndedEarly  bool // the answers ran out (EOF)
	TimeUp      bool // the time limit was reached
	Total       int  // questions selected
}

// Run asks every question. Ctrl-C and the end of input stop it cleanly;
// answers given so far are already saved.
func (s *Session) Run() (*Outcome, error) {
	out := &Outcome{Total: len(s.Questions)}
	for i, q := range s.Questions {
		seed := s.Seed
		if s.Salt != nil {
			seed += s.Salt(q)
		}
		p := Present(q, i+1, len(s.Questions), s.Lang, seed)
		if !s.Deadline.IsZero() {
			p.Left = s.Deadline.Sub(s.Now())
			if p.Left <= 0 {
				out.TimeUp = true
				return out, nil
			}
		}
		start := s.Now()
		var ans string
		var res Result
		var given fsrs.Rating
		for {
			a, err := s.Prompter.Ask(p)
			switch {
			case errors.Is(err, ErrInterrupted):
				out.Interrupted = true
				return out, nil
			case errors.Is(err, ErrTimeUp):
				// the time ran out mid-answer: the answer in progress is
				// dropped, the question counts as not reached
				out.TimeUp = true
				return out, nil
			case errors.Is(err, io.EOF):
				out.EndedEarly = true
				return out, nil
			case err != nil:
				return out, fmt.Errorf("question %s: %w", q.ID, err)
			}
			given = 0
			if rest, r, ok := SplitRating(a); ok {
				a, given = rest, r
			}
			ans, res = a, Grade(q, p.Shown, a, s.Lang)
			if !s.Reask || res.Unreadable == "" || res.Reveal {
				break
			}
			p.Retry = res.Unreadable
		}
		p.Retry = ""
		a := &Answered{Q: q, P: p, Answer: ans, Result: res}
		a.Seconds = s.Now().Sub(start).Seconds()
		a.Auto = AutoRating(q, res)
		a.Rating = a.Auto
		choices := RatingChoices(q, a.Auto)
		if given != 0 {
			// the rating written with the answer, within what the type allows
			if slices.Contains(choices, given) {
				a.Rating = given
			}
			choices = nil
		}
		out.Answers = append(out.Answers, a)
		var ferr error
		if !s.Exam && s.Feedback != nil {
			ferr = s.Feedback(a)
		}
		if ferr == nil && !s.Exam && s.Rate != nil && len(choices) > 1 {
			r, err := s.Rate(a, a.Auto)
			switch {
			case errors.Is(err, ErrInterrupted):
				out.Interrupted = true
			case err != nil && !errors.Is(err, io.EOF):
				ferr = err
			case err == nil && slices.Contains(choices, r):
				a.Rating = r
			}
		}
		if s.Store != nil {
			r := Review{ID: q.ID, Topic: q.Topic, At: s.Now(), Score: a.Score(),
				Rating: int(a.Rating), Seconds: a.Seconds, Exam: s.Exam}
			if _, err := s.Store.Record(r); err != nil {
				return out, fmt.Errorf("save progress: %w", err)
			}
		}
		if ferr != nil || out.Interrupted {
			return out, ferr
		}
		if !s.Deadline.IsZero() && !s.Now().Before(s.Deadline) {
			out.TimeUp = out.Total > len(out.Answers)
			return out, nil
		}
	}
	return out, nil
}
