//go:build unix

package kubeproxy

import (
	"syscall"
	"testing"
	"time"
)

// Issue 16's targets: 10,000 Services of 10 endpoints and one Service of
// 10,000 endpoints, rendered in every mode, ≤ 1 s each.
// go test ./internal/sim/kubeproxy -bench Render -benchtime 3x
// Besides wall time (ns/op) they report the process CPU time per
// operation (cpu-ms/op), which a busy shared machine does not inflate.
func BenchmarkRender10kServices10Endpoints(b *testing.B) {
	benchCPU(b, func() { Measure(10_000, 10) })
}

func BenchmarkRender1Service10kEndpoints(b *testing.B) {
	benchCPU(b, func() { Measure(1, 10_000) })
}

func benchCPU(b *testing.B, f func()) {
	cpu := func() time.Duration {
		var ru syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	start := cpu()
	for i := 0; i < b.N; i++ {
		f()
	}
	b.ReportMetric(float64((cpu()-start).Milliseconds())/float64(b.N), "cpu-ms/op")
}
