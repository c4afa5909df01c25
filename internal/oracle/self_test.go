package oracle

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// A simulator run turned into a fixture must compare equal to itself: the
// comparison finds differences, not artefacts of its own.
func TestSimulatorRunComparesEqualToItself(t *testing.T) {
	fx := Fixture{Scenario: "self", Steps: []Step{
		{Name: "apply", Command: "kubectl apply -f examples/app.yaml"},
		{Name: "set-image", Command: "kubectl set image deployment/web web=nginx:1.28"},
	}}
	run, err := RunScenario(root, fx)
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range run.Steps {
		counts := map[string]int{}
		for _, c := range st.Writes {
			counts[c]++
		}
		for _, c := range slices.Sorted(maps.Keys(counts)) {
			fx.Steps[i].Writes = append(fx.Steps[i].Writes, WriteCount{Class: c, Min: counts[c], Max: counts[c]})
		}
		for _, e := range st.Events {
			fx.Steps[i].Events = append(fx.Steps[i].Events, EventCount{Event: e, Count: 1})
		}
		if len(st.Writes) > 1 {
			fx.Steps[i].Order = [][2]string{{st.Writes[0], st.Writes[len(st.Writes)-1]}}
		}
	}
	fx.Objects = run.Objects
	if len(run.Objects) == 0 || len(run.Steps[0].Writes) == 0 || len(run.Steps[0].Events) == 0 {
		t.Fatalf("the run left nothing to compare: %d objects, %d writes", len(run.Objects), len(run.Steps[0].Writes))
	}
	if d := CompareScenario(fx, run, &Table{}); len(d) != 0 {
		t.Fatalf("%d differences with itself, first: %s", len(d), d[0])
	}
	// and a changed fixture is a difference
	fx.Steps[0].Writes = append(fx.Steps[0].Writes, WriteCount{Class: "nobody create pods 201", Min: 1, Max: 1})
	if d := CompareScenario(fx, run, &Table{}); len(d) != 1 || d[0].Check != "write-missing" {
		t.Fatalf("a missing write gave %v", d)
	}
	if testing.Verbose() {
		for i, st := range run.Steps {
			for _, w := range st.Writes {
				t.Logf("step %d write %s", i, w)
			}
			for _, e := range st.Events {
				t.Logf("step %d event %s", i, eventKey(e))
			}
		}
	}
}

// Every command form the recorder's scenarios use (oracle/scenarios.go)
// replays in the simulator.
func TestEveryRecordedCommandReplays(t *testing.T) {
	for _, steps := range [][]string{
		{"kubectl apply -f examples/app.yaml", "kubectl scale deployment/web --replicas=5"},
		{"kubectl apply -f examples/app.yaml", "kubectl delete pod <first pod>"},
		{"kubectl apply -f examples/tainted-nodes.yaml"},
		{"kubectl apply -f oracle/scenarios/quota-limits.yaml", "kubectl apply -f oracle/scenarios/quota-app.yaml"},
		{"kubectl apply -f oracle/scenarios/recreate.yaml", "kubectl set image deployment/web web=nginx:1.28"},
	} {
		fx := Fixture{Scenario: steps[len(steps)-1]}
		for _, c := range steps {
			fx.Steps = append(fx.Steps, Step{Name: "step", Command: c})
		}
		run, err := RunScenario(root, fx)
		if err != nil {
			t.Errorf("%v: %v", steps, err)
			continue
		}
		if len(run.Steps) != len(steps) || len(run.Steps[len(steps)-1].Writes) == 0 {
			t.Errorf("%v: the last command wrote nothing", steps)
		}
	}
	if _, err := RunScenario(root, Fixture{Scenario: "x", Steps: []Step{{Command: "kubectl rollout undo deployment/web"}}}); err == nil {
		t.Error("a command the simulator cannot replay must be an error, not a silent skip")
	}
}

// examples/quota.yaml brings its own Namespace: the replay runs it in the
// scenario's namespace, as the recorder does, and the name of each pod the
// quota refused reads xxxxx, as in the recording.
func TestQuotaExampleReplaysInTheScenarioNamespace(t *testing.T) {
	run, err := RunScenario(root, Fixture{Scenario: "apply-quota", Steps: []Step{{Name: "apply", Command: "kubectl apply -f examples/quota.yaml"}}})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, o := range run.Objects {
		kinds[o.(map[string]any)["kind"].(string)] = true
	}
	for _, k := range []string{"LimitRange", "ResourceQuota", "Deployment", "ReplicaSet", "Pod"} {
		if !kinds[k] {
			t.Errorf("no %s in the scenario's namespace: %v", k, slices.Sorted(maps.Keys(kinds)))
		}
	}
	failed := 0
	for _, e := range run.Steps[0].Events {
		if e.Reason != "FailedCreate" {
			continue
		}
		failed++
		if !strings.Contains(e.Message, `pods "web-`) || !strings.Contains(e.Message, `-xxxxx" is forbidden: exceeded quota: compute`) {
			t.Errorf("FailedCreate message not normalized: %q", e.Message)
		}
	}
	if failed == 0 {
		t.Error("the quota refused no pod")
	}
}
