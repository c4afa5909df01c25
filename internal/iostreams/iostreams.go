// Package iostreams is the one place that decides what the process talks to:
// which streams, whether they are terminals, and whether colour is allowed.
// Commands write to the streams they are given, never to os.Stdout, so every
// command can be tested into a buffer.
package iostreams

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

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
// is a terminal: piped or redirected output is never paged. A pager that
// cannot start leaves Out as it was.
func (s *Streams) StartPager() {
	p := s.PagerCommand()
	if !s.OutTTY || s.pager != nil || p == "" || p == "cat" {
		return
	}
	args := strings.Fields(p)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout, cmd.Stderr = s.Out, s.ErrOut
	cmd.Env = os.Environ()
	if os.Getenv("LESS") == "" && filepath.Base(args[0]) == "less" && len(args) == 1 {
		cmd.Env = append(cmd.Env, "LESS=FRX")
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		return
	}
	if err := cmd.Start(); err != nil {
		return
	}
	s.pager, s.out, s.Out = cmd, s.Out, in
}

// StopPager closes the pager's input and waits for the reader to quit.
func (s *Streams) StopPager() {
	if s.pager == nil {
		return
	}
	if c, ok := s.Out.(io.Closer); ok {
		_ = c.Close()
	}
	_ = s.pager.Wait()
	s.Out, s.pager = s.out, nil
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
