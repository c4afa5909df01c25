package grpclb

import (
	"testing"
	"time"

	_ "github.com/k8sexplain/k8sexplain/internal/golden" // defines -update for go test ./... -update
)

func base() Config {
	return Config{Clients: 1, Pods: 3, RPCs: 3000, Duration: 5 * time.Minute, Seed: 1}
}

func mode(t *testing.T, r *Result, name string) ModeResult {
	t.Helper()
	for _, m := range r.Modes {
		if m.Mode == name {
			return m
		}
	}
	t.Fatalf("no mode %s", name)
	return ModeResult{}
}

// One pick_first client through the ClusterIP loads one pod; round_robin
// over the headless answer spreads evenly.
func TestOneClientSkew(t *testing.T) {
	r := Run(base())
	ci := mode(t, r, ModeClusterIP)
	if len(ci.Conns) != 1 {
		t.Fatalf("pick_first opened %d connections, want 1", len(ci.Conns))
	}
	if _, idle := Stats(ci.Counts, r.Alive(0)); idle != 2 {
		t.Errorf("ClusterIP counts %v: want 2 idle pods", ci.Counts)
	}
	hl := mode(t, r, ModeHeadless)
	for p, n := range hl.Counts {
		if n != 1000 {
			t.Errorf("round_robin pod %d got %d, want 1000", p, n)
		}
	}
}

// The first connection takes the same DNAT choice as dnat --seed 1 prints
// for the same draws: the walk is kubeproxy's.
func TestSameSeedSameResult(t *testing.T) {
	cfg := base()
	cfg.Clients, cfg.Pods, cfg.MaxConnectionAge, cfg.ScaleUp, cfg.KillPod, cfg.Envoy = 6, 10, 30*time.Second, 3, true, true
	a, b := Run(cfg), Run(cfg)
	for i := range a.Modes {
		for p := range a.Modes[i].Counts {
			if a.Modes[i].Counts[p] != b.Modes[i].Counts[p] {
				t.Fatalf("mode %s pod %d: %d vs %d", a.Modes[i].Mode, p, a.Modes[i].Counts[p], b.Modes[i].Counts[p])
			}
		}
	}
}

// Scaled-up pods get nothing without a connection event, in both modes;
// with MaxConnectionAge both pick them up.
func TestScaleUp(t *testing.T) {
	cfg := base()
	cfg.Clients, cfg.ScaleUp = 4, 2
	r := Run(cfg)
	for _, m := range r.Modes {
		if m.Pickup >= 0 {
			t.Errorf("%s: new pods got an RPC at %v without any reconnection", m.Mode, m.Pickup)
		}
	}
	cfg.MaxConnectionAge = 30 * time.Second
	r = Run(cfg)
	for _, m := range r.Modes {
		if m.Pickup < r.Event || m.Pickup > r.Event+2*MinResolutionInterval {
			t.Errorf("%s: new pods picked up at %v, want within a minute of %v", m.Mode, m.Pickup, r.Event)
		}
	}
	cfg.Envoy, cfg.MaxConnectionAge = true, 0
	r = Run(cfg)
	if m := mode(t, r, ModeEnvoy); m.Pickup < r.Event || m.Pickup > r.Event+time.Second {
		t.Errorf("envoy picked new pods up at %v, want at once (%v)", m.Pickup, r.Event)
	}
}

// A stopped pod's clients reconnect and the pod gets nothing afterwards.
func TestKillPod(t *testing.T) {
	cfg := base()
	cfg.Clients, cfg.KillPod = 3, true
	r := Run(cfg)
	if r.Killed < 0 {
		t.Fatal("no pod stopped")
	}
	for _, m := range r.Modes {
		for iv := Intervals / 2; iv < Intervals; iv++ {
			if n := m.PerInterval[iv][r.Killed]; n != 0 {
				t.Errorf("%s: stopped pod got %d RPCs in interval %d", m.Mode, n, iv)
			}
		}
	}
	ci := mode(t, r, ModeClusterIP)
	reconnected := 0
	for _, c := range ci.Conns {
		if c.Opened >= r.Event && c.Opened < r.Event+time.Second {
			reconnected++
		}
	}
	if reconnected == 0 {
		t.Errorf("no ClusterIP client reconnected at %v: %+v", r.Event, ci.Conns)
	}
}

// MaxConnectionAge spreads ClusterIP traffic over time.
func TestMaxConnectionAgeSpreads(t *testing.T) {
	cfg := base()
	cfg.Clients, cfg.Pods, cfg.RPCs, cfg.MaxConnectionAge = 6, 10, 10000, 30*time.Second
	r := Run(cfg)
	ci := mode(t, r, ModeClusterIP)
	if _, idle := Stats(ci.Counts, r.Alive(0)); idle != 0 {
		t.Errorf("after 5 minutes of 30 s connections %d pods are still idle: %v", idle, ci.Counts)
	}
	if len(ci.Conns) < 6*9 {
		t.Errorf("only %d connections", len(ci.Conns))
	}
}
