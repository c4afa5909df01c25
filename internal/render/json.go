package render

import (
	"encoding/json"
	"io"

	"github.com/k8sexplain/k8sexplain/internal/report"
)

// renderJSON writes the document's Data (a command's documented structure)
// when it has one, else the document itself: indented, with <, > and &
// left as they are.
func renderJSON(w io.Writer, d *report.Doc, _ Options) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if d.Data != nil {
		return enc.Encode(d.Data)
	}
	return enc.Encode(d)
}
