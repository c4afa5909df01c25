package story

import (
	"math"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
)

// race records the times that decide whether deleting a pod drops traffic:
// when the pod stopped accepting, when the clients' kube-proxy stopped
// sending to it, and when its process died.
type race struct {
	pod, ip          string
	deleteAt         time.Duration
	closedAt         time.Duration
	removedAt        time.Duration
	exitedAt         time.Duration
	exitCode         int
	closed, removed  bool
	exited           bool
	endpointsAtClose int
}

// ClientRate is the request rate of the simulated clients of a Service
// (requests per second, spread evenly over the endpoints kube-proxy routes to).
const ClientRate = 100

// DeletePod is `kubectl delete pod NAME`, with the race between endpoint
// removal and SIGTERM observed on the clients' node.
func (c *Scene) DeletePod(pod *corev1.Pod) {
	c.race = race{pod: pod.Namespace + "/" + pod.Name, ip: pod.Status.PodIP, deleteAt: c.Now()}
	for _, k := range c.Kubelets() {
		k.Hooks.ListenerClosed = func(name, ip string, at time.Duration) {
			if name == c.race.pod && !c.race.closed {
				c.race.closed, c.race.closedAt = true, at
				c.race.endpointsAtClose = c.RoutedIPs()
			}
		}
		k.Hooks.Exited = func(name string, code int, at time.Duration) {
			if name == c.race.pod {
				c.race.exited, c.race.exitedAt, c.race.exitCode = true, at, code
			}
		}
	}
	if node, actor, ok := c.ClientProxy(); ok {
		c.OnRouteRemoved(func(ip string) {
			if ip == c.race.ip && !c.race.removed {
				c.race.removed, c.race.removedAt = true, c.Now()
				c.Recorder().Add(trace.Step{Phase: trace.PhaseReady, Actor: actor, Kind: "race.removed",
					Object: "pods/" + c.race.pod, Fields: trace.F("ip", ip, "node", node, "after", c.Now()-c.race.deleteAt)})
			}
		})
	}
	c.Cluster.DeletePod(pod)
}

// ReportRace adds the verdict of the delete story: how long new
// connections still reached a pod that no longer accepted them, and what
// SIGKILL cut off.
func (c *Scene) ReportRace() {
	r := c.race
	if !r.closed {
		return
	}
	window := time.Duration(0)
	if r.removed && r.removedAt > r.closedAt {
		window = r.removedAt - r.closedAt
	}
	n := max(r.endpointsAtClose, 1)
	refused := func(w time.Duration) int { return int(math.Round(float64(ClientRate) * w.Seconds() / float64(n))) }
	// kube-proxy's sync runner (pkg/proxy/runner BoundedFrequencyRunner,
	// since v1.34 without the old burst of 2) waits --iptables-min-sync-period
	// after a sync before the next one. The story starts with it idle; on a
	// busy cluster it has just synced something else, and the removal waits
	// up to that second more.
	busy := time.Duration(0)
	if r.removed && r.removedAt+sim.MinSyncPeriod > r.closedAt {
		busy = r.removedAt + sim.MinSyncPeriod - r.closedAt
	}
	c.Recorder().Add(trace.Step{Phase: trace.PhaseReady, Actor: "clients", Kind: "race.result", Object: "pods/" + r.pod,
		Fields: trace.F("closed", r.closedAt-r.deleteAt, "removed", r.removedAt-r.deleteAt,
			"window", window.Round(time.Millisecond), "rate", ClientRate, "endpoints", n, "failed", refused(window),
			"busyWindow", busy.Round(time.Millisecond), "busyFailed", refused(busy), "minSync", sim.MinSyncPeriod,
			"code", r.exitCode, "exited", r.exitedAt-r.deleteAt)})
}

// InjectPreStopSleep gives every container a `preStop: sleep` of d (the
// fix the delete story demonstrates) before the scene is applied.
func InjectPreStopSleep(spec *corev1.PodSpec, d time.Duration) {
	for i := range spec.Containers {
		c := &spec.Containers[i]
		if c.Lifecycle == nil {
			c.Lifecycle = &corev1.Lifecycle{}
		}
		c.Lifecycle.PreStop = &corev1.LifecycleHandler{Sleep: &corev1.SleepAction{Seconds: int64(d / time.Second)}}
	}
}
