package golden

import (
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// goDuration is a duration as Go writes it (4ms, 1.64s, 5m0s, 1m10s): a
// number glued to a Latin unit. Russian output writes "4 мс", "1,64 с".
var goDuration = regexp.MustCompile(`(?:^|[^\w.:/-])(\d+(?:\.\d+)?(?:ns|µs|us|ms|s|m|h)(?:\d+(?:\.\d+)?(?:ms|s|m))*)(?:$|[^\w/-])`)

// englishWords are words an English sentence cannot do without; Russian
// text uses English technical terms (rolling update, back-off), but two
// Latin words in a row of which one is among these is an English fragment
// ("all passed", "of the pod").
var englishWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`the a an is are was were be been being of to in on at by with for from and or
		not no has have had will would can could should this that these those which who when where after before
		than then it its as all only more each every there what how per passed fits into over under out up
		pod pods node nodes member members seconds second minutes`) {
		englishWords[w] = true
	}
}

// latinRun is two or more Latin words in a row, separated by one space
// (columns of a table are not a sentence) and not glued to a name
// (node-a, pods/default/web).
var latinRun = regexp.MustCompile(`(?:^|[^\w./:'-])([A-Za-z]+(?:'[a-z]+)?(?: [A-Za-z]+(?:'[a-z]+)?)+)`)

// verbatim are the parts of Russian output that are English on purpose:
// each removes text before the scan, with the reason it may stay English.
var verbatim = []struct {
	re     *regexp.Regexp
	reason string
}{
	{regexp.MustCompile(`(?:GA в|beta в|в|с|до|≥|Kubernetes|kube-proxy) v?1\.\d\d\b(?:\.\d+)?`), "a Kubernetes version (GA в 1.34, kube-proxy ≥ 1.30)"},
	{regexp.MustCompile(`\b0\.\d{5,}\b`), "an iptables rule's --probability, as kube-proxy writes it (%0.10f) and iptables-save prints it"},
	{regexp.MustCompile(`-m comment --comment \\?"[^"]*"|(?m)^.*(?:^|\s)-[AIN] [A-Z][A-Z0-9-]+\s.*$`), "an iptables rule and its comment, as iptables-save prints them"},
	{regexp.MustCompile(`Event (?:Normal|Warning) \w+(?: [a-z.]+/[^:]*)?: .*`), "a Kubernetes Event's message is quoted as the API stores it and kubectl shows it (after its object as kubectl get events names it)"},
	{regexp.MustCompile(`(?m)^\s*(?:\| )?(?:Normal|Warning)\s*(?:\| )?\w+\s.*$`), "a row of `kubectl describe`'s Events table: Age and Message are kubectl's own (4s, 1m10s)"},
	{regexp.MustCompile(`--[a-z][a-z0-9-]+(?:[ =][^\s,;)]+)?`), "a command-line flag and its value, typed as the component takes it (--node-monitor-grace-period 50s)"},
	{regexp.MustCompile(`\(по умолчанию "?[^\s")]+"?\)`), "a flag's default in --help, written as the flag takes it (pflag's FlagUsages: 2m0s)"},
	{regexp.MustCompile(`[\w./-]+=[^\s,;)]+`), "key=value: a field, a label or a resource list (requests.cpu=200m)"},
	{regexp.MustCompile(`(?:k8sexplain|kubectl|iptables|nft|ipvsadm|etcdctl|curl|grpcurl) [^\n]*`), "a command line, as it is typed"},
	{regexp.MustCompile(`«[^»а-яА-ЯёЁ]*»`), "Kubernetes' (or the user's) own English words, quoted in «» by the Russian sentence"},
	{regexp.MustCompile(`Ваш ответ: .*`), "the user's answer, echoed as typed"},
	{regexp.MustCompile(`(?:Снова|Трудно|Хорошо|Легко) — `), "the quiz's rating names (FSRS Again, Hard, Good, Easy), the labels of its keys"},
	{regexp.MustCompile(`(?:cpu|memory|ephemeral-storage) (?:request|limit) for (?:init )?container [\w-]+`), "LimitRanger's annotation (kubernetes.io/limit-ranger), Kubernetes' own text"},
	{regexp.MustCompile(`\s(?://|#) .*$`), "a comment in a Go or YAML example, which is code"},
	{regexp.MustCompile(`\b\d+/\d+ nodes are available: .*`), "the scheduler's FailedScheduling message, Kubernetes' own text"},
	{regexp.MustCompile(`(?:Warning|Normal|Error|Successfully|Back-off|Container|Created|Started|Pulling|Killing|Stopping|Readiness|Liveness)\b[^\n]*(?: in pod | on machine | container |image )[^\n]*`), "a kubelet message, Kubernetes' own text"},
	{regexp.MustCompile(`node\(s\)[^;|\n]*|Insufficient \w+|Preemption is not helpful[^\n]*|No preemption victims found for incoming pod|pod has unbound immediate PersistentVolumeClaims|persistentvolumeclaim "[^"]*" (?:not found|is being deleted)`), "a scheduler plugin's reason, Kubernetes' own text"},
	{regexp.MustCompile(`(?:Operation cannot be fulfilled|the object has been modified|please apply your changes)[^\n]*`), "an API error message, Kubernetes' own text"},
	{regexp.MustCompile(`Apply failed with \d+ conflicts?: [^\n]*`), "server-side apply's conflict message, Kubernetes' own text (managedfields/internal/conflict.go)"},
	{regexp.MustCompile(`pods "[^"]*" is forbidden: [^\n]*`), "an admission error message, Kubernetes' own text"},
	{regexp.MustCompile(`\b[A-Z]\w+ [a-z0-9][\w.-]* \([\w./]+, [\w./-]+:\d+\)`), "an object's kind, name, apiVersion and file:line, as kubectl's validation names it (Pod critical (v1, preemptor.yaml:1))"},
	{regexp.MustCompile(`(?:Cannot evict pod as it would violate|The disruption budget \S+ (?:needs|is still)|This pod has more than one PodDisruptionBudget)[^\n]*`), "the eviction subresource's 429/500 message and cause, Kubernetes' own text"},
	{regexp.MustCompile(`(?:evicting pod |error when (?:evicting|waiting for) pod|(?:error: )?unable to (?:drain|cordon) node|There are pending (?:nodes|pods)|(?:Warning: )?(?:ignoring|deleting) (?:DaemonSet-managed )?Pods|cannot delete (?:DaemonSet-managed )?Pods)[^\n]*`), "a line kubectl drain prints, as it prints it"},
	{regexp.MustCompile(`(?m)^\s*participant .*$|Note over [\w-]+(?:,[\w-]+)?:|[\w-]+-[>)x]+[\w-]+:`), "Mermaid's own syntax (participant, Note over, arrows)"},
	{regexp.MustCompile(`\b(?:GET|PUT|POST|PATCH|DELETE|LIST|WATCH|get|list|watch|create|update|patch|delete) [a-z]+\b`), "an HTTP or RBAC verb and a resource's plural name, as the API names them (PUT nodes, delete pods)"},
	{regexp.MustCompile(`^[^а-яА-ЯёЁ«]*»`), "the end of a quotation in «» wrapped onto the next line"},
	{regexp.MustCompile(`invalid metrics \(\d+ invalid out of \d+\), first error is: [^\n]*|the desired replica count is (?:increasing|decreasing) faster than the maximum scale rate|All metrics below target|\w+ resource utilization \(percentage of request\)(?: above target)?`), "a HorizontalPodAutoscaler condition or event message, Kubernetes' own text (pkg/controller/podautoscaler/horizontal.go, v1.37)"},
	{regexp.MustCompile(`API Priority and Fairness|Pod Security(?: admission)?|Node authorizer`), "the proper name of a Kubernetes feature, as its documentation writes it (the Node authorizer: --authorization-mode=Node)"},
	{regexp.MustCompile(`"[\w/.-]+(?::[\w-]*)? has no endpoints"`), "an iptables rule's comment, as kube-proxy writes it (a port without a name: \"default/web has no endpoints\")"},
	{regexp.MustCompile(`(?:"[^"]*" is\s+)?invalid: [\w.\[\]]+: (?:Invalid|Required|Unsupported|Duplicate) value[^\n]*(?:\n[^\n]*)?`), "an API server validation error (422 Invalid), Kubernetes' own text, which the summary may wrap onto the next line"},
	{regexp.MustCompile(`(?:темы|типы): \[[\w -]+\]`), "the values a flag takes (quiz --topic, --type), as the flag takes them"},
	{regexp.MustCompile(`некорректный YAML: [^\n]*`), "the YAML parser's own message (gopkg.in/yaml.v3) after our framing, as kubectl passes it on"},
	{regexp.MustCompile(`[\w-]+(?:[./:][\w-]+)+`), "a dotted, slashed or namespaced name (node.kubernetes.io/out-of-service, spec.nodeName, pods/default/web)"},
}

// russianFiles lists the golden files of Russian output: a name component
// "ru" (app.ru.txt, ru.txt, nodes2-ru.txt, ru-local.txt).
func russianFiles(t *testing.T) []string {
	var files []string
	err := filepath.WalkDir(Dir(), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		for _, part := range strings.FieldsFunc(d.Name(), func(r rune) bool { return r == '.' || r == '-' || r == '_' }) {
			if part == "ru" {
				files = append(files, path)
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

var (
	fenced     = regexp.MustCompile("(?s)```.*?```")
	inlineCode = regexp.MustCompile("`[^`\n]*`")
	htmlSkip   = regexp.MustCompile(`(?s)<(script|style|pre|code)\b.*?</(?:script|style|pre|code)>|<div class="fields">.*?</div>`)
	tag        = regexp.MustCompile(`<[^>]*>`)
	cellEnd    = regexp.MustCompile(`</t[dh]>\s*<t[dh][^>]*>`)
	tspanBreak = regexp.MustCompile(`</tspan><tspan[^>]*>`)
	kubectlGet = regexp.MustCompile(`(?m)^(?:NAMESPACE|NAME) .*\bAGE\b.*\n(?:.+\n)*`)
)

// prose returns the text of a golden file a reader reads as sentences:
// code blocks, inline code, HTML markup and JSON data are left out.
func prose(t *testing.T, path string, b []byte) string {
	s := string(b)
	switch filepath.Ext(path) {
	case ".json":
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		var out []string
		jsonProse(v, "", &out)
		return strings.Join(out, "\n")
	case ".mmd":
		s = strings.NewReplacer("<br/>", " ", "#34;", `"`, "#59;", ";", "#quot;", `"`).Replace(s)
	case ".1":
		s = roffText(s)
	case ".html":
		s = htmlSkip.ReplaceAllString(s, "\n")
		s = tspanBreak.ReplaceAllString(s, " ") // a diagram label wrapped onto lines is one text
		s = cellEnd.ReplaceAllString(s, " | ")  // a table row stays one line
		s = html.UnescapeString(tag.ReplaceAllString(s, "\n"))
	}
	s = fenced.ReplaceAllString(s, "\n")
	s = kubectlGet.ReplaceAllString(s, "\n") // kubectl get's own table (trace apply --at): AGE as kubectl writes it, 5s
	return inlineCode.ReplaceAllString(s, " ")
}

var (
	roffChar    = regexp.MustCompile(`\\\[u([0-9A-F]{4})\]`)
	roffRequest = regexp.MustCompile(`(?m)^\.(?:\\".*|(?:TH|nh|SH|SS|PP|TP|EX|EE)\b.*)$`)
	roffFont    = regexp.MustCompile(`\\f[BIRP]`)
	roffExample = regexp.MustCompile(`(?s)\n\.EX\n.*?\n\.EE`)
)

// roffText is what a man page (k8sexplain man) shows a reader: \[uXXXX]
// decoded, \- a hyphen, fonts and requests left out; its comment and its
// EXAMPLE block (command lines) are no prose. A section title (.SH) stays.
func roffText(s string) string {
	s = roffExample.ReplaceAllString(s, "\n")
	s = roffChar.ReplaceAllStringFunc(s, func(m string) string {
		var r rune
		for _, c := range m[3:7] {
			r = r*16 + rune(strings.IndexRune("0123456789ABCDEF", c))
		}
		return string(r)
	})
	s = regexp.MustCompile(`(?m)^\.SH (.*)$`).ReplaceAllString(s, "$1")
	s = roffRequest.ReplaceAllString(s, "")
	s = roffFont.ReplaceAllString(s, "")
	return strings.NewReplacer(`\-`, "-", `\&`, "", `\(dq`, `"`, `\(aq`, "'", `\(ga`, "`", `\e`, `\`).Replace(s)
}

// jsonProse collects the strings of v a reader reads as text (messages,
// titles, explanations), not the recorded data (fields, tables).
func jsonProse(v any, key string, out *[]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if k == "fields" || k == "tables" || k == "table" {
				continue
			}
			jsonProse(e, k, out)
		}
	case []any:
		for _, e := range x {
			jsonProse(e, key, out)
		}
	case string:
		if key == "message" || key == "title" || key == "explain" || key == "text" {
			*out = append(*out, x)
		}
	}
}

// decimalPoint is a number written with a decimal point (33.3%, 1.00):
// Russian writes 33,3 %, 1,00. Versions (v1.37, 1.37.2), addresses and
// dotted names are not numbers of this kind (they are verbatim, or have
// more than one dot).
var decimalPoint = regexp.MustCompile(`(?:^|[\s(«×≈])(\d+\.\d+)(?:$|[\s%)»,;×]|: )`)

// capitalAfterColon is a Cyrillic capital starting a word after a colon
// inside a sentence: Russian goes on in lower case ("итог: все поды"),
// unless a proper name or a quotation follows.
var capitalAfterColon = regexp.MustCompile(`\p{L}[)»]?: ([А-ЯЁ][а-яё]+)`)

// label is a line that starts with a label and a colon ("Образцовый
// ответ: Только API-сервер…"): what follows is a sentence of its own.
var label = regexp.MustCompile(`^\s*[А-ЯЁ][а-яё]+(?: [а-яё]+)?: `)

// faults returns the Go durations and the English fragments of one line
// of Russian prose, once the verbatim parts are taken out.
func faults(line string) (durs, engl []string) {
	durs, engl, _, _ = allFaults(line)
	return durs, engl
}

// allFaults adds the numbers written with a decimal point and the
// capitals after a colon.
func allFaults(line string) (durs, engl, decimals, capitals []string) {
	for i, v := range verbatim {
		if i == len(verbatim)-1 {
			// The last rule takes out dotted names, which would take
			// 33.3 with them: decimals are looked for before it.
			for _, m := range decimalPoint.FindAllStringSubmatch(line, -1) {
				decimals = append(decimals, m[1])
			}
		}
		line = v.re.ReplaceAllString(line, " ")
	}
	for _, m := range capitalAfterColon.FindAllStringSubmatch(label.ReplaceAllString(line, " "), -1) {
		capitals = append(capitals, m[1])
	}
	for _, m := range goDuration.FindAllStringSubmatch(line, -1) {
		durs = append(durs, m[1])
	}
	for _, m := range latinRun.FindAllStringSubmatch(line, -1) {
		for _, w := range strings.Fields(m[1]) {
			if englishWords[strings.ToLower(w)] {
				engl = append(engl, m[1])
				break
			}
		}
	}
	return durs, engl, decimals, capitals
}

// No Russian output writes a duration as Go does or an English sentence
// fragment, outside what is English on purpose (the verbatim list, each
// with its reason): every golden file of a Russian run is scanned.
func TestRussianOutputIsRussian(t *testing.T) {
	files := russianFiles(t)
	if len(files) < 20 {
		t.Fatalf("found %d Russian golden files; the naming rule no longer matches golden/", len(files))
	}
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(Dir(), path)
		for _, line := range strings.Split(prose(t, path, b), "\n") {
			durs, engl, decimals, capitals := allFaults(line)
			for _, d := range durs {
				t.Errorf("%s: Go duration %q in %q", rel, d, strings.TrimSpace(line))
			}
			for _, d := range decimals {
				t.Errorf("%s: decimal point in %q (Russian writes a comma) in %q", rel, d, strings.TrimSpace(line))
			}
			for _, c := range capitals {
				t.Errorf("%s: capital %q after a colon in %q", rel, c, strings.TrimSpace(line))
			}
			for _, e := range engl {
				t.Errorf("%s: English %q in %q", rel, e, strings.TrimSpace(line))
			}
		}
	}
}

// The scan finds what it is for: a Go duration and an English fragment in
// Russian prose, and lets a Kubernetes event message through.
func TestRussianScanFindsFaults(t *testing.T) {
	for _, tc := range []struct {
		line      string
		dur, engl bool
	}{
		{"процесс завершился через 300ms", true, false},
		{"back-off 1m10s (CrashLoopBackOff)", true, false},
		{"нода node-a: all passed, fits", false, true},
		{"процесс завершился через 300 мс", false, false},
		{"Event Normal Pulled: Successfully pulled image in 1.64s", false, false},
		{"Event Normal Pulled pod/web-1: Successfully pulled image in 1.64s", false, false},
		{"проверка каждые --node-monitor-period 5s", false, false},
		{"квота: requests.cpu=500m", false, false},
		{"72Mi за 1,64 с", false, false},
		{"GA в 1.34", false, false},
	} {
		durs, engls := faults(tc.line)
		if dur, engl := len(durs) > 0, len(engls) > 0; dur != tc.dur || engl != tc.engl {
			t.Errorf("%q: duration %v (want %v), English %v (want %v)", tc.line, dur, tc.dur, engl, tc.engl)
		}
	}
}

// glossaryBanned reads the words docs/glossary.md's "Not used" list names.
func glossaryBanned(t *testing.T) []*regexp.Regexp {
	b, err := os.ReadFile(filepath.Join(Root(), "docs", "glossary.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, list, ok := strings.Cut(string(b), "## Not used")
	if !ok {
		t.Fatal("docs/glossary.md has no \"## Not used\" section")
	}
	var banned []*regexp.Regexp
	for _, line := range regexp.MustCompile(`(?m)^- .*$`).FindAllString(list, -1) {
		for _, m := range regexp.MustCompile(`«([^»]+)»`).FindAllStringSubmatch(line, -1) {
			banned = append(banned, regexp.MustCompile(`(?i)(?:^|[^\p{L}])`+regexp.QuoteMeta(m[1])+`(?:[^\p{L}]|$)`))
		}
	}
	if len(banned) == 0 {
		t.Fatal("the glossary's \"Not used\" list is empty")
	}
	return banned
}

// userAnswer is the user's own answer, echoed by the quiz as typed.
var userAnswer = regexp.MustCompile(`(?m)^Ваш ответ: .*$`)

// The Russian output follows docs/glossary.md: no word its "Not used" list
// names appears in a Russian golden file.
func TestRussianOutputFollowsGlossary(t *testing.T) {
	banned := glossaryBanned(t)
	for _, path := range russianFiles(t) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(Dir(), path)
		text := userAnswer.ReplaceAllString(string(b), "")
		for _, re := range banned {
			if m := re.FindString(text); m != "" {
				t.Errorf("%s: %q, which docs/glossary.md does not use", rel, strings.TrimSpace(m))
			}
		}
	}
}

// goString is a Go string literal (interpreted or raw).
var goString = regexp.MustCompile("\"(?:[^\"\\\\\n]|\\\\.)*\"|`[^`]*`")

// graderSynonyms are files whose Russian literals are words a user may
// answer with, not text the program writes.
var graderSynonyms = map[string]string{
	"internal/quiz/type_numeric.go": "the numeric grader accepts a user's synonyms for a unit (узел, узла)",
	"internal/quiz/doc.go":          "documents a rubric pattern, whose alternatives are a user's synonyms",
}

// Every Russian text in the code follows docs/glossary.md too, not only
// what the goldens happen to print: the string literals of every Go file
// under internal/ and cmd/ are checked for the "Not used" words.
func TestRussianCataloguesFollowGlossary(t *testing.T) {
	banned := glossaryBanned(t)
	checked := 0
	for _, dir := range []string{"internal", "cmd"} {
		err := filepath.WalkDir(filepath.Join(Root(), dir), func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			rel, _ := filepath.Rel(Root(), path)
			if _, ok := graderSynonyms[filepath.ToSlash(rel)]; ok {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, lit := range goString.FindAllString(string(src), -1) {
				checked++
				for _, re := range banned {
					if m := re.FindString(lit); m != "" {
						t.Errorf("%s: %q in %s, which docs/glossary.md does not use", rel, strings.TrimSpace(m), lit)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if checked < 1000 {
		t.Fatalf("checked only %d string literals", checked)
	}
}

// The scan finds a decimal point and a capital after a colon, and lets
// versions, probabilities and addresses through.
func TestRussianScanFindsDecimalsAndCapitals(t *testing.T) {
	for _, tc := range []struct {
		line          string
		decimal, caps bool
	}{
		{"echo-0   501  16.7%", true, false},
		{"max/среднее 1.00 — идеально", true, false},
		{"echo-0   501  16,7 %", false, false},
		{"GA в 1.34, kube-proxy ≥ 1.30, адрес 10.244.1.2, образ nginx:1.27", false, false},
		{"KUBE-SEP-X | 0.3333333333 | 0.33333333349", false, false},
		{"Образцовый ответ: Только API-сервер", false, false},
		{"кворум потерян: Запись стоит", false, true},
		{"итог: все поды готовы", false, false},
		{"Сбой: etcd-1 падает", false, false},
	} {
		_, _, decimals, capitals := allFaults(tc.line)
		if d, c := len(decimals) > 0, len(capitals) > 0; d != tc.decimal || c != tc.caps {
			t.Errorf("%q: decimal %v (want %v), capital %v (want %v)", tc.line, d, tc.decimal, c, tc.caps)
		}
	}
}
