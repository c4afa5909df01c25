package quiz

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// The catalogue is sound (the Russian keeps the English placeholders and
// gives CLDR's plural forms), and every literal key the code looks up has
// a Russian text: a missing one would print English under --lang ru.
func TestMessagesComplete(t *testing.T) {
	for _, err := range texts.Check() {
		t.Error(err)
	}
	lookup := regexp.MustCompile(`\b(?:msg|msgf|Msg|Msgf)\([^,()]+(?:\([^()]*\))?[^,()]*, ("(?:[^"\\]|\\.)*")\s*[,)]`)
	files, _ := filepath.Glob("*.go")
	cmd, _ := filepath.Glob(filepath.Join("..", "..", "cmd", "*.go"))
	n := 0
	for _, f := range append(files, cmd...) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range lookup.FindAllStringSubmatch(string(src), -1) {
			key, err := strconv.Unquote(m[1])
			if err != nil {
				t.Fatalf("%s: %s: %v", f, m[1], err)
			}
			n++
			if !texts.Has("ru", key) {
				t.Errorf("%s: %q has no Russian text", f, key)
			}
		}
	}
	if n < 40 {
		t.Fatalf("found only %d looked-up keys; the pattern no longer matches the code", n)
	}
}
