package quiz

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/AlecAivazis/survey/v2"

	"github.com/k8sexplain/k8sexplain/internal/l10n"
	"github.com/k8sexplain/k8sexplain/internal/report"
)

// NumType is the type of a question answered by a number.
const NumType = "numeric"

// numericKind: `numeric: {value, tolerance, unit}`; the learner writes a
// number, optionally with a unit ("3 nodes", "30s", "2 min", "33%"), which
// is converted to the question's unit where the family is known.
type numericKind struct{}

func (numericKind) About() About {
	return About{Name: NumType, Fields: []string{"numeric"},
		Usage: Usage{"numeric", "a number, optionally with a unit:", "3 nodes / 30s / 3 ноды"}}
}

func (numericKind) Validate(q *Question, bad func(string, ...any)) {
	if q.Numeric == nil {
		bad("numeric needs numeric: {value, tolerance, unit}")
	} else if q.Numeric.Tolerance < 0 {
		bad("numeric tolerance must not be negative")
	}
}

func (numericKind) Present(p *Presentation) {
	p.Hint = msg(p.Lang, "a number, optionally with its unit")
	p.Unit = p.Q.Numeric.Unit.In(p.Lang)
}

func (numericKind) Ask(p *Presentation, head string, opts []survey.AskOpt) (string, error) {
	return askLine(p, head, opts)
}

func (numericKind) Grade(q *Question, shown []int, answer, lang string) Result {
	return gradeNumeric(q, answer, lang)
}

// Review gives, after a wrong value, the value read and the one expected
// with its tolerance and unit.
func (numericKind) Review(d *report.Doc, a *Answered, lang string) {
	r := a.Result
	if r.Verdict == Correct || r.Unreadable != "" {
		return
	}
	got := "-"
	if r.Value != nil {
		got = trimFloat(*r.Value)
	}
	want := a.Q.Numeric
	exp := trimFloat(want.Value)
	if want.Tolerance > 0 {
		exp += " ± " + trimFloat(want.Tolerance)
	}
	d.P(fmt.Sprintf("%s: %s; %s: %s %s", msg(lang, "Your value"), got, msg(lang, "Expected"), exp, want.Unit.In(lang)))
}

// Model is the value with the unit in the session's language.
func (numericKind) Model(p *Presentation) string {
	return strconv.FormatFloat(p.Q.Numeric.Value, 'g', -1, 64) + " " + p.Q.Numeric.Unit.In(p.Lang)
}

var numberRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[-+]?\d+(?:[.,]\d+)?`) })

// unitScale recognises a unit word of a family the grader converts between:
// time (milliseconds, seconds, minutes, hours; English and Russian, long and
// short forms) and percent. It returns the family and the factor to the
// family's base unit (seconds, percent).
func unitScale(u string) (family string, factor float64, ok bool) {
	return unitScaleIn(u, "")
}

// unitScaleIn is unitScale for a question whose unit is of family want:
// "m" is minutes for a time, millicores for CPU.
func unitScaleIn(u, want string) (family string, factor float64, ok bool) {
	u = strings.TrimSpace(strings.ToLower(u))
	if strings.HasPrefix(u, "%") || strings.HasPrefix(u, "percent") || strings.HasPrefix(u, "процент") {
		return "percent", 1, true
	}
	ws := words(u)
	if len(ws) == 0 {
		return "", 0, false
	}
	w := ws[0]
	has := func(prefixes ...string) bool {
		for _, p := range prefixes {
			if strings.HasPrefix(w, p) {
				return true
			}
		}
		return false
	}
	switch {
	case w == "millicore" || w == "millicores" || has("милликор", "millicpu") || w == "m" && want == "cpu":
		return "cpu", 0.001, true
	case w == "core" || w == "cores" || w == "cpu" || w == "cpus" || w == "vcpu" || has("ядр", "ядер", "цп"):
		return "cpu", 1, true
	case w == "ms" || w == "мс" || has("milli", "милли"):
		return "time", 0.001, true
	case w == "s" || w == "с" || has("sec", "сек"):
		return "time", 1, true
	case w == "m" || w == "min" || has("minute", "мин"):
		return "time", 60, true
	case w == "h" || w == "ч" || has("hour", "час"):
		return "time", 3600, true
	}
	return "", 0, false
}

// numberWords are the small numbers written as words ("three nodes",
// "три узла"), with the Russian case forms that follow a preposition.
var numberWords = map[string]float64{
	"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "ноль": 0, "нуль": 0, "один": 1, "одна": 1, "одно": 1, "одного": 1, "два": 2,
	"две": 2, "двух": 2, "три": 3, "трех": 3, "четыре": 4, "четырех": 4, "пять": 5, "пяти": 5, "шесть": 6,
	"шести": 6, "семь": 7, "семи": 7, "восемь": 8, "восьми": 8, "девять": 9, "девяти": 9, "десять": 10, "десяти": 10,
}

// ParseNumeric reads "3", "3 nodes", "3 узла", "0,5", "30s", "2 min",
// "three nodes", "1/3", "33%", "50,000", "50 000", "50k" or "1200m": the
// first number and the unit written after it (possibly empty). A comma
// followed by exactly three digits groups thousands ("50,000"), any other
// comma is a decimal point ("0,5"); "k" after a number multiplies by 1000.
func ParseNumeric(s string) (float64, string, error) { return parseNumeric(s, "en") }

var (
	fractionRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*([-+]?\d+(?:[.,]\d+)?)\s*/\s*(\d+(?:[.,]\d+)?)`) })
	thousandsRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*([-+]?\d{1,3}(?:(?:,|\s|\x{00a0}|\x{202f})\d{3})+)(?:\.(\d+))?(?:[^\d,.]|$)`)
	})
)

func parseNumeric(s, lang string) (float64, string, error) {
	if m := fractionRE().FindStringSubmatchIndex(s); m != nil {
		a, err1 := strconv.ParseFloat(strings.Replace(s[m[2]:m[3]], ",", ".", 1), 64)
		b, err2 := strconv.ParseFloat(strings.Replace(s[m[4]:m[5]], ",", ".", 1), 64)
		if err1 == nil && err2 == nil && b != 0 {
			return a / b, strings.TrimSpace(s[m[1]:]), nil
		}
	}
	if m := thousandsRE().FindStringSubmatchIndex(s); m != nil {
		digits := strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' || r == '-' || r == '+' {
				return r
			}
			return -1
		}, s[m[2]:m[3]])
		end := m[3]
		if m[4] >= 0 {
			digits += "." + s[m[4]:m[5]]
			end = m[5]
		}
		if v, err := strconv.ParseFloat(digits, 64); err == nil {
			return suffixK(v, strings.TrimSpace(s[end:]))
		}
	}
	loc := numberRE().FindStringIndex(s)
	if loc == nil {
		ws := words(s)
		if len(ws) > 0 {
			if v, ok := numberWords[ws[0]]; ok {
				return v, strings.Join(ws[1:], " "), nil
			}
		}
		return 0, "", errors.New(msgf(lang, "no number in {1}", l10n.Quoted(strings.TrimSpace(s))))
	}
	v, err := strconv.ParseFloat(strings.Replace(s[loc[0]:loc[1]], ",", ".", 1), 64)
	if err != nil {
		return 0, "", err
	}
	rest := strings.TrimSpace(s[loc[1]:])
	if numberRE().MatchString(rest) && strings.IndexAny(rest, "0123456789") == 0 {
		return 0, "", errors.New(msgf(lang, "more than one number in {1}", l10n.Quoted(strings.TrimSpace(s))))
	}
	return suffixK(v, rest)
}

// suffixK applies a "k"/"K"/"к" (thousand) written right after the number.
func suffixK(v float64, rest string) (float64, string, error) {
	for _, k := range []string{"k", "K", "к", "К"} {
		if r, ok := strings.CutPrefix(rest, k); ok && (r == "" || !unicode.IsLetter([]rune(r)[0])) {
			return v * 1000, strings.TrimSpace(r), nil
		}
	}
	return v, rest, nil
}

// gradeNumeric accepts the value within the tolerance. A unit of a known
// family (time, percent) is converted to the question's unit ("2 min" for
// 120 seconds); any other unit must match the question's unit word in
// either language (after stemming, one typo allowed), else it is ignored
// with a note.
func gradeNumeric(q *Question, answer, lang string) Result {
	v, unit, err := parseNumeric(answer, lang)
	if err != nil {
		return Result{Unreadable: err.Error()}
	}
	var r Result
	want := q.Numeric
	wfam, wf, wok := unitScale(want.Unit.En)
	if unit != "" {
		fam, f, ok := unitScaleIn(unit, wfam)
		switch {
		case ok && wok && fam == wfam:
			v = v * f / wf
		case ok && fam == "percent" && want.Unit.En == "" && want.Unit.Ru == "":
			v /= 100 // "33%" for a fraction
		case ok && wok:
			r.Note = msgf(lang, "unit {1} does not fit, expected {2}", l10n.Quoted(unit), want.Unit.In(lang))
			r.Value = &v
			return r
		case !unitMatches(unit, want.Unit):
			r.Note = msgf(lang, "unit {1} not understood, read as {2}", l10n.Quoted(unit), want.Unit.In(lang))
		}
	}
	r.Value = &v
	if math.Abs(v-want.Value) <= want.Tolerance+1e-9 {
		r.Score = 1
	}
	return r
}

// machineWords name the members of a cluster interchangeably: "3 nodes"
// answers "how many members", "3 узла" answers "сколько реплик". "узла"
// is there beside "узел": the stem of its other forms (узлов, узлам) is
// узл-, not узел-. "участник" is the glossary's etcd member; "член", the
// word the bank used before, still reads as one.
var machineWords = []string{"member", "node", "replica", "instance", "server", "machine", "voter",
	"участник", "член", "узел", "узла", "нода", "реплика", "сервер", "экземпляр", "машина"}

func isMachineWord(t token) bool {
	for _, w := range machineWords {
		if tokenMatch(t, newToken(w)) || commonPrefix(t.raw, w) >= 3 && runeLen(w) <= runeLen(t.raw)+2 {
			return true
		}
	}
	return false
}

func unitMatches(unit string, want Text) bool {
	got := tokenize(unit)
	if len(got) > 0 && isMachineWord(got[0]) {
		for _, w := range tokenize(want.En + " " + want.Ru) {
			if isMachineWord(w) {
				return true
			}
		}
	}
	for _, w := range []string{want.En, want.Ru} {
		if w != "" && containsPhrase(got, tokenize(w)) {
			return true
		}
	}
	// Russian unit words change with the number ("узел", "узла", "узлов");
	// compare the first word's stem prefix as a last resort.
	if len(got) > 0 {
		for _, w := range tokenize(want.Ru + " " + want.En) {
			if p := commonPrefix(got[0].raw, w.raw); p >= 3 && p >= runeLen(w.stem)-1 {
				return true
			}
		}
	}
	return false
}

func commonPrefix(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	n := 0
	for n < len(ra) && n < len(rb) && ra[n] == rb[n] {
		n++
	}
	return n
}
