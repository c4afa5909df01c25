package explain

import (
	"github.com/k8sexplain/k8sexplain/internal/sim/grpclb"
)

// Data is the --format json output of grpc-skew: the numbers behind the
// text, in a stable shape (field names are part of the interface).
type Data struct {
	// Run is "simulated" or "live".
	Run              string `json:"run"`
	Clients          int    `json:"clients"`
	Pods             int    `json:"pods"`
	RPCs             int    `json:"rpcs"`
	Duration         string `json:"duration,omitempty"`
	Seed             int64  `json:"seed"`
	ScaleUp          int    `json:"scaleUp,omitempty"`
	MaxConnectionAge string `json:"maxConnectionAge,omitempty"`
	// Stopped names the pod --kill-pod stopped.
	Stopped  string     `json:"stopped,omitempty"`
	Backends []DataPod  `json:"backends"`
	Modes    []DataMode `json:"modes"`
}

// DataPod is one backend.
type DataPod struct {
	Name    string `json:"name"`
	Address string `json:"address"`
}

// DataMode is one way of balancing and what it did.
type DataMode struct {
	// Mode is clusterip (pick_first), headless (round_robin) or envoy.
	Mode        string  `json:"mode"`
	Policy      string  `json:"policy"`
	RPCs        []int   `json:"rpcs"`
	MaxOverMean float64 `json:"maxOverMean"`
	IdlePods    int     `json:"idlePods"`
	Connections int     `json:"connections"`
	// Resolutions counts DNS re-resolutions (headless only).
	Resolutions int `json:"resolutions,omitempty"`
}

var policies = map[string]string{grpclb.ModeClusterIP: "pick_first", grpclb.ModeHeadless: "round_robin", grpclb.ModeEnvoy: "envoy ROUND_ROBIN"}

func data(r *grpclb.Result) *Data {
	cfg := r.Config
	d := &Data{Run: "simulated", Clients: cfg.Clients, Pods: cfg.Pods, RPCs: cfg.RPCs, Seed: cfg.Seed, ScaleUp: cfg.ScaleUp}
	if r.Live != nil {
		d.Run = "live"
	} else {
		d.Duration = cfg.Duration.String()
	}
	if cfg.MaxConnectionAge > 0 {
		d.MaxConnectionAge = cfg.MaxConnectionAge.String()
	}
	if r.Killed >= 0 {
		d.Stopped = r.Pods[r.Killed].Name
	}
	for _, p := range r.Pods {
		d.Backends = append(d.Backends, DataPod{Name: p.Name, Address: p.IP})
	}
	for i := range r.Modes {
		m := &r.Modes[i]
		q, idle := grpclb.Stats(m.Counts, allPods(r))
		dm := DataMode{Mode: m.Mode, Policy: policies[m.Mode], RPCs: m.Counts, MaxOverMean: q, IdlePods: idle,
			Connections: len(m.Conns), Resolutions: len(m.Resolutions)}
		d.Modes = append(d.Modes, dm)
	}
	return d
}
