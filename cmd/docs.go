package cmd

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/manpage"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// environmentHelp is the `k8sexplain help environment` topic, as gh has
// one (gh help environment).
const environmentHelp = `k8sexplain reads these environment variables.

K8SEXPLAIN_<FLAG>: the value of a global flag when the command line does not give it; the flag
name in upper case with - and . as _ (K8SEXPLAIN_LANG=ru, K8SEXPLAIN_FORMAT=markdown,
K8SEXPLAIN_COLOR=never, K8SEXPLAIN_SEED=7, K8SEXPLAIN_VERBOSE=true). A config file key works the
same way (quiz.state-dir is K8SEXPLAIN_QUIZ_STATE_DIR). Order: flag, environment, config file,
default.

XDG_CONFIG_HOME: the config file is $XDG_CONFIG_HOME/k8sexplain/config.yaml, else
~/.config/k8sexplain/config.yaml (HOME).

NO_COLOR: any non-empty value turns colour off when --color is auto (no-color.org); an explicit
--color always still colours.

TERM: TERM=dumb turns colour off when --color is auto.

K8SEXPLAIN_PAGER, PAGER: the pager for long output on a terminal, in that order; less -FRX when
neither is set. An empty K8SEXPLAIN_PAGER, or "cat", turns paging off. Output to a pipe or a file
is never paged, nor output that fits on the screen (its height, else LINES).

COLUMNS: the width text output wraps to on a terminal when the terminal does not report one.
Output to a pipe or a file is never wrapped to the terminal.

SOURCE_DATE_EPOCH: the date written into man pages by k8sexplain man (reproducible builds).

GOMEMLIMIT: the Go runtime's soft memory limit. Unset, trace commands run under 950MiB, which keeps
the largest cluster (5,000 nodes, 150,000 pods) below 1 GiB of memory; set it to choose another
(GOMEMLIMIT=off for none).
`

// addHelpTopics adds the help-only topics and the man page generator.
func addHelpTopics(root *cobra.Command, f *Factory) {
	root.AddCommand(&cobra.Command{
		Use:   "environment",
		Short: "Environment variables that change what k8sexplain does",
		Long:  environmentHelp,
		Example: `  k8sexplain help environment
  K8SEXPLAIN_LANG=ru k8sexplain trace apply
  K8SEXPLAIN_PAGER=cat k8sexplain dnat`,
	})
	root.AddCommand(newCmdMan(f))
}

func newCmdMan(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "man DIR",
		Short: "Write a man page (section 1) for every command into DIR",
		Long: `Writes k8sexplain.1, k8sexplain-trace.1, k8sexplain-trace-apply.1 … from the same text as --help
(k8sexplain's own man(7) writer). The date in them is SOURCE_DATE_EPOCH when set, else a fixed one,
so two runs give the same files.`,
		Example: `  k8sexplain man ./man && man ./man/k8sexplain-trace-apply.1
  sudo k8sexplain man /usr/local/share/man/man1`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return exitcode.Usagef("usage: %s DIR", cmd.CommandPath())
			}
			return nil
		},
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return nil, cobra.ShellCompDirectiveFilterDirs
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := os.MkdirAll(args[0], 0o755); err != nil {
				return exitcode.Inputf("%v", err)
			}
			// A fixed date unless the build says otherwise: same input, same bytes.
			date := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			if s := f.IO.Getenv("SOURCE_DATE_EPOCH"); s != "" {
				if n, err := strconv.ParseInt(s, 10, 64); err == nil {
					date = time.Unix(n, 0).UTC()
				}
			}
			head := manpage.Page{Title: "K8SEXPLAIN", Section: "1", Source: "k8sexplain " + versionString(), Manual: "k8sexplain manual", Date: date}
			if g, err := f.Globals(); err == nil && g.Lang == "ru" {
				head.Manual, head.Headings = "руководство k8sexplain", manHeadingsRU
			}
			return writeManPages(cmd.Root(), args[0], head)
		},
	}
}

// manHeadingsRU are the section titles of a Russian man page, as the
// man-pages-ru translations write them (ИМЯ, ОБЗОР, ОПИСАНИЕ, ПАРАМЕТРЫ).
var manHeadingsRU = map[string]string{
	"NAME": "ИМЯ", "SYNOPSIS": "ОБЗОР", "DESCRIPTION": "ОПИСАНИЕ", "OPTIONS": "ПАРАМЕТРЫ",
	"OPTIONS INHERITED FROM PARENT COMMANDS": "ПАРАМЕТРЫ, УНАСЛЕДОВАННЫЕ ОТ РОДИТЕЛЬСКИХ КОМАНД",
	"EXAMPLE":                                "ПРИМЕР", "SEE ALSO": "СМОТРИТЕ ТАКЖЕ",
}

// writeManPages writes a page for root and for every command under it that
// --help lists (not help, not the hidden __complete), plus the environment
// help topic. head carries the .TH fields.
func writeManPages(root *cobra.Command, dir string, head manpage.Page) error {
	var walk func(c *cobra.Command) error
	walk = func(c *cobra.Command) error {
		name := strings.ReplaceAll(c.CommandPath(), " ", "-")
		if err := writeManPage(dir, name+".1", commandPage(c, head)); err != nil {
			return err
		}
		for _, sub := range manChildren(c) {
			if err := walk(sub); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(root); err != nil {
		return err
	}
	return writeManPage(dir, root.Name()+"-environment.1", environmentPage(root, head))
}

func writeManPage(dir, file string, p *manpage.Page) error {
	out, err := os.Create(filepath.Join(dir, file))
	if err != nil {
		return exitcode.Inputf("%v", err)
	}
	if err := manpage.Write(out, p); err != nil {
		out.Close()
		return exitcode.Inputf("man pages: %v", err)
	}
	if err := out.Close(); err != nil {
		return exitcode.Inputf("man pages: %v", err)
	}
	return nil
}

// manChildren are the subcommands that get a page, sorted by name.
func manChildren(c *cobra.Command) []*cobra.Command {
	var out []*cobra.Command
	for _, sub := range c.Commands() {
		if sub.IsAvailableCommand() && !sub.IsAdditionalHelpTopicCommand() {
			out = append(out, sub)
		}
	}
	return out
}

func commandPage(c *cobra.Command, head manpage.Page) *manpage.Page {
	c.InitDefaultHelpFlag()
	p := head
	p.Name = strings.ReplaceAll(c.CommandPath(), " ", "-")
	p.Short = c.Short
	p.Command = c.CommandPath()
	p.Args = strings.TrimSpace(strings.TrimPrefix(c.UseLine(), c.CommandPath()))
	if c.Root().Annotations["lang"] == "ru" {
		p.Args = strings.Replace(p.Args, "[flags]", "[флаги]", 1)
	}
	p.Description = c.Long
	if p.Description == "" {
		p.Description = c.Short
	}
	p.Options = manOptions(c.NonInheritedFlags())
	p.Inherited = manOptions(c.InheritedFlags())
	p.Example = c.Example
	if c.HasParent() {
		p.SeeAlso = append(p.SeeAlso, manpage.Ref{Name: strings.ReplaceAll(c.Parent().CommandPath(), " ", "-"), Section: head.Section})
	}
	for _, sub := range manChildren(c) {
		p.SeeAlso = append(p.SeeAlso, manpage.Ref{Name: strings.ReplaceAll(sub.CommandPath(), " ", "-"), Section: head.Section})
	}
	return &p
}

// environmentPage is the page of the help topic `k8sexplain help
// environment`, which has no page of its own in the tree walk.
func environmentPage(root *cobra.Command, head manpage.Page) *manpage.Page {
	p := head
	p.Name = root.Name() + "-environment"
	p.Short = "Environment variables that change what k8sexplain does"
	p.Command = root.Name() + " help environment"
	p.Description = environmentHelp
	help := pflag.NewFlagSet("environment", pflag.ContinueOnError)
	help.BoolP("help", "h", false, "help for environment")
	p.Options = manOptions(help)
	p.SeeAlso = []manpage.Ref{{Name: root.Name(), Section: head.Section}}
	return &p
}

// manOptions lists the flags --help shows, sorted by name.
func manOptions(fs *pflag.FlagSet) []manpage.Option {
	var out []manpage.Option
	fs.VisitAll(func(fl *pflag.Flag) {
		if fl.Hidden || fl.Deprecated != "" {
			return
		}
		o := manpage.Option{Name: fl.Name, Default: fl.DefValue, Optional: fl.NoOptDefVal != "", Usage: fl.Usage}
		if fl.ShorthandDeprecated == "" {
			o.Shorthand = fl.Shorthand
		}
		if fl.Value.Type() == "string" {
			o.Default = strconv.Quote(fl.DefValue)
		}
		out = append(out, o)
	})
	return out
}
