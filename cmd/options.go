package cmd

import (
	"time"

	"github.com/k8sexplain/k8sexplain/internal/iostreams"
	"github.com/k8sexplain/k8sexplain/internal/render"
	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Every command has the shape of the GitHub CLI's (cli/cli
// pkg/cmd/issue/close): an XOptions struct holding what the command works
// from, NewCmdX(f, runF) that only wires flags into it, and xRun(opts) that
// does the work. A test passes a runF to NewCmdX to see the parsed options
// without running anything, or calls xRun with options and test streams to
// see the output without cobra.

// Common begins every command's options: the streams it reads and writes
// and the global settings (--lang, --format, --color, --seed, -v), resolved.
type Common struct {
	IO       *iostreams.Streams
	Settings Globals
	// Clock is the wall clock (Factory.Clock).
	Clock func() time.Time
}

// common resolves the part of the options every command shares.
func (f *Factory) common() (Common, error) {
	g, err := f.Globals()
	clock := f.Clock
	if clock == nil {
		clock = time.Now
	}
	return Common{IO: f.IO, Settings: g, Clock: clock}, err
}

// render prints a report in the global format on the command's stdout.
func (c *Common) render(d *report.Doc) error {
	g := c.Settings
	return render.Render(c.IO.Out, d, render.Options{Format: g.Format, Color: g.Color, Lang: g.Lang, Width: c.IO.TerminalWidth()})
}

// versioned names d's JSON structure and version (docs/json.md): --format
// json writes it first, as "schema".
func versioned(schema string, d *report.Doc) *report.Doc {
	d.Schema = schema
	return d
}

// shared gives runE the Common of any options that embed it.
func (c *Common) shared() *Common { return c }

// runE is the RunE of a command whose options o embed Common: it resolves
// the shared part, lets each of before copy into o what only cobra knows
// (arguments, which flags were given), then calls runF (a test's) when
// there is one, else run.
func runE[O interface{ shared() *Common }](f *Factory, o O, runF, run func(O) error, before ...func(*cobra.Command, []string)) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		var err error
		if *o.shared(), err = f.common(); err != nil {
			return err
		}
		for _, b := range before {
			b(cmd, args)
		}
		if runF != nil {
			return runF(o)
		}
		return run(o)
	}
}

// changedFlags are the flags of cmd that were given: on the command line,
// or as K8SEXPLAIN_<FLAG> or a config key (applySettings sets those through
// the flag, so they count as given too).
func changedFlags(cmd *cobra.Command) map[string]bool {
	changed := map[string]bool{}
	cmd.Flags().Visit(func(fl *pflag.Flag) { changed[fl.Name] = true })
	return changed
}
