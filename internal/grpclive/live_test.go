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
	// Reconnections count too: 2 clients × (3 backends + 1) channels, five ages.
	if d := Deadline(Config{Clients: 2, Backends: 3, RPCs: 100, MaxConnectionAge: time.Second}); d != StartupBudget+2*(100*PerCallBudget+PacedAges*time.Second+PacedAges*8*PerConnBudget) {
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

// A call that takes longer than the age is not cut when its connection
// ages out: the grace is grpc-go's default, infinity (issue 23 §4).
func TestLiveSlowCallsOutliveTheAge(t *testing.T) {
	cfg := Config{Backends: 3, Clients: 2, RPCs: 30, Seed: 1, MaxConnectionAge: 50 * time.Millisecond, serveDelay: 120 * time.Millisecond}
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
}

// Short ages with many clients end with a result, also while the machine
// is busy (issue 29, issue 23 §4: with MaxConnectionAgeGrace equal to a
// 50 ms age, a call the loaded machine had not finished within the grace
// was cut, "Unavailable … max_age", and the run exited 3). The sizes are
// the largest the command allows: 20 clients × 20 pods at the shortest age
// ReconnectRate permits, and 50 ms with as many clients as it permits
// then. Burners keep every core busy meanwhile.
func TestLiveShortAgesUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("live runs under load")
	}
	stop := make(chan struct{})
	var burners sync.WaitGroup
	for range max(runtime.NumCPU()/2, 1) {
		burners.Add(1)
		go func() {
			defer burners.Done()
			for x := 0; ; x++ {
				select {
				case <-stop:
					return
				default:
				}
				for range 1 << 16 {
					x ^= x << 1
				}
			}
		}()
	}
	defer func() { close(stop); burners.Wait() }()
	for _, cfg := range []Config{
		{Backends: 20, Clients: 20, RPCs: 2000, Seed: 1, MaxConnectionAge: 420 * time.Millisecond},
		{Backends: 20, Clients: 2, RPCs: 2000, Seed: 2, MaxConnectionAge: 50 * time.Millisecond},
	} {
		if r := ReconnectRate(cfg); r > MaxReconnectRate {
			t.Fatalf("%+v: %.0f reconnections a second, past the bound the command enforces", cfg, r)
		}
		start := time.Now()
		res, err := Run(context.Background(), cfg)
		if errors.Is(err, ErrTimeout) {
			// A machine starved past the deadline is told so (exit 124
			// in the command); what must never happen is a cut call.
			t.Logf("%d clients × %d backends at %v: timed out on this busy machine: %v", cfg.Clients, cfg.Backends, cfg.MaxConnectionAge, err)
			continue
		}
		if err != nil {
			t.Fatalf("%d clients × %d backends at %v: %v", cfg.Clients, cfg.Backends, cfg.MaxConnectionAge, err)
		}
		total := 0
		for _, row := range res.PickFirst {
			for _, n := range row {
				total += n
			}
		}
		if total != cfg.RPCs {
			t.Errorf("%+v: pick_first served %d calls, want %d", cfg, total, cfg.RPCs)
		}
		t.Logf("%d clients × %d backends at %v under load: %v of its %v deadline, %d proxied connections", cfg.Clients, cfg.Backends, cfg.MaxConnectionAge, time.Since(start).Round(time.Millisecond), Deadline(cfg), len(res.ProxyChoices))
	}
}
