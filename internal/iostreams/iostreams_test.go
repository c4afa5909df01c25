package iostreams

import (
	"bytes"
	"strings"
	"testing"
)

// A pager the reader quits (q) before reading everything ends the output
// quietly: writes after it succeed and are dropped (issue 29: exit 4,
// "write |1: broken pipe").
func TestPagerQuitIsNormalEnd(t *testing.T) {
	var out, errOut bytes.Buffer
	s := &Streams{Out: &out, ErrOut: &errOut, OutTTY: true,
		Getenv: func(k string) string {
			if k == "K8SEXPLAIN_PAGER" {
				return "true" // reads nothing and exits, as less after q
			}
			return ""
		}}
	s.StartPager()
	line := strings.Repeat("x", 1023) + "\n"
	for i := 0; i < 4096; i++ { // 4 MiB: far past a pipe's buffer
		if _, err := s.Out.Write([]byte(line)); err != nil {
			t.Fatalf("write %d after the pager quit: %v", i, err)
		}
	}
	s.StopPager()
}

// Output that fits on the screen is printed without the pager, whatever
// the pager's options; output taller than the screen, or with long lines
// that wrap past it, goes through it (issue 22: `quiz stats` opened a
// pager for a short screen).
func TestPagerOnlyPastOneScreen(t *testing.T) {
	for _, tc := range []struct {
		name  string
		text  string
		paged bool
	}{
		{"short", strings.Repeat("a line\n", 5), false},
		{"a screen less the prompt's row", strings.Repeat("a line\n", 9), false},
		{"a full screen", strings.Repeat("a line\n", 10), true},
		{"long lines wrap", strings.Repeat(strings.Repeat("x", 45)+"\n", 4), true},
		{"colour takes no room", strings.Repeat("\x1b[1;32m"+strings.Repeat("x", 20)+"\x1b[0m\n", 9), false},
	} {
		var out, errOut bytes.Buffer
		s := &Streams{Out: &out, ErrOut: &errOut, OutTTY: true,
			Rows: func() (int, error) { return 10, nil },
			Size: func() (int, error) { return 20, nil },
			Getenv: func(k string) string {
				if k == "K8SEXPLAIN_PAGER" {
					return "sed s/^/PAGED:/"
				}
				return ""
			}}
		s.StartPager()
		for _, line := range strings.SplitAfter(tc.text, "\n") {
			if _, err := s.Out.Write([]byte(line)); err != nil {
				t.Fatal(err)
			}
		}
		s.StopPager()
		if got := strings.HasPrefix(out.String(), "PAGED:"); got != tc.paged {
			t.Errorf("%s: paged %v, want %v:\n%s", tc.name, got, tc.paged, out.String())
		}
		if !tc.paged && out.String() != tc.text {
			t.Errorf("%s: output changed on the way: %q", tc.name, out.String())
		}
		if s.Out != &out {
			t.Errorf("%s: stdout not given back", tc.name)
		}
	}
}
