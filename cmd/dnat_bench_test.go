package cmd

import "testing"

// BenchmarkDNATScale10kServices is issue 16's target as the command runs
// it: dnat --services 10000 --endpoints-per-service 10, ≤ 1 s.
// go test ./cmd -run XXX -bench DNATScale -benchtime 3x
func BenchmarkDNATScale10kServices(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, stderr, code := run(b, "", "dnat", "--services", "10000", "--endpoints-per-service", "10"); code != 0 {
			b.Fatal(stderr)
		}
	}
}
