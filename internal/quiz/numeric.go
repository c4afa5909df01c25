package quiz

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

var numberRE = regexp.MustCompile(`[-+]?\d+(?:[.,]\d+)?`)

// unitScale recognises a unit word of a family the grader converts between:
// time (milliseconds, seconds, minutes, hours; English and Russian, long and
// short forms) and percent. It returns the family and the factor to the
// family's base unit (seconds, percent).
func unitScale(u string) (family string, factor float64, ok bool) {
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

// ParseNumeric reads "3", "3 nodes", "3 узла", "0,5", "30s", "2 min" or
// "three nodes": the first number and the unit written after it (possibly
// empty).
func ParseNumeric(s string) (float64, string, error) { return parseNumeric(s, "en") }

func parseNumeric(s, lang string) (float64, string, error) {
	loc := numberRE.FindStringIndex(s)
	if loc == nil {
		ws := words(s)
		if len(ws) > 0 {
			if v, ok := numberWords[ws[0]]; ok {
				return v, strings.Join(ws[1:], " "), nil
			}
		}
		return 0, "", fmt.Errorf(msg(lang, "no number in %q"), strings.TrimSpace(s))
	}
	v, err := strconv.ParseFloat(strings.Replace(s[loc[0]:loc[1]], ",", ".", 1), 64)
	if err != nil {
		return 0, "", err
	}
	rest := strings.TrimSpace(s[loc[1]:])
	if numberRE.MatchString(rest) && strings.IndexAny(rest, "0123456789") == 0 {
		return 0, "", fmt.Errorf(msg(lang, "more than one number in %q"), strings.TrimSpace(s))
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
	if unit != "" {
		fam, f, ok := unitScale(unit)
		wfam, wf, wok := unitScale(want.Unit.En)
		switch {
		case ok && wok && fam == wfam:
			v = v * f / wf
		case ok && wok:
			r.Note = fmt.Sprintf(msg(lang, "unit %q does not fit, expected %s"), unit, want.Unit.In(lang))
			r.Value = &v
			return r
		case !unitMatches(unit, want.Unit):
			r.Note = fmt.Sprintf(msg(lang, "unit %q not understood, read as %s"), unit, want.Unit.In(lang))
		}
	}
	r.Value = &v
	if math.Abs(v-want.Value) <= want.Tolerance+1e-9 {
		r.Score = 1
	}
	return r
}

// machineWords name the members of a cluster interchangeably: "3 nodes"
// answers "how many members", "3 узла" answers "сколько реплик".
var machineWords = []string{"member", "node", "replica", "instance", "server", "machine", "voter",
	"член", "узел", "нода", "реплика", "сервер", "экземпляр", "машина"}

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
