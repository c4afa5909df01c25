// Package explain holds the words of `k8sexplain trace watch` in English and
// Russian, and turns a watchload.Result into a report.Doc. The model
// (package watchload) computes numbers only; every sentence, unit and
// number format lives here, picked by key, so the two languages say the
// same things with the same figures.
package explain

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/l10n"
	"github.com/k8sexplain/k8sexplain/internal/report"
)

// Catalogue maps keys to format strings for one language.
type Catalogue struct {
	msgs map[string]string
	// thousands separates groups of digits; decimal is the decimal mark.
	thousands, decimal string
	// group4 says whether four-digit numbers are grouped too (Russian
	// typography leaves them whole: 4687, but 10 000).
	group4 bool
	// lang picks the CLDR plural rule (internal/l10n).
	lang string
}

var langs = map[string]*Catalogue{
	"en": {msgs: en, thousands: ",", decimal: ".", group4: true, lang: "en"},
	"ru": {msgs: ru, thousands: "\u00a0", decimal: ",", lang: "ru"},
}

// For returns the catalogue of lang, English when lang is unknown.
func For(lang string) *Catalogue {
	if c, ok := langs[lang]; ok {
		return c
	}
	return langs["en"]
}

// F formats the text of key. A missing key is a bug; it shows as "!key".
func (c *Catalogue) F(key string, args ...any) string { return report.Texts(c.msgs).F(key, args...) }

// Keys lists the keys of lang (for the completeness test).
func Keys(lang string) []string {
	var ks []string
	for k := range For(lang).msgs {
		ks = append(ks, k)
	}
	return ks
}

// N writes a count and the noun of key in the form the count takes; the
// forms are separated by "|" (English: one|other; Russian: one|few|many).
func (c *Catalogue) N(n int64, key string) string {
	return c.Int(n) + " " + l10n.Plural(c.lang, n, strings.Split(c.F(key), "|")...)
}

// Int writes n with grouped thousands.
func (c *Catalogue) Int(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	if len(s) == 4 && !c.group4 {
		if neg {
			return "-" + s
		}
		return s
	}
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteString(c.thousands)
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Dec writes v with prec decimals and the language's decimal mark.
func (c *Catalogue) Dec(v float64, prec int) string {
	s := strconv.FormatFloat(v, 'f', prec, 64)
	whole, frac, ok := strings.Cut(s, ".")
	n, _ := strconv.ParseInt(whole, 10, 64)
	out := c.Int(n)
	if strings.HasPrefix(whole, "-") && n == 0 {
		out = "-0"
	}
	if ok {
		out += c.decimal + frac
	}
	return out
}

// sig writes v with three significant digits (at least none after the mark).
func (c *Catalogue) sig(v float64) string {
	switch {
	case v < 10:
		return c.Dec(v, 2)
	case v < 100:
		return c.Dec(v, 1)
	}
	return c.Dec(math.Round(v), 0)
}

// Bytes writes a size: exact bytes below 10 kB, else decimal kB, MB, GB.
func (c *Catalogue) Bytes(n int64) string {
	v := float64(n)
	switch {
	case n < 10_000:
		return c.Int(n) + " " + c.F("unit.B")
	case n < 1_000_000:
		return c.sig(v/1e3) + " " + c.F("unit.kB")
	case n < 1_000_000_000:
		return c.sig(v/1e6) + " " + c.F("unit.MB")
	}
	return c.sig(v/1e9) + " " + c.F("unit.GB")
}

// Rate writes bytes per second.
func (c *Catalogue) Rate(n int64, d time.Duration) string {
	return c.Bytes(int64(float64(n)/d.Seconds())) + c.F("unit.perSec")
}

// Secs writes d in seconds, without a unit, with up to three decimals.
func (c *Catalogue) Secs(d time.Duration) string {
	s := strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	f, _ := strconv.ParseFloat(s, 64)
	prec := 0
	if _, frac, ok := strings.Cut(s, "."); ok {
		prec = len(frac)
	}
	return c.Dec(f, prec)
}

// Dur writes a duration: ms below a second (one decimal below 10 ms),
// seconds with up to three decimals, whole minutes as minutes.
func (c *Catalogue) Dur(d time.Duration) string {
	switch {
	case d == 0:
		return "0 " + c.F("unit.s")
	case d >= time.Minute && d%time.Minute == 0:
		return c.Int(int64(d/time.Minute)) + " " + c.F("unit.min")
	case d < 10*time.Millisecond:
		ms := float64(d) / float64(time.Millisecond)
		if ms == math.Trunc(ms) {
			return c.Dec(ms, 0) + " " + c.F("unit.ms")
		}
		return c.Dec(ms, 1) + " " + c.F("unit.ms")
	case d < time.Second:
		return c.Dec(math.Round(float64(d)/float64(time.Millisecond)), 0) + " " + c.F("unit.ms")
	}
	return c.Secs(d) + " " + c.F("unit.s")
}
