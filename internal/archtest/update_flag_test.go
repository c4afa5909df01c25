package archtest

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	_ "github.com/k8sexplain/k8sexplain/internal/golden" // defines -update here too
)

// Every test package imports internal/golden (a blank import is enough) or
// defines -update itself:
// `go test ./... -update`, as README tells, hands -update to every test
// binary, and one that does not define it fails the whole command.
func TestEveryTestPackageDefinesUpdate(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	hasTests, imports := map[string]bool{}, map[string]bool{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "golden") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && path != root {
				return filepath.SkipDir // the oracle's own module
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		dir := filepath.Dir(path)
		hasTests[dir] = true
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.Contains(string(src), `flag.Bool("update"`) {
			imports[dir] = true // defines its own (internal/oracle: docs/FIDELITY.md)
		}
		f, err := parser.ParseFile(fset, path, src, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, im := range f.Imports {
			if p, _ := strconv.Unquote(im.Path.Value); p == module+"internal/golden" {
				imports[dir] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for dir := range hasTests {
		if !imports[dir] && !strings.HasSuffix(filepath.ToSlash(dir), "internal/golden") {
			rel, _ := filepath.Rel(root, dir)
			t.Errorf("%s: no test file imports internal/golden, so `go test ./... -update` fails there (add a blank import)", rel)
		}
	}
}
