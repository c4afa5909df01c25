package cmd

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// errorSources are the packages whose exitcode.…f messages a command
// prints as they are.
var errorSources = []string{".", "../internal/manifest", "../internal/render", "../internal/live"}

// errorFormats returns every format passed to exitcode's Inputf, Usagef,
// Timeoutf and Environmentf in the packages, with where it is.
func errorFormats(t *testing.T) map[string]string {
	t.Helper()
	formats := map[string]string{}
	fset := token.NewFileSet()
	for _, dir := range errorSources {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) == 0 {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok || !strings.HasSuffix(sel.Sel.Name, "f") {
					return true
				}
				if id, ok := sel.X.(*ast.Ident); !ok || id.Name != "exitcode" {
					return true
				}
				lit, ok := call.Args[0].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					t.Errorf("%s: exitcode.%s with a format that is not a literal: the Russian catalogue cannot key it", fset.Position(call.Pos()), sel.Sel.Name)
					return true
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				formats[s] = fset.Position(call.Pos()).String()
				return true
			})
		}
	}
	return formats
}

// Every message a command makes itself has its Russian in errorFormatRU
// with the same verbs in the same order, and every entry is still used: a
// new English-only error fails here.
func TestEveryErrorFormatHasRussian(t *testing.T) {
	formats := errorFormats(t)
	if len(formats) < 100 {
		t.Fatalf("found only %d formats: is the scan still finding the calls?", len(formats))
	}
	for en, where := range formats {
		ru, ok := errorFormatRU[en]
		if !ok {
			if hasProse(en) {
				t.Errorf("%s: %q has no Russian in errorFormatRU", where, en)
			}
			continue
		}
		want := formatVerb.FindAllString(strings.ReplaceAll(en, "%w", "%v"), -1)
		if got := formatVerb.FindAllString(ru, -1); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: %q: Russian verbs %v, English %v", where, ru, got, want)
		}
	}
	for en := range errorFormatRU {
		if _, ok := formats[en]; !ok {
			t.Errorf("errorFormatRU[%q]: no command makes this message any more", en)
		}
	}
}

// Under --lang ru, a command's own errors are Russian: the format's entry,
// its error arguments too; upstream words inside stay as they are.
func TestRussianCommandErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"quiz", "--difficulty", "guru"}, `недопустимое значение --difficulty "guru": нужно middle, senior или staff`},
		{[]string{"task", "start", "nope"}, `неизвестное задание "nope"; см. k8sexplain task list`},
		{[]string{"trace", "crash", "--reason", "x"}, `недопустимое значение --reason "x": нужно panic, oom, liveness или readiness`},
		{[]string{"dnat", "--session-affinity-timeout", "0", "--session-affinity", "ClientIP"}, `недопустимое значение --session-affinity-timeout 0: spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 0: must be greater than 0 and less than 86400`},
	} {
		_, errOut, code := run(t, "", append([]string{"--lang", "ru"}, c.args...)...)
		if code == 0 || strings.TrimSpace(errOut) != "k8sexplain: "+c.want {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, errOut, c.want)
		}
	}
}
