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

// Assert compares got with golden/<name>. With -update it writes the file
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
		t.Errorf("output differs from golden/%s (go test ./... -update rewrites it):\n%s", name, Diff(string(want), string(got)))
	}
}

// Diff returns a readable line diff of want and got (ANSI stripped), showing
// the first differences with a little context.
func Diff(want, got string) string {
	want, got = ansi.ReplaceAllString(want, ""), ansi.ReplaceAllString(got, "")
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	n := len(wl)
	if len(gl) > n {
		n = len(gl)
	}
	for i := 0; i < n && shown < 20; i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w == g {
			continue
		}
		shown++
		fmt.Fprintf(&b, "line %d:\n  - %q\n  + %q\n", i+1, w, g)
	}
	if len(wl) != len(gl) {
		fmt.Fprintf(&b, "want %d lines, got %d\n", len(wl), len(gl))
	}
	return b.String()
}
