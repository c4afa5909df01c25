package cmd

import (
	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/render"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// addConventionFlags adds the terminal conventions of kubectl and gh:
// -o/--output as another name for --format (kubectl's -o json), and
// --no-color for --color never.
func addConventionFlags(root *cobra.Command) {
	pf := root.PersistentFlags()
	pf.StringP("output", "o", "", "the same as --format (kubectl's -o): "+render.Choices())
	pf.Bool("no-color", false, "the same as --color never")
	_ = root.RegisterFlagCompletionFunc("output", fixedCompletion(render.Formats...))
}

// applyConventionFlags folds the aliases into the settings they stand for,
// before the configuration is bound: -o sets format, --no-color sets color.
// Given together with the long form, the alias must agree with it.
func applyConventionFlags(fs *pflag.FlagSet) error {
	if o := fs.Lookup("output"); o != nil && o.Changed {
		if f := fs.Lookup("format"); f != nil {
			if f.Changed && f.Value.String() != o.Value.String() {
				return exitcode.Usagef("--output %q and --format %q disagree: give one of them", o.Value.String(), f.Value.String())
			}
			if err := fs.Set("format", o.Value.String()); err != nil {
				return err
			}
		}
	}
	if n := fs.Lookup("no-color"); n != nil && n.Changed && n.Value.String() == "true" {
		if c := fs.Lookup("color"); c != nil {
			if c.Changed && c.Value.String() != "never" {
				return exitcode.Usagef("--no-color and --color %s disagree: give one of them", c.Value.String())
			}
			if err := fs.Set("color", "never"); err != nil {
				return err
			}
		}
	}
	return nil
}
