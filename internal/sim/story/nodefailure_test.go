package story

import (
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim"
)

// A node that lost power runs nothing: after FailNode neither its kubelet
// nor its kube-proxy records a step, while the kube-proxies of the live
// nodes keep reprogramming their rules as the endpoints change.
func TestFailedNodeIsSilent(t *testing.T) {
	c := settledApp(t, sim.Config{Seed: 1, Workers: 3, Heartbeats: true})
	sc := New(c)
	if err := sc.FailNode("node-a"); err != nil {
		t.Fatal(err)
	}
	down := c.Now()
	c.RunThrough(7 * time.Minute)
	live := 0
	for _, s := range c.Recorder().Steps {
		// The API server still delivers watch events to the dead node's
		// open watches (recorded on its lane) until TCP gives up: only the
		// node's own actions must stop.
		if s.At <= down || s.Kind == "watch.event" {
			continue
		}
		switch s.Actor {
		case "kubelet/node-a", "kube-proxy/node-a", "containerd/node-a":
			t.Errorf("%s at %s after the node lost power: %s", s.Actor, s.At, s.Kind)
		case "kube-proxy/node-b", "kube-proxy/node-c":
			live++
		}
	}
	if live == 0 {
		t.Error("the live nodes' kube-proxies recorded no sync after the failure")
	}
}
