// Package l10n formats counts, plurals, durations and decimals the way each
// output language writes them: "1 replica / 2 replicas", "1 под / 2 пода /
// 5 подов", "2m30s" / "2 мин 30 с", "1.5" / "1,5".
//
// Plural forms come from CLDR's cardinal rules through golang.org/x/text, not
// from a hand-written copy of the Russian rule.
package l10n

import (
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// Lang returns the CLDR tag of an output language ("en", "ru"); anything
// else is English.
func Lang(lang string) language.Tag {
	if lang == "ru" {
		return language.Russian
	}
	return language.English
}

// Form is the CLDR cardinal plural category of the integer n in lang.
func Form(lang string, n int64) plural.Form {
	if n < 0 {
		n = -n
	}
	// Integers: v = w = f = t = 0 and i = n (CLDR operands); MatchPlural
	// takes int, so huge counts are folded onto an equivalent last digits.
	i := n
	if i > 1_000_000 {
		i = i%1_000_000 + 1_000_000
	}
	return plural.Cardinal.MatchPlural(Lang(lang), int(i), 0, 0, 0, 0)
}

// Plural picks the word for n from forms: English takes (one, other);
// Russian takes (one, few, many), as in "1 под", "2 пода", "5 подов".
// A missing form falls back to the last one given.
func Plural(lang string, n int64, forms ...string) string {
	if len(forms) == 0 {
		return ""
	}
	idx := len(forms) - 1
	switch f := Form(lang, n); {
	case f == plural.One:
		idx = 0
	case lang == "ru" && f == plural.Few:
		idx = 1
	case lang == "ru" && f == plural.Many:
		idx = 2
	}
	if idx >= len(forms) {
		idx = len(forms) - 1
	}
	return forms[idx]
}

// Count writes n and its word: Count("en", 2, "replica", "replicas") is
// "2 replicas"; Count("ru", 21, "под", "пода", "подов") is "21 под".
func Count(lang string, n int64, forms ...string) string {
	return Int(lang, n) + " " + Plural(lang, n, forms...)
}

// Int writes an integer with the language's digit grouping, as CLDR
// (golang.org/x/text/message) has it: "4,687" and "12,500" in English,
// "4 687" and "12 500" (no-break space) in Russian. Grouping by threes is
// written out here: x/text's message package, its catalogue and number
// formatter cost every command start-up time for this one rule
// (TestIntMatchesXText compares the two).
func Int(lang string, n int64) string {
	s := strconv.FormatInt(n, 10)
	if n > -1000 && n < 1000 {
		return s
	}
	sep := ","
	if lang == "ru" {
		sep = "\u00a0"
	}
	sign := ""
	if s[0] == '-' {
		sign, s = "-", s[1:]
	}
	var b strings.Builder
	b.WriteString(sign)
	head := len(s) % 3
	if head == 0 {
		head = 3
	}
	b.WriteString(s[:head])
	for i := head; i < len(s); i += 3 {
		b.WriteString(sep)
		b.WriteString(s[i : i+3])
	}
	return b.String()
}

// Decimal writes f with at most prec digits after the point, trailing zeros
// dropped: "1.5" in English, "1,5" in Russian.
func Decimal(lang string, f float64, prec int) string {
	s := strconv.FormatFloat(f, 'f', prec, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	if lang == "ru" {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}

// Duration writes d in the language's style: Go's own form in English
// ("30s", "2m30s", "1.5s", "150ms"), "30 с", "2 мин 30 с", "1,5 с", "150 мс"
// in Russian.
func Duration(lang string, d time.Duration) string {
	if lang != "ru" {
		return d.String()
	}
	if d == 0 {
		return "0 с"
	}
	neg := ""
	if d < 0 {
		neg, d = "-", -d
	}
	if d < time.Second {
		if d%time.Millisecond == 0 {
			return neg + strconv.FormatInt(int64(d/time.Millisecond), 10) + " мс"
		}
		return neg + Decimal(lang, float64(d)/float64(time.Millisecond), 3) + " мс"
	}
	h := d / time.Hour
	m := (d % time.Hour) / time.Minute
	s := d % time.Minute
	var parts []string
	if h > 0 {
		parts = append(parts, strconv.FormatInt(int64(h), 10)+" ч")
	}
	if m > 0 {
		parts = append(parts, strconv.FormatInt(int64(m), 10)+" мин")
	}
	if s > 0 {
		if s%time.Second == 0 {
			parts = append(parts, strconv.FormatInt(int64(s/time.Second), 10)+" с")
		} else {
			parts = append(parts, Decimal(lang, s.Seconds(), 3)+" с")
		}
	}
	return neg + strings.Join(parts, " ")
}

// Fixed writes f with exactly prec digits after the point, trailing zeros
// kept (a column of times stays aligned): "2.0" in English, "2,0" in Russian.
func Fixed(lang string, f float64, prec int) string {
	s := strconv.FormatFloat(f, 'f', prec, 64)
	if lang == "ru" {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}
