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
)

// Catalogue is the texts of one language (an l10n.Catalog bound to it)
// and the command's number and unit formats.
type Catalogue struct {
	t l10n.Texts
}

// Catalog holds both languages (for the completeness test).
var Catalog = l10n.LazyCatalog(func() (map[string]string, map[string]string) { return en(), ru() })

// For returns the catalogue of lang, English when lang is unknown.
func For(lang string) *Catalogue { return &Catalogue{t: Catalog.In(lang)} }

// F fills the text of key ({1}, {2}, … in argument order). A missing key is
// a bug; it shows as "!key".
func (c *Catalogue) F(key string, args ...any) string { return c.t.T(key, args...) }

// N writes a count and the noun of key in the form the count takes (the
// key's plural placeholder, CLDR rules), digits grouped.
func (c *Catalogue) N(n int64, key string) string { return c.t.T(key, l10n.Num(n)) }

// Int writes n with grouped digits (l10n.Int, CLDR).
func (c *Catalogue) Int(n int64) string { return l10n.Int(c.t.Lang(), n) }

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
		out += l10n.Mark(c.t.Lang()) + frac
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
