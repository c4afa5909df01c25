package cmd

import (
	"strings"
	"testing"
)

// Golden files of `trace watch` (issue 7 §5, §6). Read them after -update:
// every number in them is a claim about Kubernetes.
func TestTraceWatchGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"default.txt", nil},
		{"throttled.txt", []string{"--controllers", "10", "--pods", "1000", "--nodes", "20", "--poll-interval", "100ms"}},
		{"ru.txt", []string{"--lang", "ru"}},
		{"default.md", []string{"--format", "markdown"}},
		{"default.mmd", []string{"--format", "mermaid"}},
		{"default.json", []string{"--format", "json"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runGolden(t, "trace-watch/"+tc.name, append([]string{"trace", "watch", "--color", "never"}, tc.args...)...)
		})
	}
}

// The flags spelled out equal the defaults.
func TestTraceWatchDefaults(t *testing.T) {
	a, _, _ := run(t, "", "trace", "watch")
	b, _, _ := run(t, "", "trace", "watch", "--controllers", "50", "--pods", "10000", "--nodes", "500", "--poll-interval", "1s", "--duration", "1m")
	if a != b || a == "" {
		t.Fatal("trace watch with the default flags spelled out prints something else")
	}
}

// Bad input: one line on stderr, exit 1.
func TestTraceWatchBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--controllers", "0"}, "invalid --controllers 0"},
		{[]string{"--controllers", "-5"}, "invalid --controllers -5"},
		{[]string{"--controllers", "10001"}, "want 1 to 10000"},
		{[]string{"--pods", "0"}, "invalid --pods 0"},
		{[]string{"--pods", "1000001"}, "want 1 to 1000000"},
		{[]string{"--nodes", "-1"}, "invalid --nodes -1"},
		{[]string{"--nodes", "10001"}, "invalid --nodes 10001"},
		{[]string{"--pods", "10000", "--nodes", "10"}, "at least 91 nodes are needed"},
		{[]string{"--poll-interval", "0s"}, "invalid --poll-interval 0s"},
		{[]string{"--poll-interval", "-1s"}, "invalid --poll-interval -1s"},
		{[]string{"--poll-interval", "2h"}, "invalid --poll-interval 2h0m0s"},
		{[]string{"--duration", "0s"}, "invalid --duration 0s"},
		{[]string{"--duration", "25h"}, "invalid --duration 25h0m0s"},
		{[]string{"--controllers", "10000", "--poll-interval", "10ms", "--duration", "1h"}, "raise --poll-interval"},
		{[]string{"--format", "yaml"}, `invalid --format "yaml"`},
	} {
		_, errOut, code := run(t, "", append([]string{"trace", "watch"}, tc.args...)...)
		if code != 1 || !strings.Contains(errOut, tc.msg) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q (want exit 1 and one line with %q)", tc.args, code, errOut, tc.msg)
		}
	}
	// A flag that does not parse is a usage error (exit 2), as everywhere.
	if _, _, code := run(t, "", "trace", "watch", "--pods", "many"); code != 2 {
		t.Errorf("--pods many: exit %d, want 2", code)
	}
}
