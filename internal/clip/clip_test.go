package clip

import (
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	if got := Value("web"); got != "web" {
		t.Errorf("short values stay: %q", got)
	}
	long := strings.Repeat("я", 1000) // 2000 bytes, two per rune
	got := Value(long)
	if len(got) > 120 || !strings.HasSuffix(got, "(2000 bytes)") || !strings.Contains(got, "…") {
		t.Errorf("long value: %q", got)
	}
	if !strings.HasPrefix(got, "яяя") || strings.ContainsRune(got, '\uFFFD') {
		t.Errorf("cut inside a rune: %q", got)
	}
}

func TestMessage(t *testing.T) {
	name := strings.Repeat("a", 7<<20)
	msg := `Role "` + name + `" is invalid: metadata.name: Invalid value: "` + name + `": must be no more than 253 characters`
	got := Message(msg)
	if len(got) > 400 || strings.Count(got, "(7340032 bytes)") != 2 || !strings.HasSuffix(got, "must be no more than 253 characters") {
		t.Errorf("message: %d bytes: %q", len(got), got)
	}
	if m := `a "short" one`; Message(m) != m {
		t.Errorf("short messages stay")
	}
	esc := `value "` + strings.Repeat(`\"x`, 200) + `" end`
	if got := Message(esc); !strings.HasSuffix(got, `" end`) {
		t.Errorf("escaped quotes: %q", got)
	}
	if got := Message(strings.Repeat("b", 1<<20)); len(got) > MaxMessage {
		t.Errorf("unquoted long message not cut: %d bytes", len(got))
	}
}
