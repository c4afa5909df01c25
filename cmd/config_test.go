package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/iostreams"
)

// Settings resolve as flag > K8SEXPLAIN_* environment > config file > default.
func TestConfigPrecedence(t *testing.T) {
	inRoot(t)
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(cfg, []byte("format: markdown\nlang: ru\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"--config", cfg, "trace", "apply", "--summary", "examples/app.yaml"}
	out, _, code := run(t, "", args...)
	if code != 0 || !strings.HasPrefix(out, "# Что происходит") {
		t.Fatalf("config file: want Russian Markdown, got %q", first(strings.Split(out, "\n")))
	}
	setEnv(t, "K8SEXPLAIN_FORMAT", "json")
	out, _, _ = run(t, "", args...)
	if !strings.HasPrefix(out, "{") || !strings.Contains(out, `"lang": "ru"`) {
		t.Fatalf("env over config: want Russian JSON, got %q", first(strings.Split(out, "\n")))
	}
	out, _, _ = run(t, "", append([]string{"--format", "text"}, args...)...)
	if !strings.HasPrefix(out, "Что происходит") {
		t.Fatalf("flag over env: want text, got %q", first(strings.Split(out, "\n")))
	}
	_, errOut, code := run(t, "", "--config", filepath.Join(t.TempDir(), "missing.yaml"), "version")
	if code != 1 || !strings.Contains(errOut, "missing.yaml") {
		t.Fatalf("missing --config file: exit %d, %q", code, errOut)
	}
}

func TestColorPolicy(t *testing.T) {
	inRoot(t)
	colour := func(tty bool, env map[string]string, args ...string) bool {
		io, _, out, _ := iostreams.Test()
		io.OutTTY = tty
		io.Getenv = func(k string) string { return env[k] }
		if code := Execute(io, append(args, "trace", "apply", "--summary", "examples/app.yaml")); code != 0 {
			t.Fatalf("exit %d", code)
		}
		return strings.Contains(out.String(), "\x1b[")
	}
	if colour(false, nil) {
		t.Error("auto: no colour when stdout is not a terminal")
	}
	if !colour(true, nil) {
		t.Error("auto: colour on a terminal")
	}
	if colour(true, map[string]string{"NO_COLOR": "1"}) {
		t.Error("NO_COLOR must disable colour")
	}
	if !colour(true, map[string]string{"NO_COLOR": "1"}, "--color", "always") {
		t.Error("an explicit --color always must win over NO_COLOR")
	}
	if colour(true, nil, "--no-color") {
		t.Error("--no-color must disable colour")
	}
	if !colour(false, nil, "--color", "always") || colour(true, nil, "--color", "never") {
		t.Error("--color always/never must be obeyed")
	}
	if colour(true, nil, "--format", "markdown") {
		t.Error("no colour outside text output")
	}
}

// --reset and --yes delete all quiz progress: never read from a config file
// or the environment (issue 29: `reset: true` in the config, or
// K8SEXPLAIN_RESET, made every `quiz stats` delete everything).
func TestDestructiveFlagsOnlyFromCommandLine(t *testing.T) {
	inRoot(t)
	dir := t.TempDir()
	log := filepath.Join(dir, "reviews.jsonl")
	if err := os.WriteFile(log, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	setEnv(t, "K8SEXPLAIN_QUIZ_STATE_DIR", dir)
	for _, src := range []string{"reset: true\nyes: true\n", "yes: true\n"} {
		cfg := filepath.Join(t.TempDir(), "config.yaml")
		if err := os.WriteFile(cfg, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		_, errOut, code := run(t, "", "--config", cfg, "quiz", "stats")
		if code != 2 || !strings.Contains(errOut, "is read from the command line only") {
			t.Errorf("config %q: exit %d, %q", src, code, errOut)
		}
	}
	for _, env := range []string{"K8SEXPLAIN_RESET", "K8SEXPLAIN_YES"} {
		setEnv(t, env, "true")
		_, errOut, code := run(t, "", "quiz", "stats")
		if code != 2 || !strings.Contains(errOut, env+": --") {
			t.Errorf("%s: exit %d, %q", env, code, errOut)
		}
		setEnv(t, env, "")
	}
	if _, err := os.Stat(log); err != nil {
		t.Fatalf("the review log is gone: %v", err)
	}
}

// A second YAML document, or a list where one value goes, is refused with
// where it is, not silently ignored (issue 29).
func TestConfigOneDocumentSingleValues(t *testing.T) {
	inRoot(t)
	for _, tc := range []struct {
		args                []string
		file, content, want string
		code                int
	}{
		{[]string{"version"}, "config.yaml", "lang: ru\n---\nformat: json\n", "line 3: a second YAML document", 1},
		{[]string{"quiz", "stats"}, "config.yaml", "quiz:\n  state-dir: [1, 2]\n", "quiz.state-dir: want a single value", 2},
	} {
		p := filepath.Join(t.TempDir(), tc.file)
		os.WriteFile(p, []byte(tc.content), 0o600)
		_, errOut, code := run(t, "", append([]string{"--config", p}, tc.args...)...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, %q", tc.content, code, errOut)
		}
	}
	ans := filepath.Join(t.TempDir(), "answers.yaml")
	os.WriteFile(ans, []byte("- id: a\n  answer: b\n---\n- id: c\n  answer: d\n"), 0o600)
	setEnv(t, "K8SEXPLAIN_QUIZ_STATE_DIR", t.TempDir())
	if _, errOut, code := run(t, "", "quiz", "--answers", ans); code != 1 || !strings.Contains(errOut, "answers.yaml: line 4: a second YAML document") {
		t.Errorf("answers with two documents: exit %d, %q", code, errOut)
	}
}
