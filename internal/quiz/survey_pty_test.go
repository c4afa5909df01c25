//go:build linux

package quiz

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/AlecAivazis/survey/v2/terminal"
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
		{"t-text-quorum", []string{"нужно большинство" + enter}, "нужно большинство", 0.5},
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
