package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The task commands: list, start, check passing and failing (text, ru,
// json), the refusals. Progress goes to a temporary store.
func TestTaskGoldens(t *testing.T) {
	setEnv(t, "K8SEXPLAIN_QUIZ_STATE_DIR", t.TempDir())
	runGolden(t, "task/list.txt", "task", "list")
	runGolden(t, "task/list.json", "task", "list", "--format", "json")
	runGolden(t, "task/start-quota-fit.txt", "task", "start", "quota-fit")
	runGolden(t, "task/start-quota-fit-ru.md", "task", "start", "quota-fit", "--lang", "ru", "--format", "markdown")
	runGolden(t, "task/check-rollout-pass.txt", "task", "check", "rollout-no-downtime", "testdata/task/web-ok.yaml", "--now", "2026-03-01T09:00:00Z")
	runGolden(t, "task/check-rollout-fail.txt", "task", "check", "rollout-no-downtime", "testdata/task/web-default.yaml", "--now", "2026-03-01T09:00:00Z")
	runGolden(t, "task/check-rollout-fail-ru.txt", "task", "check", "rollout-no-downtime", "testdata/task/web-default.yaml", "--lang", "ru", "--now", "2026-03-01T09:00:00Z")
	runGolden(t, "task/check-quota-fail.json", "task", "check", "quota-fit", "-f", "testdata/task/quota-default.yaml", "--hint", "--format", "json", "--now", "2026-03-01T09:00:00Z")
	runGolden(t, "task/check-quota-fail.md", "task", "check", "quota-fit", "testdata/task/quota-default.yaml", "--format", "markdown", "--now", "2026-03-01T09:00:00Z")
	runGolden(t, "task/check-drain-fail.txt", "task", "check", "drain-singleton", "testdata/task/auth-one.yaml", "--now", "2026-03-01T09:00:00Z")
	runGolden(t, "task/solution-quota-fit.txt", "task", "solution", "quota-fit")
	// the statuses after the checks above
	runGolden(t, "task/list-after.txt", "task", "list", "--now", "2026-03-01T09:00:30Z")
}

func TestTaskErrors(t *testing.T) {
	setEnv(t, "K8SEXPLAIN_QUIZ_STATE_DIR", t.TempDir())
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"task", "start", "no-such"}, 1, `unknown task "no-such"`},
		{[]string{"task", "solution", "quota-fit"}, 1, "the reference solution is shown after a first check"},
		{[]string{"task", "check", "quota-fit", "testdata/task/quota-raise.yaml"}, 1,
			"testdata/task/quota-raise.yaml:1: ResourceQuota/more: the task forbids it (rule quota)"},
		{[]string{"task", "check", "quota-fit"}, 2, "no manifest"},
		{[]string{"task", "check", "quota-fit", "testdata/task/missing.yaml"}, 1, "missing.yaml"},
		{[]string{"task", "start"}, 2, "want a task id"},
		{[]string{"task", "list", "--format", "mermaid"}, 1, "draws no diagram"},
	} {
		_, errOut, code := run(t, "", tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: code %d (want %d), stderr %q (want one line with %q)", tc.args, code, tc.code, errOut, tc.msg)
		}
	}
}

// quiz stats counts the tasks per topic from the same store.
func TestTaskProgressInQuizStats(t *testing.T) {
	quizTest(t)
	_, errOut, code := run(t, "", "task", "check", "sched-fix-requests", "testdata/task/search-ok.yaml")
	if code != 0 {
		t.Fatalf("check: exit %d: %s", code, errOut)
	}
	runGolden(t, "task/quiz-stats-after.txt", "quiz", "stats")
}

// task start --write writes the starter manifest, which task check reads,
// and never overwrites a file.
func TestTaskStartWrites(t *testing.T) {
	setEnv(t, "K8SEXPLAIN_QUIZ_STATE_DIR", t.TempDir())
	path := filepath.Join(t.TempDir(), "trainer.yaml")
	if _, errOut, code := run(t, "", "task", "start", "sched-gpu-nodes", "--write", path); code != 0 {
		t.Fatalf("start: exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(data), "name: trainer") {
		t.Fatalf("starter: %v %q", err, data)
	}
	if _, errOut, code := run(t, "", "task", "start", "sched-gpu-nodes", "--write", path); code != 1 || !strings.Contains(errOut, "the file exists") {
		t.Errorf("second write: exit %d, %q", code, errOut)
	}
	// the starter alone has no toleration: the check runs and fails
	out, errOut, code := run(t, "", "task", "check", "sched-gpu-nodes", path, "--format", "json")
	if code != 0 || !strings.Contains(out, `"passed": false`) {
		t.Errorf("check of the starter: exit %d, %s %s", code, errOut, out)
	}
}
