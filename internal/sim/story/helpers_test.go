package story

import (
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/trace"
)

func parse(t *testing.T, src string) []manifest.Object {
	t.Helper()
	objs, err := manifest.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

func stepsOf(tr *trace.Trace, kind string) []trace.Step {
	var out []trace.Step
	for _, s := range tr.Steps {
		if s.Kind == kind {
			out = append(out, s)
		}
	}
	return out
}

func firstAt(tr *trace.Trace, kind, field, value string) (trace.Step, bool) {
	for _, s := range tr.Steps {
		if s.Kind == kind && (field == "" || s.Get(field) == value) {
			return s, true
		}
	}
	return trace.Step{}, false
}
