package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The shape limits of the simulator's code (issue 26 §3): a file a reader
// can hold, functions that fit on a screen and can be put beside their
// upstream counterpart, and components written straight down rather than
// as chains of callbacks. Tests are not measured.
const (
	maxFileLines  = 500
	maxFuncLines  = 80
	maxCyclomatic = 25
	maxClosures   = 2 // a closure inside a closure is the deepest allowed
)

// sizeExceptions are the places allowed over a limit, each with the
// reason, keyed "file" (file lines) or "file:Func" (function lines,
// cyclomatic complexity, closure depth; methods as Type.Method). An entry
// that no longer exceeds anything fails the test too, so the list only
// shrinks.
var sizeExceptions = map[string]string{
	// Tables: one literal of upstream's data each, no control flow.
	"internal/sim/apiserver/rbac.go:bootstrapRoles": "a literal of upstream's bootstrap ClusterRoles (plugin/pkg/auth/authorizer/rbac/bootstrappolicy), one entry per controller",

	// Catalogues: one map literal of en or ru messages each, data without
	// control flow; splitting it would only scatter the texts.
	"internal/sim/etcd/explain/catalogue_en.go:en":      "a catalogue literal",
	"internal/sim/etcd/explain/catalogue_ru.go:ru":      "a catalogue literal",
	"internal/sim/grpclb/explain/catalogue_en.go:en":    "a catalogue literal",
	"internal/sim/grpclb/explain/catalogue_ru.go:ru":    "a catalogue literal",
	"internal/sim/kubeproxy/explain/catalogue_en.go:en": "a catalogue literal",
	"internal/sim/kubeproxy/explain/catalogue_ru.go:ru": "a catalogue literal",
	"internal/sim/watchload/explain/en.go:en":           "a catalogue literal",
	"internal/sim/watchload/explain/ru.go:ru":           "a catalogue literal",

	// Not split yet (issue 26 §3): each mirrors one long upstream function
	// and needs its own golden-checked split.
	"internal/sim/scheduler/registry.go:Registry.NewProfile":      "not split yet",
	"internal/sim/scheduler/spread.go:PodTopologySpread.PreScore": "not split yet (podtopologyspread/scoring.go PreScore)",
}

// shape is one measured limit that was exceeded.
type shape struct {
	key, what string
}

// simShapes measures every non-test Go file under internal/sim.
func simShapes(t *testing.T) []shape {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	var out []shape
	fset := token.NewFileSet()
	err = filepath.WalkDir(filepath.Join(root, "internal", "sim"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if n := strings.Count(string(src), "\n"); n > maxFileLines {
			out = append(out, shape{rel, fmt.Sprintf("%d lines (limit %d)", n, maxFileLines)})
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			key := rel + ":" + funcName(fd)
			if n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; n > maxFuncLines {
				out = append(out, shape{key, fmt.Sprintf("%d lines (limit %d)", n, maxFuncLines)})
			}
			if c := cyclomatic(fd); c > maxCyclomatic {
				out = append(out, shape{key, fmt.Sprintf("cyclomatic complexity %d (limit %d)", c, maxCyclomatic)})
			}
			if depth := closureDepth(fd.Body); depth > maxClosures {
				out = append(out, shape{key, fmt.Sprintf("closures nested %d deep (limit %d)", depth, maxClosures)})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// funcName is Func, or Type.Method for a method.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	typ := fd.Recv.List[0].Type
	for {
		switch x := typ.(type) {
		case *ast.StarExpr:
			typ = x.X
			continue
		case *ast.IndexExpr:
			typ = x.X
			continue
		case *ast.IndexListExpr:
			typ = x.X
			continue
		case *ast.Ident:
			return x.Name + "." + fd.Name.Name
		}
		return fd.Name.Name
	}
}

// cyclomatic is McCabe's complexity as gocyclo counts it: 1, plus one per
// if, for, range, case and select case (not default), && and ||, the
// function's closures included.
func cyclomatic(fd *ast.FuncDecl) int {
	c := 1
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			c++
		case *ast.CaseClause:
			if x.List != nil {
				c++
			}
		case *ast.CommClause:
			if x.Comm != nil {
				c++
			}
		case *ast.BinaryExpr:
			if x.Op == token.LAND || x.Op == token.LOR {
				c++
			}
		}
		return true
	})
	return c
}

// closureDepth is how deep function literals nest in n (0: none).
func closureDepth(n ast.Node) int {
	deepest := 0
	ast.Inspect(n, func(m ast.Node) bool {
		if fl, ok := m.(*ast.FuncLit); ok {
			deepest = max(deepest, 1+closureDepth(fl.Body))
			return false
		}
		return true
	})
	return deepest
}

// TestSimShape fails on a file, function or closure under internal/sim
// past its limit that sizeExceptions does not name, and on an exception
// that is no longer needed.
func TestSimShape(t *testing.T) {
	over := map[string][]string{}
	for _, s := range simShapes(t) {
		over[s.key] = append(over[s.key], s.what)
	}
	keys := make([]string, 0, len(over))
	for k := range over {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, ok := sizeExceptions[k]; !ok {
			t.Errorf("%s: %s", k, strings.Join(over[k], "; "))
		}
	}
	for k := range sizeExceptions {
		if _, ok := over[k]; !ok {
			t.Errorf("%s: within the limits now; remove it from sizeExceptions", k)
		}
	}
}
