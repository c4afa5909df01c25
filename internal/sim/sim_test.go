package sim

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	_ "github.com/k8sexplain/k8sexplain/internal/golden"
	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/sim/controller"
	"github.com/k8sexplain/k8sexplain/internal/sim/informer"
)

func deployment(replicas int) []manifest.Object {
	src := fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: %d
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        resources: {requests: {cpu: 10m, memory: 16Mi}}
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80}]
`, replicas)
	objs, err := manifest.Parse("bench.yaml", []byte(src))
	if err != nil {
		panic(err)
	}
	return objs
}

func runApply(t testing.TB, nodes, pods int) *Cluster {
	c, err := NewCluster(Config{Seed: 1, Workers: nodes, StepLimit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	c.Apply(deployment(pods), []string{"bench.yaml"})
	tr := c.Run("bench")
	if !tr.Summary.AllReady || tr.Summary.Pods != pods {
		t.Fatalf("%d nodes/%d pods: %d pods, %d ready, pending %v", nodes, pods, tr.Summary.Pods, tr.Summary.ReadyPods, len(tr.Summary.PendingPods))
	}
	return c
}

func TestApplySettles(t *testing.T) {
	c := runApply(t, 3, 3)
	if len(c.Nodes()) != 4 {
		t.Fatalf("default cluster: want control plane + 3 workers, got %d nodes", len(c.Nodes()))
	}
}

func TestApplyMediumCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	runApply(t, 50, 500)
}

// benchApply applies pods over nodes b.N times and reports, besides the
// wall time, the process's CPU time (user + system, every thread: GC
// workers included) per pod, which a shared machine disturbs far less than
// the wall time: per-pod cost at two sizes is the linearity check.
//
// live-MB is the heap still in use after the last run with its cluster
// alive (after a collection, outside the timed part).
//
// The benchmarks measure the simulator as the commands run it: without the
// informers' mutation detector, which every test in this package turns on
// (it deep-copies and compares each stored object, tripling the cost).
func benchApply(b *testing.B, nodes, pods int) {
	defer func(on bool) { informer.DetectMutations = on }(informer.DetectMutations)
	informer.DetectMutations = false
	cpu0 := cpuTime()
	var c *Cluster
	for i := 0; i < b.N; i++ {
		c = runApply(b, nodes, pods)
	}
	cpu := cpuTime() - cpu0
	b.StopTimer()
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N*pods), "cpu-µs/pod")
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*pods), "wall-µs/pod")
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapAlloc)/1e6, "live-MB")
	writeLiveHeap(b)
	runtime.KeepAlive(c)
}

// writeLiveHeap writes a heap profile of what is live while the cluster
// still is, to the file named by SIM_LIVEHEAP (the benchmark's own
// -memprofile is written after the cluster is gone). Read it with
// go tool pprof -sample_index=inuse_space; -test.memprofilerate=1 samples
// every allocation.
func writeLiveHeap(b *testing.B) {
	name := os.Getenv("SIM_LIVEHEAP")
	if name == "" {
		return
	}
	f, err := os.Create(name)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkApply100Nodes3000Pods(b *testing.B) { benchApply(b, 100, 3000) }

func BenchmarkApply300Nodes9000Pods(b *testing.B) { benchApply(b, 300, 9000) }

func BenchmarkApply1000Nodes30000Pods(b *testing.B) { benchApply(b, 1000, 30000) }

// BenchmarkApply5000Nodes150000Pods is the issue-16 target size (Kubernetes'
// own limits): -benchtime 1x.
func BenchmarkApply5000Nodes150000Pods(b *testing.B) { benchApply(b, 5000, 150000) }

// --endpoint-updates-batch-period: pod changes within the period are
// written together, so there are fewer slice writes and the same result.
func TestEndpointUpdatesBatchPeriod(t *testing.T) {
	writes := map[time.Duration]int{}
	for _, period := range []time.Duration{0, time.Second} {
		c, err := NewCluster(Config{Seed: 1, Workers: 20, StepLimit: -1, EndpointUpdatesBatchPeriod: period})
		if err != nil {
			t.Fatal(err)
		}
		c.Apply(deployment(300), []string{"bench.yaml"})
		tr := c.Run("bench")
		if !tr.Summary.AllReady || tr.Summary.Pods != 300 {
			t.Fatalf("period %s: %d of %d ready", period, tr.Summary.ReadyPods, tr.Summary.Pods)
		}
		n := 0
		for _, s := range c.Services() {
			for _, sl := range s.Slices {
				if len(sl.Endpoints) > controller.MaxEndpointsPerSlice {
					t.Errorf("slice %s has %d endpoints", sl.Name, len(sl.Endpoints))
				}
				for _, ep := range sl.Endpoints {
					if ep.Conditions.Ready != nil && *ep.Conditions.Ready {
						n++
					}
				}
			}
		}
		if n != 300 {
			t.Errorf("period %s: %d ready endpoints, want 300", period, n)
		}
		// kube-proxy's incremental tracking agrees with the slices.
		if c.proxy.routed != 300 || c.proxy.svcs["default/web"].n != 300 {
			t.Errorf("period %s: kube-proxy routes %d IPs, counts %d endpoints; want 300", period, c.proxy.routed, c.proxy.svcs["default/web"].n)
		}
		writes[period] = c.slices.Writes
	}
	if writes[time.Second] >= writes[0]/2 {
		t.Errorf("batching should at least halve the slice writes: %v", writes)
	}
}

// At scale the ReplicaSet controller's recorder sends 25 events about its
// ReplicaSet (9 SuccessfulCreate, the "(combined from similar events)"
// one, 15 PATCHes of its count) and its spam filter drops the rest, as
// client-go's EventCorrelator does; the scale summary counts them.
func TestReplicaSetEventsAreSpamFiltered(t *testing.T) {
	c, err := NewCluster(Config{Seed: 1, Workers: 20, StepLimit: -1, ScaleReport: true})
	if err != nil {
		t.Fatal(err)
	}
	c.api.LogWrites = true
	c.Apply(deployment(300), []string{"bench.yaml"})
	tr := c.Run("bench")
	sc := tr.Summary.Scale
	if sc == nil || !tr.Summary.AllReady {
		t.Fatalf("no scale summary, or not all ready (%d of %d)", tr.Summary.ReadyPods, tr.Summary.Pods)
	}
	var created, patched int
	for _, w := range c.api.Writes {
		if w.Actor == "replicaset-controller" && w.Resource == "events" {
			switch w.Verb {
			case "create":
				created++
			case "patch":
				patched++
			}
		}
	}
	if created != 10 || patched != 15 {
		t.Errorf("replicaset-controller: %d events created, %d patched; want 10 and 15", created, patched)
	}
	if sc.EventsDropped != 300-25 {
		t.Errorf("%d events dropped, want %d (300 SuccessfulCreate, 25 sent)", sc.EventsDropped, 300-25)
	}
	if sc.EventsCreated == 0 || sc.EventsPatched < 15 {
		t.Errorf("scale summary: %d created, %d patched", sc.EventsCreated, sc.EventsPatched)
	}
}
