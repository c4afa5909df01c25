package quiz

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"sort"
	"time"
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
}

// Present prepares q for display. Choices and steps are shuffled by seed
// and the question id, so the same seed shows the same numbering everywhere
// (`quiz list --choices` prints it for preparing an answers file), while
// the answer's position in the file teaches nothing.
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
	if q.Type == Order && sort.IntsAreSorted(p.Shown) && len(p.Shown) > 1 {
		// never show the answer itself: rotate by one
		p.Shown = append(p.Shown[1:], p.Shown[0])
	}
	for _, i := range p.Shown {
		p.Choices = append(p.Choices, q.Choices[i].In(lang))
	}
	switch q.Type {
	case Single:
		p.Hint = msg(lang, "choice number")
	case Multi:
		p.Hint = msg(lang, "choice numbers separated by commas or spaces")
	case Order:
		p.Hint = msg(lang, "step numbers in the right order")
	case NumType:
		p.Hint = msg(lang, "a number, optionally with its unit")
		p.Unit = q.Numeric.Unit.In(lang)
	default:
		p.Hint = msg(lang, "free text on one line")
	}
	return p
}

// Selection says which questions a session asks.
type Selection struct {
	Topics     []string
	Difficulty string
	Count      int
	DueOnly    bool // `quiz review`: only questions due now
	Seed       int64
	Now        time.Time
}

// Select picks questions: due ones first (most overdue first), then new
// ones (never answered) in seeded random order, then the rest by due date;
// at most Count (0 means all).
func Select(b *Bank, st *State, sel Selection) []*Question {
	var due, fresh, later []*Question
	for _, q := range b.Filter(sel.Topics, sel.Difficulty) {
		switch {
		case st.Due(q.ID, sel.Now):
			due = append(due, q)
		case st.Cards[q.ID] == nil:
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
	if sel.Count > 0 && len(out) > sel.Count {
		out = out[:sel.Count]
	}
	return out
}

// Answered is one asked question with its answer and grade.
type Answered struct {
	Q       *Question
	P       *Presentation
	Answer  string
	Result  Result
	Seconds float64
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
}

// Outcome is what a session did.
type Outcome struct {
	Answers     []*Answered
	Interrupted bool // Ctrl-C
	EndedEarly  bool // the answers ran out (EOF)
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
		start := s.Now()
		ans, err := s.Prompter.Ask(p)
		switch {
		case errors.Is(err, ErrInterrupted):
			out.Interrupted = true
			return out, nil
		case errors.Is(err, io.EOF):
			out.EndedEarly = true
			return out, nil
		case err != nil:
			return out, fmt.Errorf("question %s: %w", q.ID, err)
		}
		a := &Answered{Q: q, P: p, Answer: ans, Result: Grade(q, p.Shown, ans, s.Lang)}
		a.Seconds = s.Now().Sub(start).Seconds()
		out.Answers = append(out.Answers, a)
		if s.Store != nil {
			r := Review{ID: q.ID, Topic: q.Topic, At: s.Now(), Score: a.Result.Score,
				Rating: int(Rating(a.Result.Score)), Seconds: a.Seconds, Exam: s.Exam}
			if _, err := s.Store.Record(r); err != nil {
				return out, fmt.Errorf("save progress: %w", err)
			}
		}
		if !s.Exam && s.Feedback != nil {
			if err := s.Feedback(a); err != nil {
				return out, err
			}
		}
	}
	return out, nil
}
