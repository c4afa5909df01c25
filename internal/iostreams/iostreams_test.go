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
