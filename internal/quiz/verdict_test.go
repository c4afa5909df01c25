package quiz

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	fsrs "github.com/open-spaced-repetition/go-fsrs/v3"
)

// §1: the score that stands for a rating earns that rating back, and keeps
// the grader's score when the grader's score already earns it.
func TestRatedScore(t *testing.T) {
	for _, s := range []float64{0, 0.17, 0.5, 0.667, 0.8, 0.83, 1} {
		for _, r := range Ratings {
			got := RatedScore(s, r)
			if Rating(got) != r {
				t.Errorf("RatedScore(%v, %v) = %v, which rates %v", s, r, got, Rating(got))
			}
			if Rating(s) == r && got != s {
				t.Errorf("RatedScore(%v, %v) = %v, want the grader's score", s, r, got)
			}
		}
	}
}

func TestSplitRating(t *testing.T) {
	for _, tc := range []struct {
		line, answer string
		r            fsrs.Rating
		ok           bool
	}{
		{"2 #hard", "2", fsrs.Hard, true},
		{"etcd needs a majority #Good", "etcd needs a majority", fsrs.Good, true},
		{"нужно большинство #легко", "нужно большинство", fsrs.Easy, true},
		{"? #again", "?", fsrs.Again, true},
		{"#easy", "", fsrs.Easy, true},
		{"C# is a language", "C# is a language", 0, false},
		{"step #1", "step #1", 0, false},
		{"tag#good", "tag#good", 0, false},
		{"a majority # good", "a majority # good", 0, false},
	} {
		a, r, ok := SplitRating(tc.line)
		if a != tc.answer || r != tc.r || ok != tc.ok {
			t.Errorf("SplitRating(%q) = %q %v %v, want %q %v %v", tc.line, a, r, ok, tc.answer, tc.r, tc.ok)
		}
	}
}

// §1: line mode and answers files carry the learner's rating; it is the
// verdict: the log's score and rating, the report's verdict, score and
// "To revisit". Free text takes any rating; an objective answer only a
// lower one ("Hard — I guessed"): a wrong pick rated Easy stays Again.
func TestRatingInAnswerLines(t *testing.T) {
	b := testBank(t)
	single := b.Get("t-single-apiserver")
	right := shownOf(single, single.Answer[0]) + 1
	num := b.Get("t-num-quorum")
	text := b.Get("t-text-quorum")
	// the fourth question is another single choice, answered wrong
	w := b.Get("t-single-watch")
	wrongW := shownOf(w, (w.Answer[0]+1)%len(w.Choices)) + 1
	input := fmt.Sprintf("writes need a majority #easy\n%d #hard\n3 #again\n%d #easy\n", right, wrongW)
	store := &Store{Dir: t.TempDir()}
	var talk bytes.Buffer
	s := &Session{Questions: []*Question{text, single, num, w}, Store: store, Lang: "en", Seed: 1,
		Now: clock(t0, time.Second), Reask: true, Prompter: NewLinePrompter(strings.NewReader(input), &talk)}
	o, err := s.Run()
	if err != nil || len(o.Answers) != 4 {
		t.Fatalf("%+v %v", o, err)
	}
	rs := loggedReviews(t, store)
	want := []struct {
		rating fsrs.Rating
		score  float64
	}{{fsrs.Easy, 1}, {fsrs.Hard, 0.5}, {fsrs.Again, 0}, {fsrs.Again, 0}}
	for i, w := range want {
		if rs[i].Rating != int(w.rating) || rs[i].Score != w.score {
			t.Errorf("review %d (%s): rating %d score %v, want %d %v", i+1, rs[i].ID, rs[i].Rating, rs[i].Score, w.rating, w.score)
		}
	}
	if fb := render(t, FeedbackDoc(o.Answers[0], "en")); !strings.Contains(fb, "Your rating: Easy — knew it all (suggested: Hard — partly, with gaps).") {
		t.Errorf("the feedback does not say whose rating stands:\n%s", fb)
	}
	if o.Answers[0].Answer != "writes need a majority" {
		t.Errorf("the rating was not taken off the answer: %q", o.Answers[0].Answer)
	}
	d := Summarise(o, "en", false)
	if d.Questions[0].Verdict != Correct || d.Questions[0].Score != 1 || slices.Contains(d.Revisit, text.ID) {
		t.Errorf("the learner's Easy is not the verdict: %+v, revisit %v", d.Questions[0], d.Revisit)
	}
	if d.Questions[1].Verdict != Partial || !slices.Contains(d.Revisit, single.ID) || !slices.Contains(d.Revisit, num.ID) {
		t.Errorf("a right pick rated Hard (a guess) is not revisited: %+v, revisit %v", d.Questions[1], d.Revisit)
	}
	// --mistakes reads the rated score
	st, err := store.Load()
	if err != nil {
		t.Fatal(err)
	}
	mistakes := Select(b, st, Selection{Mistakes: true, Now: t0.Add(time.Hour)})
	var ids []string
	for _, q := range mistakes {
		ids = append(ids, q.ID)
	}
	if slices.Contains(ids, text.ID) || !slices.Contains(ids, single.ID) {
		t.Errorf("--mistakes does not follow the ratings: %v", ids)
	}
}

func TestParseAnswersRating(t *testing.T) {
	sheet, err := ParseAnswers([]byte("- id: a\n  answer: writes need a majority\n  rating: good\n- id: b\n  answer: [1, 2]\n"))
	if err != nil || len(sheet) != 2 || sheet[0].Rating != fsrs.Good || sheet[0].AnswerLine() != "writes need a majority #good" || sheet[1].AnswerLine() != "1 2" {
		t.Fatalf("%+v %v", sheet, err)
	}
	_, err = ParseAnswers([]byte("- id: a\n  answer: x\n  rating: brilliant\n"))
	if err == nil || !strings.Contains(err.Error(), "line 3: rating must be again, hard, good or easy") {
		t.Errorf("a bad rating: %v", err)
	}
}

// §1 reveal: "?" (or nothing) shows the model answer and the key points
// without calling the answer wrong; the rating prompt then has Again
// preselected and all four ratings to choose from.
func TestRevealFeedback(t *testing.T) {
	b := testBank(t)
	q := b.Get("t-text-pending")
	a := answered(q, "?", "en")
	a.Auto = AutoRating(q, a.Result)
	out := render(t, FeedbackDoc(a, "en"))
	for _, want := range []string{"The model answer, as asked", "Key points (2 needed for a pass):", "- taints", "Model answer: No node passes"} {
		if !strings.Contains(out, want) {
			t.Errorf("reveal lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Wrong") || strings.Contains(out, "Could not read") {
		t.Errorf("reveal calls the answer wrong:\n%s", out)
	}
	if a.Auto != fsrs.Again || len(RatingChoices(q, a.Auto)) != 4 {
		t.Errorf("reveal: automatic %v, choices %v", a.Auto, RatingChoices(q, a.Auto))
	}
	// objective: a right answer may be lowered, a wrong one has no choice
	s := b.Get("t-single-apiserver")
	if got := RatingChoices(s, fsrs.Easy); len(got) != 4 {
		t.Errorf("right pick: choices %v", got)
	}
	if got := RatingChoices(s, fsrs.Again); len(got) != 1 {
		t.Errorf("wrong pick: choices %v", got)
	}
}

// quiz stats: a mastery bar is the topic's share of questions mastered, so
// a full bar is 100 %, not the best topic's share (7 % drew a full bar).
func TestStatsBarsOutOf100(t *testing.T) {
	s := &Stats{Now: t0, Topics: []TopicStat{{Topic: "etcd", Questions: 14, Seen: 1, Mastered: 1}, {Topic: "dns", Questions: 10}}}
	out := render(t, StatsDoc(s, "en"))
	var line string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "etcd ") && strings.Contains(l, "█") {
			line = l
		}
	}
	if n := strings.Count(line, "█"); n != 3 {
		t.Errorf("7%% mastered draws %d of 40 blocks, want 3:\n%s", n, out)
	}
}
