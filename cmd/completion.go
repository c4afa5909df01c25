package cmd

import (
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/sim"
	"github.com/spf13/cobra"
)

// manifestExts are the files a manifest flag or argument completes to, the
// extensions manifest.Load reads from a directory.
var manifestExts = []string{"yaml", "yml", "json"}

func manifestFiles(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return manifestExts, cobra.ShellCompDirectiveFilterFileExt
}

// addCompletions wires shell completion through the whole tree: manifest
// flags and arguments (and --scheduler-config) offer *.yaml, *.yml and *.json files (and
// directories), --node the nodes and --pod the pods of the cluster the
// command would build, and `trace delete` its literal first word, pod.
func addCompletions(root *cobra.Command, f *Factory) {
	_ = root.RegisterFlagCompletionFunc("config", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"yaml", "yml"}, cobra.ShellCompDirectiveFilterFileExt
	})
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		// LocalFlags builds a new set on every call: once per command.
		local := c.LocalFlags()
		for _, name := range []string{"filename", "cluster", "scheduler-config"} {
			if local.Lookup(name) != nil {
				_ = c.RegisterFlagCompletionFunc(name, manifestFiles)
			}
		}
		if local.Lookup("node") != nil {
			_ = c.RegisterFlagCompletionFunc("node", func(cmd *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
				return nodeNames(cmd), cobra.ShellCompDirectiveNoFileComp
			})
		}
		if local.Lookup("pod") != nil {
			_ = c.RegisterFlagCompletionFunc("pod", func(cmd *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
				return podNames(cmd, f), cobra.ShellCompDirectiveNoFileComp
			})
		}
		switch c.CommandPath() {
		case "k8sexplain trace apply":
			c.ValidArgsFunction = manifestFiles
		case "k8sexplain trace delete":
			c.ValidArgsFunction = func(cmd *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
				switch len(args) {
				case 0:
					return []string{"pod"}, cobra.ShellCompDirectiveNoFileComp
				case 1:
					return podNames(cmd, f), cobra.ShellCompDirectiveNoFileComp
				}
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// intFlag reads an int flag of cmd, or def.
func intFlag(cmd *cobra.Command, name string, def int) int {
	if v, err := cmd.Flags().GetInt(name); err == nil {
		return v
	}
	return def
}

// nodeNames are the worker nodes --nodes makes (node-a, node-b…).
func nodeNames(cmd *cobra.Command) []string {
	n := intFlag(cmd, "nodes", 3)
	if checkNodes(n) != nil {
		return nil
	}
	var out []string
	for _, node := range sim.DefaultNodes(n, false) {
		out = append(out, node.Name)
	}
	return out
}

// podNames runs the command's scene (the -f manifests, or the built-in
// example, on --nodes workers with --seed) until it settles and lists its
// pods: the simulation is deterministic, so these are the names the
// command will see. Errors complete nothing.
func podNames(cmd *cobra.Command, f *Factory) []string {
	files, _ := cmd.Flags().GetStringArray("filename")
	seed := int64(1)
	if v, err := cmd.Flags().GetInt64("seed"); err == nil {
		seed = v
	}
	n := intFlag(cmd, "nodes", 3)
	if checkNodes(n) != nil {
		return nil
	}
	objs, err := loadManifests(f.IO, files)
	if err != nil {
		return nil
	}
	cl, err := sim.NewCluster(sim.Config{Seed: seed, Workers: n, StepLimit: 1})
	if err != nil {
		return nil
	}
	source := strings.Join(files, " ")
	if source == "" {
		source = builtinExample
	}
	cl.Apply(objs, []string{source})
	if !cl.Settle() {
		return nil
	}
	var out []string
	for _, p := range cl.Pods() {
		out = append(out, p.Name)
	}
	return out
}
