package cmd

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
)

// errorRU translates, under --lang ru, the one-line errors that carry no
// format of their own (cobra's and pflag's parsing errors, messages of
// other packages, the prefixes Execute adds); the commands' own messages
// come from errorFormatRU (russianError). Each entry is a whole message in English, as the code
// (or cobra v1.10 / pflag v1.0 — command.go, args.go, flag.go) writes it,
// and its Russian; a message no entry matches stays English. Command
// names, flags and values stay as typed.
var errorRU = []struct {
	re *regexp.Regexp
	ru string
}{
	// cobra: command.go (Find, legacyArgs), args.go.
	{regexp.MustCompile(`^unknown command (".*") for (".*") \(see (.*) --help\)$`), `неизвестная команда $1 для $2 (см. $3 --help)`},
	{regexp.MustCompile(`^unknown command (".*") for (".*")`), `неизвестная команда $1 для $2`},
	{regexp.MustCompile(`^unknown help topic (.*) \(see (.*) --help\)$`), `неизвестный раздел справки $1 (см. $2 --help)`},
	{regexp.MustCompile(`^accepts (\d+) arg\(s\), received (\d+)(.*)$`), `принимает аргументов: $1, получено: $2$3`},
	{regexp.MustCompile(`^accepts at most (\d+) arg\(s\), received (\d+)(.*)$`), `принимает не больше $1 аргументов, получено: $2$3`},
	{regexp.MustCompile(`^requires at least (\d+) arg\(s\), only received (\d+)(.*)$`), `нужно не меньше $1 аргументов, получено: $2$3`},
	// pflag: flag.go (failf in parseLongArg, parseSingleShortArg; Set).
	{regexp.MustCompile(`^unknown flag: (\S+)(.*)$`), `неизвестный флаг: $1$2`},
	{regexp.MustCompile(`^unknown shorthand flag: '(.)' in (\S+)(.*)$`), `неизвестный короткий флаг: '$1' в $2$3`},
	{regexp.MustCompile(`^flag needs an argument: '(.)' in (\S+)(.*)$`), `флагу нужно значение: '$1' в $2$3`},
	{regexp.MustCompile(`^flag needs an argument: (\S+)(.*)$`), `флагу нужно значение: $1$2`},
	{regexp.MustCompile(`^invalid argument (".*") for (".*") flag: strconv\.Parse(?:Int|Uint): parsing ".*": (?:invalid syntax|value out of range)(.*)$`), `недопустимое значение $1 флага $2: нужно целое число$3`},
	{regexp.MustCompile(`^invalid argument (".*") for (".*") flag: strconv\.ParseBool: parsing ".*": invalid syntax(.*)$`), `недопустимое значение $1 флага $2: нужно true или false$3`},
	{regexp.MustCompile(`^invalid argument (".*") for (".*") flag: time: (?:invalid duration|unknown unit|missing unit).*?( \(see .*\))?$`), `недопустимое значение $1 флага $2: нужна длительность вида «30s» или «1m30s»$3`},
	{regexp.MustCompile(`^invalid argument (".*") for (".*") flag: (.*)$`), `недопустимое значение $1 флага $2: $3`},
	{regexp.MustCompile(`^required flag\(s\) (.*) not set(.*)$`), `не задан обязательный флаг $1$2`},
	// root.go, settings.go: the global flags and the command line.
	{regexp.MustCompile(`^invalid --lang (".*"): want en or ru$`), `недопустимое значение --lang $1: нужно en или ru`},
	{regexp.MustCompile(`^invalid --color (".*"): want auto, always or never$`), `недопустимое значение --color $1: нужно auto, always или never`},
	{regexp.MustCompile(`^(\S.*) takes no arguments, got (".*")$`), `$1 не принимает аргументов, получено $2`},
	{regexp.MustCompile(`^usage: (.*)$`), `использование: $1`},
	{regexp.MustCompile(`^(.*) is not a valid value for (--\S+) \((\w+)\)$`), `$1 — недопустимое значение для $2 ($3)`},
	// Value checks many commands share: "invalid --nodes 0: want 1 to 10000".
	{regexp.MustCompile(`^invalid (--[\w-]+) (\S+): want (-?\d+) to (\d+)(?: ([\w-]+))?$`), `недопустимое значение $1 $2: нужно от $3 до $4`},
	{regexp.MustCompile(`^invalid (--[\w-]+) (\S+): want ([\w-]+), ([\w-]+) or ([\w-]+)$`), `недопустимое значение $1 $2: нужно $3, $4 или $5`},
	{regexp.MustCompile(`^invalid (--[\w-]+) (\S+): want ([\w-]+) or ([\w-]+)$`), `недопустимое значение $1 $2: нужно $3 или $4`},
	{regexp.MustCompile(`^(.*): no such file or directory$`), `$1: нет такого файла или каталога`},
	// Messages of other packages the commands pass on: the manifest
	// reader's framing (internal/manifest/parse.go; the YAML library's own
	// words stay), the stories' load curve (internal/sim/story/autoscale.go)
	// and a scene's node (scenario.go).
	{regexp.MustCompile(`^not valid YAML: (.*)$`), `некорректный YAML: $1`},
	{regexp.MustCompile(`^load (".*"): want a percentage from 0% to 10000%, e\.g\. 150%$`), `нагрузка $1: нужен процент от 0 % до 10 000 %, например 150 %`},
	{regexp.MustCompile(`^node (".*") is not in the cluster \(nodes: (.*)\)$`), `ноды $1 нет в кластере (ноды: $2)`},
}

// errorPrefixRU are the prefixes Execute puts before a message.
var errorPrefixRU = map[string]string{
	"internal error (a bug, please report it): ":    "внутренняя ошибка (ошибка в программе, сообщите о ней): ",
	"environment error (not a bug in k8sexplain): ": "ошибка окружения (не ошибка k8sexplain): ",
}

// translateError returns msg in Russian when an entry of errorRU matches
// it, else msg. "(see X --help)" at the end of any message becomes
// "(см. X --help)".
func translateError(msg string) string {
	prefix := ""
	for en, ru := range errorPrefixRU {
		if rest, ok := strings.CutPrefix(msg, en); ok {
			prefix, msg = ru, rest
			break
		}
	}
	for _, e := range errorRU {
		if e.re.MatchString(msg) {
			msg = e.re.ReplaceAllString(msg, e.ru)
			break
		}
	}
	msg = seeHelp.ReplaceAllString(msg, "(см. $1 --help)")
	return prefix + msg
}

var seeHelp = regexp.MustCompile(`\(see (\S+(?: \S+)*?) --help\)$`)

// russianError is err's message under --lang ru. A message one of
// exitcode's ...f constructors made (and nothing wrapped with more text)
// is said again from its format's entry in errorFormatRU, its error
// arguments in Russian the same way; a format with no prose of its own
// ("%v", "--answers: %v") keeps its text and translates only its
// arguments. Anything else goes through errorRU's whole-message table.
func russianError(err error) string {
	var e *exitcode.Error
	if errors.As(err, &e) && e.Format != "" && e.Error() == err.Error() {
		ru, ok := errorFormatRU[e.Format]
		if !ok && !hasProse(e.Format) {
			ru, ok = e.Format, true
		}
		if ok {
			passthrough := !hasProse(e.Format)
			args := make([]any, len(e.Args))
			for i, a := range e.Args {
				args[i] = a
				switch v := a.(type) {
				case error:
					args[i] = russianError(v)
				case string:
					if passthrough { // "%s:%d: %s": the message is the argument
						args[i] = translateError(v)
					}
				}
			}
			msg := fmt.Sprintf(strings.ReplaceAll(ru, "%w", "%v"), args...)
			return seeHelp.ReplaceAllString(msg, "(см. $1 --help)")
		}
	}
	return translateError(err.Error())
}

var (
	formatVerb  = regexp.MustCompile(`%[-+# 0-9.\[\]]*[a-zA-Z%]`)
	flagOrQuote = regexp.MustCompile("--[\\w-]+|\"[^\"]*\"|`[^`]*`")
	proseWord   = regexp.MustCompile(`[A-Za-z]{2,}`)
)

// hasProse reports whether a format has words of its own, outside its
// verbs, flag names and quoted values: then it needs a Russian entry.
func hasProse(format string) bool {
	s := formatVerb.ReplaceAllString(format, "")
	s = flagOrQuote.ReplaceAllString(s, "")
	return proseWord.MatchString(s)
}
