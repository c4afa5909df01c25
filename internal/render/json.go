package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/k8sexplain/k8sexplain/internal/report"
)

// DocSchema is the schema of a document printed without a command's own
// structure: its title and blocks (docs/json.md).
const DocSchema = "k8sexplain.doc/v1"

// renderJSON writes the document's Data (a command's documented structure)
// when it has one, else the document itself: indented, with <, > and &
// left as they are. The document's Schema comes first as "schema" (a list
// goes under "items"), so every JSON output names its structure and
// version.
func renderJSON(w io.Writer, d *report.Doc, _ Options) error {
	var v any = d
	schema := d.Schema
	if f, ok := d.Data.(func() any); ok {
		v = f()
	} else if d.Data != nil {
		v = d.Data
	} else if schema == "" {
		schema = DocSchema
	}
	var raw bytes.Buffer
	enc := json.NewEncoder(&raw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	body := bytes.TrimSpace(raw.Bytes())
	if schema != "" {
		name, _ := json.Marshal(schema)
		switch {
		case bytes.Equal(body, []byte("{}")):
			body = []byte(`{"schema":` + string(name) + `}`)
		case len(body) > 0 && body[0] == '{':
			body = append([]byte(`{"schema":`+string(name)+`,`), body[1:]...)
		default:
			body = []byte(`{"schema":` + string(name) + `,"items":` + string(body) + `}`)
		}
	}
	var out bytes.Buffer
	if err := json.Indent(&out, body, "", "  "); err != nil {
		return err
	}
	out.WriteByte('\n')
	_, err := w.Write(jsonControls(out.Bytes()))
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
