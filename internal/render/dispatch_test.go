package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/report"
)

// Every format of the registry (renderers) has a renderer that writes
// something, and an unknown one is refused naming them all, in the words
// --format's check uses.
func TestRenderersCoverFormats(t *testing.T) {
	if len(Formats) != len(renderers) || Formats[0] != string(Text) {
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
	want := `unknown format "pdf" (want ` + strings.Join(Formats[:len(Formats)-1], ", ") + " or " + Formats[len(Formats)-1] + ")"
	if err == nil || err.Error() != want {
		t.Errorf("unknown format: %v", err)
	}
}
