//go:build linux

package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	expect "github.com/Netflix/go-expect"
	"github.com/k8sexplain/k8sexplain/internal/iostreams"
	"github.com/k8sexplain/k8sexplain/internal/ptytest"
	"github.com/k8sexplain/k8sexplain/internal/quiz"
)

// TestQuizInteractivePTY drives the survey prompts in a pseudo-terminal, as
// survey's own tests do (survey_posix_test.go): answer one question with
// Enter, then press Ctrl-C on the next. The session must save the first
// answer, print the summary and exit 130.
//
// Keys are sent only once the prompt has put the terminal in raw mode
// (ICANON and ISIG cleared): survey draws before it switches modes, and a
// key sent earlier is cooked or turned into SIGINT and lost. Linux only,
// for the TCGETS ioctl.
func TestQuizInteractivePTY(t *testing.T) {
	dir := quizTest(t)
	c := ptytest.Console(t)
	defer c.Close()

	streams := &iostreams.Streams{In: c.Tty(), Out: c.Tty(), ErrOut: c.Tty(), InTTY: true, OutTTY: true,
		Getenv: testGetenv}
	done := make(chan int, 1)
	go func() {
		done <- Execute(streams, []string{"quiz", "--topic", "control-plane,grpc", "--count", "2", "--color", "never"})
	}()

	expectOut := func(s string) {
		t.Helper()
		if _, err := c.ExpectString(s); err != nil {
			t.Fatalf("waiting for %q: %v", s, err)
		}
	}
	expectOut("Question 1 of 2")
	ptytest.WaitRaw(t, c.Tty().Fd())
	if _, err := c.Send("\r"); err != nil {
		t.Fatal(err)
	}
	expectOut("See it")
	// a right pick may be rated lower ("Hard — I guessed"): Enter keeps the
	// automatic rating; a wrong pick has nothing to rate
	if got, err := c.Expect(expect.String("How well did you know it?"), expect.String("Question 2 of 2")); err != nil {
		t.Fatal(err)
	} else if strings.Contains(got, "How well") {
		ptytest.WaitRaw(t, c.Tty().Fd())
		if _, err := c.Send("\r"); err != nil {
			t.Fatal(err)
		}
		expectOut("Question 2 of 2")
	}
	ptytest.WaitRaw(t, c.Tty().Fd())
	if _, err := c.Send("\x03"); err != nil {
		t.Fatal(err)
	}
	expectOut("Interrupted")
	expectOut("1 of 2 questions")

	select {
	case code := <-done:
		if code != 130 {
			t.Errorf("exit code %d, want 130", code)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the session did not end after Ctrl-C")
	}
	st, err := (&quiz.Store{Dir: dir}).Load()
	if err != nil || st.Applied != 1 {
		t.Errorf("want the first answer saved: %+v %v", st, err)
	}
}

// waitRaw polls the terminal's mode until ICANON and ISIG are clear, for
// at most five seconds.

// TestQuizRatingPTY is the §1 loop on a terminal: a free-text answer on
// several lines (Enter on two empty lines finishes it), then the
// checklist (✓ with the words that state a point, "not recognised"
// otherwise, never "Wrong."), the model answer, and the rating prompt with
// the grader's suggestion preselected. The rating the learner confirms is
// the verdict: FSRS, the log's score, the report's verdict and "To
// revisit". An empty answer reveals the model answer and the key points
// without calling the answer wrong, then asks for the rating (Again
// preselected).
func TestQuizRatingPTY(t *testing.T) {
	dir := quizTest(t)
	c := ptytest.Console(t)
	defer c.Close()
	streams := &iostreams.Streams{In: c.Tty(), Out: c.Tty(), ErrOut: c.Tty(), InTTY: true, OutTTY: true,
		Getenv: testGetenv}
	done := make(chan int, 1)
	var out strings.Builder
	go func() {
		done <- Execute(streams, []string{"quiz", "--id", "t-text-quorum,t-text-pending", "--color", "never"})
	}()
	expectOut := func(s string) {
		t.Helper()
		got, err := c.ExpectString(s)
		out.WriteString(got)
		if err != nil {
			t.Fatalf("waiting for %q: %v", s, err)
		}
	}
	send := func(keys string) {
		t.Helper()
		ptytest.WaitRaw(t, c.Tty().Fd())
		if _, err := c.Send(keys); err != nil {
			t.Fatal(err)
		}
	}
	expectOut("Question 1 of 2")
	expectOut("[Enter 2 empty lines to finish]")
	// two lines; the grader recognises the first point only
	send("writes need a majority\r")
	send("and four members tolerate one loss, like three\r")
	send("\r")
	send("\r")
	expectOut("✓ majority — «writes need a majority»")
	expectOut("Model answer:")
	expectOut("How well did you know it?")
	if strings.Contains(out.String(), "Wrong") {
		t.Errorf("a free-text answer without a misconception was called wrong:\n%s", out.String())
	}
	send("\x1b[B\x1b[B\r") // from the preselected Hard down to Easy: the learner knows it all
	expectOut("Question 2 of 2")
	send("\r")
	send("\r") // nothing: show me the answer
	expectOut("The model answer, as asked: compare and rate yourself.")
	expectOut("Key points (2 needed for a pass):")
	expectOut("Model answer:")
	expectOut("How well did you know it?")
	send("\r") // Again, preselected
	expectOut("Quiz report")
	expectOut("To revisit")
	go func() { _, _ = c.ExpectEOF() }()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit code %d", code)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the session did not end")
	}
	data, err := os.ReadFile(filepath.Join(dir, quiz.LogFile))
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if err != nil || len(lines) != 2 {
		t.Fatalf("want two reviews, got %q (%v)", data, err)
	}
	var easy, again quiz.Review
	if json.Unmarshal([]byte(lines[0]), &easy) != nil || easy.ID != "t-text-quorum" || easy.Rating != 4 || easy.Score != 1 {
		t.Errorf("want the first review rated Easy (4) with score 1 (the learner's verdict), got %+v", easy)
	}
	if json.Unmarshal([]byte(lines[1]), &again) != nil || again.ID != "t-text-pending" || again.Rating != 1 || again.Score != 0 {
		t.Errorf("want the revealed answer rated Again (1) with score 0, got %+v", again)
	}
	st, err := (&quiz.Store{Dir: dir}).Load()
	if err != nil || st.Cards["t-text-quorum"].LastScore != 1 {
		t.Errorf("last_score does not follow the rating: %+v %v", st, err)
	}
}

// TestQuizExamCountdownPTY: a timed exam on a terminal shows the live
// countdown on the top row while the learner types; when the time runs
// out mid-answer, the answer in progress is dropped (nothing saved) and
// the report says the questions were not reached.
func TestQuizExamCountdownPTY(t *testing.T) {
	dir := quizTest(t)
	c, view := ptytest.ConsoleView(t)
	defer c.Close()
	streams := &iostreams.Streams{In: c.Tty(), Out: c.Tty(), ErrOut: c.Tty(), InTTY: true, OutTTY: true,
		Getenv: testGetenv}
	done := make(chan int, 1)
	go func() {
		done <- Execute(streams, []string{"quiz", "--exam", "--type", "numeric", "--count", "2", "--time-limit", "2s", "--color", "never"})
	}()
	expectOut := func(s string) {
		t.Helper()
		if _, err := c.ExpectString(s); err != nil {
			t.Fatalf("waiting for %q: %v", s, err)
		}
	}
	expectOut("⏱ 0:02 left")
	ptytest.WaitRaw(t, c.Tty().Fd())
	if _, err := c.Send("4"); err != nil {
		t.Fatal(err)
	}
	expectOut("⏱ 0:01 left")
	if top := strings.SplitN(view.String(), "\n", 2)[0]; !strings.HasPrefix(top, "⏱ 0:01 left") {
		t.Errorf("top row %q, want the live countdown", top)
	}
	expectOut("Time is up: 2 questions not reached.")
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit code %d, want 0", code)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the exam did not end at the time limit")
	}
	if st, err := (&quiz.Store{Dir: dir}).Load(); err != nil || st.Applied != 0 {
		t.Errorf("the dropped answer was saved: %+v %v", st, err)
	}
}
