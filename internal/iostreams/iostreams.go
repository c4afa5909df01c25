// Package iostreams is the one place that decides what the process talks to:
// which streams, whether they are terminals, and whether colour is allowed.
// Commands write to the streams they are given, never to os.Stdout, so every
// command can be tested into a buffer.
package iostreams

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/term"
)

// Streams are the standard streams of one command run.
type Streams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	// InTTY, OutTTY and ErrTTY say whether stdin, stdout and stderr are
	// terminals.
	InTTY, OutTTY, ErrTTY bool
	// Size, when set, asks the terminal on stdout for its width.
	Size func() (int, error)
	// Rows, when set, asks the terminal on stdout for its height: output
	// that fits on one screen is not paged (screen.go).
	Rows func() (int, error)

	pager *exec.Cmd
	out   io.Writer // stdout while a pager reads Out
	// Getenv reads the environment (os.Getenv in the real process).
	Getenv func(string) string
}

// System returns the process's real streams.
func System() *Streams {
	return &Streams{
		In:     os.Stdin,
		Out:    os.Stdout,
		ErrOut: os.Stderr,
		InTTY:  term.IsTerminal(int(os.Stdin.Fd())),
		OutTTY: term.IsTerminal(int(os.Stdout.Fd())),
		ErrTTY: term.IsTerminal(int(os.Stderr.Fd())),
		Size: func() (int, error) {
			w, _, err := term.GetSize(int(os.Stdout.Fd()))
			return w, err
		},
		Rows: func() (int, error) {
			_, h, err := term.GetSize(int(os.Stdout.Fd()))
			return h, err
		},
		Getenv: os.Getenv,
	}
}

// TerminalWidth is the width text output wraps to: the terminal's width
// when stdout is one (COLUMNS when it does not say), else 0, which means
// the fixed width of pipes, files and golden files.
func (s *Streams) TerminalWidth() int {
	if !s.OutTTY {
		return 0
	}
	if s.Size != nil {
		if w, err := s.Size(); err == nil && w > 0 {
			return w
		}
	}
	if s.Getenv != nil {
		if w, err := strconv.Atoi(s.Getenv("COLUMNS")); err == nil && w > 0 {
			return w
		}
	}
	return 0
}

// PagerCommand is the pager for long output: K8SEXPLAIN_PAGER, else PAGER,
// else "less -FRX" (quit if one screen, keep colours, leave the text on the
// screen), as git and gh choose theirs. "" and "cat" mean no pager.
func (s *Streams) PagerCommand() string {
	get := func(k string) string {
		if s.Getenv == nil {
			return ""
		}
		return strings.TrimSpace(s.Getenv(k))
	}
	if p := get("K8SEXPLAIN_PAGER"); p != "" {
		return p
	}
	if p := get("PAGER"); p != "" {
		return p
	}
	return "less -FRX"
}

// StartPager sends Out through the pager until StopPager, only when stdout
// is a terminal: piped or redirected output is never paged. When the
// terminal's height is known (Rows, else LINES) the output is held until
// it no longer fits on one screen: output that fits is printed without a
// pager, whatever the pager and its options (a short `quiz stats`). The
// pager starts with the first byte past that (the first byte when the
// height is unknown), so a run's progress line on stderr is done before it
// takes the screen; a pager that cannot start leaves the output going
// straight to stdout.
func (s *Streams) StartPager() {
	p := s.PagerCommand()
	if !s.OutTTY || s.out != nil || p == "" || p == "cat" {
		return
	}
	s.out = s.Out
	s.Out = &lazyPager{s: s, command: p, screen: s.screen()}
}

// lazyPager starts the pager on the first write that no longer fits on
// the screen.
type lazyPager struct {
	s       *Streams
	command string
	w       io.Writer
	quit    bool // the reader closed the pager: the rest is dropped
	screen  screen
	held    []byte // output that fits on the screen so far
}

func (l *lazyPager) Write(b []byte) (int, error) {
	if l.w == nil && l.screen.rows > 0 {
		l.held = append(l.held, b...)
		if l.screen.fits(l.held) {
			return len(b), nil
		}
		b, l.held = l.held, nil
		if _, err := l.write(b); err != nil {
			return 0, err
		}
		return len(b), nil
	}
	return l.write(b)
}

func (l *lazyPager) write(b []byte) (int, error) {
	if l.w == nil {
		l.w = l.s.out
		args := strings.Fields(l.command)
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Stdout, cmd.Stderr = l.s.out, l.s.ErrOut
		cmd.Env = os.Environ()
		if os.Getenv("LESS") == "" && filepath.Base(args[0]) == "less" && len(args) == 1 {
			cmd.Env = append(cmd.Env, "LESS=FRX")
		}
		if in, err := cmd.StdinPipe(); err == nil {
			if err := cmd.Start(); err == nil {
				l.s.pager, l.w = cmd, in
			}
		}
	}
	if l.quit {
		return len(b), nil
	}
	n, err := l.w.Write(b)
	if err != nil && l.s.pager != nil && (errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed)) {
		// The reader pressed q: a normal end, as git and kubectl take it,
		// not "write |1: broken pipe" (issue 29).
		l.quit = true
		return len(b), nil
	}
	return n, err
}

// StopPager closes the pager's input, waits for the reader to quit and
// gives Out back.
func (s *Streams) StopPager() {
	if s.out == nil {
		return
	}
	if l, ok := s.Out.(*lazyPager); ok && s.pager != nil {
		if c, ok := l.w.(io.Closer); ok {
			_ = c.Close()
		}
		_ = s.pager.Wait()
	} else if ok && len(l.held) > 0 {
		_, _ = s.out.Write(l.held) // it fitted: no pager
	}
	s.Out, s.out, s.pager = s.out, nil, nil
}

// Test returns streams backed by buffers, not terminals, with an empty
// environment, plus the buffers for stdin, stdout and stderr.
func Test() (*Streams, *bytes.Buffer, *bytes.Buffer, *bytes.Buffer) {
	in, out, errOut := &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return &Streams{In: in, Out: out, ErrOut: errOut, Getenv: func(string) string { return "" }}, in, out, errOut
}

// ColorEnabled applies the colour policy (no-color.org): "always" and
// "never" are obeyed, since an explicit user setting overrides the
// environment; "auto" means colour only when stdout is a terminal that is
// not TERM=dumb and NO_COLOR is empty.
func (s *Streams) ColorEnabled(mode string) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	if s.Getenv != nil && (s.Getenv("NO_COLOR") != "" || s.Getenv("TERM") == "dumb") {
		return false
	}
	return s.OutTTY
}
