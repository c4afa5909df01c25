// Package iostreams is the one place that decides what the process talks to:
// which streams, whether they are terminals, and whether colour is allowed.
// Commands write to the streams they are given, never to os.Stdout, so every
// command can be tested into a buffer.
package iostreams

import (
	"bytes"
	"io"
	"os"

	"golang.org/x/term"
)

// Streams are the standard streams of one command run.
type Streams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	// InTTY and OutTTY say whether stdin and stdout are terminals.
	InTTY, OutTTY bool
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
		Getenv: os.Getenv,
	}
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
