//go:build linux

// Package ptytest drives interactive prompts in tests through a real
// pseudo-terminal: go-expect reads and writes, vt10x plays the terminal
// (and answers the cursor-position query survey sends). Imported by tests
// only; Linux only, for the TCGETS ioctl.
package ptytest

import (
	"testing"
	"time"

	expect "github.com/Netflix/go-expect"
	"github.com/creack/pty"
	"github.com/hinshun/vt10x"
	"golang.org/x/sys/unix"
)

// Console opens a pty behind a virtual terminal; the test is skipped where
// no pty can be had. Close it when done.
func Console(t testing.TB) *expect.Console {
	t.Helper()
	c, _ := ConsoleView(t)
	return c
}

// ConsoleView is Console that also returns the virtual terminal, to read
// the screen as a user sees it; the pty's window size is set to the
// terminal's, so a program that asks the pty for its size gets the same.
func ConsoleView(t testing.TB) (*expect.Console, vt10x.Terminal) {
	t.Helper()
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	const cols, rows = 80, 24
	term := vt10x.New(vt10x.WithWriter(tty), vt10x.WithSize(cols, rows))
	c, err := expect.NewConsole(expect.WithStdin(ptm), expect.WithStdout(term), expect.WithCloser(ptm, tty),
		expect.WithDefaultTimeout(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	// the program under test talks to the console's own pty
	if err := pty.Setsize(c.Tty(), &pty.Winsize{Rows: rows, Cols: cols}); err != nil {
		t.Fatal(err)
	}
	return c, term
}

// WaitRaw waits until the prompt has put the terminal in raw mode (ICANON
// and ISIG cleared). survey draws before it switches modes, so a key sent
// earlier is cooked, or turned into SIGINT, and lost.
func WaitRaw(t testing.TB, fd uintptr) {
	t.Helper()
	WaitLflag(t, fd, func(l uint32) bool { return l&(unix.ICANON|unix.ISIG) == 0 })
}

// WaitLflag polls the terminal's local flags until ok accepts them (5 s).
func WaitLflag(t testing.TB, fd uintptr, ok func(uint32) bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		tio, err := unix.IoctlGetTermios(int(fd), unix.TCGETS)
		if err != nil {
			t.Fatalf("tcgets: %v", err)
		}
		if ok(tio.Lflag) {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatal("the terminal mode did not change in time")
}
