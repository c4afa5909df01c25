package golden

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// sampleRE marks a README sample taken from a golden file: the file, the
// start of the first line shown, and how many lines; the fenced block that
// follows holds the command line, "...", those lines and "..." again.
var sampleRE = regexp.MustCompile(`(?m)^<!-- sample: golden/(\S+) from "([^"]+)" (\d+) lines -->\n` + "```" + `\n(\$ [^\n]*\n)(?s:(.*?))` + "```" + `\n`)

// README's sample outputs are the golden files' lines, so they cannot go
// stale: each is compared with its golden file, and -update rewrites it.
func TestReadmeSamplesAreGolden(t *testing.T) {
	path := filepath.Join(Root(), "README.md")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(src)
	ms := sampleRE.FindAllStringSubmatchIndex(readme, -1)
	if len(ms) == 0 {
		t.Fatal("README.md has no <!-- sample: ... --> block")
	}
	var out strings.Builder
	last := 0
	for _, m := range ms {
		file, anchor := readme[m[2]:m[3]], readme[m[4]:m[5]]
		n, _ := strconv.Atoi(readme[m[6]:m[7]])
		command, body := readme[m[8]:m[9]], readme[m[10]:m[11]]
		g, err := os.ReadFile(filepath.Join(Dir(), filepath.FromSlash(file)))
		if err != nil {
			t.Fatalf("README sample: %v", err)
		}
		lines := strings.Split(strings.TrimRight(string(g), "\n"), "\n")
		start := -1
		for i, l := range lines {
			if strings.HasPrefix(l, anchor) {
				start = i
				break
			}
		}
		if start < 0 || start+n > len(lines) {
			t.Fatalf("README sample of golden/%s: no %d lines from a line starting %q", file, n, anchor)
		}
		want := ""
		if start > 0 {
			want += "...\n"
		}
		want += strings.Join(lines[start:start+n], "\n") + "\n"
		if start+n < len(lines) {
			want += "...\n"
		}
		if body != want {
			t.Errorf("README.md's sample of golden/%s (from %q) is stale (go test ./internal/golden -update rewrites it):\n%s", file, anchor, Diff(body, want))
		}
		out.WriteString(readme[last:m[10]] + want + "```\n")
		last = m[1]
		_ = command
	}
	out.WriteString(readme[last:])
	if Updating() && out.String() != readme {
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
