package cmd

import (
	"regexp"
	"strings"
)

// errorRU translates the one-line errors shared by every command (cobra's
// and pflag's parsing errors, the global flags', the prefixes Execute adds)
// under --lang ru. Each entry is a whole message in English, as the code
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
