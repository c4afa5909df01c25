//go:build !unix

package scheduler

import "time"

// Without getrusage (Windows) the benchmarks report wall time only.
const haveCPUTime = false

func cpuTime() time.Duration { return 0 }
