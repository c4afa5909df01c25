package quiz

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"
)

// clock returns a fake clock that advances step on every reading.
func clock(start time.Time, step time.Duration) func() time.Time {
	now := start
	return func() time.Time { now = now.Add(step); return now }
}

func TestPresentOrderShuffle(t *testing.T) {
	q := testBank(t).Get("t-order-apply")
	p := Present(q, 1, 1, "en", 1)
	if len(p.Choices) != 5 || p.Choices[0] == q.Choices[0].En && p.Choices[1] == q.Choices[1].En && p.Choices[2] == q.Choices[2].En {
		t.Fatalf("order steps not shuffled: %v", p.Shown)
	}
	if again := Present(q, 1, 1, "en", 1); strings.Join(again.Choices, "|") != strings.Join(p.Choices, "|") {
		t.Error("same seed, different shuffle")
	}
	// answering with the displayed numbers of the steps in the right order scores 1
	var ans []string
	for orig := range q.Choices {
		for disp, o := range p.Shown {
			if o == orig {
				ans = append(ans, string(rune('1'+disp)))
			}
		}
	}
	if r := Grade(q, p.Shown, strings.Join(ans, " "), "en"); r.Score != 1 {
		t.Errorf("right order via shown numbers: %+v", r)
	}
}

func TestSelectDueThenNew(t *testing.T) {
	b := testBank(t)
	st := NewState()
	st.Apply(review("t-num-quorum", 0, t0))       // failed: due soon
	st.Apply(review("t-single-apiserver", 1, t0)) // easy: due in days
	now := t0.Add(48 * time.Hour)
	qs := Select(b, st, Selection{Now: now, Seed: 1, Count: 3})
	if len(qs) != 3 || qs[0].ID != "t-num-quorum" {
		t.Fatalf("due first: %v", ids(qs))
	}
	for _, q := range qs[1:] {
		if st.Cards[q.ID] != nil {
			t.Errorf("new questions should come before later ones: %v", ids(qs))
		}
	}
	if qs := Select(b, st, Selection{Now: now, DueOnly: true}); len(qs) != 1 {
		t.Errorf("due only: %v", ids(qs))
	}
	if qs := Select(b, st, Selection{Now: now, Topics: []string{"etcd"}, Difficulty: "senior"}); len(qs) != 2 {
		t.Errorf("topic+difficulty filter: %v", ids(qs))
	}
	a, c := Select(b, NewState(), Selection{Seed: 1}), Select(b, NewState(), Selection{Seed: 2})
	if strings.Join(ids(a), ",") == strings.Join(ids(c), ",") {
		t.Error("seed does not change the order of new questions")
	}
}

func ids(qs []*Question) []string {
	out := make([]string, len(qs))
	for i, q := range qs {
		out[i] = q.ID
	}
	return out
}

func TestSessionLinePrompterEOF(t *testing.T) {
	b := testBank(t)
	qs := []*Question{b.Get("t-single-apiserver"), b.Get("t-num-quorum"), b.Get("t-text-quorum")}
	var out bytes.Buffer
	store := &Store{Dir: t.TempDir()}
	var fed int
	s := &Session{Questions: qs, Prompter: NewLinePrompter(strings.NewReader("2\n3 nodes"), &out), Store: store,
		Lang: "en", Now: clock(t0, time.Second), Feedback: func(*Answered) error { fed++; return nil }}
	o, err := s.Run()
	if err != nil {
		t.Fatal(err)
	}
	if !o.EndedEarly || len(o.Answers) != 2 || fed != 2 || o.Answers[1].Result.Score != 1 {
		t.Fatalf("outcome %+v", o)
	}
	if !strings.Contains(out.String(), "  2) kube-apiserver") || !strings.Contains(out.String(), "Question 3 of 3") {
		t.Errorf("questions not shown:\n%s", out.String())
	}
	st, _ := store.Load()
	if st.Applied != 2 || st.Cards["t-num-quorum"].Reviews != 1 {
		t.Errorf("answers not saved: %+v", st)
	}
}

func TestSessionInterruptAndExam(t *testing.T) {
	b := testBank(t)
	qs := []*Question{b.Get("t-single-apiserver"), b.Get("t-multi-ns"), b.Get("t-order-pod")}
	p := &ScriptedPrompter{Answers: map[string]string{"t-single-apiserver": "1", "t-multi-ns": "1 2"},
		Stop: map[string]error{"t-order-pod": ErrInterrupted}}
	s := &Session{Questions: qs, Prompter: p, Lang: "ru", Exam: true, Now: clock(t0, 2*time.Second),
		Feedback: func(*Answered) error { t.Error("feedback in exam mode"); return nil }}
	o, err := s.Run()
	if err != nil || !o.Interrupted || len(o.Answers) != 2 {
		t.Fatalf("%+v %v", o, err)
	}
	d := Summarise(o, "ru", true)
	if d.Answered != 2 || d.Total != 3 || len(d.Topics) != 2 || len(d.Revisit) != 2 || d.Questions[0].Seconds != 2 {
		t.Errorf("summary %+v", d)
	}
	doc := ReportDoc(o, "ru", true, true)
	if doc.Title != "Итоги экзамена" || len(doc.Blocks) < 5 {
		t.Errorf("report %+v", doc)
	}
}

func TestParseAnswers(t *testing.T) {
	got, err := ParseAnswers([]byte("- id: a\n  answer: 2\n- id: b\n  answer: [1, 3]\n- {id: c, answer: \"3 nodes\"}\n"))
	if err != nil || len(got) != 3 || got[1].Answer != "1 3" || got[2].Answer != "3 nodes" || got[0].Line != 1 {
		t.Fatalf("%+v %v", got, err)
	}
	for _, bad := range []string{"id: a", "- id: a\n- id: a\n  answer: 1", "- id: a\n  answer: 1\n- id: a\n  answer: 2",
		"- {id: a, answer: 1, extra: 2}", "- {id: a, answer: {x: 1}}", "- 3", "- [", "- {id: '', answer: 1}"} {
		if _, err := ParseAnswers([]byte(bad)); err == nil {
			t.Errorf("ParseAnswers(%q) accepted", bad)
		}
	}
}

func TestLinePrompterInterrupt(t *testing.T) {
	b := testBank(t)
	in, w := io.Pipe()
	defer w.Close()
	intr := make(chan struct{})
	lp := NewLinePrompter(in, io.Discard)
	lp.Interrupt = intr
	go func() { w.Write([]byte("2\n")) }()
	p := Present(b.Get("t-single-apiserver"), 1, 2, "en", 1)
	if ans, err := lp.Ask(p); err != nil || ans != "2" {
		t.Fatalf("first answer: %q %v", ans, err)
	}
	go func() { time.Sleep(10 * time.Millisecond); close(intr) }()
	done := make(chan error, 1)
	go func() { _, err := lp.Ask(p); done <- err }()
	select {
	case err := <-done:
		if err != ErrInterrupted {
			t.Fatalf("want ErrInterrupted, got %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Ask kept waiting after the interrupt")
	}
}

// §3: the time runs out while the learner is answering: the prompter
// returns ErrTimeUp, the answer in progress is dropped (not graded, not
// recorded) and the report counts it as not reached.
func TestSessionTimeUpMidAnswer(t *testing.T) {
	b := testBank(t)
	store := &Store{Dir: t.TempDir()}
	qs := []*Question{b.Get("t-single-apiserver"), b.Get("t-num-quorum"), b.Get("t-multi-ns")}
	p := &ScriptedPrompter{Answers: map[string]string{"t-single-apiserver": "1", "t-num-quorum": "3"},
		Stop: map[string]error{"t-num-quorum": ErrTimeUp}}
	s := &Session{Questions: qs, Prompter: p, Store: store, Lang: "en", Exam: true, Now: clock(t0, time.Second),
		Deadline: t0.Add(time.Hour)}
	o, err := s.Run()
	if err != nil || !o.TimeUp || o.Interrupted || len(o.Answers) != 1 {
		t.Fatalf("%+v %v", o, err)
	}
	st, _ := store.Load()
	if st.Applied != 1 || st.Cards["t-num-quorum"] != nil {
		t.Errorf("the dropped answer was recorded: %+v", st)
	}
	var text []string
	for _, bl := range ReportDoc(o, "en", true, true).Blocks {
		if bl.Para != nil {
			text = append(text, bl.Para.Text)
		}
	}
	if !strings.Contains(strings.Join(text, "\n"), "Time is up: 2 questions not reached.") {
		t.Errorf("report:\n%s", strings.Join(text, "\n"))
	}
}
