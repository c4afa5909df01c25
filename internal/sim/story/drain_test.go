package story

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/golden"
	"github.com/k8sexplain/k8sexplain/internal/sim"
	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/simtest"
	"github.com/k8sexplain/k8sexplain/internal/trace"
)

const pdbMin2 = `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web}
spec:
  minAvailable: 2
  selector: {matchLabels: {app: web}}
`

// drainStory applies examples/app.yaml and extra on workers nodes, drains
// node o.Node and runs the story for 10 minutes.
func drainStory(t *testing.T, extra string, workers int, o sim.DrainOptions) (*trace.Trace, *sim.DrainResult) {
	t.Helper()
	src, err := os.ReadFile(golden.Root() + "/examples/app.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := sim.NewCluster(sim.Config{Seed: 1, Workers: workers, Heartbeats: true, Disruption: true})
	if err != nil {
		t.Fatal(err)
	}
	if extra != "" {
		src = append(src, []byte("\n---\n"+extra)...)
	}
	c.Apply(simtest.Parse(t, string(src)), []string{"app.yaml"})
	if !c.Settle() {
		t.Fatal("did not settle")
	}
	res := c.Drain(o)
	c.RunFor(10 * time.Minute)
	return c.Story("t", "drain"), res
}

func lines(tr *trace.Trace, kind trace.Kind) []string {
	var out []string
	for _, s := range simtest.StepsOf(tr, kind) {
		out = append(out, s.Get("line"))
	}
	return out
}

// Two of three replicas on the drained node (node-a with the default
// seed), minAvailable 2: the first
// eviction takes the one disruption allowed, the second is answered 429
// with upstream's message and cause and retried every 5 s; it succeeds
// only after the first pod's replacement, scheduled on the other node, is
// Ready; the budget never drops below 2 healthy pods.
func TestDrainRespectsBudget(t *testing.T) {
	tr, res := drainStory(t, pdbMin2, 2, sim.DrainOptions{Node: "node-a"})
	if !res.Done || !res.Drained {
		t.Fatalf("drain did not finish: %+v", res)
	}
	refused := simtest.StepsOf(tr, "eviction.refused")
	if len(refused) == 0 {
		t.Fatal("no eviction was refused")
	}
	r := refused[0]
	if r.Get("status") != "429 Too Many Requests" || r.Get("message") != "Cannot evict pod as it would violate the pod's disruption budget." ||
		r.Get("cause") != "DisruptionBudget: The disruption budget web needs 2 healthy pods and has 3 currently" {
		t.Errorf("429: %v", r.Fields)
	}
	retry := lines(tr, "drain.retry")
	pod := strings.TrimPrefix(r.Object, "pods/default/")
	want := `error when evicting pods/"` + pod + `" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.`
	if len(retry) == 0 || retry[0] != want {
		t.Errorf("kubectl's retry line %q, want %q", retry, want)
	}
	// The retried eviction is accepted after a replacement became Ready
	// (the budget allowed a disruption again), at a multiple of 5 s.
	var accepted []trace.Step
	for _, s := range simtest.StepsOf(tr, "eviction.evicted") {
		accepted = append(accepted, s)
	}
	if len(accepted) != 2 || accepted[1].Object != r.Object {
		t.Fatalf("accepted evictions %v", accepted)
	}
	second := accepted[1].At - tr.Start
	if second < sim.EvictRetryDelay || second > sim.EvictRetryDelay+time.Second {
		t.Errorf("second eviction at %v, want just after the 5 s retry", second)
	}
	readyBefore := false
	for _, s := range simtest.StepsOf(tr, "disruption.status") {
		if s.At < accepted[1].At && s.Get("allowed") == "1" && s.At > accepted[0].At {
			readyBefore = true
		}
		if n, _ := strconv.Atoi(s.Get("healthy")); n < 2 {
			t.Errorf("at %v currentHealthy %s < minAvailable 2", s.At-tr.Start, s.Get("healthy"))
		}
	}
	if !readyBefore {
		t.Error("the budget did not allow a disruption again before the retry was accepted")
	}
	for _, s := range simtest.StepsOf(tr, "scheduler.bind") {
		if s.Get("node") == "node-a" {
			t.Errorf("a replacement was bound to the cordoned node: %v", s.Fields)
		}
	}
	for _, s := range simtest.StepsOf(tr, "eviction.condition") {
		if s.Get("reason") != "EvictionByEvictionAPI" || s.Get("message") != "Eviction API: evicting" {
			t.Errorf("DisruptionTarget %v", s.Fields)
		}
	}
	if got := lines(tr, "drain.drained"); len(got) != 1 || got[0] != "node/node-a drained" {
		t.Errorf("drained %q", got)
	}
	if got := lines(tr, "drain.cordon"); len(got) != 1 || got[0] != "node/node-a cordoned" {
		t.Errorf("cordoned %q", got)
	}
	if len(simtest.StepsOf(tr, "node.taint.unschedulable")) != 1 {
		t.Error("the node lifecycle controller did not taint the cordoned node")
	}
}

// A budget that allows nothing blocks the drain until --timeout; kubectl's
// error lines are upstream's.
func TestDrainTimesOut(t *testing.T) {
	pdb := strings.Replace(pdbMin2, "minAvailable: 2", "maxUnavailable: 0", 1)
	tr, res := drainStory(t, pdb, 3, sim.DrainOptions{Node: "node-b", Timeout: 12 * time.Second})
	if !res.Done || res.Drained {
		t.Fatalf("%+v", res)
	}
	if n := len(simtest.StepsOf(tr, "drain.retry")); n != 3 {
		t.Errorf("%d retries in 12 s, want 3 (at 0, 5 and 10 s)", n)
	}
	failed := lines(tr, "drain.failed")
	if len(failed) != 1 || !strings.Contains(failed[0], `" -n "default": global timeout reached: 12s, continuing command...`) ||
		!strings.HasPrefix(failed[0], `error: unable to drain node "node-b" due to error: error when evicting pods/"web-`) ||
		!strings.Contains(failed[0], "\nThere are pending nodes to be drained:\n node-b\nerror: error when evicting") {
		t.Errorf("failure lines %q", failed)
	}
	if s := simtest.StepsOf(tr, "eviction.refused"); len(s) == 0 || s[0].Get("cause") != "DisruptionBudget: The disruption budget web needs 3 healthy pods and has 3 currently" {
		t.Errorf("refusals %v", s)
	}
}

// kubectl's filters refuse, before any eviction, the pods it would not
// see recreated, with its own messages; the flags turn them into warnings.
func TestDrainFilters(t *testing.T) {
	extra := `apiVersion: v1
kind: Pod
metadata: {name: bare, labels: {app: bare}}
spec:
  nodeName: node-b
  containers: [{name: c, image: busybox:1.36, command: [sleep, infinity]}]
  volumes: [{name: scratch, emptyDir: {}}]
`
	tr, res := drainStory(t, extra, 3, sim.DrainOptions{Node: "node-b"})
	if res.Drained || len(simtest.StepsOf(tr, "drain.evicting")) != 0 {
		t.Fatalf("drain went on: %+v", res)
	}
	want := `error: unable to drain node "node-b" due to error: cannot delete Pods with local storage (use --delete-emptydir-data to override): default/bare, continuing command...`
	if got := lines(tr, "drain.failed"); len(got) != 1 || !strings.HasPrefix(got[0], want+"\n") {
		t.Errorf("got %q\nwant %q", got, want)
	}
	tr, res = drainStory(t, extra, 3, sim.DrainOptions{Node: "node-b", DeleteEmptyDirData: true})
	want = `error: unable to drain node "node-b" due to error: cannot delete Pods that declare no controller (use --force to override): default/bare, continuing command...`
	if got := lines(tr, "drain.failed"); res.Drained || len(got) != 1 || !strings.HasPrefix(got[0], want+"\n") {
		t.Errorf("got %q\nwant %q", got, want)
	}
	tr, res = drainStory(t, extra, 3, sim.DrainOptions{Node: "node-b", DeleteEmptyDirData: true, Force: true})
	if w := lines(tr, "drain.warning"); !res.Drained || len(w) != 1 || w[0] != "Warning: deleting Pods that declare no controller: default/bare" {
		t.Errorf("drained %v, warnings %q", res.Drained, w)
	}
	// The bare pod has no budget: evicted at once, nobody recreates it.
	if len(simtest.StepsOf(tr, "eviction.nopdb")) != 2 {
		t.Errorf("evictions without a budget: %d, want 2", len(simtest.StepsOf(tr, "eviction.nopdb")))
	}
}

// A pod a DaemonSet controls is refused without --ignore-daemonsets and
// left in place with it, with kubectl's warning.
func TestDrainDaemonSetPods(t *testing.T) {
	extra := `apiVersion: v1
kind: Pod
metadata:
  name: agent
  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: agent, uid: 6f0d3c3e-0000-4000-8000-000000000001, controller: true}]
spec:
  nodeName: node-b
  containers: [{name: c, image: busybox:1.36, command: [sleep, infinity]}]
`
	tr, res := drainStory(t, extra, 3, sim.DrainOptions{Node: "node-b"})
	want := `error: unable to drain node "node-b" due to error: cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): default/agent, continuing command...`
	if got := lines(tr, "drain.failed"); res.Drained || len(got) != 1 || !strings.HasPrefix(got[0], want+"\n") {
		t.Errorf("got %q\nwant %q", got, want)
	}
	tr, res = drainStory(t, extra, 3, sim.DrainOptions{Node: "node-b", IgnoreDaemonSets: true})
	if w := lines(tr, "drain.warning"); !res.Drained || len(w) != 1 || w[0] != "Warning: ignoring DaemonSet-managed Pods: default/agent" {
		t.Errorf("drained %v, warnings %q", res.Drained, w)
	}
	for _, s := range simtest.StepsOf(tr, "drain.evicting") {
		if strings.HasSuffix(s.Object, "/agent") {
			t.Error("the DaemonSet pod was evicted")
		}
	}
}

// The Eviction API's texts are upstream's, letter for letter
// (pkg/registry/core/pod/storage/eviction.go v1.37).
func TestEvictionTexts(t *testing.T) {
	for got, want := range map[string]string{
		apiserver.EvictionViolatesBudget:   "Cannot evict pod as it would violate the pod's disruption budget.",
		apiserver.EvictionManyBudgets:      "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.",
		apiserver.EvictionReason:           "EvictionByEvictionAPI",
		apiserver.EvictionMessage:          "Eviction API: evicting",
		apiserver.BudgetCause("web", 2, 1): "The disruption budget web needs 2 healthy pods and has 1 currently",
	} {
		if got != want {
			t.Errorf("%q, want %q", got, want)
		}
	}
}
