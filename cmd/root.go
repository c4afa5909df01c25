// Package cmd holds the cobra commands. A command parses flags, loads its
// input, calls one entry point of an internal package and renders the
// report it gets back; no simulation or formatting happens here.
//
// Every command has one shape (options.go): XOptions (Common, then its
// flags), NewCmdX(f, runF) that wires flags into the options, and xRun(opts)
// that does the work. NewRoot and NewCmdTrace add the commands explicitly, so
// a new command is its file plus one line there.
package cmd

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/clip"
	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/iostreams"
	"github.com/k8sexplain/k8sexplain/internal/readcap"
	"github.com/k8sexplain/k8sexplain/internal/render"
	"github.com/spf13/cobra"
	"github.com/spf13/viper"
)

// version is set at link time (-ldflags "-X .../cmd.version=v1.2.3");
// otherwise the module version from the build info is used.
var version = ""

// Factory gives commands what they share: the streams, the resolved global
// settings and the configuration. It is built once per run.
type Factory struct {
	IO *iostreams.Streams
	// Config is the merged configuration: flags > K8SEXPLAIN_* env > config
	// file > defaults. Commands may read their own keys (e.g. "quiz.state-dir").
	Config *viper.Viper

	// Clock is the wall clock (time.Now when nil): the quiz's "now" and the
	// real time a run took. Virtual time never comes from it.
	Clock func() time.Time

	// configFile and configValues are the config file read, if any.
	configFile   string
	configValues map[string]any
}

// Globals are the settings every command honours.
type Globals struct {
	Lang    string
	Format  render.Format
	Color   bool
	Seed    int64
	Verbose bool
}

// Globals validates and returns the global settings.
func (f *Factory) Globals() (Globals, error) {
	v := f.Config
	g := Globals{Lang: v.GetString("lang"), Seed: v.GetInt64("seed"), Verbose: v.GetBool("verbose")}
	if g.Lang != "en" && g.Lang != "ru" {
		return g, exitcode.Inputf("invalid --lang %q: want en or ru", g.Lang)
	}
	fm, err := render.ParseFormat(v.GetString("format"))
	if err != nil {
		return g, err
	}
	g.Format = fm
	mode := v.GetString("color")
	if mode != "auto" && mode != "always" && mode != "never" {
		return g, exitcode.Inputf("invalid --color %q: want auto, always or never", mode)
	}
	g.Color = fm == render.Text && f.IO.ColorEnabled(mode)
	return g, nil
}

// NewRoot builds the whole command tree, shell completion included.
func NewRoot(f *Factory) *cobra.Command { return newRoot(f, treeNeeds{all: true, completion: true}) }

// treeNeeds says which parts of the command tree a command line uses.
// Building a command defines its flags (hundreds in all) and wiring
// completion walks every command: work that `k8sexplain version` should
// not pay for at start-up.
type treeNeeds struct {
	all        bool            // every command fully (help, man, completion requests)
	completion bool            // flag and argument completion (__complete)
	commands   map[string]bool // the top-level commands named on the line
}

// needsFor reads a command line. Every top-level command whose name
// appears anywhere in args is built fully (a flag value that happens to be
// a command name only costs a little time); the others are stubs that
// carry what root --help lists: name and summary. help and man walk
// the tree, __complete may reach any flag: they get everything.
func needsFor(args []string) treeNeeds {
	n := treeNeeds{commands: map[string]bool{}}
	for _, a := range args {
		switch a {
		case cobra.ShellCompRequestCmd, cobra.ShellCompNoDescRequestCmd:
			n.all, n.completion = true, true
		case "help", "man":
			n.all = true
		default:
			n.commands[a] = true
		}
	}
	return n
}

// topCommand is a command directly under the root.
type topCommand struct {
	name, short string
	build       func(*Factory) *cobra.Command
}

// topCommands are the root's commands in the order they are added. Their
// summaries are shared with the commands themselves (TestStubsMatchCommands).
var topCommands = []topCommand{
	{"version", versionShort, func(f *Factory) *cobra.Command { return NewCmdVersion(f, nil) }},
	{"trace", traceShort, NewCmdTrace},
	{"quorum", quorumShort, func(f *Factory) *cobra.Command { return NewCmdQuorum(f, nil) }},
	{"dnat", dnatShort, func(f *Factory) *cobra.Command { return NewCmdDNAT(f, nil) }},
	{"grpc-skew", grpcSkewShort, func(f *Factory) *cobra.Command { return NewCmdGRPCSkew(f, nil) }},
	{"quiz", quizShort, func(f *Factory) *cobra.Command { return NewCmdQuiz(f, nil) }},
	{"task", taskShort, func(f *Factory) *cobra.Command { return NewCmdTask(f, nil) }},
}

// stub stands in for a command the command line does not name: root
// --help lists it, cobra can suggest it for a typo. Running it is a bug
// in needsFor.
func (t topCommand) stub() *cobra.Command {
	return &cobra.Command{Use: t.name, Short: t.short, RunE: stubRun}
}

func stubRun(c *cobra.Command, _ []string) error {
	return fmt.Errorf("%s was not built for this command line", c.CommandPath())
}

// completionShort is the summary of cobra's completion command
// (TestStubsMatchCommands checks it against cobra's).
const completionShort = "Generate the autocompletion script for the specified shell"

func newRoot(f *Factory, need treeNeeds) *cobra.Command {
	root := &cobra.Command{
		Use:   "k8sexplain",
		Short: "Make Kubernetes internals visible: traces from a real simulation, Raft quorum, kube-proxy rules, a quiz",
		Long: `k8sexplain is an offline trainer for Kubernetes internals. Every trace comes out of a
deterministic cluster simulation (API server, etcd-like store, controllers, scheduler, kubelet,
kube-proxy), so changing the manifest changes the story.

Settings come from flags, then K8SEXPLAIN_* environment variables (K8SEXPLAIN_LANG=ru), then the
config file ($XDG_CONFIG_HOME/k8sexplain/config.yaml, else ~/.config/k8sexplain/config.yaml).

Exit codes: 0 success, 1 bad input, 2 usage error, 3 internal error, 4 environment error (disk full,
read-only state directory, unwritable stdout, closed stdin), 130 interrupted.`,
		Example: `  k8sexplain trace apply examples/app.yaml
  k8sexplain trace apply --lang ru --format markdown examples/app.yaml > notes.md
  k8sexplain completion bash > /etc/bash_completion.d/k8sexplain`,
		SilenceErrors: true,
		SilenceUsage:  true,
		Version:       versionString(),
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			if err := readConfig(f, cmd); err != nil {
				return err
			}
			if err := applySettings(f, cmd); err != nil {
				return err
			}
			if err := applyConventionFlags(cmd.Flags()); err != nil {
				return err
			}
			if err := f.Config.BindPFlags(cmd.Flags()); err != nil {
				return err
			}
			if _, err := f.Globals(); err != nil {
				return err
			}
			startPager(cmd, f)
			return nil
		},
	}
	root.SetVersionTemplate("k8sexplain {{.Version}}\n")
	pf := root.PersistentFlags()
	pf.String("lang", "en", "language of explanations: en or ru")
	pf.String("format", "text", "output format: "+render.Choices())
	pf.String("color", "auto", "colour: auto (only on a terminal), always or never; NO_COLOR disables auto, an explicit --color always wins")
	pf.Int64("seed", 1, "seed of the simulation's random choices (same seed, same output)")
	pf.BoolP("verbose", "v", false, "show every step (API requests, watch deliveries, Raft messages)")
	pf.String("config", "", "config file (default $XDG_CONFIG_HOME/k8sexplain/config.yaml)")
	addConventionFlags(root)
	_ = root.RegisterFlagCompletionFunc("lang", fixedCompletion("en", "ru"))
	_ = root.RegisterFlagCompletionFunc("format", fixedCompletion(render.Formats...))
	_ = root.RegisterFlagCompletionFunc("color", fixedCompletion("auto", "always", "never"))
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return exitcode.Usagef("%v (see %s --help)", err, c.CommandPath())
	})
	for _, t := range topCommands {
		if need.all || need.commands[t.name] {
			root.AddCommand(t.build(f))
		} else {
			root.AddCommand(t.stub())
		}
	}
	root.SetHelpCommand(newHelpCmd())
	// The completion command captures its output stream when it is made.
	if f.IO != nil {
		root.SetOut(f.IO.Out)
		root.SetErr(f.IO.ErrOut)
		root.SetIn(f.IO.In)
	}
	if need.completion {
		addCompletions(root, f)
	}
	addHelpTopics(root, f)
	if !need.all && !need.commands["completion"] {
		// cobra makes its completion command (four scripts' help texts)
		// unless one exists: a stub is enough for root --help.
		root.AddCommand(&cobra.Command{Use: "completion", Short: completionShort, Args: noArgs, RunE: stubRun})
	}
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		c.Example = "  source <(k8sexplain completion bash)\n  k8sexplain completion zsh > \"${fpath[1]}/_k8sexplain\""
		for _, sh := range c.Commands() {
			sh.Example = "  k8sexplain completion " + sh.Name() + " > k8sexplain-completion." + sh.Name()
		}
	}
	groupsRejectUnknown(root)
	return root
}

func fixedCompletion(vals ...string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return vals, cobra.ShellCompDirectiveNoFileComp
	}
}

func newConfig() *viper.Viper {
	// No AutomaticEnv: the environment is read through Factory.IO.Getenv
	// (applySettings, Factory.Setting), so tests never see the developer's
	// own K8SEXPLAIN_* variables.
	return viper.New()
}

// versionString is the link-time version, else the module's. Reading the
// build info parses it: once per process.
var versionString = sync.OnceValue(func() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
})

const versionShort = "Print the version of k8sexplain"

// VersionOptions are the inputs of `version`.
type VersionOptions struct {
	Common
}

// NewCmdVersion is `version`; runF, when not nil, gets the options instead of versionRun.
func NewCmdVersion(f *Factory, runF func(*VersionOptions) error) *cobra.Command {
	opts := &VersionOptions{}
	return &cobra.Command{
		Use:     "version",
		Short:   versionShort,
		Example: "  k8sexplain version",
		Args:    noArgs,
		RunE:    runE(f, opts, runF, versionRun),
	}
}

func versionRun(opts *VersionOptions) error {
	// The toolchain that built the binary, as the build info records it.
	_, err := fmt.Fprintf(opts.IO.Out, "k8sexplain %s (%s)\n", versionString(), runtime.Version())
	return err
}

// noArgs rejects positional arguments as a usage error.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return exitcode.Usagef("%s takes no arguments, got %q", cmd.CommandPath(), args[0])
	}
	return nil
}

// Execute runs the command line and returns the process exit code. Errors
// print as one line on stderr; panics become exit 3 with a request to report.
func Execute(io *iostreams.Streams, args []string) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(io.ErrOut, "k8sexplain: internal error (a bug): %v\nplease report it with the command line that caused it at https://github.com/k8sexplain/k8sexplain/issues\n%s", r, debug.Stack())
			code = exitcode.Internal
		}
	}()
	f := &Factory{IO: io, Config: newConfig()}
	root := newRoot(f, needsFor(args))
	ru := lineLang(io, args) == "ru"
	if ru {
		localizeHelp(root)
	}
	root.SetArgs(args)
	root.SetIn(io.In)
	// Cobra writes help and usage itself and drops write errors: this
	// writer keeps the first, so `--help > /dev/full` is exit 4, not 0
	// (issue 29).
	help := &stickyWriter{w: io.Out}
	root.SetOut(help)
	root.SetErr(io.ErrOut)
	err := root.Execute()
	io.StopPager()
	if err == nil && help.err != nil {
		err = help.err
	}
	if err == nil {
		return exitcode.OK
	}
	code = exitcode.Code(err)
	if code == exitcode.Internal && isCobraUsage(err) {
		code = exitcode.Usage
	}
	if code == exitcode.Internal && errors.Is(err, readcap.ErrTooLarge) {
		code = exitcode.Input // a read past its limit: the error names file and limit
	}
	prefix := ""
	switch code {
	case exitcode.Internal:
		prefix = "internal error (a bug, please report it): "
	case exitcode.Environment:
		prefix = "environment error (not a bug in k8sexplain): "
	}
	msg := prefix + clip.Message(err.Error())
	if ru {
		msg = errorPrefixRU[prefix] + clip.Message(russianError(err))
	}
	fmt.Fprintf(io.ErrOut, "k8sexplain: %s\n", msg)
	return code
}

// isCobraUsage recognises the errors cobra itself returns for a bad command
// line (it has no typed errors for them).
func isCobraUsage(err error) bool {
	var e *exitcode.Error
	if errors.As(err, &e) {
		return false
	}
	s := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand", "accepts ", "requires ", "invalid argument", "flag needs", "unknown help topic", "required flag"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// stickyWriter remembers the first error of the writes through it.
type stickyWriter struct {
	w   interface{ Write([]byte) (int, error) }
	err error
}

func (s *stickyWriter) Write(b []byte) (int, error) {
	n, err := s.w.Write(b)
	if err != nil && s.err == nil {
		s.err = err
	}
	return n, err
}
