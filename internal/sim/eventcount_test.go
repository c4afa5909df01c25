package sim

import (
	"reflect"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/trace"
)

// Past the step limit an Event is counted, not built (apiserver
// eventcount.go): with --summary's negative limit no Event request of a
// 300-pod apply becomes a corev1.Event, though hundreds are written.
func TestCountableEventsAreNotBuilt(t *testing.T) {
	c, err := NewCluster(Config{Seed: 1, Workers: 20, StepLimit: -1})
	if err != nil {
		t.Fatal(err)
	}
	c.Apply(deployment(300), []string{"bench.yaml"})
	tr := c.Run("bench")
	if !tr.Summary.AllReady {
		t.Fatalf("%d of %d ready", tr.Summary.ReadyPods, tr.Summary.Pods)
	}
	if c.api.EventsCreated+c.api.EventsPatched < 300 {
		t.Fatalf("%d Events created, %d patched: the scenario writes too few", c.api.EventsCreated, c.api.EventsPatched)
	}
	if c.api.EventsBuilt != 0 {
		t.Errorf("%d Event requests built past the step limit, want 0", c.api.EventsBuilt)
	}
}

// eventRun is what a run shows: its summary (requests, revisions, engine
// events, steps kept and dropped, scale counts), its steps and every pod's
// name, uid and resourceVersion (the seeded stream and the revisions).
type eventRun struct {
	summary trace.Summary
	steps   []trace.Step
	pods    []string
	built   int
}

func runEvents(t *testing.T, example string, limit int, build bool) eventRun {
	t.Helper()
	var c *Cluster
	if example == "" { // 300 pods: the ReplicaSet's events are combined, patched and spam-filtered
		var err error
		if c, err = NewCluster(Config{Seed: 1, Workers: 20, StepLimit: limit, ScaleReport: true}); err != nil {
			t.Fatal(err)
		}
		c.Apply(deployment(300), []string{"bench.yaml"})
	} else {
		c = exampleCluster(t, example, Config{Seed: 1, Workers: 3, StepLimit: limit, ScaleReport: true})
	}
	c.api.BuildEvents = build
	if example == "app.yaml" {
		// A story after Settle's Reset: the recorder keeps steps again.
		c.Settle()
		for _, p := range c.Pods()[:1] {
			c.DeletePod(p)
		}
	}
	tr := c.Run("x")
	run := eventRun{summary: tr.Summary, steps: tr.Steps, built: c.api.EventsBuilt}
	for _, p := range c.Pods() {
		run.pods = append(run.pods, p.Name+" "+string(p.UID)+" "+p.ResourceVersion)
	}
	return run
}

// Counting an Event instead of building it changes nothing a run shows:
// the same summary, steps and pods whether every Event is built or the
// countable ones only counted, at a step limit reached early, at none
// kept, and unlimited (where nothing is counted).
func TestCountedEventsChangeNoCount(t *testing.T) {
	examples := []string{"", "app.yaml", "unschedulable.yaml", "preemption.yaml", "startup-probe.yaml", "quota.yaml"}
	for _, ex := range examples {
		for _, limit := range []int{-1, 7, 0} {
			built := runEvents(t, ex, limit, true)
			counted := runEvents(t, ex, limit, false)
			if !reflect.DeepEqual(built.summary, counted.summary) {
				t.Errorf("%s limit %d: summary differs\nbuilt:   %+v\ncounted: %+v", ex, limit, built.summary, counted.summary)
			}
			if !reflect.DeepEqual(built.steps, counted.steps) {
				t.Errorf("%s limit %d: steps differ (%d built, %d counted)", ex, limit, len(built.steps), len(counted.steps))
			}
			if !reflect.DeepEqual(built.pods, counted.pods) {
				t.Errorf("%s limit %d: pods differ\nbuilt:   %v\ncounted: %v", ex, limit, built.pods, counted.pods)
			}
			if limit != 0 && counted.built >= built.built {
				t.Errorf("%s limit %d: %d Events built when counting, %d when building all: nothing counted", ex, limit, counted.built, built.built)
			}
		}
	}
}
