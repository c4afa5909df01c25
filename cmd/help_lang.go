package cmd

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/iostreams"
	"github.com/k8sexplain/k8sexplain/internal/readcap"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"gopkg.in/yaml.v3"
)

// lineLang is the language a command line asks for before cobra parses
// it: help, usage and cobra's own errors are written before
// PersistentPreRunE (which resolves --lang) runs. The order is the
// settings' order: --lang on the line, K8SEXPLAIN_LANG, lang in the config
// file (--config, K8SEXPLAIN_CONFIG or the XDG one); "en" otherwise. A
// bad value is left to Globals to report.
func lineLang(io *iostreams.Streams, args []string) string {
	getenv := func(k string) string {
		if io == nil || io.Getenv == nil {
			return ""
		}
		return io.Getenv(k)
	}
	config := ""
	for i, a := range args {
		if a == "--" {
			break
		}
		if v, ok := strings.CutPrefix(a, "--lang="); ok {
			return v
		}
		if a == "--lang" && i+1 < len(args) {
			return args[i+1]
		}
		if v, ok := strings.CutPrefix(a, "--config="); ok {
			config = v
		}
		if a == "--config" && i+1 < len(args) {
			config = args[i+1]
		}
	}
	if v := getenv("K8SEXPLAIN_LANG"); v != "" {
		return v
	}
	if config == "" {
		config = getenv("K8SEXPLAIN_CONFIG")
	}
	if config == "" {
		dir := getenv("XDG_CONFIG_HOME")
		if dir == "" && getenv("HOME") != "" {
			dir = filepath.Join(getenv("HOME"), ".config")
		}
		if dir == "" {
			return "en"
		}
		config = filepath.Join(dir, "k8sexplain", "config.yaml")
		if _, err := os.Stat(config); err != nil {
			return "en"
		}
	}
	data, err := readcap.ReadFile(config, readcap.Config, "a config file")
	if err != nil {
		return "en" // readConfig reports it
	}
	var m struct {
		Lang string `yaml:"lang"`
	}
	if yaml.Unmarshal(data, &m) != nil || m.Lang == "" {
		return "en"
	}
	return m.Lang
}

// usageTemplateRU is cobra's usage template (command.go, defaultUsageTemplate,
// cobra v1.10) with Russian section headers, as kubectl's translations
// title them (Использование, Примеры, Флаги).
const usageTemplateRU = `Использование:{{if .Runnable}}
  {{useLineRU .}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} [команда]{{end}}{{if gt (len .Aliases) 0}}

Псевдонимы:
  {{.NameAndAliases}}{{end}}{{if .HasExample}}

Примеры:
{{.Example}}{{end}}{{if .HasAvailableSubCommands}}

Команды:{{range .Commands}}{{if (or .IsAvailableCommand (eq .Name "help"))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{if .HasAvailableLocalFlags}}

Флаги:
{{flagUsagesRU .LocalFlags}}{{end}}{{if .HasAvailableInheritedFlags}}

Глобальные флаги:
{{flagUsagesRU .InheritedFlags}}{{end}}{{if .HasHelpSubCommands}}

Другие разделы справки:{{range .Commands}}{{if .IsAdditionalHelpTopicCommand}}
  {{rpad .CommandPath .CommandPathPadding}} {{.Short}}{{end}}{{end}}{{end}}{{if .HasAvailableSubCommands}}

Подробнее о команде: «{{.CommandPath}} [команда] --help».{{end}}
`

func init() {
	cobra.AddTemplateFunc("useLineRU", func(c *cobra.Command) string {
		return strings.Replace(c.UseLine(), " [flags]", " [флаги]", 1)
	})
	cobra.AddTemplateFunc("flagUsagesRU", flagUsagesRU)
}

// flagUsagesRU is pflag's FlagUsages with its one English phrase, the
// "(default …)" it appends, in Russian.
func flagUsagesRU(fs *pflag.FlagSet) string {
	s := strings.TrimRight(fs.FlagUsages(), " \n")
	return strings.ReplaceAll(s, " (default ", " (по умолчанию ")
}

// helpKey is a command's key in helpRU: its path without the root's name.
func helpKey(c *cobra.Command) string {
	p := c.CommandPath()
	if i := strings.IndexByte(p, ' '); i >= 0 {
		return p[i+1:]
	}
	return ""
}

// localizeHelp puts the Russian help of helpRU and flagRU into the tree:
// --help, man pages and completion descriptions all read it from there.
// TestEveryCommandHasRussianHelp sees that every text has one.
func localizeHelp(root *cobra.Command) {
	root.SetUsageTemplate(usageTemplateRU)
	if root.Annotations == nil {
		root.Annotations = map[string]string{}
	}
	root.Annotations["lang"] = "ru" // man pages' SYNOPSIS reads it
	root.InitDefaultVersionFlag()
	root.InitDefaultHelpCmd() // newHelpCmd's command joins the tree here
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		key := helpKey(c)
		if t, ok := helpRU[key]; ok {
			if t.Short != "" {
				c.Short = t.Short
			}
			if t.Long != "" {
				c.Long = t.Long
			}
			if t.Example != "" {
				c.Example = t.Example
			}
		}
		c.InitDefaultHelpFlag()
		localizeFlags(key, c, c.LocalNonPersistentFlags())
		localizeFlags(key, c, c.PersistentFlags())
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

func localizeFlags(key string, c *cobra.Command, fs *pflag.FlagSet) {
	fs.VisitAll(func(fl *pflag.Flag) {
		if u := flagUsageRU(key, c.Name(), fl.Name, fl.Usage); u != "" {
			fl.Usage = u
		}
	})
}

// flagUsageRU is the Russian usage of flag name of the command at key
// (named cmdName), whose English usage is english; "" when there is none.
// A command's own entry comes first, then the one its English text shares
// with other commands, then a global flag's.
func flagUsageRU(key, cmdName, name, english string) string {
	if name == "help" {
		return "справка по " + cmdName
	}
	if u := flagRU[strings.TrimSpace(key+" --"+name)]; u != "" {
		return u
	}
	if u := flagRUShared[english]; u != "" {
		return u
	}
	return flagRU["--"+name]
}
