package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/iostreams"
)

func TestOutputIsFormatAlias(t *testing.T) {
	inRoot(t)
	a, _, c1 := run(t, "", "-o", "json", "trace", "apply", "--summary", "examples/app.yaml")
	b, _, c2 := run(t, "", "--format", "json", "trace", "apply", "--summary", "examples/app.yaml")
	if c1 != 0 || c2 != 0 || a != b || !strings.HasPrefix(a, "{") {
		t.Fatalf("-o json differs from --format json (exit %d, %d)", c1, c2)
	}
	if _, errOut, code := run(t, "", "-o", "json", "--format", "text", "version"); code != 2 || !strings.Contains(errOut, "disagree") {
		t.Errorf("-o json --format text: exit %d, %q", code, errOut)
	}
}

func TestCompletionOffersFilesNodesAndPods(t *testing.T) {
	inRoot(t)
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"trace", "apply", ""}, []string{"yaml\nyml\njson\n:8"}},
		{[]string{"trace", "apply", "-f", ""}, []string{"yaml\nyml\njson\n:8"}},
		{[]string{"dnat", "-f", ""}, []string{"yaml\nyml\njson\n:8"}},
		{[]string{"trace", "delete", ""}, []string{"pod\n:4"}},
		{[]string{"trace", "node-failure", "--node", ""}, []string{"node-a\nnode-b\nnode-c\n:4"}},
		{[]string{"trace", "node-failure", "--nodes", "5", "--node", ""}, []string{"node-e\n"}},
		{[]string{"trace", "delete", "pod", ""}, []string{"web-"}},
		{[]string{"trace", "crash", "--pod", ""}, []string{"web-"}},
	} {
		out, _, code := run(t, "", append([]string{"__complete"}, tc.args...)...)
		for _, w := range tc.want {
			if code != 0 || !strings.Contains(out, w) {
				t.Errorf("complete %v: exit %d, got %q, want %q", tc.args, code, out, w)
			}
		}
	}
	// The pod names offered are the ones the command then sees.
	out, _, _ := run(t, "", "__complete", "trace", "delete", "pod", "")
	name := strings.SplitN(out, "\n", 2)[0]
	if got, errOut, code := run(t, "", "trace", "delete", "pod", name, "--summary"); code != 0 && !strings.Contains(errOut, "unknown flag") {
		t.Errorf("trace delete pod %s: exit %d %s", name, code, errOut)
	} else if code == 0 && !strings.Contains(got, name) {
		t.Errorf("trace delete pod %s does not mention it", name)
	}
}

func TestHelpEnvironmentAndManPages(t *testing.T) {
	out, _, code := run(t, "", "help", "environment")
	for _, w := range []string{"K8SEXPLAIN_PAGER", "NO_COLOR", "XDG_CONFIG_HOME", "less -FRX"} {
		if code != 0 || !strings.Contains(out, w) {
			t.Errorf("help environment: exit %d, missing %s", code, w)
		}
	}
	dir := t.TempDir()
	if _, errOut, code := run(t, "", "man", dir); code != 0 {
		t.Fatalf("man: exit %d %s", code, errOut)
	}
	for _, page := range []string{"k8sexplain.1", "k8sexplain-trace-apply.1", "k8sexplain-dnat.1", "k8sexplain-environment.1"} {
		b, err := os.ReadFile(filepath.Join(dir, page))
		if err != nil || !strings.Contains(string(b), ".TH \"K8SEXPLAIN\" \"1\"") {
			t.Errorf("%s: %v", page, err)
		}
	}
	// Each page's NAME is its file's name; the environment topic keeps its
	// <FLAG> placeholder (a markdown converter once took it for HTML).
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		if want := ".SH NAME\n" + strings.ReplaceAll(strings.TrimSuffix(e.Name(), ".1"), "-", `\-`) + ` \- `; !strings.Contains(string(b), want) {
			t.Errorf("%s: no %q", e.Name(), want)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "k8sexplain-environment.1")); !strings.Contains(string(b), "K8SEXPLAIN_<FLAG>: ") {
		t.Error("k8sexplain-environment.1 lost K8SEXPLAIN_<FLAG>")
	}
	a, _ := os.ReadFile(filepath.Join(dir, "k8sexplain-trace-apply.1"))
	dir2 := t.TempDir()
	run(t, "", "man", dir2)
	b, _ := os.ReadFile(filepath.Join(dir2, "k8sexplain-trace-apply.1"))
	if string(a) != string(b) {
		t.Error("two man runs differ")
	}
}

// A 200-node summary stays short: per-node rows beyond a handful add up.
func TestSummaryAggregatesPerNodeRows(t *testing.T) {
	inRoot(t)
	// A summary stays a summary: its length does not grow with the
	// cluster (50 and 200 nodes print as many lines), per-node rows fold.
	for _, lang := range []string{"en", "ru"} {
		small, _, _ := run(t, "", "--lang", lang, "trace", "apply", "--nodes", "50", "--summary", "examples/app.yaml")
		out, _, code := run(t, "", "--lang", lang, "trace", "apply", "--nodes", "200", "--summary", "examples/app.yaml")
		if code != 0 || strings.Count(out, "\n") != strings.Count(small, "\n") || strings.Count(out, "\n") > 100 || !strings.Contains(out, "kubelet/* (") {
			t.Errorf("%s: exit %d, %d lines at 200 nodes, %d at 50:\n%s", lang, code, strings.Count(out, "\n"), strings.Count(small, "\n"), out)
		}
	}
	out, _, _ := run(t, "", "--lang", "ru", "trace", "apply", "--nodes", "200", "--summary", "examples/app.yaml")
	if !strings.Contains(out, "ещё 196 нод)") {
		t.Errorf("Russian plural of the rest:\n%s", out)
	}
}

// On a terminal the text wraps to its width; in a pipe it never does.
func TestWrapOnlyOnATerminal(t *testing.T) {
	inRoot(t)
	io, _, out, _ := iostreams.Test()
	io.OutTTY = true
	io.Size = func() (int, error) { return 60, nil }
	io.Getenv = func(k string) string {
		if k == "K8SEXPLAIN_PAGER" {
			return "cat"
		}
		return ""
	}
	if code := Execute(io, []string{"--color", "never", "trace", "apply", "examples/app.yaml"}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	long := 0
	for _, l := range strings.Split(out.String(), "\n") {
		// Step lines, their continuations and explanations; headings and
		// tables keep their shape.
		step := strings.HasPrefix(l, "00:") || strings.HasPrefix(l, "           ")
		// (A single word longer than the room left cannot break.)
		body := l
		if strings.HasPrefix(l, "00:") && len([]rune(l)) > 37 {
			body = string([]rune(l)[37:])
		}
		word := !strings.Contains(strings.TrimLeft(strings.TrimLeft(body, " │"), " "), " ")
		if step && !word && len([]rune(l)) > 60 {
			long++
			t.Log(l)
		}
	}
	if long > 0 {
		t.Errorf("%d step lines wider than the 60-column terminal", long)
	}
	piped, _, _ := run(t, "", "trace", "apply", "examples/app.yaml")
	if !strings.Contains(piped, "fieldManager=kubectl-client-side-apply&fieldValidation=Strict (Deployment)") {
		t.Error("piped output was wrapped")
	}
}

func TestPagerChoice(t *testing.T) {
	env := map[string]string{}
	io := &iostreams.Streams{Getenv: func(k string) string { return env[k] }}
	if p := io.PagerCommand(); p != "less -FRX" {
		t.Errorf("default pager %q", p)
	}
	env["PAGER"] = "more"
	if p := io.PagerCommand(); p != "more" {
		t.Errorf("PAGER: %q", p)
	}
	env["K8SEXPLAIN_PAGER"] = "most"
	if p := io.PagerCommand(); p != "most" {
		t.Errorf("K8SEXPLAIN_PAGER: %q", p)
	}
	// Not a terminal: never paged, Out stays the buffer.
	io2, _, out, _ := iostreams.Test()
	io2.StartPager()
	if io2.Out != out {
		t.Error("paged a pipe")
	}
}

func TestProgressLine(t *testing.T) {
	en := progressLine("en", 12345*time.Millisecond, 812, 3000, 2*time.Second)
	ru := progressLine("ru", 12345*time.Millisecond, 1, 21, 2*time.Second)
	if en != "simulating: 00:12.345 virtual, 812 of 3,000 pods Running, about 5s left" {
		t.Errorf("en: %q", en)
	}
	if !strings.HasPrefix(ru, "симуляция: 00:12.345 виртуального времени, Running 1 из 21 пода, осталось около 40 с") {
		t.Errorf("ru: %q", ru)
	}
	// Not a terminal: no progress at all.
	io, _, _, _ := iostreams.Test()
	if p, _ := progress(io, "en"); p != nil {
		t.Error("progress on a non-terminal stderr")
	}
}

// On an 80-column terminal no line of trace apply is wider than 80, the
// score tables included (printed on their side), in both languages, so the
// terminal never breaks a word; a long word alone on its line is the only
// exception (a path).
func TestTraceFitsEightyColumns(t *testing.T) {
	inRoot(t)
	for _, lang := range []string{"en", "ru"} {
		io, _, out, _ := iostreams.Test()
		io.OutTTY = true
		io.Size = func() (int, error) { return 80, nil }
		io.Getenv = func(k string) string {
			if k == "K8SEXPLAIN_PAGER" {
				return "cat"
			}
			return ""
		}
		if code := Execute(io, []string{"--color", "never", "--lang", lang, "trace", "apply", "examples/app.yaml"}); code != 0 {
			t.Fatalf("exit %d", code)
		}
		scores := 0
		for _, l := range strings.Split(out.String(), "\n") {
			if strings.HasPrefix(l, "TaintToleration ×3") {
				scores++
			}
			if n := len([]rune(l)); n > 80 && strings.Contains(strings.TrimSpace(l[strings.LastIndex(l, "  ")+1:]), " ") {
				t.Errorf("%s: a line of %d columns: %q", lang, n, l)
			}
		}
		if scores != 3 {
			t.Errorf("%s: %d score tables printed on their side, want 3:\n%s", lang, scores, out.String())
		}
	}
}

// `quiz stats` on a terminal (issue 22): a screen that fits is printed
// without the pager, a terminal too short for it gets the pager.
func TestQuizStatsPagedOnlyWhenTaller(t *testing.T) {
	quizTest(t)
	pager := filepath.Join(t.TempDir(), "pager")
	if err := os.WriteFile(pager, []byte("#!/bin/sh\nsed 's/^/PAGED: /'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		rows  int
		paged bool
	}{{200, false}, {5, true}} {
		io, _, out, errOut := iostreams.Test()
		io.OutTTY = true
		io.Rows = func() (int, error) { return tc.rows, nil }
		io.Getenv = func(k string) string {
			if k == "K8SEXPLAIN_PAGER" {
				return pager
			}
			return os.Getenv(k)
		}
		if code := Execute(io, []string{"--color", "never", "quiz", "stats"}); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if got := strings.HasPrefix(out.String(), "PAGED: "); got != tc.paged || !strings.Contains(out.String(), "Quiz progress") {
			t.Errorf("%d rows: paged %v, want %v:\n%s", tc.rows, got, tc.paged, out)
		}
	}
}
