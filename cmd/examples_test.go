package cmd

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/iostreams"
	"github.com/spf13/cobra"
)

// notRun are the examples this test cannot run, each with the reason. Every
// other `k8sexplain …` line of README.md and of every command's --help
// Example runs and must exit 0.
var notRun = map[string]string{
	"quiz":                               "interactive, and reads/writes the user's progress in ~/.local/state",
	"grpc-skew --live":                   "opens real gRPC connections on 127.0.0.1 (covered by internal/grpclive tests)",
	"man ":                               "writes files into DIR (covered by TestHelpEnvironmentAndManPages)",
	"task check":                         "checks the learner's own manifest file and records progress (covered by TestTaskGoldens, with cmd/testdata/task)",
	"task list":                          "reads the user's progress in ~/.local/state (covered by TestTaskGoldens)",
	"task solution":                      "needs a first check in the user's progress (covered by TestTaskGoldens)",
	"task start sched-gpu-nodes --write": "writes a file (covered by TestTaskStartWrites)",
	// A flag anywhere on the line (a key starting with --).
	"--kubeconfig": "applies to a real cluster (covered by internal/live: fake and httptest API servers, TestLiveCluster)",
}

// exampleLines returns every example command line: README.md's sh blocks and
// the Example of every command, comments, redirections and continuation
// lines resolved; lines that read a pipe are left out (they need another
// tool, e.g. helm).
func exampleLines(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{} // command line → where it comes from
	add := func(where, text string) {
		text = strings.ReplaceAll(text, "\\\n", " ")
		for _, line := range strings.Split(text, "\n") {
			line = strings.TrimSpace(line)
			if !strings.HasPrefix(line, "k8sexplain ") || strings.Contains(line, "|") {
				continue
			}
			if i := strings.Index(line, " #"); i >= 0 {
				line = line[:i]
			}
			if i := strings.Index(line, " &&"); i >= 0 {
				line = line[:i] // the next command is another tool's
			}
			if i := strings.Index(line, " >"); i >= 0 {
				line = line[:i] // the output goes to the test instead of a file
			}
			out[strings.Join(strings.Fields(line), " ")] = where
		}
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, block := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(string(readme), -1) {
		add("README.md", block[1])
	}
	io, _, _, _ := iostreams.Test()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		add(c.CommandPath()+" --help", c.Example)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(NewRoot(&Factory{IO: io, Config: newConfig()}))
	return out
}

// Every example a user can copy from README.md or --help works as shown.
func TestExamplesRun(t *testing.T) {
	inRoot(t)
	for line, where := range exampleLines(t) {
		args := strings.Fields(line)[1:]
		skip := ""
		for prefix, why := range notRun {
			joined := strings.Join(args, " ")
			if strings.HasPrefix(joined, prefix) || (strings.HasPrefix(prefix, "--") && strings.Contains(" "+joined+" ", " "+prefix+" ")) {
				skip = why
			}
		}
		t.Run(line, func(t *testing.T) {
			if skip != "" {
				t.Skip(skip)
			}
			if _, errOut, code := run(t, "", args...); code != 0 {
				t.Errorf("%s: `%s` exits %d: %s", where, line, code, errOut)
			}
		})
	}
}
