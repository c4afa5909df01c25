package cmd

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/golden"
	"github.com/k8sexplain/k8sexplain/internal/quiz"
	"github.com/k8sexplain/k8sexplain/questions"
)

// quizTest points the quiz at the fixed test bank, a fresh state directory
// and a fixed clock; it returns the state directory.
func quizTest(t *testing.T) string {
	t.Helper()
	quizBank = os.DirFS(filepath.Join("..", "internal", "quiz", "testdata"))
	t.Cleanup(func() { quizBank = questions.FS })
	dir := t.TempDir()
	setEnv(t, "K8SEXPLAIN_QUIZ_STATE_DIR", dir)
	setEnv(t, "K8SEXPLAIN_NOW", "2026-03-02T09:00:00Z")
	return dir
}

func TestQuizListGolden(t *testing.T) {
	quizTest(t)
	runGolden(t, "quiz/list.txt", "quiz", "list")
	runGolden(t, "quiz/list-etcd-choices-ru.md", "quiz", "list", "--topic", "etcd,shutdown", "--choices", "--lang", "ru", "--format", "markdown")
	runGolden(t, "quiz/list-senior.json", "quiz", "list", "--difficulty", "senior", "--format", "json")
}

func TestQuizAnswersGolden(t *testing.T) {
	for _, tc := range []struct{ name, lang, format string }{
		{"quiz/answers.txt", "en", "text"}, {"quiz/answers.md", "en", "markdown"},
		{"quiz/answers.json", "en", "json"}, {"quiz/answers-ru.txt", "ru", "text"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := quizTest(t)
			runGolden(t, tc.name, "quiz", "--answers", "testdata/quiz/answers.yaml", "--lang", tc.lang, "--format", tc.format)
			st, err := (&quiz.Store{Dir: dir}).Load()
			if err != nil || st.Applied != 0 {
				t.Errorf("--answers without --record touched the progress: %+v %v", st, err)
			}
		})
	}
}

// §3: --answers leaves the learner's progress alone unless --record.
func TestQuizAnswersRecord(t *testing.T) {
	dir := quizTest(t)
	if _, errOut, code := run(t, "", "quiz", "--answers", "testdata/quiz/answers.yaml", "--record"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	st, err := (&quiz.Store{Dir: dir}).Load()
	if err != nil || st.Applied != 7 {
		t.Errorf("--record did not save the sheet: %+v %v", st, err)
	}
	if _, errOut, code := run(t, "", "quiz", "--record"); code != 1 || !strings.Contains(errOut, "--record only applies to --answers") {
		t.Errorf("--record without --answers: exit %d %q", code, errOut)
	}
}

// §3 drills and exam flags from the command line.
func TestQuizDrillFlags(t *testing.T) {
	quizTest(t)
	if out, _, _ := run(t, "", "quiz", "--mistakes"); !strings.Contains(out, "Nothing to ask") {
		t.Errorf("--mistakes with no mistakes: %s", out)
	}
	out, errOut, code := run(t, "3\n", "quiz", "--id", "t-num-quorum,t-text-quorum", "--seed", "1")
	if code != 0 || !strings.Contains(out, "Question 1 of 2 · etcd · middle\nHow many members form a quorum") {
		t.Errorf("--id: exit %d %s\n%s", code, errOut, out)
	}
	out, _, _ = run(t, "", "quiz", "--type", "text", "--count", "0", "--new")
	if strings.Count(out, "Answer: free text on one line here (several lines in an answers file or on a terminal)") != 1 {
		t.Errorf("--type text: %s", out)
	}
	out, errOut, code = run(t, "3\n", "quiz", "--exam", "--time-limit", "30m", "--count", "1", "--type", "numeric", "--lang", "ru")
	if code != 0 || !strings.Contains(out, "⏱ осталось 30 мин") || !strings.Contains(out, "Планка senior") {
		t.Errorf("timed exam: exit %d %s\n%s", code, errOut, out)
	}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"quiz", "--id", "nope"}, `unknown --id "nope"`},
		{[]string{"quiz", "--type", "essay"}, `unknown --type "essay"`},
		{[]string{"quiz", "--time-limit", "-5m"}, "invalid --time-limit"},
	} {
		if _, errOut, code := run(t, "", tc.args...); code != 1 || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d %q", tc.args, code, errOut)
		}
	}
}

// §3: without --seed a fresh learner's first session depends on the clock.
func TestQuizFirstSessionVaries(t *testing.T) {
	first := func(now string) string {
		quizTest(t) // a fresh learner each time
		setEnv(t, "K8SEXPLAIN_NOW", now)
		out, _, _ := run(t, "\n\n\n", "quiz", "--count", "3", "--exam")
		return out[strings.Index(out, "#  Question"):]
	}
	a, b := first("2026-03-02T09:00:00Z"), first("2026-03-02T09:00:01Z")
	if a == b {
		t.Errorf("two clocks, one first session:\n%s", a)
	}
	if c := first("2026-03-02T09:00:00Z"); c != a {
		t.Errorf("the same clock must give the same session:\n%s\n%s", a, c)
	}
}

func TestQuizStatsGolden(t *testing.T) {
	dir := quizTest(t)
	log, err := os.ReadFile("testdata/quiz/reviews.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, quiz.LogFile), log, 0o600)
	runGolden(t, "quiz/stats.txt", "quiz", "stats")
	runGolden(t, "quiz/stats.json", "quiz", "stats", "--format", "json")
	runGolden(t, "quiz/stats-ru.txt", "quiz", "stats", "--lang", "ru")
}

// The non-terminal mode reads one answer per line and ends cleanly at EOF.
func TestQuizLineMode(t *testing.T) {
	dir := quizTest(t)
	out, errOut, code := run(t, "2\n", "quiz", "--topic", "control-plane,etcd", "--count", "3", "--difficulty", "middle")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Question 1 of 2", "Question 2 of 2", "Score ", "1 of 2 questions"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	st, _ := (&quiz.Store{Dir: dir}).Load()
	if st.Applied != 1 {
		t.Errorf("want 1 saved answer, got %d", st.Applied)
	}
	// nothing is due yet: review says when something will be
	if out, _, code := run(t, "", "quiz", "review"); code != 0 || !strings.Contains(out, "Next review due: 2026-") {
		t.Errorf("review with no due questions: exit %d, %q", code, out)
	}
	// with nothing on stdin the session ends at once
	if _, _, code := run(t, "", "quiz", "--count", "3"); code != 0 {
		t.Errorf("empty stdin: exit %d", code)
	}
	// --format json keeps stdout for the report
	out, errOut, code = run(t, "1\n2\n", "quiz", "--count", "2", "--format", "json", "--exam")
	if code != 0 || !strings.HasPrefix(out, "{") || !strings.Contains(errOut, "Question 2 of 2") {
		t.Errorf("json mode: exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
}

func TestQuizErrors(t *testing.T) {
	dir := quizTest(t)
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"quiz", "--topic", "nope"}, `unknown --topic "nope"`},
		{[]string{"quiz", "--difficulty", "easy"}, `invalid --difficulty "easy"`},
		{[]string{"quiz", "--count", "-1"}, "invalid --count -1"},
		{[]string{"quiz", "--format", "mermaid"}, "the quiz draws no diagram"},
		{[]string{"quiz", "--answers", "testdata/quiz/missing.yaml"}, "--answers: open"},
		{[]string{"quiz", "--answers", "testdata/quiz/reviews.jsonl"}, "reviews.jsonl"},
		{[]string{"quiz", "stats", "--reset"}, "not confirmed"},
	} {
		_, errOut, code := run(t, "", tc.args...)
		if code != 1 || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q (want 1 and %q)", tc.args, code, errOut, tc.msg)
		}
	}
	setEnv(t, "K8SEXPLAIN_QUIZ_STATE_DIR", "")
	if _, errOut, code := run(t, "", "quiz"); code != 1 || !strings.Contains(errOut, "no place to keep quiz progress") {
		t.Errorf("no HOME: exit %d, %q", code, errOut)
	}
	if _, errOut, code := run(t, "", "quiz", "list"); code != 0 {
		t.Errorf("list needs no state directory: exit %d, %q", code, errOut)
	}
	setEnv(t, "K8SEXPLAIN_QUIZ_STATE_DIR", dir)
	bad := filepath.Join(t.TempDir(), "a.yaml")
	os.WriteFile(bad, []byte("- id: t-num-quorum\n  answer: 3\n- id: no-such\n  answer: 1\n"), 0o600)
	if _, errOut, code := run(t, "", "quiz", "--answers", bad); code != 1 || !strings.Contains(errOut, `a.yaml:3: no question with id "no-such"`) {
		t.Errorf("unknown id: %d %q", code, errOut)
	}
	os.WriteFile(filepath.Join(dir, quiz.StateFile), []byte("{garbage"), 0o600)
	_, errOut, code := run(t, "", "quiz", "stats")
	if code != 0 || !strings.Contains(errOut, "warning: ") || !strings.Contains(errOut, "corrupt") {
		t.Errorf("corrupt state: exit %d, stderr %q", code, errOut)
	}
	if _, _, code := run(t, "y\n", "quiz", "stats", "--reset"); code != 0 {
		t.Errorf("reset confirmed: exit %d", code)
	}
	if _, err := os.Stat(filepath.Join(dir, quiz.StateFile)); !os.IsNotExist(err) {
		t.Errorf("state survived reset: %v", err)
	}
}

// Every `see:` line of the real bank parses with the real command tree when
// its command exists (commands still being written are checked by name in
// the bank lint test).
func TestQuizSeeLinesParse(t *testing.T) {
	b, err := quiz.Load(questions.FS)
	if err != nil {
		t.Fatal(err)
	}
	skipped := 0
	defer func() { t.Logf("%d see: lines name commands not registered yet", skipped) }()
	for _, q := range b.Questions {
		args, err := quiz.SplitCommandLine(q.See.Run)
		if err != nil {
			t.Errorf("%s: %v", q.ID, err)
			continue
		}
		root := NewRoot(&Factory{Config: newConfig()})
		c, rest, err := root.Find(args[1:])
		if err != nil || c == root || c.HasSubCommands() {
			skipped++ // the command (or its subcommand) is not registered yet
			continue
		}
		if err := c.ParseFlags(rest); err != nil {
			t.Errorf("%s: see %q: %v", q.ID, q.See.Run, err)
		}
	}
}

// Golden transcripts of the non-terminal mode: the questions as printed,
// the echoed answers, the feedback and the report (exam: only the report).
func TestQuizLineModeGolden(t *testing.T) {
	for _, tc := range []struct {
		name, stdin string
		args        []string
	}{
		{"quiz/session-lines.txt", "2\n1 3\n2\nthree nodes\nнужно большинство, потому что без кворума запись не коммитится\n",
			[]string{"quiz", "--topic", "etcd,control-plane,pods", "--count", "4", "--seed", "3"}},
		{"quiz/exam-lines-ru.txt", "1\n2 1 3 4\n30 секунд\n",
			[]string{"quiz", "--exam", "--topic", "shutdown", "--lang", "ru"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			quizTest(t)
			out, errOut, code := run(t, tc.stdin, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			golden.Assert(t, tc.name, []byte(out))
		})
	}
}

// §3: every `see:` line of the bank runs, from a directory that is not a
// checkout (no examples/ next to it), and exits 0.
func TestQuizSeeLinesRun(t *testing.T) {
	b, err := quiz.Load(questions.FS)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	t.Setenv("K8SEXPLAIN_QUIZ_STATE_DIR", t.TempDir())
	done := map[string]bool{}
	for _, q := range b.Questions {
		if done[q.See.Run] {
			continue
		}
		done[q.See.Run] = true
		args, err := quiz.SplitCommandLine(q.See.Run)
		if err != nil {
			t.Errorf("%s: %v", q.ID, err)
			continue
		}
		if _, errOut, code := run(t, "", args[1:]...); code != q.See.Exit {
			t.Errorf("%s: %q exits %d, want %d: %s", q.ID, q.See.Run, code, q.See.Exit, errOut)
		}
	}
	t.Logf("%d distinct see: commands ran", len(done))
	if _, _, code := run(t, "", "trace", "apply", "examples/no-such.yaml"); code != 1 {
		t.Errorf("an example that is not bundled must still fail: exit %d", code)
	}
}

// §3: what a `see.look` quotes is really there. Text in backticks in
// either language must occur in the output of that question's `see.run`
// in that language (from an empty directory), as the learner sees it. Whitespace and the timeline's "│"
// gutter are collapsed, so wrapping cannot make it flaky.
func TestQuizSeeLookQuotesOutput(t *testing.T) {
	b, err := quiz.Load(questions.FS)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	t.Setenv("K8SEXPLAIN_QUIZ_STATE_DIR", t.TempDir())
	flat := func(s string) string {
		return strings.Join(strings.Fields(strings.ReplaceAll(s, "│", " ")), " ")
	}
	outputs := map[string]string{}
	output := func(line, lang string, exit int) string {
		key := lang + "\x00" + line
		if out, ok := outputs[key]; ok {
			return out
		}
		args, err := quiz.SplitCommandLine(line)
		if err != nil {
			t.Fatal(err)
		}
		out, errOut, code := run(t, "", append(args[1:], "--lang", lang, "--color", "never")...)
		if code != exit {
			t.Fatalf("%q exits %d, want %d: %s", line, code, exit, errOut)
		}
		outputs[key] = flat(out)
		return outputs[key]
	}
	quoted := regexp.MustCompile("`([^`]+)`")
	quotes := 0
	for _, q := range b.Questions {
		for _, lang := range []string{"en", "ru"} {
			for _, m := range quoted.FindAllStringSubmatch(q.See.Look.In(lang), -1) {
				quotes++
				want := flat(m[1])
				if strings.Contains(output(q.See.Run, lang, q.See.Exit), want) {
					continue
				}
				t.Errorf("%s (%s): look quotes `%s`, which %q does not print", q.ID, lang, m[1], q.See.Run)
			}
		}
		if !strings.Contains(q.See.Look.En, "`") {
			t.Errorf("%s: see.look quotes nothing from the output (put what to look for in backticks)", q.ID)
		}
	}
	if quotes < len(b.Questions) {
		t.Errorf("only %d quotes in %d looks", quotes, len(b.Questions))
	}
}
