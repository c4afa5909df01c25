package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/k8sexplain/k8sexplain/internal/clip"
	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/readcap"
	"github.com/k8sexplain/k8sexplain/internal/yamldoc"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"gopkg.in/yaml.v3"
)

// Settings resolve as flag > K8SEXPLAIN_* environment variable > config
// file > default, for every flag of every command (K8SEXPLAIN_NODES=5 and
// `nodes: 5` work like --nodes 5), plus the keys below that are no flag.
// The environment is read through Factory.IO.Getenv only.

// configKeys are the config keys that are not flags, as "section.key".
var configKeys = map[string]bool{"quiz.state-dir": true}

// notSettings are flags that make no sense in the environment or a file.
var notSettings = map[string]bool{"help": true, "version": true, "config": true, "reset": true, "yes": true}

// destructive are flags that delete something: they are taken from the
// command line only, and a config key or K8SEXPLAIN_* variable naming one
// is an error (issue 29: `reset: true` in the config made every `quiz
// stats` delete all progress).
var destructive = map[string]bool{"reset": true, "yes": true}

func destructiveSetting(where, name string) error {
	return exitcode.Usagef("%s: --%s is read from the command line only (with --reset it deletes all quiz progress), never from a config file or the environment", where, name)
}

// envName is the environment variable of a setting: quiz.state-dir →
// K8SEXPLAIN_QUIZ_STATE_DIR.
func envName(key string) string {
	return "K8SEXPLAIN_" + strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(key))
}

// Setting returns a setting that is no flag (configKeys): the environment
// first, then the config file.
func (f *Factory) Setting(key string) string {
	if v := f.getenv(envName(key)); v != "" {
		return v
	}
	return f.Config.GetString(key)
}

func (f *Factory) getenv(k string) string {
	if f.IO == nil || f.IO.Getenv == nil {
		return ""
	}
	return f.IO.Getenv(k)
}

// readConfig loads the config file: --config (or K8SEXPLAIN_CONFIG) if
// given (it must exist), else the XDG location if present. The file is read
// with a limit, and a key that is neither a flag nor in configKeys is an
// error that names it.
func readConfig(f *Factory, cmd *cobra.Command) error {
	path, label := "", "--config"
	if fl := cmd.Flags().Lookup("config"); fl != nil && fl.Changed {
		path = fl.Value.String()
	} else if v := f.getenv(envName("config")); v != "" {
		path, label = v, envName("config")
	} else {
		label = "config"
		dir := f.getenv("XDG_CONFIG_HOME")
		if dir == "" {
			if home := f.getenv("HOME"); home != "" {
				dir = filepath.Join(home, ".config")
			}
		}
		if dir == "" {
			return nil
		}
		path = filepath.Join(dir, "k8sexplain", "config.yaml")
		if _, err := os.Stat(path); err != nil {
			return nil
		}
	}
	data, err := readcap.ReadFile(path, readcap.Config, "a config file")
	var tooLarge *readcap.TooLarge
	if errors.As(err, &tooLarge) {
		return exitcode.Inputf("%s %v", label, err)
	}
	if err != nil {
		return exitcode.Inputf("%s %s: %v", label, path, clip.Message(err.Error()))
	}
	var m map[string]any
	if err := yaml.Unmarshal(data, &m); err != nil {
		return exitcode.Inputf("%s %s: %v", label, path, oneLine(clip.Message(err.Error())))
	}
	if err := yamldoc.One(data); err != nil {
		return exitcode.Inputf("%s %s: %v", label, path, err)
	}
	// A key may be the flag of a command this command line did not build
	// (NewRoot builds only the commands a line names): the whole tree is
	// built to check it only when the built part does not know the key.
	flags := allFlags(cmd.Root())
	every := sync.OnceValue(func() map[string]bool { return allFlags(NewRoot(&Factory{IO: f.IO, Config: newConfig()})) })
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if destructive[k] {
			return destructiveSetting(label+" "+path, k)
		}
		if (flags[k] || every()[k]) && !notSettings[k] {
			continue
		}
		sub, isMap := m[k].(map[string]any)
		known := false
		for ck := range configKeys {
			if strings.HasPrefix(ck, k+".") {
				known = true
			}
		}
		if !known {
			return exitcode.Usagef("%s %s: unknown key %q (keys are flag names such as lang, format, seed, nodes, and quiz.state-dir)", label, path, clip.Value(k))
		}
		if !isMap {
			return exitcode.Usagef("%s %s: key %q must be a mapping (e.g. %s:\\n  state-dir: DIR)", label, path, k, k)
		}
		for _, sk := range slices.Sorted(maps.Keys(sub)) {
			if !configKeys[k+"."+sk] {
				return exitcode.Usagef("%s %s: unknown key %q", label, path, clip.Value(k+"."+sk))
			}
			switch sub[sk].(type) {
			case map[string]any, []any, nil:
				// `state-dir: [1, 2]` was read as "[1 2]" (issue 29).
				return exitcode.Usagef("%s %s: %s.%s: want a single value", label, path, k, sk)
			}
		}
	}
	f.configFile, f.configValues = label+" "+path, m
	f.Config.SetConfigType("yaml")
	if err := f.Config.ReadConfig(bytes.NewReader(data)); err != nil {
		return exitcode.Inputf("%s %s: %v", label, path, oneLine(clip.Message(err.Error())))
	}
	return nil
}

// oneLine joins a multi-line message (yaml's "unmarshal errors:\n  line 1:
// ...") into one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, ":\n", ": ")), " ")
}

// applySettings gives every flag not set on the command line its value from
// K8SEXPLAIN_<FLAG> or, failing that, the config file, parsed as the flag
// parses it: `seed: abc` is a usage error naming where it came from.
func applySettings(f *Factory, cmd *cobra.Command) error {
	var err error
	cmd.Flags().VisitAll(func(fl *pflag.Flag) {
		if err == nil && destructive[fl.Name] && f.getenv(envName(fl.Name)) != "" {
			err = destructiveSetting(envName(fl.Name), fl.Name)
		}
		if err != nil || fl.Changed || notSettings[fl.Name] {
			return
		}
		if v := f.getenv(envName(fl.Name)); v != "" {
			if e := cmd.Flags().Set(fl.Name, v); e != nil {
				err = exitcode.Usagef("%s=%q is not a valid value for --%s (%s)", envName(fl.Name), clip.Value(v), fl.Name, fl.Value.Type())
			}
			return
		}
		v, ok := f.configValues[fl.Name]
		if !ok {
			return
		}
		vals := []any{v}
		if list, isList := v.([]any); isList {
			vals = list
		}
		for _, one := range vals {
			if _, isMap := one.(map[string]any); isMap || one == nil {
				err = exitcode.Usagef("%s: %s: want a single value for --%s", f.configFile, fl.Name, fl.Name)
				return
			}
			s := fmt.Sprint(one)
			if e := cmd.Flags().Set(fl.Name, s); e != nil {
				err = exitcode.Usagef("%s: %s: %q is not a valid value for --%s (%s)", f.configFile, fl.Name, clip.Value(s), fl.Name, fl.Value.Type())
				return
			}
		}
	})
	return err
}

// allFlags returns the name of every flag of every command.
func allFlags(root *cobra.Command) map[string]bool {
	names := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		add := func(fl *pflag.Flag) { names[fl.Name] = true }
		c.LocalFlags().VisitAll(add)
		c.PersistentFlags().VisitAll(add)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return names
}

// newHelpCmd replaces cobra's help command, which prints "Unknown help
// topic" and exits 0: here an unknown topic is a usage error (exit 2).
func newHelpCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		Long:  "Help provides help for any command in the application.\nSimply type k8sexplain help [path to command] for full details.",
		Example: `  k8sexplain help trace apply
  k8sexplain help quiz`,
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			target, _, err := c.Root().Find(args)
			if err != nil || target == nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var out []string
			for _, sub := range target.Commands() {
				if sub.IsAvailableCommand() && strings.HasPrefix(sub.Name(), toComplete) {
					out = append(out, sub.Name()+"\t"+sub.Short)
				}
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			target, rest, err := c.Root().Find(args)
			if err != nil || target == nil || len(rest) > 0 {
				return exitcode.Usagef("unknown help topic %q (see %s --help)", clip.Value(strings.Join(args, " ")), c.Root().Name())
			}
			target.InitDefaultHelpFlag()
			target.InitDefaultVersionFlag()
			return target.Help()
		},
	}
}

// groupsRejectUnknown makes every command that only groups subcommands
// (trace, trace delete) print its help when called alone and fail with a
// usage error on an unknown subcommand: cobra would print help and exit 0.
func groupsRejectUnknown(root *cobra.Command) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c != root && !c.Runnable() && c.HasSubCommands() {
			c.Args = cobra.ArbitraryArgs
			c.RunE = func(cmd *cobra.Command, args []string) error {
				if len(args) > 0 {
					return exitcode.Usagef("unknown command %q for %q (see %s --help)", clip.Value(args[0]), cmd.CommandPath(), cmd.CommandPath())
				}
				return cmd.Help()
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}
