package sim

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"
)

// TestScaleLiveHeap measures what stays live after a large apply (the
// README's "live heap at the end" column): K8SEXPLAIN_LIVEHEAP=NODES/PODS
// runs it, and K8SEXPLAIN_LIVEHEAP_PROFILE=FILE also writes the heap
// profile taken while the cluster is still alive. Skipped otherwise.
func TestScaleLiveHeap(t *testing.T) {
	spec := os.Getenv("K8SEXPLAIN_LIVEHEAP")
	if spec == "" {
		t.Skip("set K8SEXPLAIN_LIVEHEAP=NODES/PODS")
	}
	n, p, _ := strings.Cut(spec, "/")
	nodes, err1 := strconv.Atoi(n)
	pods, err2 := strconv.Atoi(p)
	if err1 != nil || err2 != nil {
		t.Fatalf("K8SEXPLAIN_LIVEHEAP=%q: want NODES/PODS", spec)
	}
	c := runApply(t, nodes, pods)
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Printf("live heap after %d nodes / %d pods: %.0f MB (%.1f KB per pod); allocated %.2f GB in %d allocations\n",
		nodes, pods, float64(ms.HeapAlloc)/1e6, float64(ms.HeapAlloc)/1e3/float64(pods), float64(ms.TotalAlloc)/1e9, ms.Mallocs)
	if f := os.Getenv("K8SEXPLAIN_LIVEHEAP_PROFILE"); f != "" {
		out, err := os.Create(f)
		if err != nil {
			t.Fatal(err)
		}
		defer out.Close()
		if err := pprof.WriteHeapProfile(out); err != nil {
			t.Fatal(err)
		}
	}
	runtime.KeepAlive(c)
}
