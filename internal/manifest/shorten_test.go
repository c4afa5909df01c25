package manifest

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestShortenCutsOnRuneBoundaries(t *testing.T) {
	for _, tt := range []struct {
		name string
		in   string
		n    int
		want string
	}{
		{"short enough", "web", 40, "web"},
		{"ascii", "abcdefghij", 4, "abcd..."},
		// "привет" is 12 bytes, 2 per letter: 5 bytes end inside "и".
		{"cyrillic mid-rune", "привет", 5, "пр..."},
		{"cyrillic on a boundary", "привет", 6, "при..."},
		{"emoji", "a🙂b", 3, "a..."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := shorten(tt.in, tt.n)
			if got != tt.want || !utf8.ValidString(got) {
				t.Errorf("shorten(%q, %d) = %q, want %q (valid UTF-8)", tt.in, tt.n, got, tt.want)
			}
		})
	}
}

// A Russian scalar where an object belongs is quoted in the error whole
// letters only: no \xd0 from a half-cut rune.
func TestParseErrorQuotesCyrillicWhole(t *testing.T) {
	_, err := Parse("app.yaml", []byte(strings.Repeat("привет ", 10)+"\n"))
	if err == nil {
		t.Fatal("a scalar document: want an error")
	}
	if msg := err.Error(); strings.Contains(msg, `\x`) || !strings.Contains(msg, "привет") {
		t.Errorf("error %q: want the value quoted in whole letters", msg)
	}
}
