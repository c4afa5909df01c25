//go:build linux

package cmd

import (
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
