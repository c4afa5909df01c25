package manifest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	_ "github.com/k8sexplain/k8sexplain/internal/golden" // every test package takes -update
)

// realDir is ../shared/manifests/real seen from the repository root.
const realDir = "../../../shared/manifests/real"

// TestRealManifests loads every real-world manifest: each one either loads
// or fails with one specific line and exit code 1, never a panic.
func TestRealManifests(t *testing.T) {
	entries, err := os.ReadDir(realDir)
	if err != nil {
		t.Skipf("real manifests not available (%v); they live in ../shared/manifests/real next to the repository", err)
	}
	for _, e := range entries {
		if e.IsDir() || e.Name() == "SOURCES.md" {
			continue
		}
		path := filepath.Join(realDir, e.Name())
		objs, err := Load([]string{path}, nil)
		if err != nil {
			if exitcode.Code(err) != exitcode.Input {
				t.Errorf("%s: exit code %d, want %d: %v", e.Name(), exitcode.Code(err), exitcode.Input, err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: error is not one line: %q", e.Name(), err)
			}
			t.Logf("%-80s ERROR %v", e.Name(), strings.TrimPrefix(err.Error(), realDir+"/"))
			continue
		}
		var invalid []string
		for _, o := range objs {
			Default(o.Obj)
			if verr := Validate(o.Obj); verr != nil {
				invalid = append(invalid, verr.Error())
			}
		}
		t.Logf("%-80s ok %d objects; %d rejected by validation %q", e.Name(), len(objs), len(invalid), invalid)
	}
}
