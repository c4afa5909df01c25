package quiz

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"time"

	"github.com/AlecAivazis/survey/v2/terminal"
	"golang.org/x/term"
)

// ErrTimeUp is returned by a prompter when an exam's time runs out while
// the learner is still answering. The answer in progress is dropped: the
// question counts as not reached (nothing is graded or recorded), like the
// questions after it — an interviewer's "time, pens down".
var ErrTimeUp = errors.New("time is up")

// The live countdown of a timed exam on a terminal. survey redraws its
// prompt with relative cursor moves, so the countdown lives where survey
// never draws: the top row, kept out of a scroll region (DECSTBM rows 2 to
// the bottom). survey's size probe (the cursor moved to 999;999) still
// finds the real bottom, so its line arithmetic holds. The countdown is
// rewritten every second inside a cursor save/restore, as one write, under
// the same lock as survey's writes, and never while survey itself holds a
// saved cursor (its size probe), so the two cannot interleave.

// lockedOut serialises writes to the terminal and tracks survey's cursor
// saves (ESC 7 … ESC 8).
type lockedOut struct {
	mu    sync.Mutex
	w     terminal.FileWriter
	saves int
}

func (o *lockedOut) Write(b []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.saves += bytes.Count(b, []byte("\x1b7")) - bytes.Count(b, []byte("\x1b8"))
	if o.saves < 0 {
		o.saves = 0
	}
	return o.w.Write(b)
}

func (o *lockedOut) Fd() uintptr { return o.w.Fd() }

// raw writes s as one write, unless survey holds a saved cursor (then the
// write is skipped and raw reports false).
func (o *lockedOut) raw(s string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.saves > 0 {
		return false
	}
	_, _ = io.WriteString(o.w, s)
	return true
}

// timedIn reads the terminal through one pump goroutine so that a read
// can end at the deadline: then it returns ErrTimeUp, and survey returns
// it from the prompt (restoring the terminal mode on its way out).
type timedIn struct {
	in       terminal.FileReader
	chunks   chan []byte
	err      error // after chunks is closed
	pending  []byte
	deadline <-chan time.Time
}

func newTimedIn(in terminal.FileReader) *timedIn {
	t := &timedIn{in: in, chunks: make(chan []byte)}
	go func() {
		for {
			buf := make([]byte, 256)
			n, err := in.Read(buf)
			if n > 0 {
				t.chunks <- buf[:n]
			}
			if err != nil {
				t.err = err
				close(t.chunks)
				return
			}
		}
	}()
	return t
}

func (t *timedIn) Read(p []byte) (int, error) {
	if len(t.pending) == 0 {
		select {
		case c, ok := <-t.chunks:
			if !ok {
				return 0, t.err
			}
			t.pending = c
		case <-t.deadline:
			return 0, ErrTimeUp
		}
	}
	n := copy(p, t.pending)
	t.pending = t.pending[n:]
	return n, nil
}

func (t *timedIn) Fd() uintptr { return t.in.Fd() }

// mmss formats the time left as m:ss (h:mm:ss from an hour up).
func mmss(d time.Duration) string {
	s := int((d + time.Second - 1) / time.Second) // round up: 0:00 only when it is over
	if s < 0 {
		s = 0
	}
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// CountdownLine is the text of the live countdown.
func CountdownLine(lang string, left time.Duration) string {
	return "⏱ " + msgf(lang, "{1} left", mmss(left)) + " · " + msg(lang, "the answer in progress is dropped when time runs out")
}

// withCountdown runs ask with the deadline now+left: a live countdown on
// the top row (when the terminal size is known) and ErrTimeUp when the
// time runs out before ask returns.
func (s *SurveyPrompter) withCountdown(lang string, left time.Duration, ask func(stdio terminal.Stdio, live bool) (string, error)) (string, error) {
	if s.timed == nil {
		s.timed = newTimedIn(s.Stdio.In)
		s.out = &lockedOut{w: s.Stdio.Out}
	}
	now := s.now
	if now == nil {
		now = time.Now
	}
	end := now().Add(left)
	timer := time.NewTimer(left)
	defer timer.Stop()
	s.timed.deadline = timer.C
	defer func() { s.timed.deadline = nil }()
	stdio := terminal.Stdio{In: s.timed, Out: s.out, Err: s.Stdio.Err}

	cols, rows, err := term.GetSize(int(s.Stdio.Out.Fd()))
	// Windows consoles draw survey through the console API, where these
	// escape sequences are not assured: the header shows the time left
	if err != nil || rows < 3 || cols < 12 || runtime.GOOS == "windows" {
		return ask(stdio, false) // no room for a status row: the deadline still holds
	}
	show := func() {
		// cut to the width (two columns spare for a wide ⏱): a wrapped
		// status would spill into survey's region
		line := []rune(CountdownLine(lang, end.Sub(now())))
		if len(line) > cols-2 {
			line = line[:cols-2]
		}
		s.out.raw(fmt.Sprintf("\x1b7\x1b[1;1H\x1b[2K%s\x1b8", string(line)))
	}
	// a blank line first, so the prompt never starts on the status row
	s.out.raw(fmt.Sprintf("\n\x1b7\x1b[2;%dr\x1b8", rows))
	show()
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				show()
			case <-stop:
				return
			}
		}
	}()
	defer func() {
		close(stop)
		<-done
		s.out.mu.Lock() // survey is done: its cursor saves are balanced
		s.out.saves = 0
		_, _ = io.WriteString(s.out.w, "\x1b7\x1b[1;1H\x1b[2K\x1b[r\x1b8")
		s.out.mu.Unlock()
	}()
	return ask(stdio, true)
}
