package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/golden"
	"github.com/k8sexplain/k8sexplain/internal/iostreams"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Every command has its summary, description and every flag in Russian;
// a flag whose English usage several commands share reads the same in all
// of them. A new command fails here until its helpRU entry (and flagRU
// entries) exist.
func TestEveryCommandHasRussianHelp(t *testing.T) {
	io, _, _, _ := iostreams.Test()
	root := NewRoot(&Factory{IO: io, Config: newConfig()})
	english := map[string]string{}
	usage := map[string]string{} // "path --name" → English usage
	var collect func(c *cobra.Command)
	collect = func(c *cobra.Command) {
		english[helpKey(c)] = c.Short + "\x00" + c.Long
		c.LocalFlags().VisitAll(func(fl *pflag.Flag) {
			usage[helpKey(c)+" --"+fl.Name] = fl.Usage
		})
		for _, sub := range c.Commands() {
			collect(sub)
		}
	}
	root.InitDefaultHelpCmd()
	collect(root)
	localizeHelp(root)
	seen := map[string]bool{}
	russianOf := map[string]string{} // English usage → the Russian first seen
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		key := helpKey(c)
		seen[key] = true
		if c.Hidden {
			return
		}
		en := strings.SplitN(english[key], "\x00", 2)
		if ru := helpRU[key]; ru.Short == "" {
			t.Errorf("%q: no Russian Short in helpRU", c.CommandPath())
		} else if ru.Short == en[0] {
			t.Errorf("%q: the Russian Short is the English one", c.CommandPath())
		}
		if en[1] != "" && helpRU[key].Long == "" {
			t.Errorf("%q: no Russian Long in helpRU", c.CommandPath())
		}
		c.LocalFlags().VisitAll(func(fl *pflag.Flag) {
			if fl.Hidden || fl.Name == "help" {
				return
			}
			enUsage := usage[key+" --"+fl.Name]
			ru := flagUsageRU(key, c.Name(), fl.Name, enUsage)
			switch prev, ok := russianOf[enUsage]; {
			case ru == "":
				t.Errorf("%q --%s: no Russian usage in flagRU or flagRUShared", c.CommandPath(), fl.Name)
			case ok && prev != ru:
				t.Errorf("%q --%s: %q reads %q here and %q elsewhere (one entry in flagRUShared)", c.CommandPath(), fl.Name, enUsage, ru, prev)
			case !ok:
				russianOf[enUsage] = ru
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	for key := range helpRU {
		if !seen[key] {
			t.Errorf("helpRU[%q]: no such command", key)
		}
	}
	for key := range flagRU {
		path, name, ok := strings.Cut(key, "--")
		if ok && path != "" && usage[path+"--"+name] == "" {
			t.Errorf("flagRU[%q]: no such flag", key)
		}
	}
}

// --help under --lang ru, K8SEXPLAIN_LANG=ru and the config file; the
// default stays English.
func TestRussianHelpGoldens(t *testing.T) {
	for name, args := range map[string][]string{
		"help/root.ru.txt":          {"--lang", "ru", "--help"},
		"help/trace.ru.txt":         {"--lang=ru", "trace", "--help"},
		"help/trace-apply.ru.txt":   {"--lang", "ru", "trace", "apply", "--help"},
		"help/quorum.ru.txt":        {"--lang", "ru", "quorum", "--help"},
		"help/dnat.ru.txt":          {"--lang", "ru", "dnat", "--help"},
		"help/grpc-skew.ru.txt":     {"--lang", "ru", "grpc-skew", "--help"},
		"help/quiz.ru.txt":          {"--lang", "ru", "help", "quiz"},
		"help/trace-rollout.ru.txt": {"--lang", "ru", "trace", "rollout", "--help"},
		"help/environment.ru.txt":   {"--lang", "ru", "help", "environment"},
		"help/task-start.ru.txt":    {"--lang", "ru", "task", "start", "--help"},
	} {
		runGolden(t, name, args...)
	}
	en, _, _ := run(t, "", "quorum", "--help")
	if !strings.Contains(en, "Usage:") || strings.Contains(en, "Использование") {
		t.Errorf("English help is no longer the default:\n%s", en)
	}
	io, _, out, _ := iostreams.Test()
	io.Getenv = func(k string) string {
		if k == "K8SEXPLAIN_LANG" {
			return "ru"
		}
		return ""
	}
	Execute(io, []string{"quorum", "--help"})
	if !strings.Contains(out.String(), "Использование:") {
		t.Errorf("K8SEXPLAIN_LANG=ru: help not in Russian:\n%s", out)
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(cfg, []byte("lang: ru\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out2, _, _ := run(t, "", "--config", cfg, "dnat", "--help")
	if !strings.Contains(out2, "Флаги:") {
		t.Errorf("lang: ru in the config file: help not in Russian:\n%s", out2)
	}
}

// The shared one-line errors under --lang ru, one per line.
func TestRussianErrorsGolden(t *testing.T) {
	var b strings.Builder
	for _, args := range [][]string{
		{"--lang", "ru", "trace", "apply", "--nodes", "x"},
		{"--lang", "ru", "trace", "apply", "--nodse", "3"},
		{"--lang", "ru", "quorum", "--fail"},
		{"--lang", "ru", "trace", "apply", "--nodes", "0"},
		{"--lang", "ru", "nope"},
		{"--lang", "ru", "version", "x"},
		{"--lang", "ru", "dnat", "--mode", "ebpf"},
		{"--lang", "ru", "quorum", "--check-quorum=maybe"},
		{"--lang", "ru", "grpc-skew", "--duration", "5"},
		{"--lang", "ru", "--color", "blue", "version"},
		// The commands' own messages (errorFormatRU).
		{"--lang", "ru", "quiz", "--topic", "gardening"},
		{"--lang", "ru", "task", "start", "nope"},
		{"--lang", "ru", "quorum", "--partition", "5"},
		{"--lang", "ru", "trace", "node-failure", "--node", "node-z"},
		{"--lang", "ru", "trace", "rollout"},
		{"--lang", "ru", "trace", "rollout", "--image", "x"},
		{"--lang", "ru", "trace", "autoscale", "--cpu", "abc"},
		{"--lang", "ru", "trace", "apply", "testdata/bad-yaml.yaml"},
		{"--lang", "ru", "dnat", "--endpoints-file", "testdata/bad-endpoints.txt"},
		{"--lang", "ru", "dnat", "--type", "ClusterIP", "--node-port", "30080"},
		{"--lang", "ru", "grpc-skew", "--kill-pod", "--pods", "1"},
	} {
		_, errOut, code := run(t, "", args...)
		if code == 0 || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q: want one error line", args, code, errOut)
		}
		b.WriteString(errOut)
	}
	golden.Assert(t, "help/errors.ru.txt", []byte(b.String()))
}

// k8sexplain man under --lang ru: Russian section titles and text.
func TestRussianManPage(t *testing.T) {
	dir := t.TempDir()
	if _, errOut, code := run(t, "", "--lang", "ru", "man", dir); code != 0 {
		t.Fatalf("man: exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(filepath.Join(dir, "k8sexplain-quorum.1"))
	if err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, "help/k8sexplain-quorum.ru.1", b)
}

func TestTranslateErrorKeepsUnknownMessages(t *testing.T) {
	for in, want := range map[string]string{
		"something new happened":                                "something new happened",
		"unknown flag: --x (see k8sexplain dnat --help)":        "неизвестный флаг: --x (см. k8sexplain dnat --help)",
		"internal error (a bug, please report it): boom":        "внутренняя ошибка (ошибка в программе, сообщите о ней): boom",
		"invalid --mode \"x\": want iptables, ipvs or nftables": "недопустимое значение --mode \"x\": нужно iptables, ipvs или nftables",
	} {
		if got := translateError(in); got != want {
			t.Errorf("translateError(%q) = %q, want %q", in, got, want)
		}
	}
}
