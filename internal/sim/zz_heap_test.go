package sim

import (
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/sim/informer"
)

func TestZZHeap(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("ZZPODS"))
	if n == 0 {
		t.Skip()
	}
	informer.DetectMutations = false
	runtime.MemProfileRate = 64 * 1024
	c := runApply(t, n/30, n)
	runtime.GC()
	f, _ := os.Create("/tmp/heap.prof")
	pprof.WriteHeapProfile(f)
	f.Close()
	runtime.KeepAlive(c)
}
