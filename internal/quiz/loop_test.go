package quiz

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	renderer "github.com/k8sexplain/k8sexplain/internal/render"
	"github.com/k8sexplain/k8sexplain/internal/report"
	fsrs "github.com/open-spaced-repetition/go-fsrs/v3"
)

// render renders a feedback or report doc as plain text.
func render(t *testing.T, d *report.Doc) string {
	t.Helper()
	var b bytes.Buffer
	if err := renderer.Render(&b, d, renderer.Options{Format: renderer.Text}); err != nil {
		t.Fatal(err)
	}
	// join wrapped lines so that checks need not know where text wraps
	return strings.ReplaceAll(strings.ReplaceAll(b.String(), "\n    ", " "), "\n            ", " ")
}

func answered(q *Question, ans, lang string) *Answered {
	p := Present(q, 1, 1, lang, 1)
	return &Answered{Q: q, P: p, Answer: ans, Result: Grade(q, p.Shown, ans, lang)}
}

// §3: the model answer is always shown, also after a correct answer; a
// wrong choice names the right option and says why the picked one is wrong.
func TestFeedbackModelAnswerAndWhy(t *testing.T) {
	b := testBank(t)
	q := b.Get("t-single-apiserver")
	right := fmt.Sprint(shownOf(q, q.Answer[0]) + 1)
	out := render(t, FeedbackDoc(answered(q, right, "en"), "en"))
	if !strings.Contains(out, "Correct.") || !strings.Contains(out, "Model answer: Only the API server") {
		t.Errorf("correct answer without the model answer:\n%s", out)
	}
	q = b.Get("t-multi-ns")
	pid := fmt.Sprint(shownOf(q, 3) + 1) // choice 3 is PID, a distractor with a why
	out = render(t, FeedbackDoc(answered(q, pid, "ru"), "ru"))
	for _, want := range []string{"Правильные ответы: сетевое; IPC; UTS", "Почему выбранное неверно", "PID — PID-namespace общий только при shareProcessNamespace", "Образцовый ответ:"} {
		if !strings.Contains(out, want) {
			t.Errorf("multi feedback lacks %q:\n%s", want, out)
		}
	}
}

func shownOf(q *Question, orig int) int {
	for d, o := range Present(q, 1, 1, "en", 1).Shown {
		if o == orig {
			return d
		}
	}
	return -1
}

// §1: the free-text checklist has three states: stated (quoted), a named
// misconception (quoted), and "not recognised — compare with the model
// answer", which is also what a negation read around a concept gets: the
// grader never tells a learner a sentence states the opposite, and never
// says "Wrong." without a misconception.
func TestFeedbackChecklist(t *testing.T) {
	b := testBank(t)
	q := b.Get("t-text-quorum")
	out := render(t, FeedbackDoc(answered(q, "Writes need a majority; 4 members give the same fault tolerance as 3.", "en"), "en"))
	for _, want := range []string{"Correct.", "✓ majority — «Writes need a majority»", "✓ no extra fault tolerance — «4 members give the same fault tolerance as 3»", "Model answer:"} {
		if !strings.Contains(out, want) {
			t.Errorf("checklist lacks %q:\n%s", want, out)
		}
	}
	out = render(t, FeedbackDoc(answered(q, "etcd does not need a majority", "en"), "en"))
	if !strings.Contains(out, "? majority — not recognised: compare with the model answer") || !strings.Contains(out, "? no extra fault tolerance — not recognised") ||
		strings.Contains(out, "Wrong") || strings.Contains(out, "✗") || !strings.Contains(out, "No key point recognised: compare with the model answer.") {
		t.Errorf("a contradiction is shown as not recognised, never as wrong:\n%s", out)
	}
	out = render(t, FeedbackDoc(answered(q, "нужно большинство, но любой член может сам принимать запись", "ru"), "ru"))
	if !strings.Contains(out, "✗ большинство") && !strings.Contains(out, "заблуждение: любой участник может сам принять запись («любой член может сам принимать запись»)") || !strings.Contains(out, "Неверно: в ответе есть заблуждение.") {
		t.Errorf("misconception not named:\n%s", out)
	}
}

// §3 line mode: an unreadable answer is asked again with the expected
// form and is not scored 0; an empty line is the learner's "don't know".
func TestSessionReask(t *testing.T) {
	b := testBank(t)
	q := b.Get("t-single-apiserver")
	right := fmt.Sprint(shownOf(q, q.Answer[0]) + 1)
	var out bytes.Buffer
	s := &Session{Questions: []*Question{q, b.Get("t-num-quorum")}, Lang: "en", Seed: 1, Now: clock(t0, time.Second), Reask: true,
		Prompter: NewLinePrompter(strings.NewReader("kube-apiserver\n9\n"+right+"\na few\n\n"), &out)}
	o, err := s.Run()
	if err != nil || len(o.Answers) != 2 {
		t.Fatalf("%+v %v", o, err)
	}
	if o.Answers[0].Result.Score != 1 || o.Answers[0].Answer != right {
		t.Errorf("re-asked answer not used: %+v", o.Answers[0])
	}
	if n := strings.Count(out.String(), "Could not read the answer"); n != 3 {
		t.Errorf("want 3 re-asks (two for the choice, one for the number), got %d:\n%s", n, out.String())
	}
	if !strings.Contains(out.String(), "Please answer with: a number, optionally with its unit (members).") {
		t.Errorf("re-ask does not show the expected form:\n%s", out.String())
	}
	if r := o.Answers[1].Result; !r.Reveal || r.Unreadable != "" || r.Score != 0 || o.Answers[1].Verdict() != Revealed {
		t.Errorf("empty line: %+v", r)
	}
}

// §1/§3: after an answer the learner may change the rating before it goes
// to FSRS (free text: any rating; an objective answer: only lower, "Hard —
// I guessed"); not in an exam, and without a rater the automatic rating
// stands.
func TestSessionRating(t *testing.T) {
	b := testBank(t)
	qs := []*Question{b.Get("t-text-quorum"), b.Get("t-num-quorum")}
	ans := map[string]string{"t-text-quorum": "writes need a majority", "t-num-quorum": "3"}
	for _, tc := range []struct {
		name  string
		exam  bool
		rate  bool
		want  []int
		asked int
	}{
		{"learner lowers", false, true, []int{int(fsrs.Again), int(fsrs.Again)}, 2},
		{"exam", true, true, []int{int(fsrs.Hard), int(fsrs.Easy)}, 0},
		{"line mode", false, false, []int{int(fsrs.Hard), int(fsrs.Easy)}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := &Store{Dir: t.TempDir()}
			asked := 0
			s := &Session{Questions: qs, Prompter: &ScriptedPrompter{Answers: ans}, Store: store, Lang: "en", Exam: tc.exam, Now: clock(t0, time.Second)}
			if tc.rate {
				s.Rate = func(a *Answered, auto fsrs.Rating) (fsrs.Rating, error) {
					asked++
					if want := map[string]fsrs.Rating{"t-text-quorum": fsrs.Hard, "t-num-quorum": fsrs.Easy}[a.Q.ID]; auto != want {
						t.Errorf("%s: automatic rating %v, want %v", a.Q.ID, auto, want)
					}
					return fsrs.Again, nil
				}
			}
			if _, err := s.Run(); err != nil {
				t.Fatal(err)
			}
			rs := loggedReviews(t, store)
			if len(rs) != 2 || rs[0].Rating != tc.want[0] || rs[1].Rating != tc.want[1] || asked != tc.asked {
				t.Errorf("ratings %+v %+v, asked %d", rs[0], rs[1], asked)
			}
		})
	}
	// Ctrl-C at the rating prompt keeps the answer with its automatic rating
	store := &Store{Dir: t.TempDir()}
	s := &Session{Questions: qs, Prompter: &ScriptedPrompter{Answers: ans}, Store: store, Lang: "en", Now: clock(t0, time.Second),
		Rate: func(*Answered, fsrs.Rating) (fsrs.Rating, error) { return 0, ErrInterrupted }}
	o, err := s.Run()
	rs := loggedReviews(t, store)
	if err != nil || !o.Interrupted || len(rs) != 1 || rs[0].Rating != int(fsrs.Hard) {
		t.Errorf("interrupt at rating: %+v %v %+v", o, err, rs)
	}
}

// §3 exam: a time limit ends the session, each question shows the time
// left, and the report gives a verdict per area and every model answer.
func TestExamTimeLimit(t *testing.T) {
	b := testBank(t)
	qs := []*Question{b.Get("t-num-quorum"), b.Get("t-num-grace"), b.Get("t-single-apiserver"), b.Get("t-text-quorum")}
	var out bytes.Buffer
	s := &Session{Questions: qs, Lang: "ru", Exam: true, Now: clock(t0, time.Minute), Deadline: t0.Add(7 * time.Minute),
		Prompter: NewLinePrompter(strings.NewReader("3\n30\n1\nнужно большинство\n"), &out)}
	o, err := s.Run()
	if err != nil || !o.TimeUp || len(o.Answers) != 2 {
		t.Fatalf("%+v %v", o, err)
	}
	if !strings.Contains(out.String(), "⏱ осталось 6 мин") {
		t.Errorf("no countdown:\n%s", out.String())
	}
	rep := render(t, ReportDoc(o, "ru", true, true))
	for _, want := range []string{"Время вышло: 2 вопроса без ответа.", "Итог относительно планки senior", "ниже планки senior", "Образцовые ответы", "floor(5/2)+1 = 3.", "30 секунд."} {
		if !strings.Contains(rep, want) {
			t.Errorf("exam report lacks %q:\n%s", want, rep)
		}
	}
	d := Summarise(o, "ru", true)
	if d.Verdict != "below" || d.Topics[0].Verdict != "senior" {
		t.Errorf("verdicts: %+v", d)
	}
	for score, want := range map[float64]string{1: "senior", 0.8: "senior", 0.7: "borderline", 0.59: "below"} {
		if got := BarVerdict(score); got != want {
			t.Errorf("BarVerdict(%v) = %s, want %s", score, got, want)
		}
	}
}

// §3 drills: mistakes only, new only, by type, by id, weakest topics first.
func TestSelectDrills(t *testing.T) {
	b := testBank(t)
	st := NewState()
	st.Apply(review("t-num-quorum", 0.2, t0))       // etcd: a mistake
	st.Apply(review("t-num-tolerate", 1, t0))       // etcd: right
	st.Apply(review("t-single-apiserver", 0.5, t0)) // control-plane: a mistake
	for _, q := range b.Questions {
		if q.Topic == "dns" || q.Topic == "pods" {
			st.Apply(review(q.ID, 1, t0)) // mastered topics
		}
	}
	now := t0.Add(time.Hour)
	if got := ids(Select(b, st, Selection{Now: now, Mistakes: true})); strings.Join(got, ",") != "t-num-quorum,t-single-apiserver" {
		t.Errorf("mistakes, lowest first: %v", got)
	}
	for _, q := range Select(b, st, Selection{Now: now, NewOnly: true}) {
		if st.Cards[q.ID] != nil {
			t.Errorf("new only returned %s", q.ID)
		}
	}
	for _, q := range Select(b, st, Selection{Now: now, Types: []string{TextAns}}) {
		if q.Type != TextAns {
			t.Errorf("type filter returned %s (%s)", q.ID, q.Type)
		}
	}
	if got := ids(Select(b, st, Selection{Now: now, IDs: []string{"t-text-pending", "t-num-grace"}})); strings.Join(got, ",") != "t-text-pending,t-num-grace" {
		t.Errorf("ids: %v", got)
	}
	weak := Select(b, st, Selection{Now: now, Weakest: true, Seed: 1})
	last := weak[len(weak)-1].Topic
	if last != "dns" && last != "pods" {
		t.Errorf("mastered topics should come last, got %s: %v", last, ids(weak))
	}
	strength := TopicStrength(b, st, now)
	if later := TopicStrength(b, st, now.AddDate(1, 0, 0)); later["dns"] >= strength["dns"] || strength["dns"] <= 0 {
		t.Errorf("a mastered topic should fade as FSRS retrievability drops: now %.3f, a year later %.3f", strength["dns"], later["dns"])
	}
	for i := 1; i < len(weak); i++ {
		if strength[weak[i-1].Topic] > strength[weak[i].Topic] {
			t.Errorf("not weakest first at %d: %v", i, ids(weak))
		}
	}
}

// §3: a fresh learner's first session is drawn with a seed from the clock
// (and the progress), so two learners do not get the same ten questions.
func TestSessionSeedFromClock(t *testing.T) {
	b := testBank(t)
	st := NewState()
	a := Select(b, st, Selection{Now: t0, Seed: SessionSeed(t0, st), Count: 10})
	c := Select(b, st, Selection{Now: t0, Seed: SessionSeed(t0.Add(time.Second), st), Count: 10})
	if strings.Join(ids(a), ",") == strings.Join(ids(c), ",") {
		t.Error("different clocks, same first session")
	}
	if SessionSeed(t0, st) != SessionSeed(t0, st) {
		t.Error("the same clock and state must give the same seed")
	}
	st.Applied = 3
	if SessionSeed(t0, st) == SessionSeed(t0, NewState()) {
		t.Error("the progress does not change the seed")
	}
}

// §3 Russian: plural forms come from internal/l10n.
func TestRussianPlurals(t *testing.T) {
	for n, want := range map[int]string{1: "1 вопрос", 2: "2 вопроса", 5: "5 вопросов", 21: "21 вопрос", 33: "33 вопроса"} {
		if got := CountQuestions("ru", n); got != want {
			t.Errorf("CountQuestions(ru, %d) = %q, want %q", n, got, want)
		}
	}
	if got := CountQuestions("en", 1); got != "1 question" {
		t.Errorf("en: %q", got)
	}
	st := &Stats{Streak: 2, Topics: []TopicStat{}}
	if out := render(t, StatsDoc(st, "ru")); !strings.Contains(out, "серия: 2 дня") {
		t.Errorf("streak plural:\n%s", out)
	}
	if out := render(t, StatsDoc(&Stats{Streak: 1, Reviews: 1, Topics: []TopicStat{}}, "en")); !strings.Contains(out, "1 review; streak 1 day;") {
		t.Errorf("english singular:\n%s", out)
	}
	o := &Outcome{Total: 1, Answers: []*Answered{answered(testBank(t).Get("t-num-quorum"), "3", "ru")}}
	o.Answers[0].Seconds = 1.5
	if out := render(t, ReportDoc(o, "ru", false, false)); !strings.Contains(out, "по 1 из 1 вопроса") || !strings.Contains(out, "1,5 с") {
		t.Errorf("report plurals and decimals:\n%s", out)
	}
}

// loggedReviews returns the readable reviews of store's log, in order.
func loggedReviews(t *testing.T, store *Store) []Review {
	t.Helper()
	log, err := store.readLog()
	if err != nil {
		t.Fatal(err)
	}
	var rs []Review
	for _, e := range store.parseLog(log) {
		if e.review != nil {
			rs = append(rs, *e.review)
		}
	}
	return rs
}
