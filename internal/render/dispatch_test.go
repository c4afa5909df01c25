package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/report"
)

// Every format has a renderer, and an unknown one is refused in the words
// --format's check uses.
func TestRenderersCoverFormats(t *testing.T) {
	if strings.Join(Formats, " ") != "text markdown mermaid json html" {
		t.Fatalf("formats: %v", Formats)
	}
	d := &report.Doc{Title: "t", Sequence: &report.Sequence{}}
	for _, f := range Formats {
		var b bytes.Buffer
		if err := Render(&b, d, Options{Format: Format(f)}); err != nil || b.Len() == 0 {
			t.Errorf("%s: %v, %d bytes", f, err, b.Len())
		}
	}
	err := Render(&bytes.Buffer{}, d, Options{Format: "pdf"})
	if err == nil || err.Error() != `unknown format "pdf" (want text, markdown, mermaid, json or html)` {
		t.Errorf("unknown format: %v", err)
	}
}
