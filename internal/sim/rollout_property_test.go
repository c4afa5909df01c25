package sim

import (
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/controller"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
)

var fullGrid = flag.Bool("rollout-grid", false, "run the rollout property test over the whole grid (slow)")

// rolloutCase is one point of the grid: replicas × fenceposts × readiness.
type rolloutCase struct {
	replicas        int
	surge, unavail  string
	probe           string // readinessProbe: "" (Ready when running) or "initialDelay/period"
	strategyRecreat bool
}

func (rc rolloutCase) String() string {
	return fmt.Sprintf("replicas=%d surge=%s unavail=%s probe=%q", rc.replicas, rc.surge, rc.unavail, rc.probe)
}

func (rc rolloutCase) manifest() []manifest.Object {
	probe := ""
	if rc.probe != "" {
		var delay, period int
		fmt.Sscanf(rc.probe, "%d/%d", &delay, &period)
		probe = fmt.Sprintf(`
        readinessProbe:
          httpGet: {path: /healthz, port: 8080}
          initialDelaySeconds: %d
          periodSeconds: %d`, delay, period)
	}
	src := fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  replicas: %d
  selector: {matchLabels: {app: api}}
  strategy:
    rollingUpdate: {maxSurge: %s, maxUnavailable: %s}
  template:
    metadata: {labels: {app: api}}
    spec:
      containers:
      - name: api
        image: example/api:1.0
        ports: [{containerPort: 8080}]
        resources: {requests: {cpu: 10m, memory: 16Mi}}%s
`, rc.replicas, rc.surge, rc.unavail, probe)
	objs, err := manifest.Parse("rollout.yaml", []byte(src))
	if err != nil {
		panic(err)
	}
	return objs
}

func quoted(s string) string {
	if strings.HasSuffix(s, "%") {
		return `"` + s + `"`
	}
	return s
}

// rolloutGrid is every case the issue names: replicas 1–30, 50 and 100 ×
// maxSurge/maxUnavailable in percent and absolute (maxSurge 0 included) ×
// readiness timings.
func rolloutGrid() []rolloutCase {
	var reps []int
	for r := 1; r <= 30; r++ {
		reps = append(reps, r)
	}
	reps = append(reps, 50, 100)
	fences := [][2]string{{"25%", "25%"}, {"0", "1"}, {"1", "0"}, {"3", "2"}, {"0%", "50%"}, {"100%", "0"}, {"50%", "50%"}, {"2", "0%"}}
	probes := []string{"", "2/5", "0/1", "10/3"}
	var out []rolloutCase
	for _, r := range reps {
		for _, f := range fences {
			for _, p := range probes {
				out = append(out, rolloutCase{replicas: r, surge: quoted(f[0]), unavail: quoted(f[1]), probe: p})
			}
		}
	}
	return out
}

// TestRolloutInvariants runs rolling updates and checks, at every change
// of a pod, what the Deployment promises: no more than replicas + maxSurge
// pods that are not terminating, at least replicas − maxUnavailable
// available ones; and in the events no scaling repeated and no `from 0 to 0`.
// The CI run samples the grid deterministically; -rollout-grid runs it all.
func TestRolloutInvariants(t *testing.T) {
	grid := rolloutGrid()
	if !*fullGrid {
		var sample []rolloutCase
		for i := 0; i < len(grid); i += 37 { // 37 is prime to the grid's strides: every axis value is visited
			sample = append(sample, grid[i])
		}
		// The cases always run.
		sample = append(sample,
			rolloutCase{replicas: 10, surge: "3", unavail: "2", probe: ""},
			rolloutCase{replicas: 20, surge: "3", unavail: "2", probe: "2/5"},
			rolloutCase{replicas: 100, surge: "3", unavail: "2", probe: "0/1"},
			rolloutCase{replicas: 100, surge: `"25%"`, unavail: `"25%"`, probe: "2/5"})
		grid = sample
	}
	conflicts := 0
	for _, rc := range grid {
		conflicts += checkRollout(t, rc)
	}
	t.Logf("%d rollouts, %d writes refused with 409 Conflict", len(grid), conflicts)
}

func checkRollout(t *testing.T, rc rolloutCase) int {
	t.Helper()
	nodes := 3
	if rc.replicas > 60 {
		nodes = 4
	}
	cl, err := NewCluster(Config{Seed: 1, Workers: nodes})
	if err != nil {
		t.Fatal(err)
	}
	cl.Apply(rc.manifest(), []string{"rollout.yaml"})
	if !cl.Settle() {
		t.Fatalf("%v: did not settle", rc)
	}
	dep := cl.Deployment("default", "api")
	surge, unavail, err := controller.ResolveFenceposts(dep.Spec.Strategy.RollingUpdate.MaxSurge, dep.Spec.Strategy.RollingUpdate.MaxUnavailable, int32(rc.replicas))
	if err != nil {
		t.Fatal(err)
	}
	pods := map[string]*corev1.Pod{}
	var bad []string
	armed := false
	check := func() {
		if !armed {
			return
		}
		live, avail := 0, 0
		for _, p := range pods {
			if p.DeletionTimestamp != nil || p.Status.Phase == corev1.PodFailed || p.Status.Phase == corev1.PodSucceeded {
				continue
			}
			live++
			if controller.PodReady(p) {
				avail++
			}
		}
		at := cl.eng.Now() - cl.start
		if live > rc.replicas+int(surge) && len(bad) < 3 {
			bad = append(bad, fmt.Sprintf("%v: %d pods > replicas + maxSurge = %d", at, live, rc.replicas+int(surge)))
		}
		if avail < rc.replicas-int(unavail) && len(bad) < 3 {
			bad = append(bad, fmt.Sprintf("%v: %d available < replicas − maxUnavailable = %d", at, avail, rc.replicas-int(unavail)))
		}
	}
	// A watcher of its own sees every committed pod change, in order.
	watcher := cl.api.NewClient("property-test", apiserver.Identity{User: "test"}, trace.PhaseController)
	watcher.Watch("pods", func(ev apiserver.Event) {
		p := ev.Obj.(*corev1.Pod)
		if ev.Type == apiserver.Deleted {
			delete(pods, p.Name)
		} else {
			pods[p.Name] = p
		}
		check()
	})
	cl.eng.Run(cl.eng.Now() + apiserver.WatchLatency) // deliver the initial list
	armed = true
	check()
	before := cl.api.Conflicts
	if err := cl.SetImage(dep, "api", "example/api:2.0"); err != nil {
		t.Fatal(err)
	}
	cl.RunFor(time.Hour)
	tr := cl.Story("", "rollout")
	seen := map[string]bool{}
	for i := range tr.Steps {
		s := &tr.Steps[i]
		if s.Kind != "event" || s.Get("reason") != "ScalingReplicaSet" {
			continue
		}
		msg := s.Get("message")
		if seen[msg] {
			bad = append(bad, "repeated: "+msg)
		}
		seen[msg] = true
		if strings.HasSuffix(msg, "from 0 to 0") {
			bad = append(bad, msg)
		}
	}
	done := 0
	for _, p := range cl.api.Pods() {
		if controller.PodReady(p) && p.Spec.Containers[0].Image == "example/api:2.0" {
			done++
		}
	}
	if done != rc.replicas {
		bad = append(bad, fmt.Sprintf("rollout ended with %d of %d new pods ready", done, rc.replicas))
	}
	if len(bad) > 0 {
		t.Errorf("%v:\n  %s", rc, strings.Join(bad, "\n  "))
	}
	return cl.api.Conflicts - before
}
