package trace

import (
	"math"
	"time"
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
