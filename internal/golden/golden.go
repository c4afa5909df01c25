// Package golden compares command output with the files under golden/ at the
// repository root, byte for byte, and rewrites them with `go test ./... -update`.
//
// Every test package of the module imports this package (at least with a
// blank import in a _test file), because `go test ./... -update` hands the
// flag to every test binary and a binary that does not define it fails.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files with the current output")

// Updating reports whether -update was given.
func Updating() bool { return *update }

// Dir returns the absolute path of the repository's golden/ directory.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "golden")
}

// Root returns the repository root.
func Root() string { return filepath.Join(Dir(), "..") }

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// Assert compares got with golden/<name> and prints a line diff (- want, + got)
// when they differ. With -update it writes the file
// instead (refused under CI, where a golden file must be committed, not made).
func Assert(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join(Dir(), filepath.FromSlash(name))
	if *update {
		if os.Getenv("CI") != "" {
			t.Fatalf("refusing -update under CI")
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden file %s: %v (run go test ./... -update to create it, then read it)", name, err)
	}
	if !bytes.Equal(got, want) {
		d := Diff(string(want), string(got))
		if d == "" {
			d = "the text is the same; only the colour (ANSI escapes) differs\n"
		}
		t.Errorf("output differs from golden/%s (go test ./... -update rewrites it; - golden, + got):\n%s", name, d)
	}
}

// Diff returns a line diff of want and got (ANSI stripped): an inserted
// line shows as one "+" line, a removed one as one "-" line, with a few
// unchanged lines around each change and the rest elided. go-cmp aligns the
// two line lists (a minimal edit script), so a change early in a file does
// not make every later line look different.
//
// The diff opens with the line number of the first difference, since the
// elisions ("... // 8 identical elements") leave it to be counted.
func Diff(want, got string) string {
	want, got = ansi.ReplaceAllString(want, ""), ansi.ReplaceAllString(got, "")
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	d := cmp.Diff(wl, gl)
	if d == "" {
		return ""
	}
	first := 0
	for first < len(wl) && first < len(gl) && wl[first] == gl[first] {
		first++
	}
	return fmt.Sprintf("first difference at line %d\n%s", first+1, d)
}
