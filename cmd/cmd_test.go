package cmd

import (
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/golden"
	"github.com/k8sexplain/k8sexplain/internal/iostreams"
	"github.com/spf13/cobra"
)

// run executes the CLI in-process with test streams (no terminal, empty
// environment) and returns stdout, stderr and the exit code.
func run(t testing.TB, stdin string, args ...string) (string, string, int) {
	t.Helper()
	io, in, out, errOut := iostreams.Test()
	io.Getenv = testGetenv
	in.WriteString(stdin)
	code := Execute(io, args)
	return out.String(), errOut.String(), code
}

// runGolden runs args and compares stdout with golden/<name>; it fails on a
// non-zero exit.
func runGolden(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, errOut, code := run(t, "", args...)
	if code != 0 {
		t.Fatalf("%v: exit %d, stderr: %s", args, code, errOut)
	}
	golden.Assert(t, name, []byte(out))
	return out
}

func TestVersionAndUsage(t *testing.T) {
	out, _, code := run(t, "", "version")
	if code != 0 || !strings.HasPrefix(out, "k8sexplain ") {
		t.Fatalf("version: code %d out %q", code, out)
	}
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"no-such-command"}, 2, `unknown command "no-such-command"`},
		{[]string{"--no-such-flag"}, 2, "unknown flag: --no-such-flag"},
		{[]string{"--lang", "de", "version"}, 1, `invalid --lang "de"`},
		{[]string{"--format", "yaml", "version"}, 1, `invalid --format "yaml"`},
		{[]string{"--color", "sometimes", "version"}, 1, `invalid --color "sometimes"`},
		{[]string{"version", "extra"}, 2, "takes no arguments"},
	} {
		_, errOut, code := run(t, "", tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: code %d (want %d), stderr %q (want one line with %q)", tc.args, code, tc.code, errOut, tc.msg)
		}
	}
}

func TestCompletion(t *testing.T) {
	out, _, code := run(t, "", "__complete", "--format", "")
	if code != 0 || !strings.Contains(out, "markdown") || !strings.Contains(out, "mermaid") {
		t.Fatalf("completion of --format: code %d out %q", code, out)
	}
	out, _, code = run(t, "", "completion", "bash")
	if code != 0 || !strings.Contains(out, "bash completion") {
		t.Fatalf("completion bash: code %d", code)
	}
}

// Every command a user can run has examples in its help.
func TestEveryCommandHasExamples(t *testing.T) {
	io, _, _, _ := iostreams.Test()
	root := NewRoot(&Factory{IO: io, Config: newConfig()})
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Hidden || c.Name() == "help" {
			return
		}
		if c.Example == "" {
			t.Errorf("%s has no Example", c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// A command line builds only the top-level commands it names; the others
// are stubs. A stub must show in root --help and in cobra's suggestions
// exactly as its command does.
func TestStubsMatchCommands(t *testing.T) {
	io, _, _, _ := iostreams.Test()
	f := &Factory{IO: io, Config: newConfig()}
	full := NewRoot(f)
	if got, want := len(full.Commands()), len(topCommands)+3; got != want { // + environment, man, completion
		t.Errorf("root has %d commands, want %d: a command added outside topCommands?", got, want)
	}
	for _, tc := range topCommands {
		c, stub := tc.build(f), tc.stub()
		if c.Name() != stub.Name() || c.Short != stub.Short || strings.Join(c.Aliases, ",") != strings.Join(stub.Aliases, ",") ||
			c.Hidden != stub.Hidden || c.GroupID != stub.GroupID || c.Deprecated != stub.Deprecated {
			t.Errorf("stub of %s differs: %q %q, want %q %q", tc.name, stub.Name(), stub.Short, c.Name(), c.Short)
		}
	}
	for _, c := range full.Commands() {
		if c.Name() == "completion" && c.Short != completionShort {
			t.Errorf("cobra's completion command says %q, the stub %q", c.Short, completionShort)
		}
	}
	help := func(args ...string) string {
		out, _, code := run(t, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d", args, code)
		}
		return out
	}
	if light, all := help("--help"), help("help"); light != all {
		t.Errorf("root --help with stubs differs from help with every command:\n%s\n---\n%s", light, all)
	}
	for _, args := range [][]string{{"version"}, {"--lang", "ru", "dnat"}, {"trace", "apply", "--summary"}, {"--help"}, {"no-such"}} {
		need := needsFor(args)
		if need.all || need.completion {
			t.Errorf("%v builds everything", args)
		}
	}
	for _, args := range [][]string{{"help", "trace"}, {"man", "x"}, {"__complete", "trace", ""}, {"__completeNoDesc", ""}} {
		if need := needsFor(args); !need.all {
			t.Errorf("%v does not build everything", args)
		}
	}
}
