//go:build linux

package cmd

import (
	"testing"
	"time"

	expect "github.com/Netflix/go-expect"
	"github.com/creack/pty"
	"github.com/hinshun/vt10x"
	"github.com/k8sexplain/k8sexplain/internal/iostreams"
	"github.com/k8sexplain/k8sexplain/internal/quiz"
	"golang.org/x/sys/unix"
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
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	term := vt10x.New(vt10x.WithWriter(tty))
	c, err := expect.NewConsole(expect.WithStdin(ptm), expect.WithStdout(term), expect.WithCloser(ptm, tty),
		expect.WithDefaultTimeout(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	streams := &iostreams.Streams{In: c.Tty(), Out: c.Tty(), ErrOut: c.Tty(), InTTY: true, OutTTY: true,
		Getenv: func(string) string { return "" }}
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
	waitRaw(t, c.Tty().Fd())
	if _, err := c.Send("\r"); err != nil {
		t.Fatal(err)
	}
	expectOut("See it")
	expectOut("Question 2 of 2")
	waitRaw(t, c.Tty().Fd())
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
func waitRaw(t *testing.T, fd uintptr) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		tio, err := unix.IoctlGetTermios(int(fd), unix.TCGETS)
		if err != nil {
			t.Fatalf("tcgets: %v", err)
		}
		if tio.Lflag&(unix.ICANON|unix.ISIG) == 0 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("the prompt never put the terminal in raw mode")
}
