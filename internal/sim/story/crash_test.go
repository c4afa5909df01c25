package story

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/golden"
	"github.com/k8sexplain/k8sexplain/internal/sim"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubelet"
	"github.com/k8sexplain/k8sexplain/internal/sim/simtest"
	"github.com/k8sexplain/k8sexplain/internal/trace"
)

// settledApp is a cluster of cfg with examples/app.yaml applied and every
// pod Ready.
func settledApp(t *testing.T, cfg sim.Config) *sim.Cluster {
	t.Helper()
	src, err := os.ReadFile(golden.Root() + "/examples/app.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := sim.NewCluster(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c.Apply(simtest.Parse(t, string(src)), []string{"app.yaml"})
	if !c.Settle() {
		t.Fatal("app.yaml did not settle")
	}
	return c
}

func crashStory(t *testing.T, reason string, times int) *trace.Trace {
	t.Helper()
	c := settledApp(t, sim.Config{Seed: 1, Workers: 3})
	sc := New(c)
	if err := sc.Crash(c.Pods()[0], reason, times); err != nil {
		t.Fatal(err)
	}
	c.RunFor(5 * time.Minute)
	return c.Story("t", "crash")
}

func unhealthy(tr *trace.Trace, prefix string) []trace.Step {
	var out []trace.Step
	// The first one is created, repeats PATCH its count (the correlator).
	for _, s := range append(simtest.StepsOf(tr, "event"), simtest.StepsOf(tr, "event.patch")...) {
		if s.Get("reason") == "Unhealthy" && strings.HasPrefix(s.Get("message"), prefix) {
			out = append(out, s)
		}
	}
	return out
}

// A hung process fails both probes, each on its own period and threshold
// from the manifest (readiness every 5 s, liveness every 10 s, 3 failures
// each): the endpoint goes at 15 s, the restart comes at 30 s.
func TestLivenessAndReadinessAreSeparate(t *testing.T) {
	tr := crashStory(t, kubelet.CrashLiveness, 1)
	ready, live := unhealthy(tr, "Readiness probe failed: "), unhealthy(tr, "Liveness probe failed: ")
	if len(ready) != 3 || len(live) != 3 {
		t.Fatalf("Unhealthy events: %d readiness, %d liveness; want 3 and 3", len(ready), len(live))
	}
	if !strings.Contains(live[0].Get("message"), `Get "http://`) || !strings.Contains(live[0].Get("message"), ":8080/healthz\": context deadline exceeded") {
		t.Fatalf("a hung HTTP server times the probe out: %s", live[0].Get("message"))
	}
	notReady, ok1 := simtest.FirstAt(tr, "kubelet.readiness", "", "")
	killed, ok2 := simtest.FirstAt(tr, "kubelet.liveness", "", "")
	if !ok1 || !ok2 {
		t.Fatal("want both a readiness failure and a liveness kill")
	}
	if got, want := notReady.At-tr.Start, 15*time.Second; got != want {
		t.Fatalf("Ready=False after %v, want %v (3 × periodSeconds 5)", got, want)
	}
	if got, want := killed.At-tr.Start, 30*time.Second; got != want {
		t.Fatalf("liveness kill after %v, want %v (3 × periodSeconds 10)", got, want)
	}
}

// A readiness failure takes the endpoint away and never restarts.
func TestReadinessNeverRestarts(t *testing.T) {
	tr := crashStory(t, kubelet.CrashReadiness, 1)
	if len(unhealthy(tr, "Readiness probe failed: HTTP probe failed with statuscode: 503")) != 3 {
		t.Fatal("want 3 readiness failures with the HTTP status")
	}
	for _, k := range []trace.Kind{"kubelet.exited", "kubelet.exitednow", "runtime.restart", "kubelet.liveness"} {
		if len(simtest.StepsOf(tr, k)) > 0 {
			t.Fatalf("readiness failure caused %s", k)
		}
	}
	gone := false
	for _, s := range simtest.StepsOf(tr, "endpointslice.update") {
		if strings.Contains(s.Get("endpoints"), "not ready") {
			gone = true
		}
	}
	if !gone {
		t.Fatal("the endpoint was not marked not ready")
	}
}

// The Events table reads like `kubectl describe pod`: repeats folded into
// one row with a count, kubelet events in upstream's words and order. The
// count is the one the recorder PATCHed: Created and Started count the
// container's first start too, before the story began (x4 after three
// restarts); the first Pulled had another message (a real pull), so the
// restarts' "already present" is an Event of its own (x3).
func TestDescribeEvents(t *testing.T) {
	tr := crashStory(t, kubelet.CrashPanic, 3)
	var pod string
	if s, ok := simtest.FirstAt(tr, "story.crash", "", ""); ok {
		pod = strings.TrimPrefix(s.Object, "pods/")
	}
	tab := DescribeEvents(tr, pod)
	var got []string
	for _, r := range tab.Rows {
		got = append(got, r[1]+" "+r[2])
	}
	want := regexp.MustCompile(`^Pulled \d+s \(x3 over \d+s\)\|Created \d+s \(x4 over \d+s\)\|Started \d+s \(x4 over \d+s\)\|BackOff \d+s \(x2 over \d+s\)$`)
	if !want.MatchString(strings.Join(got, "|")) {
		t.Fatalf("rows: %q", got)
	}

	src, _ := os.ReadFile(golden.Root() + "/examples/app.yaml")
	c, err := sim.NewCluster(sim.Config{Seed: 1, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	c.Apply(simtest.Parse(t, string(src)), []string{"app.yaml"})
	tr = c.Run("t")
	p := c.Pods()[0]
	var reasons []string
	for _, r := range DescribeEvents(tr, p.Namespace+"/"+p.Name).Rows {
		reasons = append(reasons, r[1]+"/"+r[3])
	}
	if got := strings.Join(reasons, " "); got != "Scheduled/default-scheduler Pulling/kubelet Pulled/kubelet Created/kubelet Started/kubelet" {
		t.Fatalf("apply events: %s", got)
	}
}

// A liveness probe with the largest failureThreshold the API allows
// (upstream validates only >= 0) fails one check per period: the kubelet
// keeps one pending check, not 2^31 (issue 29: every failure was
// scheduled up front and the run ran out of memory), and the story's
// horizon bounds how many checks the trace shows.
func TestHugeFailureThresholdIsLazy(t *testing.T) {
	src, err := os.ReadFile(golden.Root() + "/examples/app.yaml")
	if err != nil {
		t.Fatal(err)
	}
	huge := regexp.MustCompile(`failureThreshold: \d+`).ReplaceAllString(string(src), "failureThreshold: 2147483647")
	if huge == string(src) {
		huge = strings.Replace(string(src), "livenessProbe:\n", "livenessProbe:\n            failureThreshold: 2147483647\n", 1)
	}
	c, err := sim.NewCluster(sim.Config{Seed: 1, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	c.Apply(simtest.Parse(t, huge), []string{"app.yaml"})
	if !c.Settle() {
		t.Fatal("did not settle")
	}
	before := c.Engine().Pending()
	if err := New(c).Crash(c.Pods()[0], kubelet.CrashLiveness, 1); err != nil {
		t.Fatal(err)
	}
	if got := c.Engine().Pending() - before; got > 100 {
		t.Fatalf("the crash scheduled %d events up front", got)
	}
	c.RunFor(20 * time.Minute)
	tr := c.Story("t", "crash")
	if n := len(unhealthy(tr, "Liveness probe failed: ")); n == 0 || n > 20*60 {
		t.Fatalf("%d liveness Unhealthy events in 20 minutes", n)
	}
}
