package oracle

import (
	"path/filepath"
	"strings"
	"testing"
)

func rs(name string) any {
	return map[string]any{"kind": "ReplicaSet", "metadata": map[string]any{"name": name}}
}

func pod(node string) any {
	return map[string]any{"kind": "Pod", "metadata": map[string]any{"name": "web-1-xxxxx"}, "spec": map[string]any{"nodeName": node, "dnsPolicy": "ClusterFirst"},
		"status": map[string]any{"qosClass": Varies}} // present in some runs only; the simulator has none
}

// Each kind of difference is found, and a value that varied between the
// recorded runs is not compared.
func TestCompareScenarioFindsEachKindOfDifference(t *testing.T) {
	fx := Fixture{Scenario: "s", Steps: []Step{{Name: "apply",
		Writes: []WriteCount{{Class: "a create pods 201", Min: 1, Max: 1}, {Class: "b create pods/binding 201", Min: 1, Max: 1}, {Class: "kwok-controller patch pods/status 200", Min: 1, Max: 2}},
		Order:  [][2]string{{"a create pods 201", "b create pods/binding 201"}},
		Events: []EventCount{{Event: Event{Type: "Normal", Reason: "Scheduled", Object: "Pod/p", Message: "assigned"}, Count: 1}},
	}}, Objects: []any{rs("web-1"), pod(Varies)}}
	run := &SimRun{Steps: []SimStep{{
		Writes: []string{"b create pods/binding 201", "a create pods 201", "system:node:node-a patch pods/status 200", "c delete pods 200"},
		Events: []Event{{Type: "Normal", Reason: "Scheduled", Object: "Pod/p", Message: "assigned elsewhere"}},
	}}, Objects: []any{rs("web-2"), map[string]any{"kind": "Pod", "metadata": map[string]any{"name": "web-1-xxxxx"}, "spec": map[string]any{"nodeName": "node-b"}, "status": map[string]any{}}}}
	table := &Table{Users: []UserMap{{Real: "kwok-controller", Sim: "system:node:*", Reason: "r"}}}
	got := map[string]bool{}
	for _, d := range CompareScenario(fx, run, table) {
		got[d.Check+" "+d.What] = true
	}
	for _, want := range []string{
		"hash ReplicaSet names",
		"order apply: a create pods 201 < b create pods/binding 201",
		"write-extra apply: c delete pods 200",
		"event-missing apply: Normal Scheduled Pod/p: assigned",
		"event-extra apply: Normal Scheduled Pod/p: assigned elsewhere",
		"field ReplicaSet (object)",
		"field Pod spec.dnsPolicy",
	} {
		if !got[want] {
			t.Errorf("missing difference %q in %v", want, got)
		}
	}
	for d := range got {
		if strings.Contains(d, "status") || strings.Contains(d, "nodeName") {
			t.Errorf("unexpected difference %q: the user map and <varies> should hide it", d)
		}
	}
}

func TestTableExplainsAndFindsStaleEntries(t *testing.T) {
	used := &Known{Check: "write-extra", Scenario: "*", Match: "apply: * delete pods 200", Reason: "r"}
	stale := &Known{Check: "order", Scenario: "s", Match: "never", Reason: "r"}
	table := &Table{Differences: []*Known{used, stale}}
	diffs := []Diff{
		{Check: "write-extra", Scenario: "s", What: "apply: c delete pods 200"},
		{Check: "write-extra", Scenario: "s", What: "apply: c create pods 201"},
	}
	unexplained, u, st := table.Explain(diffs)
	if len(unexplained) != 1 || unexplained[0].What != "apply: c create pods 201" {
		t.Errorf("unexplained %v", unexplained)
	}
	if len(u[used]) != 1 || len(st) != 1 || st[0] != stale {
		t.Errorf("used %v, stale %v", u, st)
	}
}

func TestServerErrorLineGivesTheServersMessage(t *testing.T) {
	l := `Error from server (Invalid): error when creating "x.yaml": Deployment.apps "web" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"x"}: ` + "`selector` does not match template `labels`"
	m := serverErr.FindStringSubmatch(l)
	if m == nil || !strings.HasPrefix(m[1], `Deployment.apps "web" is invalid: `) {
		t.Fatalf("got %q", m)
	}
}

// The dry-run comparison finds nothing between the simulator and itself,
// and finds a refused object the real server accepted.
func TestCompareDryRunAgainstItself(t *testing.T) {
	dir := filepath.Join(root, "examples")
	objs, errs, err := SimDryRun(dir, "app.yaml")
	if err != nil || len(objs) != 2 || len(errs) != 0 {
		t.Fatalf("SimDryRun: %d objects, errors %v, %v", len(objs), errs, err)
	}
	if d := CompareDryRun(dir, "app.yaml", DryRun{Objects: objs}); len(d) != 0 {
		t.Fatalf("%d differences with itself, first %s", len(d), d[0])
	}
	real := DryRun{Objects: objs, Errors: []string{`Error from server (Invalid): error when creating "app.yaml": Service "x" is invalid: spec.ports: Required value`}}
	d := CompareDryRun(dir, "app.yaml", real)
	if len(d) != 1 || d[0].Check != "validation" || d[0].What != `Service "x" is invalid: spec.ports: Required value` {
		t.Fatalf("got %v", d)
	}
}
