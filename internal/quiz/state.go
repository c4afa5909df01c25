package quiz

import (
	"errors"
	"fmt"
	"sort"
	"time"

	fsrs "github.com/open-spaced-repetition/go-fsrs/v3"
)

// Review is one graded answer: a line of the append-only review log
// (reviews.jsonl), the source of truth the state is derived from.
type Review struct {
	ID      string    `json:"id"`
	Topic   string    `json:"topic"`
	At      time.Time `json:"at"`
	Score   float64   `json:"score"`
	Rating  int       `json:"rating"` // FSRS rating: 1 again, 2 hard, 3 good, 4 easy
	Seconds float64   `json:"seconds"`
	Exam    bool      `json:"exam,omitempty"`
}

// Progress is what the learner knows of one question.
type Progress struct {
	Topic     string    `json:"topic"`
	Card      fsrs.Card `json:"card"`
	LastScore float64   `json:"last_score"`
	Reviews   int       `json:"reviews"`
}

// State is derived from the review log: one FSRS card per question seen,
// and the days with reviews (for the streak). Applied counts the log lines
// it reflects, so a crash between appending to the log and writing the
// state is repaired on the next load by replaying the rest.
type State struct {
	Version int                  `json:"version"`
	Applied int                  `json:"applied"`
	Cards   map[string]*Progress `json:"cards"`
	Days    []string             `json:"days"`
	// Log is the checkpoint that ties the state to the log lines it
	// reflects, so a load replays only the lines after them.
	Log *Checkpoint `json:"log,omitempty"`
}

// Checkpoint is where a state stands in the review log: Bytes, the length
// of its first Applied lines; Sum, the SHA-256 (hex) of those lines
// followed by the state's own JSON without the checkpoint.
type Checkpoint struct {
	Bytes int64  `json:"bytes"`
	Sum   string `json:"sum"`
}

const stateVersion = 1

// The range of times the store accepts, for --now and for the reviews in
// the log. FSRS schedules at most 100 years ahead (MaximumInterval 36500
// days), so every due date stays far inside what encoding/json can write
// (years 0 to 9999): a review dated 9999-12-30 once made every later quiz
// command fail.
var (
	EarliestTime = time.Date(2000, time.January, 1, 0, 0, 0, 0, time.UTC)
	LatestTime   = time.Date(2200, time.January, 1, 0, 0, 0, 0, time.UTC)
)

func timeRange() string {
	return EarliestTime.Format(time.DateOnly) + " to " + LatestTime.Format(time.DateOnly)
}

// CheckTime reports whether t is inside the range the store accepts.
func CheckTime(t time.Time) error {
	if t.Before(EarliestTime) || !t.Before(LatestTime) {
		return fmt.Errorf("%s is outside %s", t.Format(time.RFC3339), timeRange())
	}
	return nil
}

// check rejects a decoded state that cannot be right whatever the log says:
// an unknown version, Applied outside 0 to the log's lines, missing cards.
func (s *State) check(logLines int) error {
	switch {
	case s.Version != stateVersion:
		return fmt.Errorf("unknown version %d", s.Version)
	case s.Applied < 0 || s.Applied > logLines:
		return fmt.Errorf("applied %d, but the log has %d line(s)", s.Applied, logLines)
	case s.Cards == nil:
		return errors.New("no cards")
	}
	for id, p := range s.Cards {
		if p == nil {
			return fmt.Errorf("card %q is null", id)
		}
	}
	return nil
}

// NewState returns the state of a learner with no reviews.
func NewState() *State { return &State{Version: stateVersion, Cards: map[string]*Progress{}} }

// scheduler is FSRS with the default parameters; fuzz stays off (the
// default in go-fsrs v3.3.1) so the same log gives the same schedule.
var scheduler = fsrs.NewFSRS(fsrs.DefaultParam())

// Apply adds one review: the question's card moves by the review's rating
// at the review's time (go-fsrs: FSRS.Next(card, now, rating)).
func (s *State) Apply(r Review) {
	p := s.Cards[r.ID]
	if p == nil {
		p = &Progress{Topic: r.Topic, Card: fsrs.NewCard()}
		s.Cards[r.ID] = p
	}
	rating := fsrs.Rating(r.Rating)
	if rating < fsrs.Again || rating > fsrs.Easy {
		rating = Rating(r.Score)
	}
	// go-fsrs computes the days since the last review as uint64: a review
	// dated before the previous one (a clock set back, two sessions' logs
	// interleaved) would wrap around, so it counts as simultaneous instead.
	at := r.At
	if at.Before(p.Card.LastReview) {
		at = p.Card.LastReview
	}
	p.Card = scheduler.Next(p.Card, at, rating).Card
	p.LastScore = r.Score
	p.Reviews++
	if r.Topic != "" {
		p.Topic = r.Topic
	}
	day := r.At.Format(time.DateOnly)
	i := sort.SearchStrings(s.Days, day)
	if i == len(s.Days) || s.Days[i] != day {
		s.Days = append(s.Days, "")
		copy(s.Days[i+1:], s.Days[i:])
		s.Days[i] = day
	}
}

// Due reports whether the question id has been seen and is due at now.
func (s *State) Due(id string, now time.Time) bool {
	p := s.Cards[id]
	return p != nil && !p.Card.Due.After(now)
}

// Streak counts consecutive days with reviews ending today or yesterday
// (in now's location; review days are dated in their own offset).
func (s *State) Streak(now time.Time) int {
	have := map[string]bool{}
	for _, d := range s.Days {
		have[d] = true
	}
	day := now
	if !have[day.Format(time.DateOnly)] {
		day = day.AddDate(0, 0, -1)
	}
	n := 0
	for have[day.Format(time.DateOnly)] {
		n++
		day = day.AddDate(0, 0, -1)
	}
	return n
}
