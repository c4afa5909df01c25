package grpclive

import (
	"context"
	"runtime"
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
