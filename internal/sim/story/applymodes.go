package story

import (
	"fmt"

	"github.com/k8sexplain/k8sexplain/internal/trace"
)

// ApplyModesTable lists the apply-modes story's commands as the trace
// recorded them: what each asked for, the API server's answer, and, read
// back with --show-managed-fields, spec.replicas and the managers that
// own it.
func ApplyModesTable(tr *trace.Trace) trace.KeyedTable {
	t := trace.KeyedTable{Title: "applymodes.title", Left: true,
		Header: []string{"applymodes.n", "applymodes.command", "applymodes.answer", "applymodes.replicas", "applymodes.owners"}}
	var row []string
	flush := func() {
		if row != nil {
			t.Rows = append(t.Rows, row)
			row = nil
		}
	}
	for i := range tr.Steps {
		s := &tr.Steps[i]
		switch s.Kind {
		case "kubectl.ssa", "kubectl.csa", "kubectl.post":
			flush()
			cmd := s.Get("command")
			if r := s.Get("replicas"); r != "" && r[0] >= '0' && r[0] <= '9' {
				cmd += fmt.Sprintf(" (replicas: %s)", r)
			} else {
				cmd += " (replicas: —)"
			}
			row = []string{fmt.Sprint(len(t.Rows) + 1), cmd, "", "", ""}
		case "kubectl.scale":
			flush()
			row = []string{fmt.Sprint(len(t.Rows) + 1), fmt.Sprintf("kubectl scale deployment/%s --replicas=%s", s.Get("deployment"), s.Get("replicas")), "", "", ""}
		case "kubectl.label":
			flush()
			row = []string{fmt.Sprint(len(t.Rows) + 1), fmt.Sprintf("kubectl label deployment %s %s", s.Get("deployment"), s.Get("label")), "", "", ""}
		case trace.KindAPIServerResponse, trace.KindAPIServerUpdated:
			// kubectl's own answer (a controller's is verbose).
			if row != nil && row[2] == "" && !s.Verbose {
				row[2] = s.Get("status")
			}
		case "kubectl.error":
			if row != nil {
				row[2] = s.Get("status")
			}
		case "kubectl.managedfields":
			if row != nil {
				row[3], row[4] = s.Get("replicas"), s.Get("owners")
			}
		}
	}
	flush()
	return t
}
