// Package simtest holds the few helpers the simulator's tests share across
// packages (sim, sim/story): parse a manifest or fail, and find steps in a
// trace.
package simtest

import (
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/trace"
)

// Parse reads a manifest given as text, or fails the test.
func Parse(t *testing.T, src string) []manifest.Object {
	t.Helper()
	objs, err := manifest.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

// StepsOf returns the steps of kind, in recorded order.
func StepsOf(tr *trace.Trace, kind trace.Kind) []trace.Step {
	var out []trace.Step
	for _, s := range tr.Steps {
		if s.Kind == kind {
			out = append(out, s)
		}
	}
	return out
}

// FirstAt returns the first step of kind whose field has value (any step
// of kind when field is "").
func FirstAt(tr *trace.Trace, kind trace.Kind, field, value string) (trace.Step, bool) {
	for _, s := range tr.Steps {
		if s.Kind == kind && (field == "" || s.Get(field) == value) {
			return s, true
		}
	}
	return trace.Step{}, false
}
