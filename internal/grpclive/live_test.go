package grpclive

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/k8sexplain/k8sexplain/internal/golden" // defines -update for go test ./... -update
)

// The real library shows the skew: every pick_first client's calls land on
// one backend (its one connection through the proxy); every round_robin
// client reaches every backend. Exact counts are not pinned: round_robin
// only uses subchannels that are already READY, so the first calls of a
// cold channel go to whichever backends connected first.
func TestLiveSkew(t *testing.T) {
	before := runtime.NumGoroutine()
	start := time.Now()
	res, err := Run(context.Background(), Config{Backends: 3, Clients: 2, RPCs: 600, Seed: 1, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("live run: %v; pick_first %v, round_robin %v, proxy choices %v", time.Since(start), res.PickFirst, res.RoundRobin, res.ProxyChoices)
	for c, row := range res.PickFirst {
		used, total := 0, 0
		for _, n := range row {
			total += n
			if n > 0 {
				used++
			}
		}
		if used != 1 || total != 300 {
			t.Errorf("pick_first client %d: calls per backend %v, want all 300 on one backend", c, row)
		}
	}
	for c, row := range res.RoundRobin {
		for b, n := range row {
			if n == 0 {
				t.Errorf("round_robin client %d: backend %d got no calls (%v)", c, b, row)
			}
		}
	}
	if len(res.ProxyChoices) != 2 {
		t.Errorf("the proxy saw %d connections, want one per pick_first client", len(res.ProxyChoices))
	}
	// Every goroutine the run started has ended (grpc's own may take a
	// moment after Close).
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines left over (had %d):\n%s", n-before, before, buf[:runtime.Stack(buf, true)])
	}
}

// With MaxConnectionAge the servers' GOAWAY makes the pick_first clients
// reconnect through the proxy, and each new connection is drawn again.
func TestLiveMaxConnectionAge(t *testing.T) {
	start := time.Now()
	res, err := Run(context.Background(), Config{Backends: 3, Clients: 2, RPCs: 200, Seed: 1, Timeout: 5 * time.Second, MaxConnectionAge: 60 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("live run with MaxConnectionAge: %v; pick_first %v, proxy choices %v", time.Since(start), res.PickFirst, res.ProxyChoices)
	if len(res.ProxyChoices) <= 2 {
		t.Errorf("the proxy saw %d connections: the GOAWAYs did not make the clients reconnect", len(res.ProxyChoices))
	}
}

// The report counts the connections the channels really opened: one per
// pick_first client (what the proxy accepted), one subchannel per backend
// per round_robin client, and their calls add up to the servers' counts.
func TestLiveCountsRealConnections(t *testing.T) {
	res, err := Run(context.Background(), Config{Backends: 4, Clients: 3, RPCs: 90, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.PickFirstConns) != len(res.ProxyChoices) || len(res.PickFirstConns) != 3 {
		t.Errorf("pick_first: %d connections dialed, %d accepted by the proxy, want 3", len(res.PickFirstConns), len(res.ProxyChoices))
	}
	perClient := map[int]map[int]bool{}
	total := 0
	for _, cn := range res.RoundRobinConns {
		if perClient[cn.Client] == nil {
			perClient[cn.Client] = map[int]bool{}
		}
		perClient[cn.Client][cn.Backend] = true
		total += cn.RPCs
	}
	if len(res.RoundRobinConns) != 12 || len(perClient) != 3 || total != 90 {
		t.Errorf("round_robin: %d subchannel connections over %d clients carrying %d calls, want 12 (3 clients × 4 backends) carrying 90", len(res.RoundRobinConns), len(perClient), total)
	}
	for c, bs := range perClient {
		if len(bs) != 4 {
			t.Errorf("round_robin client %d connected to %d backends, want 4", c, len(bs))
		}
	}
	pf := 0
	for _, cn := range res.PickFirstConns {
		pf += cn.RPCs
		if res.PickFirst[cn.Client][cn.Backend] != cn.RPCs {
			t.Errorf("pick_first connection %+v does not match the server's count %d", cn, res.PickFirst[cn.Client][cn.Backend])
		}
	}
	if pf != 90 {
		t.Errorf("pick_first connections carried %d calls, want 90", pf)
	}
}

// A run that outlives its deadline says so with ErrTimeout.
func TestLiveTimeout(t *testing.T) {
	_, err := Run(context.Background(), Config{Backends: 2, Clients: 2, RPCs: 1000, Seed: 1, Timeout: time.Millisecond})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	if d := Deadline(Config{RPCs: 20000, MaxConnectionAge: 2 * time.Second}); d != StartupBudget+2*(20000*PerCallBudget+PacedAges*2*time.Second) {
		t.Errorf("Deadline = %v", d)
	}
}

// 20 runs in a row and 4 in parallel leave no listener, goroutine or child
// process behind.
func TestLiveLeavesNothingBehind(t *testing.T) {
	if testing.Short() {
		t.Skip("24 live runs")
	}
	before := runtime.NumGoroutine()
	var addrs []string
	var mu sync.Mutex
	one := func(seed int64) error {
		res, err := Run(context.Background(), Config{Backends: 3, Clients: 2, RPCs: 30, Seed: seed})
		if err != nil {
			return err
		}
		mu.Lock()
		addrs = append(addrs, append(res.Backends, res.Proxy)...)
		mu.Unlock()
		return nil
	}
	for i := 0; i < 20; i++ {
		if err := one(int64(i)); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- one(int64(100 + i))
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("parallel run: %v", err)
		}
	}
	// No listener: every address the runs listened on refuses connections.
	for _, a := range addrs {
		if c, err := net.DialTimeout("tcp", a, time.Second); err == nil {
			c.Close()
			t.Errorf("%s still accepts connections", a)
		}
	}
	// No goroutine (grpc's own may take a moment after Close).
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines left over (had %d):\n%s", n-before, before, buf[:runtime.Stack(buf, true)])
	}
	// No child process (Linux: every thread's children list is empty).
	tasks, _ := filepath.Glob("/proc/self/task/*/children")
	for _, f := range tasks {
		if b, err := os.ReadFile(f); err == nil && strings.TrimSpace(string(b)) != "" {
			t.Errorf("child processes left: %s", b)
		}
	}
}
