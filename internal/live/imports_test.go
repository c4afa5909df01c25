package live

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Every command pays for the package inits of what the binary links, so
// client-go stays in this package and the command that calls it, and the
// typed clientset (whose scheme registers every API group at init) stays
// out entirely.
func TestClientGoStaysHere(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root {
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil || strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if !strings.HasPrefix(p, "k8s.io/client-go") {
				continue
			}
			if !strings.HasPrefix(rel, "internal/live/") {
				t.Errorf("%s imports %s: only internal/live talks to a cluster", rel, p)
			}
			if p == "k8s.io/client-go/kubernetes" || strings.HasPrefix(p, "k8s.io/client-go/kubernetes/") || strings.HasPrefix(p, "k8s.io/client-go/informers") {
				t.Errorf("%s imports %s: the typed clientset registers every API group at init; use the dynamic client", rel, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
