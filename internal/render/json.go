package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/k8sexplain/k8sexplain/internal/report"
)

// renderJSON writes the document's Data (a command's documented structure)
// when it has one, else the document itself: indented, with <, > and &
// left as they are.
func renderJSON(w io.Writer, d *report.Doc, _ Options) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	var v any = d
	if d.Data != nil {
		v = d.Data
	}
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(jsonControls(b.Bytes()))
	return err
}

// jsonControls writes the control characters encoding/json leaves as they
// are (C1, bidi overrides; it escapes C0 itself) as \u escapes: the same
// JSON string, never a control sent to a terminal.
func jsonControls(b []byte) []byte {
	if !hasControl(string(b)) {
		return b
	}
	var out bytes.Buffer
	for _, r := range string(b) {
		if isControl(r) {
			fmt.Fprintf(&out, `\u%04x`, r)
			continue
		}
		out.WriteRune(r)
	}
	return out.Bytes()
}
