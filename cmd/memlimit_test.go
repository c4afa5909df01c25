package cmd

import (
	"runtime/debug"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/iostreams"
)

// A simulation runs under simMemoryLimit unless GOMEMLIMIT chose a limit.
func TestLimitMemory(t *testing.T) {
	was := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(was)
	io, _, _, _ := iostreams.Test()
	env := map[string]string{}
	io.Getenv = func(k string) string { return env[k] }

	debug.SetMemoryLimit(1 << 40)
	env["GOMEMLIMIT"] = "1TiB"
	limitMemory(io)
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("with GOMEMLIMIT set the limit must stay the user's: %d", got)
	}
	delete(env, "GOMEMLIMIT")
	limitMemory(io)
	if got := debug.SetMemoryLimit(-1); got != simMemoryLimit {
		t.Errorf("limit %d, want %d", got, simMemoryLimit)
	}
}
