package golden

import (
	"fmt"
	"strings"
	"testing"
)

// lines returns "line 1\nline 2\n…" up to n, as a golden file holds them.
func lines(n int) []string {
	var out []string
	for i := 1; i <= n; i++ {
		out = append(out, fmt.Sprintf("line %d", i))
	}
	return out
}

// changed counts the lines of a diff that report a change (+ or -), not
// context or elisions.
func changed(diff string) (plus, minus []string) {
	for _, l := range strings.Split(diff, "\n") {
		switch {
		case strings.HasPrefix(l, "+"):
			plus = append(plus, l)
		case strings.HasPrefix(l, "-"):
			minus = append(minus, l)
		}
	}
	return plus, minus
}

func TestDiffInsertedLineIsOneChange(t *testing.T) {
	old := lines(200)
	got := append(append(append([]string{}, old[:10]...), "an inserted line"), old[10:]...)
	d := Diff(strings.Join(old, "\n")+"\n", strings.Join(got, "\n")+"\n")
	plus, minus := changed(d)
	if len(plus) != 1 || !strings.Contains(plus[0], `"an inserted line"`) || len(minus) != 0 {
		t.Fatalf("an inserted line: want one + line and no - line, got +%q -%q in\n%s", plus, minus, d)
	}
	if !strings.HasPrefix(d, "first difference at line 11\n") {
		t.Errorf("want the diff to open with the line of the insertion, 11:\n%s", d)
	}
	// A few lines of context, not the 190 unchanged lines after it.
	if !strings.Contains(d, `"line 10"`) || !strings.Contains(d, `"line 11"`) || strings.Contains(d, `"line 150"`) {
		t.Errorf("want the neighbours of the change as context and the rest elided:\n%s", d)
	}
}

func TestDiffChangedAndRemovedLines(t *testing.T) {
	old := lines(50)
	got := append([]string{}, old...)
	got[20] = "line 21 changed"
	got = append(got[:40], got[41:]...) // line 41 removed
	d := Diff(strings.Join(old, "\n"), strings.Join(got, "\n"))
	plus, minus := changed(d)
	if len(plus) != 1 || len(minus) != 2 {
		t.Fatalf("one changed line and one removed: want 1 + and 2 - lines, got +%q -%q in\n%s", plus, minus, d)
	}
	if !strings.Contains(minus[1], `"line 41"`) {
		t.Errorf("the removed line should be line 41, got %q", minus[1])
	}
}

func TestDiffIgnoresColour(t *testing.T) {
	if d := Diff("\x1b[1mtitle\x1b[0m\nbody\n", "title\nbody\n"); d != "" {
		t.Errorf("ANSI colour alone is no difference, got\n%s", d)
	}
	if d := Diff("same\n", "same\n"); d != "" {
		t.Errorf("equal text: want no diff, got\n%s", d)
	}
}
