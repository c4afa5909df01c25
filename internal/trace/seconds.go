package trace

import (
	"math"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/l10n"
)

// maxSeconds is half the whole seconds a time.Duration holds: about 146
// years, so a saturated value added to any virtual time of a run (the
// engine schedules at now + d) still fits.
const maxSeconds = math.MaxInt64 / int64(time.Second) / 2

// Seconds is n seconds as a Duration, saturated instead of wrapped: a
// manifest's terminationGracePeriodSeconds of 9223372036854775807 (valid
// int64) made "SIGKILL at -1s" and "exited after -2562047h..." (issue 29).
func Seconds(n int64) time.Duration {
	switch {
	case n > maxSeconds:
		return time.Duration(maxSeconds) * time.Second
	case n < -maxSeconds:
		return -time.Duration(maxSeconds) * time.Second
	}
	return time.Duration(n) * time.Second
}

// Fixed is a decimal with exactly Prec digits after the mark ("2.40",
// "2,40"), as a step field: written per language in the catalogue's
// sentence, in English in JSON.
type Fixed struct {
	V    float64
	Prec int
}

// Localize writes f the way lang writes decimals.
func (f Fixed) Localize(lang string) string { return l10n.Fixed(lang, f.V, f.Prec) }

// String is the English form.
func (f Fixed) String() string { return l10n.Fixed("en", f.V, f.Prec) }
