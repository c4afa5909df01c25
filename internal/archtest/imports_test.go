package archtest

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/k8sexplain/k8sexplain/"

// pkgImports maps each package of the module (its path under the module,
// "internal/sim/kubelet") to the files of its code, not its tests, and the
// module packages each file imports.
func pkgImports(t *testing.T) map[string]map[string][]string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root: %v", err)
	}
	out := map[string]map[string][]string{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "golden") {
				return filepath.SkipDir
			}
			if path != root {
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir // another module (the oracle's recorder)
				}
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		if out[pkg] == nil {
			out[pkg] = map[string][]string{}
		}
		file := filepath.ToSlash(filepath.Join(rel, name))
		out[pkg][file] = []string{}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if rest, ok := strings.CutPrefix(p, module); ok {
				out[pkg][file] = append(out[pkg][file], rest)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func under(pkg, dir string) bool { return pkg == dir || strings.HasPrefix(pkg, dir+"/") }

func isExplain(pkg string) bool { return pkg == "explain" || strings.HasSuffix(pkg, "/explain") }

// The rules, each with its reason. A rule names the packages it covers
// and the imports they must not have.
var rules = []struct {
	why    string
	covers func(pkg string) bool
	banned func(imp string) bool
}{
	{
		why:    "a model computes: under internal/sim only explain packages build documents (report) or use a renderer",
		covers: func(p string) bool { return under(p, "internal/sim") && !isExplain(p) },
		banned: func(i string) bool { return i == "internal/report" || under(i, "internal/render") || isExplain(i) },
	},
	{
		why:    "the other commands' models stand beside the cluster, not on it: the nodes they share come from sim/nodeset",
		covers: func(p string) bool { return under(p, "internal/sim/watchload") },
		banned: func(i string) bool { return i == "internal/sim" },
	},
	{
		why:    "internal/trace is the step model: no document, no renderer, no simulator",
		covers: func(p string) bool { return p == "internal/trace" },
		banned: func(i string) bool {
			return i == "internal/report" || under(i, "internal/render") || isExplain(i) || under(i, "internal/sim")
		},
	},
	{
		why:    "the explanation of a trace reads steps, not the simulator",
		covers: func(p string) bool { return under(p, "internal/trace") },
		banned: func(i string) bool { return under(i, "internal/sim") },
	},
	{
		why:    "internal/report is the document model: it renders nothing",
		covers: func(p string) bool { return p == "internal/report" },
		banned: func(i string) bool { return under(i, "internal/render") },
	},
	{
		why:    "a renderer knows documents only, no model and no explanation",
		covers: func(p string) bool { return under(p, "internal/render") },
		banned: func(i string) bool {
			return under(i, "internal/sim") || under(i, "internal/trace") || isExplain(i) || i == "internal/quiz"
		},
	},
	{
		why:    "manifests are loaded without the simulator",
		covers: func(p string) bool { return p == "internal/manifest" },
		banned: func(i string) bool { return under(i, "internal/sim") },
	},
	{
		why:    "cmd wires flags to models; the engine, API server and controllers are the cluster's own",
		covers: func(p string) bool { return under(p, "cmd") },
		banned: func(i string) bool {
			return i == "internal/sim/engine" || i == "internal/sim/apiserver" || i == "internal/sim/controller"
		},
	},
}

func TestImportRules(t *testing.T) {
	pkgs := pkgImports(t)
	for _, want := range []string{"internal/sim", "internal/trace", "internal/report", "internal/render", "cmd"} {
		if pkgs[want] == nil {
			t.Fatalf("package %s not found: the walk is broken", want)
		}
	}
	for _, r := range rules {
		for pkg, files := range pkgs {
			if !r.covers(pkg) {
				continue
			}
			for file, imps := range files {
				for _, imp := range imps {
					if r.banned(imp) {
						t.Errorf("%s imports %s: %s", file, imp, r.why)
					}
				}
			}
		}
	}
}

// No package is named util or common: a name says what a package does.
func TestNoGrabBagPackages(t *testing.T) {
	for pkg := range pkgImports(t) {
		if base := filepath.Base(pkg); slices.Contains([]string{"util", "utils", "common", "helpers"}, base) {
			t.Errorf("package %s: name it for what it does", pkg)
		}
	}
}
