// Package clip keeps output bounded by input: a user-supplied value is
// printed shortened, with its length, never in full. A 7 MiB object name
// must not become 51 MB of trace or a 14 MB error line.
package clip

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

const (
	// MaxValue is the longest value printed in full. Kubernetes names are
	// at most 253 bytes (DNS subdomain), so every valid name fits.
	MaxValue = 256
	// keep is how many bytes of a long value are shown, at each end.
	keepHead = 64
	keepTail = 16
	// MaxMessage is the longest one-line message (an error) printed.
	MaxMessage = 4096
)

// String returns s when it is at most max bytes, else its start and end
// around an ellipsis with the full length: "aaaa…aaaa (7340032 bytes)".
func String(s string, max int) string {
	if len(s) <= max {
		return s
	}
	head, tail := keepHead, keepTail
	if head+tail > max {
		head, tail = max*3/4, max/4
	}
	return prefix(s, head) + "…" + suffix(s, tail) + fmt.Sprintf(" (%d bytes)", len(s))
}

// Value shortens s past MaxValue.
func Value(s string) string { return String(s, MaxValue) }

// Message shortens every double-quoted run of a message longer than
// MaxValue (Go's %q output: user values in errors), then the whole message
// past MaxMessage, so that an error about a huge value stays one short line.
func Message(msg string) string {
	if len(msg) <= MaxValue {
		return msg
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(msg, '"')
		if i < 0 {
			b.WriteString(msg)
			break
		}
		j := closingQuote(msg, i+1)
		if j < 0 {
			b.WriteString(msg)
			break
		}
		b.WriteString(msg[:i+1])
		inner := msg[i+1 : j]
		if len(inner) > MaxValue {
			inner = String(inner, MaxValue)
		}
		b.WriteString(inner)
		b.WriteByte('"')
		msg = msg[j+1:]
	}
	return String(b.String(), MaxMessage)
}

// closingQuote finds the next unescaped double quote at or after i.
func closingQuote(s string, i int) int {
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// prefix returns at most n bytes of s, cut at a rune boundary.
func prefix(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// suffix returns at most n bytes from the end of s, cut at a rune boundary.
func suffix(s string, n int) string {
	if n >= len(s) {
		return s
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}
