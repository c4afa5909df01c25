//go:build linux

package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
	expectOut("Question 2 of 2")
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

// TestQuizRatingPTY: after a free-text answer on a terminal the learner
// sees the checklist and the model answer, then the rating prompt with the
// automatic rating preselected; the rating chosen is what FSRS gets.
func TestQuizRatingPTY(t *testing.T) {
	dir := quizTest(t)
	c := ptytest.Console(t)
	defer c.Close()
	streams := &iostreams.Streams{In: c.Tty(), Out: c.Tty(), ErrOut: c.Tty(), InTTY: true, OutTTY: true,
		Getenv: testGetenv}
	done := make(chan int, 1)
	go func() {
		done <- Execute(streams, []string{"quiz", "--id", "t-text-quorum", "--color", "never"})
	}()
	expect := func(s string) {
		t.Helper()
		if _, err := c.ExpectString(s); err != nil {
			t.Fatalf("waiting for %q: %v", s, err)
		}
	}
	expect("Question 1 of 1")
	ptytest.WaitRaw(t, c.Tty().Fd())
	if _, err := c.Send("writes need a majority\r"); err != nil {
		t.Fatal(err)
	}
	expect("✓ majority — «writes need a majority»")
	expect("Model answer:")
	expect("How well did you know it?")
	ptytest.WaitRaw(t, c.Tty().Fd())
	if _, err := c.Send("\x1b[A\r"); err != nil { // from the preselected Hard up to Again
		t.Fatal(err)
	}
	expect("Quiz report")
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
	var r quiz.Review
	if err != nil || json.Unmarshal(bytes.TrimSpace(data), &r) != nil || r.ID != "t-text-quorum" || r.Rating != 1 || r.Score != 0.5 {
		t.Errorf("want one review rated Again (1) with score 0.5, got %+v from %q (%v)", r, data, err)
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
