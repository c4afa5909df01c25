package oracle

import (
	"strings"
	"testing"
)

// The simulator's side of the node comparison has something to compare:
// the kubelet's status writes per pod, its CRI calls and kube-proxy's nat
// rules for examples/app.yaml.
func TestSimulatorNodeSide(t *testing.T) {
	fx := Fixture{Scenario: "node-app", Steps: []Step{{Name: "apply", Command: "kubectl apply -f examples/app.yaml"}}}
	run, err := RunScenario(root, fx)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.PodStatus) != 3 {
		t.Fatalf("status writes for %d pods, want 3: %q", len(run.PodStatus), run.PodStatus)
	}
	for _, seq := range run.PodStatus {
		last := seq[len(seq)-1]
		if !strings.HasPrefix(last, "Running | ") || !strings.Contains(last, "web=running ready started") {
			t.Errorf("last status write %q: want Running with web ready", last)
		}
		// the kubelet's conditions in generateAPIPodStatus's order, a True
		// one without a reason (kubelet_pods.go, status/generate.go)
		if !strings.Contains(last, " | PodReadyToStartContainers=True Initialized=True Ready=True ContainersReady=True PodScheduled=True | ") {
			t.Errorf("last status write %q: want the kubelet's conditions in its order, True without a reason", last)
		}
	}
	if len(run.CRI) != 3 || strings.Join(run.CRI[0], ",") != "RunPodSandbox,CreateContainer web,StartContainer web" {
		t.Errorf("CRI calls per pod: %q", run.CRI)
	}
	var svc bool
	for _, l := range run.IPTables {
		if strings.Contains(l, `"default/web:http cluster IP"`) && strings.HasPrefix(l, "-A KUBE-SERVICES ") && strings.HasSuffix(l, "-j KUBE-SVC-<hash>") {
			svc = true
		}
	}
	if !svc {
		t.Errorf("no KUBE-SERVICES rule for default/web: %q", run.IPTables)
	}
	// 250m requested, 500m and 256Mi limits (examples/app.yaml)
	want := "burstable/web: cpu.shares=256 cpu.cfs_quota_us=50000 cpu.cfs_period_us=100000 memory.limit_in_bytes=268435456"
	if len(run.Cgroups) != 3 || run.Cgroups[0] != want {
		t.Errorf("cgroups %q, want 3 × %q", run.Cgroups, want)
	}
}

// CompareNode reports a recorded sequence no simulated pod showed at the
// first write where they part, and kubelet events by message.
func TestCompareNode(t *testing.T) {
	fx := NodeFixture{Fixture: Fixture{Scenario: "s", Steps: []Step{{Name: "apply", Events: []EventCount{
		{Event: Event{Type: "Normal", Reason: "Created", Object: "Pod/p", Message: "Container created", Source: "kubelet"}, Count: 1},
	}}}},
		PodStatus: []SeqCount{{Seq: []string{"Pending | a", "Running | b"}, Count: 3}},
		CRI:       []SeqCount{{Seq: []string{"RunPodSandbox"}, Count: 3}}}
	run := &SimRun{Steps: []SimStep{{Events: []Event{{Type: "Normal", Reason: "Created", Object: "Pod/p", Message: "Created container: web", Source: "kubelet"}}}},
		PodStatus: [][]string{{"Pending | a", "Running | c"}}, CRI: [][]string{{"RunPodSandbox"}}}
	var got []string
	for _, d := range CompareNode(fx, run) {
		got = append(got, d.Check+" "+d.What)
	}
	want := []string{
		"node-event-missing apply: Normal Created Pod/p: Container created",
		"node-event-extra apply: Normal Created Pod/p: Created container: web",
		"pod-status write 2: Running | b",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A node crash scenario replays in the simulator: the first pod's web
// exits, the kubelet writes it terminated and restarts it.
func TestSimulatorReplaysACrash(t *testing.T) {
	fx := Fixture{Scenario: "node-crash-panic", Steps: []Step{{Name: "apply", Command: "kubectl apply -f examples/app.yaml"},
		{Name: "crash", Command: "crash <first pod> --reason panic --times 1"}}}
	run, err := RunScenario(root, fx)
	if err != nil {
		t.Fatal(err)
	}
	var seen bool
	for _, seq := range run.PodStatus {
		for _, l := range seq {
			if strings.Contains(l, "restarts=1") {
				seen = true
			}
		}
	}
	if !seen {
		t.Errorf("no status write with restarts=1: %q", run.PodStatus)
	}
	t.Logf("simulated restarts: %q", run.Restarts)
}

// A rule as kube-proxy writes it and as iptables-save prints it is one rule.
func TestCanonicalRule(t *testing.T) {
	written := `-A KUBE-SERVICES -m comment --comment "default/web:http cluster IP" -m tcp -p tcp -d <clusterIP> --dport 80 -j KUBE-SVC-<hash>`
	saved := `-A KUBE-SERVICES -d <clusterIP>/32 -p tcp -m comment --comment "default/web:http cluster IP" -m tcp --dport 80 -j KUBE-SVC-<hash>`
	if canonicalRule(written) != canonicalRule(saved) {
		t.Errorf("%q\n!= %q", canonicalRule(written), canonicalRule(saved))
	}
	other := `-A KUBE-SERVICES -d <clusterIP>/32 -p tcp -m comment --comment "default/web:http cluster IP" -m tcp --dport 81 -j KUBE-SVC-<hash>`
	if canonicalRule(other) == canonicalRule(saved) {
		t.Error("a different port is the same rule")
	}
	neg := `-A KUBE-SVC-<hash> ! -s <podIP>/16 -j KUBE-MARK-MASQ`
	if got := canonicalRule(neg); got != "-A KUBE-SVC-<hash> ! -s <podIP>/16 -j KUBE-MARK-MASQ" {
		t.Errorf("negation: %q", got)
	}
}
