package golden

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var schemaName = regexp.MustCompile(`^k8sexplain\.[a-z-]+/v[0-9]+$`)

// Every JSON output is an object whose first field, "schema", names its
// structure and version, and docs/json.md documents that schema.
func TestEveryJSONOutputNamesItsSchema(t *testing.T) {
	docs, err := os.ReadFile(filepath.Join(Root(), "docs", "json.md"))
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(Dir(), "*", "*.json"))
	if len(files) < 10 {
		t.Fatalf("found %d golden JSON files", len(files))
	}
	for _, f := range files {
		rel, _ := filepath.Rel(Dir(), f)
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var head struct {
			Schema string `json:"schema"`
		}
		if err := json.Unmarshal(b, &head); err != nil {
			t.Errorf("%s: not a JSON object: %v", rel, err)
			continue
		}
		if !schemaName.MatchString(head.Schema) || !strings.HasPrefix(strings.TrimSpace(string(b)), "{\n  \"schema\":") {
			t.Errorf("%s: first field schema = %q, want k8sexplain.NAME/vN first", rel, head.Schema)
			continue
		}
		if !strings.Contains(string(docs), "`"+head.Schema+"`") {
			t.Errorf("%s: schema %s is not documented in docs/json.md", rel, head.Schema)
		}
	}
}
