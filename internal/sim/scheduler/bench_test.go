package scheduler

import (
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
)

// benchCluster builds n nodes in 3 zones (32 cpu, 128Gi, 110 pods, two images
// each) holding perNode pods from 100 ReplicaSets.
func benchCluster(b *testing.B, n, perNode int) *Cluster {
	c := NewCluster()
	img := []corev1.ContainerImage{{Names: []string{"nginx:1.25"}, SizeBytes: 60 << 20}, {Names: []string{"pause:3.10"}, SizeBytes: 1 << 20}}
	for i := 0; i < n; i++ {
		nd := node(fmt.Sprintf("node-%05d", i), "32", "128Gi", corev1.LabelTopologyZone, fmt.Sprintf("zone-%d", i%3))
		nd.Status.Images = img
		c.AddNode(nd)
	}
	k := 0
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("node-%05d", i)
		for j := 0; j < perNode; j++ {
			rs := fmt.Sprintf("rs-%d", k%100)
			p := bound(owned(benchPod(fmt.Sprintf("p-%d", k)), rs, map[string]string{"app": rs}), name)
			if err := c.AddPod(p); err != nil {
				b.Fatal(err)
			}
			k++
		}
	}
	return c
}

func benchPod(name string) *corev1.Pod {
	p := pod(name, "100m", "128Mi")
	p.UID = types.UID(name)
	return p
}

func benchSchedule(b *testing.B, nodes int, summary bool) {
	c := benchCluster(b, nodes, 30)
	s := New()
	s.Summary = summary
	r := rng(1)
	sel := labels.SelectorFromSet(labels.Set{"app": "rs-7"})
	p := owned(benchPod("incoming"), "rs-7", map[string]string{"app": "rs-7"})
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		if res := s.Schedule(p, c, r, sel); res.Node == "" {
			b.Fatal(res.Message)
		}
	}
	reportCPU(b, cpu0, b.N)
}

// reportCPU adds the CPU time per operation since start (cpuTime, where the
// platform has getrusage). The benchmark machine is shared, so CPU per op
// is a steadier figure than wall time per op.
func reportCPU(b *testing.B, start time.Duration, ops int) {
	if !haveCPUTime {
		return
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(ops), "cpu-ns/op")
}

// BenchmarkSchedule is one cycle over a cluster already holding 30 pods per
// node (so 150,000 pods at 5,000 nodes).
func BenchmarkSchedule(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) { benchSchedule(b, n, false) })
		b.Run(fmt.Sprintf("nodes=%d,summary", n), func(b *testing.B) { benchSchedule(b, n, true) })
	}
}

// BenchmarkFill schedules and binds 30 pods per node from empty, the way the
// simulator drives the scheduler at scale: Schedule (Summary), then
// Cluster.AddPod.
func BenchmarkFill(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprintf("nodes=%d,pods=%d", n, 30*n), func(b *testing.B) {
			pods := make([]*corev1.Pod, 30*n)
			sels := make([]labels.Selector, 100)
			for i := range sels {
				sels[i] = labels.SelectorFromSet(labels.Set{"app": fmt.Sprintf("rs-%d", i)})
			}
			for k := range pods {
				rs := fmt.Sprintf("rs-%d", k%100)
				pods[k] = owned(benchPod(fmt.Sprintf("p-%d", k)), rs, map[string]string{"app": rs})
			}
			b.ReportAllocs()
			b.ResetTimer()
			var cpu time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				c := benchCluster(b, n, 0)
				s, r := New(), rng(1)
				s.Summary = true
				b.StartTimer()
				cpu0 := cpuTime()
				for k, p := range pods {
					res := s.Schedule(p, c, r, sels[k%100])
					if res.Node == "" {
						b.Fatal(res.Message)
					}
					p.Spec.NodeName = res.Node
					if err := c.AddPod(p); err != nil {
						b.Fatal(err)
					}
				}
				cpu += cpuTime() - cpu0
				b.StopTimer()
				for _, p := range pods {
					p.Spec.NodeName = ""
				}
				b.StartTimer()
			}
			if haveCPUTime {
				b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/fill")
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*len(pods)), "cpu-ns/pod")
			}
		})
	}
}
