package cmd

import (
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
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
is never paged.

COLUMNS: the width text output wraps to on a terminal when the terminal does not report one.
Output to a pipe or a file is never wrapped to the terminal.

SOURCE_DATE_EPOCH: the date written into man pages by k8sexplain man (reproducible builds).

GOMEMLIMIT: the Go runtime's soft memory limit. Unset, trace commands run under 1900MiB, which keeps
the largest cluster (5,000 nodes, 150,000 pods) below 2 GiB of memory; set it to choose another
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
		Long: `Writes k8sexplain.1, k8sexplain-trace.1, k8sexplain-trace-apply.1 … with cobra's man page generator,
from the same text as --help. The date in them is SOURCE_DATE_EPOCH when set, else a fixed one,
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
			h := &doc.GenManHeader{Title: "K8SEXPLAIN", Section: "1", Source: "k8sexplain " + versionString(), Manual: "k8sexplain manual", Date: &date}
			root := cmd.Root()
			root.DisableAutoGenTag = true
			if err := doc.GenManTree(root, h, args[0]); err != nil {
				return exitcode.Inputf("man pages: %v", err)
			}
			// cobra skips help topics; environment gets its page too.
			top := &cobra.Command{Use: root.Name(), DisableAutoGenTag: true}
			help := &cobra.Command{Use: "help"}
			top.AddCommand(help)
			env := &cobra.Command{Use: "environment", Short: "Environment variables that change what k8sexplain does", Long: environmentHelp, DisableFlagsInUseLine: true, Run: func(*cobra.Command, []string) {}}
			help.AddCommand(env)
			out, err := os.Create(filepath.Join(args[0], root.Name()+"-environment.1"))
			if err != nil {
				return exitcode.Inputf("%v", err)
			}
			defer out.Close()
			if err := doc.GenMan(env, h, out); err != nil {
				return exitcode.Inputf("man pages: %v", err)
			}
			return out.Close()
		},
	}
}
