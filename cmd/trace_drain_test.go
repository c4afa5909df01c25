package cmd

import (
	"strings"
	"testing"
)

// The drain story's other formats: JSON and HTML (en), Russian Markdown
// and Mermaid, besides the text, Markdown and Mermaid of storyCases.
func TestDrainGoldenFormats(t *testing.T) {
	inRoot(t)
	args := []string{"trace", "drain", "node-b", "examples/app.yaml", "--nodes", "2", "--pdb", "minAvailable=2"}
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
