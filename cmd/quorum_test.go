package cmd

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/golden"
	etcdexplain "github.com/k8sexplain/k8sexplain/internal/sim/etcd/explain"
)

// Golden stories: issue 3 §7. Read them after -update: each is a claim
// about what etcd does.
func TestQuorumGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"nodes1.txt", []string{"--nodes", "1"}},
		{"nodes2.txt", []string{"--nodes", "2"}},
		{"nodes3.txt", []string{"--nodes", "3"}},
		{"nodes4.txt", []string{"--nodes", "4"}},
		{"nodes5.txt", []string{"--nodes", "5"}},
		{"nodes2-partition-1-1.txt", []string{"--nodes", "2", "--partition", "1,1"}},
		{"nodes3-isolate-leader.txt", []string{"--nodes", "3", "--isolate", "leader"}},
		{"nodes3-isolate-follower-no-prevote.txt", []string{"--nodes", "3", "--isolate", "follower", "--pre-vote=false"}},
		{"nodes3-isolate-leader-no-checkquorum.txt", []string{"--nodes", "3", "--isolate", "leader", "--check-quorum=false"}},
		{"nodes4-partition-2-2.txt", []string{"--nodes", "4", "--partition", "2,2"}},
		{"nodes5-fail2.txt", []string{"--nodes", "5", "--fail", "2"}},
		{"nodes5-fail3.txt", []string{"--nodes", "5", "--fail", "3"}},
		{"nodes3-isolate-leader-verbose.txt", []string{"--nodes", "3", "--isolate", "leader", "-v"}},
		{"nodes3-isolate-leader-ru.txt", []string{"--nodes", "3", "--isolate", "leader", "--lang", "ru"}},
		{"nodes2-ru.txt", []string{"--nodes", "2", "--lang", "ru"}},
		{"nodes5-fail3-ru.md", []string{"--nodes", "5", "--fail", "3", "--lang", "ru", "--format", "markdown"}},
		{"nodes3-isolate-leader.mmd", []string{"--nodes", "3", "--isolate", "leader", "--format", "mermaid"}},
		{"nodes2.md", []string{"--nodes", "2", "--format", "markdown"}},
		{"nodes2.json", []string{"--nodes", "2", "--format", "json"}},
		// Pairs of a page and its JSON: the browser test checks the page's
		// member boxes against the simulation's states.
		{"nodes3-isolate-leader.json", []string{"--nodes", "3", "--isolate", "leader", "--format", "json"}},
		{"nodes5-fail2.html", []string{"--nodes", "5", "--fail", "2", "--format", "html"}},
		{"nodes5-fail2.json", []string{"--nodes", "5", "--fail", "2", "--format", "json"}},
		// The space story (issue 22 §5): quota, NOSPACE, compact, defrag, disarm.
		{"space-quota16m.txt", []string{"--quota-backend-bytes", "16777216"}},
		{"space-quota16m-ru.txt", []string{"--quota-backend-bytes", "16777216", "--lang", "ru"}},
		{"space-quota16m-nodefrag.txt", []string{"--quota-backend-bytes", "16777216", "--defrag=false"}},
		{"space-quota1m-compact-future.txt", []string{"--nodes", "1", "--quota-backend-bytes", "1048576", "--compact", "99"}},
		{"space-quota16m.json", []string{"--quota-backend-bytes", "16777216", "--format", "json"}},
		{"space-quota16m-ru.md", []string{"--quota-backend-bytes", "16777216", "--lang", "ru", "--format", "markdown"}},
		{"space-quota16m.mmd", []string{"--quota-backend-bytes", "16777216", "--format", "mermaid"}},
		{"space-quota16m.html", []string{"--quota-backend-bytes", "16777216", "--format", "html"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runGolden(t, "quorum/"+tc.name, append([]string{"quorum", "--color", "never"}, tc.args...)...)
		})
	}
}

// Same flags, same bytes.
func TestQuorumDeterministic(t *testing.T) {
	args := []string{"quorum", "--nodes", "5", "--partition", "2,2,1", "-v"}
	first, _, _ := run(t, "", args...)
	for i := 0; i < 3; i++ {
		if out, _, _ := run(t, "", args...); out != first {
			t.Fatalf("run %d differs", i)
		}
	}
}

// Bad input: one line on stderr, exit 1 (issue 3 §6).
func TestQuorumBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--nodes", "0"}, "invalid --nodes 0"},
		{[]string{"--nodes", "-3"}, "invalid --nodes -3"},
		{[]string{"--nodes", "10"}, "want 1 to 9"},
		{[]string{"--nodes", "3", "--fail", "3"}, "invalid --fail 3"},
		{[]string{"--nodes", "3", "--fail", "-1"}, "invalid --fail -1"},
		{[]string{"--nodes", "5", "--partition", "2,2"}, "groups add up to 4, but --nodes is 5"},
		{[]string{"--nodes", "3", "--partition", "3"}, "want 2 or 3 group sizes"},
		{[]string{"--nodes", "4", "--partition", "2,x"}, `"x" is not a group size`},
		{[]string{"--nodes", "4", "--partition", "4,0"}, `"0" is not a group size`},
		{[]string{"--isolate", "candidate"}, `invalid --isolate "candidate"`},
		{[]string{"--nodes", "1", "--isolate", "leader"}, "no one to be cut off"},
		{[]string{"--fail", "1", "--isolate", "leader"}, "only one of"},
		{[]string{"--compact", "5"}, "--compact only applies with --quota-backend-bytes"},
		{[]string{"--defrag=false"}, "--defrag only applies with --quota-backend-bytes"},
		{[]string{"--quota-backend-bytes", "-1"}, "a negative quota disables it"},
		{[]string{"--quota-backend-bytes", "9000000000"}, "above etcd's suggested maximum"},
		{[]string{"--quota-backend-bytes", "1000"}, "invalid --quota-backend-bytes 1000: quota 1000 bytes is too small for the story: want at least 65536"},
		{[]string{"--quota-backend-bytes", "16777216", "--compact", "-2"}, "invalid --compact -2"},
		{[]string{"--quota-backend-bytes", "16777216", "--fail", "1"}, "on a healthy cluster"},
	} {
		_, errOut, code := run(t, "", append([]string{"quorum"}, tc.args...)...)
		if code != 1 || !strings.Contains(errOut, tc.msg) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q (want exit 1 and one line with %q)", tc.args, code, errOut, tc.msg)
		}
	}
}

// Every size 1..9 and every fault runs in both languages without a missing
// catalogue key.
func TestQuorumAllRuns(t *testing.T) {
	for n := 1; n <= 9; n++ {
		for _, lang := range []string{"en", "ru"} {
			for _, extra := range [][]string{nil, {"--fail", "1"}, {"--pre-vote=false", "--check-quorum=false"}} {
				if n == 1 && len(extra) > 0 && extra[0] == "--fail" {
					continue
				}
				for _, format := range []string{"text", "mermaid"} {
					args := append([]string{"quorum", "--nodes", itoa(n), "--lang", lang, "--format", format}, extra...)
					out, errOut, code := run(t, "", args...)
					if code != 0 || missingKey.MatchString(out) || strings.Contains(out, "%!") || strings.Contains(out, "?}") {
						t.Errorf("%v: exit %d %s\n%s", args, code, errOut, out)
					}
				}
			}
		}
	}
}

// The space story runs on every size, with and without defragmentation,
// in both languages, without a missing catalogue key; the last Put commits
// only after a defragmentation.
func TestQuorumSpaceAllRuns(t *testing.T) {
	for n := 1; n <= 9; n++ {
		for _, lang := range []string{"en", "ru"} {
			for _, defrag := range []string{"--defrag=true", "--defrag=false"} {
				for _, format := range []string{"text", "mermaid"} {
					args := []string{"quorum", "--nodes", itoa(n), "--quota-backend-bytes", "4194304", defrag, "--lang", lang, "--format", format}
					out, errOut, code := run(t, "", args...)
					if code != 0 || missingKey.MatchString(out) || strings.Contains(out, "%!") || strings.Contains(out, "?}") {
						t.Errorf("%v: exit %d %s\n%s", args, code, errOut, out)
					}
				}
			}
		}
	}
}

// The two catalogues have the same keys with the same placeholders.
func TestQuorumCatalogue(t *testing.T) {
	for _, err := range etcdexplain.Catalog.Check() {
		t.Error(err)
	}
}

// Counts agree with their nouns and verbs in both languages (l10n.Count):
// "1 member crashes", "2 members crash", "падает 1 участник", "падают 2 участника",
// "из 5 участников"; never "member(s)", "1 members" or "5 участника".
func TestQuorumPlurals(t *testing.T) {
	want := map[string][]string{
		"en --nodes 5 --fail 1": {"Fault: 1 member crashes: etcd-1", "etcd-1 crashes", "etcd-1 restarts from disk", "can lose 1 more member before"},
		"en --nodes 7 --fail 1": {"can lose 2 more members before"},
		"en --nodes 5 --fail 2": {"Fault: 2 members crash: etcd-1, etcd-5", "etcd-1, etcd-5 crash\n", "etcd-1, etcd-5 restart from disk"},
		"en --nodes 4":          {"4 members tolerate 1 failure,"},
		"en --nodes 1":          {"1 of 1 vote (needs 1)"},
		"ru --nodes 5 --fail 1": {"Сбой: падает 1 участник (etcd-1)", "падает etcd-1", "etcd-1 перезапускается", "может упасть ещё 1 участник,", "Уцелело 4 из 5 участников"},
		"ru --nodes 7 --fail 1": {"могут упасть ещё 2 участника,", "кластер переживает отказ не более 3 участников"},
		"ru --nodes 5 --fail 2": {"Сбой: падают 2 участника (etcd-1, etcd-5)", "etcd-1, etcd-5 перезапускаются", "5 участников стартуют"},
		"ru --nodes 3":          {"3 участника стартуют", "из 3 участников", "Кластер из 3 участников", "не более 1 участника"},
		"ru --nodes 4":          {"Кластер из 4 участников переживает 1 отказ"},
		"ru --nodes 1":          {"единственный участник стартует", "1 из 1 голоса"},
	}
	bad := map[string]*regexp.Regexp{
		"en": regexp.MustCompile(`\(s\)|(^|[^\d])1 (members|failures|votes|more members)\b|(^|[^\d])[2-9] (member|failure|vote|more member)\b`),
		"ru": regexp.MustCompile(`\(s\)|(^|[^\d])[05-9] участника?([^\p{L}]|$)|(^|[^\d])1 участников|(^|[^\d])[2-4] участник([^\p{L}]|$)|(^|[^\d])[2-4] участников? (стартуют|падают)|узл|узел`),
	}
	for n := 1; n <= 9; n++ {
		for _, lang := range []string{"en", "ru"} {
			for _, extra := range [][]string{nil, {"--fail", "1"}, {"--fail", "2"}, {"--fail", itoa(n / 2)}} {
				if len(extra) > 0 && extra[1] >= itoa(n) {
					continue
				}
				args := append([]string{"quorum", "--lang", lang, "--nodes", itoa(n)}, extra...)
				out, errOut, code := run(t, "", args...)
				if code != 0 {
					t.Fatalf("%v: exit %d %s", args, code, errOut)
				}
				if m := bad[lang].FindString(out); m != "" {
					t.Errorf("%v: %q", args, m)
				}
				for _, w := range want[strings.Join(append([]string{lang, "--nodes", itoa(n)}, extra...), " ")] {
					if !strings.Contains(out, strings.ReplaceAll(w, "\\n", "\n")) {
						t.Errorf("%v: no %q in\n%s", args, w, out)
					}
				}
			}
		}
	}
}

// The Russian goldens (*-ru.*: a bare *ru* would also catch
// "checkquorum") say «участник» (etcd) and «нода» (Kubernetes), never
// «узел», and write durations and decimals the Russian way: no Go duration
// literal (30s, 150ms, 2m30s) and no decimal point outside `code`.
func TestQuorumRussianGoldens(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(golden.Dir(), "quorum", "*-ru.*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Russian goldens: %v", err)
	}
	code := regexp.MustCompile("`[^`\n]*`")
	for name, re := range map[string]*regexp.Regexp{
		"«узел»":              regexp.MustCompile(`(?i)узел|узл`),
		"Go duration literal": regexp.MustCompile(`\b\d+(ms|s|m\d+s|h\d*m?\d*s?)\b`),
		"decimal point":       regexp.MustCompile(`\d\.\d`),
	} {
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for i, line := range strings.Split(string(b), "\n") {
				if m := re.FindString(code.ReplaceAllString(line, "")); m != "" {
					t.Errorf("%s:%d: %s %q in %q", filepath.Base(f), i+1, name, m, line)
				}
			}
		}
	}
}

// missingKey matches the "!key" a missing catalogue entry prints.
var missingKey = regexp.MustCompile(`![a-z][a-z0-9-]*\.`)

func itoa(n int) string { return string(rune('0' + n)) }

// BenchmarkQuorum measures a whole command run: simulation and rendering.
func BenchmarkQuorum(b *testing.B) {
	for _, args := range [][]string{
		{"quorum", "--nodes", "3"},
		{"quorum", "--nodes", "5", "--fail", "3"},
		{"quorum", "--nodes", "9", "-v"},
	} {
		b.Run(strings.Join(args[1:], " "), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, errOut, code := run(b, "", args...); code != 0 {
					b.Fatal(errOut)
				}
			}
		})
	}
}
