package sim

import (
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/golden"
	"github.com/k8sexplain/k8sexplain/internal/sim/simtest"
	"github.com/k8sexplain/k8sexplain/internal/trace"
)

// Progress is told the virtual time and counts pods only when asked; the
// run is the same with or without it.
func TestProgressReportsWithoutChangingTheRun(t *testing.T) {
	run := func(progress func(time.Duration, func() (int, int))) *trace.Trace {
		c, err := NewCluster(Config{Seed: 1, Workers: 20, StepLimit: 1000, Progress: progress})
		if err != nil {
			t.Fatal(err)
		}
		c.Apply(deployment(300), []string{"bench.yaml"})
		return c.Run("bench")
	}
	calls, lastPods, lastRunning := 0, 0, 0
	with := run(func(now time.Duration, count func() (int, int)) {
		calls++
		running, pods := count()
		if pods < lastPods || running < lastRunning || running > pods || pods > 300 {
			t.Errorf("at %s: %d of %d running after %d of %d", now, running, pods, lastRunning, lastPods)
		}
		lastPods, lastRunning = pods, running
	})
	without := run(nil)
	if calls == 0 {
		t.Fatal("Progress was never called")
	}
	if !reflect.DeepEqual(with.Steps, without.Steps) || !reflect.DeepEqual(with.Summary, without.Summary) {
		t.Error("the run differs with Progress set")
	}
}

// exampleCluster is a cluster made with cfg and examples/NAME applied to it,
// not yet run.
func exampleCluster(t *testing.T, name string, cfg Config) *Cluster {
	t.Helper()
	src, err := os.ReadFile(golden.Root() + "/examples/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return appliedCluster(t, cfg, name, string(src))
}

// appliedCluster is a cluster made with cfg and the manifest src (file
// name) applied to it, not yet run.
func appliedCluster(t *testing.T, cfg Config, name, src string) *Cluster {
	t.Helper()
	c, err := NewCluster(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c.Apply(simtest.Parse(t, src), []string{name})
	return c
}
