//go:build linux

package quiz

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/AlecAivazis/survey/v2/terminal"
	"github.com/creack/pty"
	"github.com/k8sexplain/k8sexplain/internal/ptytest"
	fsrs "github.com/open-spaced-repetition/go-fsrs/v3"
)

// TestSurveyPrompterTypes drives SurveyPrompter in a pseudo-terminal for
// every question type and checks the answer line it produces. The wiring
// follows survey's survey_posix_test.go: pty ─► vt10x (which answers the
// cursor-position query) ─► go-expect console.
func TestSurveyPrompterTypes(t *testing.T) {
	b := testBank(t)
	const down, space, enter = "\x1b[B", " ", "\r"
	// display positions of the correct choices, as Present shuffles them
	shownAt := func(id string) map[int]bool {
		q, at := b.Get(id), map[int]bool{}
		for d, o := range Present(q, 1, 1, "ru", 1).Shown {
			for _, a := range q.Answer {
				if o == a {
					at[d] = true
				}
			}
		}
		return at
	}
	var single, multi strings.Builder
	var singleWant, multiWant []string
	for d := 0; d < 3; d++ {
		if shownAt("t-single-apiserver")[d] {
			single.WriteString(enter)
			singleWant = append(singleWant, fmt.Sprint(d+1))
			break
		}
		single.WriteString(down)
	}
	for d := 0; d < 5; d++ {
		if shownAt("t-multi-ns")[d] {
			multi.WriteString(space)
			multiWant = append(multiWant, fmt.Sprint(d+1))
		}
		multi.WriteString(down)
	}
	multi.WriteString(enter)
	for _, tc := range []struct {
		id    string
		keys  []string // sent one prompt at a time
		want  string
		score float64
	}{
		{"t-single-apiserver", []string{single.String()}, strings.Join(singleWant, " "), 1},
		{"t-multi-ns", []string{multi.String()}, strings.Join(multiWant, " "), 1},
		{"t-order-pod", []string{enter, enter, enter}, "", -1},
		{"t-num-quorum", []string{"3 nodes" + enter}, "3 nodes", 1},
		{"t-text-quorum", []string{"нужно большинство" + enter + enter + enter}, "нужно большинство", 0.5},
		// several lines: Enter on two empty lines finishes the answer
		{"t-text-quorum", []string{"нужно большинство" + enter + enter + "и всё" + enter + enter + enter}, "нужно большинство\n\nи всё", 0.5},
	} {
		t.Run(tc.id, func(t *testing.T) {
			c := ptytest.Console(t)
			defer c.Close()
			sp := &SurveyPrompter{Stdio: terminal.Stdio{In: c.Tty(), Out: c.Tty(), Err: c.Tty()}}
			p := Present(b.Get(tc.id), 1, 1, "ru", 1)
			type res struct {
				ans string
				err error
			}
			done := make(chan res, 1)
			go func() { a, err := sp.Ask(p); done <- res{a, err} }()
			for i, k := range tc.keys {
				if i > 0 {
					// the next step's prompt; wait for it before its raw mode
					if _, err := c.ExpectString(fmt.Sprintf("(%d/", i+1)); err != nil {
						t.Fatal(err)
					}
				}
				ptytest.WaitRaw(t, c.Tty().Fd())
				if _, err := c.Send(k); err != nil {
					t.Fatal(err)
				}
			}
			// keep reading the terminal: vt10x must see (and answer) the
			// cursor-position queries the input prompt sends
			go func() { _, _ = c.ExpectEOF() }()
			var r res
			select {
			case r = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the prompt did not return")
			}
			if r.err != nil {
				t.Fatal(r.err)
			}
			if tc.want != "" && r.ans != tc.want {
				t.Errorf("answer %q, want %q", r.ans, tc.want)
			}
			// order: Enter each time takes the first step left, i.e. the shown order
			if tc.score < 0 {
				tc.score = Grade(p.Q, p.Shown, "1 2 3 4", "ru").Score
				if r.ans != "1 2 3 4" {
					t.Errorf("order answer %q, want 1 2 3 4", r.ans)
				}
			}
			if g := Grade(p.Q, p.Shown, r.ans, "ru"); g.Score != tc.score {
				t.Errorf("score %.2f, want %.2f", g.Score, tc.score)
			}
		})
	}
}

// waitRawFD polls until the prompt has put the terminal in raw mode
// (ICANON and ISIG clear): keys sent before that are cooked or lost.

// TestSurveyRate drives the rating prompt after a free-text answer: the
// automatic rating is preselected (Enter keeps it), the learner can move to
// another, and survey's key hints are in Russian for --lang ru.
func TestSurveyRate(t *testing.T) {
	b := testBank(t)
	a := answered(b.Get("t-text-quorum"), "нужно большинство", "ru")
	for _, tc := range []struct {
		keys string
		want fsrs.Rating
	}{
		{"\r", fsrs.Hard},
		{"\x1b[B\r", fsrs.Good},
		{"\x1b[A\r", fsrs.Again},
	} {
		c := ptytest.Console(t)
		sp := &SurveyPrompter{Stdio: terminal.Stdio{In: c.Tty(), Out: c.Tty(), Err: c.Tty()}, NoColor: true}
		type res struct {
			r   fsrs.Rating
			err error
		}
		done := make(chan res, 1)
		go func() { r, err := sp.Rate(a, fsrs.Hard); done <- res{r, err} }()
		if _, err := c.ExpectString("стрелки — перейти"); err != nil {
			t.Fatalf("no Russian key hint: %v", err)
		}
		ptytest.WaitRaw(t, c.Tty().Fd())
		if _, err := c.Send(tc.keys); err != nil {
			t.Fatal(err)
		}
		go func() { _, _ = c.ExpectEOF() }()
		select {
		case r := <-done:
			if r.err != nil || r.r != tc.want {
				t.Errorf("keys %q: rating %v %v, want %v", tc.keys, r.r, r.err, tc.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the rating prompt did not return")
		}
		c.Close()
	}
	localise("en")
}

// TestSurveyTextInterrupt: Ctrl-C in the multi-line free-text field ends
// the session like anywhere else (ErrInterrupted), the lines typed so far
// dropped.
func TestSurveyTextInterrupt(t *testing.T) {
	b := testBank(t)
	c := ptytest.Console(t)
	defer c.Close()
	sp := &SurveyPrompter{Stdio: terminal.Stdio{In: c.Tty(), Out: c.Tty(), Err: c.Tty()}, NoColor: true}
	done := make(chan error, 1)
	go func() { _, err := sp.Ask(Present(b.Get("t-text-quorum"), 1, 1, "en", 1)); done <- err }()
	if _, err := c.ExpectString("[Enter 2 empty lines to finish]"); err != nil {
		t.Fatal(err)
	}
	ptytest.WaitRaw(t, c.Tty().Fd())
	if _, err := c.Send("a majority\r\x03"); err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = c.ExpectEOF() }()
	select {
	case err := <-done:
		if !errors.Is(err, ErrInterrupted) {
			t.Errorf("Ctrl-C in the text field: %v, want ErrInterrupted", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the prompt did not return")
	}
}

// TestSurveyRateObjective: a right pick may be rated lower ("Hard — I
// guessed"), never higher; the automatic rating is preselected.
func TestSurveyRateObjective(t *testing.T) {
	b := testBank(t)
	q := b.Get("t-single-apiserver")
	a := answered(q, fmt.Sprint(shownOf(q, q.Answer[0])+1), "en")
	c := ptytest.Console(t)
	defer c.Close()
	sp := &SurveyPrompter{Stdio: terminal.Stdio{In: c.Tty(), Out: c.Tty(), Err: c.Tty()}, NoColor: true}
	type res struct {
		r   fsrs.Rating
		err error
	}
	done := make(chan res, 1)
	go func() { r, err := sp.Rate(a, fsrs.Easy); done <- res{r, err} }()
	if _, err := c.ExpectString("Hard — I guessed"); err != nil {
		t.Fatalf("no guess rating: %v", err)
	}
	ptytest.WaitRaw(t, c.Tty().Fd())
	if _, err := c.Send("\x1b[A\x1b[A\r"); err != nil { // from the preselected Easy up to Hard
		t.Fatal(err)
	}
	go func() { _, _ = c.ExpectEOF() }()
	select {
	case r := <-done:
		if r.err != nil || r.r != fsrs.Hard {
			t.Errorf("rating %v %v, want Hard", r.r, r.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the rating prompt did not return")
	}
}

// §3 exam countdown: on a terminal a timed question shows the time left on
// the top row and rewrites it every second while the learner types,
// without touching survey's prompt; when the time runs out mid-answer the
// prompt ends with ErrTimeUp (the answer in progress is dropped) and the
// status row and scroll region are cleared.
func TestSurveyCountdown(t *testing.T) {
	b := testBank(t)
	screen := func(v interface{ String() string }) []string { return strings.Split(v.String(), "\n") }
	t.Run("time runs out mid-answer", func(t *testing.T) {
		c, view := ptytest.ConsoleView(t)
		defer c.Close()
		sp := &SurveyPrompter{Stdio: terminal.Stdio{In: c.Tty(), Out: c.Tty(), Err: c.Tty()}, NoColor: true}
		p := Present(b.Get("t-num-quorum"), 1, 1, "ru", 1)
		p.Left = 3 * time.Second
		type res struct {
			ans string
			err error
		}
		done := make(chan res, 1)
		start := time.Now()
		go func() { a, err := sp.Ask(p); done <- res{a, err} }()
		if _, err := c.ExpectString("осталось 0:03"); err != nil {
			t.Fatal(err)
		}
		ptytest.WaitRaw(t, c.Tty().Fd())
		if _, err := c.Send("3 чле"); err != nil {
			t.Fatal(err)
		}
		// the countdown ticks while the answer is being typed
		if _, err := c.ExpectString("осталось 0:02"); err != nil {
			t.Fatal(err)
		}
		if _, err := c.ExpectString("осталось 0:01"); err != nil {
			t.Fatal(err)
		}
		rows := screen(view)
		if !strings.HasPrefix(rows[0], "⏱ осталось 0:01") {
			t.Errorf("top row %q, want the countdown", rows[0])
		}
		var prompt string
		for _, r := range rows[1:] {
			if strings.Contains(r, "3 чле") {
				prompt = r
			}
		}
		if prompt == "" || strings.Count(strings.Join(rows, "\n"), "Вопрос 1 из 1") != 1 {
			t.Errorf("survey's prompt is damaged (want the typed answer once and the header once):\n%s", strings.Join(rows, "\n"))
		}
		go func() { _, _ = c.ExpectEOF() }()
		var r res
		select {
		case r = <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("the prompt did not end at the deadline")
		}
		if !errors.Is(r.err, ErrTimeUp) || r.ans != "" {
			t.Errorf("got %q, %v; want the answer dropped with ErrTimeUp", r.ans, r.err)
		}
		if el := time.Since(start); el < 3*time.Second || el > 6*time.Second {
			t.Errorf("ended after %v, want about 3 s", el)
		}
		time.Sleep(100 * time.Millisecond)
		if top := screen(view)[0]; strings.TrimSpace(top) != "" {
			t.Errorf("the status row is left behind: %q", top)
		}
	})
	t.Run("answered in time", func(t *testing.T) {
		c, view := ptytest.ConsoleView(t)
		defer c.Close()
		sp := &SurveyPrompter{Stdio: terminal.Stdio{In: c.Tty(), Out: c.Tty(), Err: c.Tty()}, NoColor: true}
		p := Present(b.Get("t-num-quorum"), 1, 1, "en", 1)
		p.Left = 90 * time.Minute
		done := make(chan string, 1)
		go func() { a, _ := sp.Ask(p); done <- a }()
		if _, err := c.ExpectString("1:30:00 left"); err != nil {
			t.Fatal(err)
		}
		ptytest.WaitRaw(t, c.Tty().Fd())
		if _, err := c.Send("3\r"); err != nil {
			t.Fatal(err)
		}
		go func() { _, _ = c.ExpectEOF() }()
		select {
		case a := <-done:
			if a != "3" {
				t.Errorf("answer %q, want 3", a)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the prompt did not return")
		}
		time.Sleep(100 * time.Millisecond)
		rows := screen(view)
		if strings.TrimSpace(rows[0]) != "" {
			t.Errorf("the status row is left behind: %q", rows[0])
		}
		if strings.Contains(strings.Join(rows, "\n"), "1h30m0s left") {
			t.Errorf("the header repeats a static time left next to the live one")
		}
	})
}

// A narrow terminal: the status row is cut to the width, never wrapped
// into survey's region.
func TestSurveyCountdownNarrow(t *testing.T) {
	b := testBank(t)
	c, view := ptytest.ConsoleView(t)
	defer c.Close()
	if err := pty.Setsize(c.Tty(), &pty.Winsize{Rows: 24, Cols: 30}); err != nil {
		t.Fatal(err)
	}
	sp := &SurveyPrompter{Stdio: terminal.Stdio{In: c.Tty(), Out: c.Tty(), Err: c.Tty()}, NoColor: true}
	p := Present(b.Get("t-num-quorum"), 1, 1, "ru", 1)
	p.Left = time.Hour
	done := make(chan string, 1)
	go func() { a, _ := sp.Ask(p); done <- a }()
	if _, err := c.ExpectString("осталось 1:00:00"); err != nil {
		t.Fatal(err)
	}
	// survey draws after the status row is written: once its prompt is on
	// the screen, the whole status row is too
	if _, err := c.ExpectString("(участника):"); err != nil {
		t.Fatal(err)
	}
	ptytest.WaitRaw(t, c.Tty().Fd())
	rows := strings.Split(view.String(), "\n")
	// vt10x is 80 columns wide; the program was told 30, so it must cut
	if top := []rune(strings.TrimRight(rows[0], " ")); len(top) > 28 || !strings.HasPrefix(string(top), "⏱ осталось 1:00:00") {
		t.Errorf("the status row is not cut to the 30 columns the terminal reports: %q", string(top))
	}
	if _, err := c.Send("3\r"); err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = c.ExpectEOF() }()
	select {
	case a := <-done:
		if a != "3" {
			t.Errorf("answer %q", a)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the prompt did not return")
	}
}
