package cmd

import (
	"strings"
	"testing"
)

// The drain story's other formats: JSON and HTML (en), Russian Markdown
// and Mermaid, besides the text, Markdown and Mermaid of storyCases.
func TestDrainGoldenFormats(t *testing.T) {
	inRoot(t)
	args := []string{"trace", "drain", "node-a", "examples/app.yaml", "--nodes", "2", "--pdb", "minAvailable=2"}
	runGolden(t, "trace-drain/default.en.json", append([]string{"--format", "json"}, args...)...)
	runGolden(t, "trace-drain/default.en.html", append([]string{"--format", "html"}, args...)...)
	runGolden(t, "trace-drain/default.ru.md", append([]string{"--lang", "ru", "--format", "markdown"}, args...)...)
	runGolden(t, "trace-drain/default.ru.mmd", append([]string{"--lang", "ru", "--format", "mermaid"}, args...)...)
	runGolden(t, "trace-drain/default.ru.json", append([]string{"--lang", "ru", "--format", "json"}, args...)...)
	runGolden(t, "trace-drain/default.ru.html", append([]string{"--lang", "ru", "--format", "html"}, args...)...)
}

// Bad input: one line saying what and where, exit 1 (2 for usage).
func TestDrainBadInput(t *testing.T) {
	inRoot(t)
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"trace", "drain"}, 2, "usage: k8sexplain trace drain NODE [FILE…]"},
		{[]string{"trace", "drain", "node-x"}, 1, `node "node-x" is not in the cluster (nodes: control-plane, node-a, node-b, node-c)`},
		{[]string{"trace", "drain", "node-b", "--pdb", "minReady=2"}, 1, `invalid --pdb "minReady=2": want minAvailable=N or maxUnavailable=N`},
		{[]string{"trace", "drain", "node-b", "--pdb", "minAvailable=-1"}, 1, `invalid --pdb "minAvailable=-1": minAvailable must not be negative`},
		{[]string{"trace", "drain", "node-b", "--pdb", "maxUnavailable=150%"}, 1, `invalid --pdb "maxUnavailable=150%": maxUnavailable must be a number or a percentage (0% to 100%)`},
		{[]string{"trace", "drain", "node-b", "--timeout", "-1s"}, 1, `invalid --timeout -1s: want 0 to 10m0s`},
	} {
		_, errOut, code := run(t, "", tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errOut, tc.code, tc.msg)
		}
	}
}

// The preemption story's other formats.
func TestPreemptGoldenFormats(t *testing.T) {
	inRoot(t)
	runGolden(t, "trace-preempt/default.en.json", "--format", "json", "trace", "preempt")
	runGolden(t, "trace-preempt/default.en.html", "--format", "html", "trace", "preempt")
	runGolden(t, "trace-preempt/default.ru.md", "--lang", "ru", "--format", "markdown", "trace", "preempt")
	runGolden(t, "trace-preempt/default.ru.mmd", "--lang", "ru", "--format", "mermaid", "trace", "preempt")
	runGolden(t, "trace-preempt/default.ru.json", "--lang", "ru", "--format", "json", "trace", "preempt")
	runGolden(t, "trace-preempt/default.ru.html", "--lang", "ru", "--format", "html", "trace", "preempt")
}

// Preemption picks by upstream's criteria: without a budget the lowest
// highest-priority victim (a batch pod, not the api pod); with a budget
// that allows no batch disruption, the fewest PDB violations come first and
// the api pod goes instead — and the api pod's replacement then preempts a
// batch pod anyway: budgets are respected only as far as possible.
func TestPreemptCriteria(t *testing.T) {
	inRoot(t)
	first := func(args ...string) map[string]string {
		j := storyJSON(t, args...)
		for _, s := range j.Steps {
			if s.Kind == "scheduler.preempt" {
				return s.Fields
			}
		}
		t.Fatalf("%v: no preemption", args)
		return nil
	}
	f := first("trace", "preempt")
	if !strings.HasPrefix(f["victims"], "batch-") || f["violations"] != "0" || f["count"] != "3" {
		t.Errorf("without a budget: %v", f)
	}
	f = first("trace", "preempt", "--pdb", "minAvailable=2")
	if !strings.HasPrefix(f["victims"], "api-") || f["violations"] != "0" || !strings.Contains(f["candidates"], "PDB violations 1") {
		t.Errorf("with minAvailable=2 on batch: %v", f)
	}
	j := storyJSON(t, "trace", "preempt", "--pdb", "minAvailable=2")
	violated := false
	for _, s := range j.Steps {
		if s.Kind == "scheduler.preempt" && strings.HasPrefix(s.Fields["pod"], "api-") && s.Fields["violations"] == "1" {
			violated = true
		}
	}
	if !violated {
		t.Error("the api replacement did not preempt a batch pod against the budget (best effort)")
	}
	// The preemptor is bound to the nominated node once the victim is gone;
	// the victim carries upstream's condition and event.
	j = storyJSON(t, "trace", "preempt")
	var nominated, bound, preempted, victim string
	for _, s := range j.Steps {
		switch {
		case s.Kind == "scheduler.preempt" && s.Fields["pod"] == "critical":
			nominated = s.Fields["node"]
		case s.Kind == "scheduler.bind" && s.Fields["pod"] == "critical":
			bound = s.Fields["node"]
		case s.Kind == "event" && s.Fields["reason"] == "Preempted":
			preempted = s.Fields["message"]
		case s.Kind == "scheduler.victim":
			victim = s.Fields["reason"] + ": " + s.Fields["message"]
		}
	}
	if nominated == "" || bound != nominated {
		t.Errorf("nominated %q, bound %q", nominated, bound)
	}
	if !strings.HasPrefix(preempted, "Preempted by pod ") || !strings.HasSuffix(preempted, " on node "+nominated) {
		t.Errorf("Preempted event %q", preempted)
	}
	if victim != "PreemptionByScheduler: default-scheduler: preempting to accommodate a higher priority pod" {
		t.Errorf("DisruptionTarget %q", victim)
	}
}

// Bad input for trace preempt: one line, exit 1.
func TestPreemptBadInput(t *testing.T) {
	inRoot(t)
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"trace", "preempt", "--cpu", "lots"}, `invalid --cpu "lots": want a positive CPU quantity such as 2 or 1500m`},
		{[]string{"trace", "preempt", "--priority-class", "nope"}, `pods "critical" is forbidden: no PriorityClass with name nope was found`},
	} {
		_, errOut, code := run(t, "", tc.args...)
		if code != 1 || !strings.Contains(errOut, tc.msg) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q; want 1 and %q", tc.args, code, errOut, tc.msg)
		}
	}
}
