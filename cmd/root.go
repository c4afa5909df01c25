// Package cmd holds the cobra commands. A command parses flags, loads its
// input, calls one entry point of an internal package and renders the
// report it gets back; no simulation or formatting happens here.
package cmd

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/clip"
	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/iostreams"
	"github.com/k8sexplain/k8sexplain/internal/readcap"
	"github.com/k8sexplain/k8sexplain/internal/render"
	"github.com/k8sexplain/k8sexplain/internal/report"
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

// Render prints a report in the global format.
func (f *Factory) Render(d *report.Doc) error {
	g, err := f.Globals()
	if err != nil {
		return err
	}
	return render.Render(f.IO.Out, d, render.Options{Format: g.Format, Color: g.Color, Lang: g.Lang, Width: f.IO.TerminalWidth()})
}

// commands are the constructors of the top-level subcommands; each command
// file adds its own in an init function, so adding a command touches one file.
var commands []func(*Factory) *cobra.Command

func register(c func(*Factory) *cobra.Command) { commands = append(commands, c) }

// NewRoot builds the command tree.
func NewRoot(f *Factory) *cobra.Command {
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
	root.AddCommand(newVersionCmd(f))
	for _, c := range commands {
		root.AddCommand(c(f))
	}
	root.SetHelpCommand(newHelpCmd())
	// The completion command captures its output stream when it is made.
	if f.IO != nil {
		root.SetOut(f.IO.Out)
		root.SetErr(f.IO.ErrOut)
		root.SetIn(f.IO.In)
	}
	addCompletions(root, f)
	addHelpTopics(root, f)
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

func versionString() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

func newVersionCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the version of k8sexplain",
		Example: "  k8sexplain version",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			goVersion := "unknown"
			if bi, ok := debug.ReadBuildInfo(); ok {
				goVersion = bi.GoVersion
			}
			_, err := fmt.Fprintf(f.IO.Out, "k8sexplain %s (%s)\n", versionString(), goVersion)
			return err
		},
	}
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
	root := NewRoot(f)
	root.SetArgs(args)
	root.SetIn(io.In)
	root.SetOut(io.Out)
	root.SetErr(io.ErrOut)
	err := root.Execute()
	io.StopPager()
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
	msg := clip.Message(err.Error())
	switch code {
	case exitcode.Internal:
		msg = "internal error (a bug, please report it): " + msg
	case exitcode.Environment:
		msg = "environment error (not a bug in k8sexplain): " + msg
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
