package task

import (
	"fmt"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/golden"
	"github.com/k8sexplain/k8sexplain/internal/manifest"
)

var _ = golden.Assert // every test package imports internal/golden (-update)

// TestEveryTask runs each task's reference solution, which must pass every
// condition, and each wrong solution, which must fail the condition it
// names (or be refused by the rule it names).
func TestEveryTask(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range all {
		t.Run(tk.ID, func(t *testing.T) {
			res, err := run(tk, "solution.yaml", tk.Solution)
			if err != nil {
				t.Fatalf("solution: %v", err)
			}
			if !res.Passed() || res.Action != nil {
				t.Errorf("solution fails:\n%s", describe(res))
			}
			for i, w := range tk.Wrong {
				res, err := run(tk, fmt.Sprintf("wrong%d.yaml", i+1), w.Manifest)
				if r, refused := err.(*Refusal); refused {
					if w.Fails != "forbidden:"+r.Rule {
						t.Errorf("wrong %d: refused by %s, want %s", i+1, r.Rule, w.Fails)
					}
					continue
				}
				if err != nil {
					t.Fatalf("wrong %d: %v", i+1, err)
				}
				var failed []string
				for _, c := range res.Conditions {
					if !c.Pass {
						failed = append(failed, c.Goal.ID)
					}
				}
				if len(failed) == 0 || failed[0] != w.Fails {
					t.Errorf("wrong %d: failed %v, want %s first:\n%s", i+1, failed, w.Fails, describe(res))
				}
			}
		})
	}
}

func run(tk *Task, name, text string) (*Result, error) {
	objs, err := manifest.Parse(name, []byte(text))
	if err != nil {
		return nil, err
	}
	return Check(tk, objs, []string{name}, Options{})
}

func describe(r *Result) string {
	s := ""
	if r.Action != nil {
		s += fmt.Sprintf("  action: %s %v\n", r.Action.Key, r.Action.Args)
	}
	if r.Failed != "" {
		s += "  kubectl: " + r.Failed + "\n"
	}
	for _, c := range r.Conditions {
		if c.Pass {
			s += fmt.Sprintf("  ✓ %s\n", c.Goal.ID)
		} else {
			s += fmt.Sprintf("  ✗ %s at %s: %s %v\n", c.Goal.ID, c.At, c.Finding.Key, c.Finding.Args)
			for _, st := range c.Steps {
				s += fmt.Sprintf("      %s %s %v\n", st.Kind, st.Object, st.Fields)
			}
		}
	}
	return s
}
