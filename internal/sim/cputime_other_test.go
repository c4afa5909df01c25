//go:build !unix

package sim

import "time"

// cpuTime is not measured here: the benchmarks report zero CPU.
func cpuTime() time.Duration { return 0 }
