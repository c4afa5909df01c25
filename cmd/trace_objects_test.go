package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/golden"
	"k8s.io/apimachinery/pkg/runtime"
)

// TestTraceObjects pins every object the simulated API server commits, as
// its watchers and clients receive it, for every golden trace scenario: the
// simulation may keep compact state inside, but what crosses the API
// boundary (and so what -v, every output format and the oracle see) must
// stay the same objects, byte for byte as JSON (issue 26 §2).
// golden/objects/<scenario>.jsonl: one line per change, "TYPE rev key json".
func TestTraceObjects(t *testing.T) {
	inRoot(t)
	type scenario struct {
		name string
		args []string
	}
	var cases []scenario
	for _, tc := range traceCases {
		cases = append(cases, scenario{"trace-apply-" + tc.name, tc.args})
	}
	cases = append(cases, scenario{"trace-apply-scheduler-mostallocated", []string{"trace", "apply",
		"--scheduler-config", "examples/scheduler-mostallocated.yaml", "examples/app.yaml"}})
	for _, tc := range storyCases {
		cases = append(cases, scenario{tc.dir + "-default", tc.args}, scenario{tc.dir + "-variant", tc.alt})
	}
	defer func() { observeCommits = nil }()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			var failed error
			observeCommits = func(typ string, rev int64, key string, obj runtime.Object) {
				b, err := json.Marshal(obj)
				if err != nil && failed == nil {
					failed = err
				}
				fmt.Fprintf(&buf, "%s %d %s %s\n", typ, rev, key, b)
			}
			_, errOut, code := run(t, "", tc.args...)
			observeCommits = nil
			if code != 0 || failed != nil {
				t.Fatalf("%v: exit %d, %v, stderr: %s", tc.args, code, failed, errOut)
			}
			if strings.Count(buf.String(), "\n") < 10 {
				t.Fatalf("%v: only %d commits observed", tc.args, strings.Count(buf.String(), "\n"))
			}
			golden.Assert(t, "objects/"+tc.name+".jsonl", buf.Bytes())
		})
	}
}
