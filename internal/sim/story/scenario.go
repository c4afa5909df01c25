// Package story holds what happens to a settled cluster in the trace
// stories beyond kubectl's own verbs: a container that crashes, a node
// that loses power, the race between a pod's deletion and its endpoint's
// removal; and the tables each story reports (the rollout's ReplicaSet
// sizes, the restart back-off, the node-failure timings, the pod's Events
// as kubectl describe prints them). Package sim is the wiring of the
// cluster; a story drives it from outside, through the kubectl client and
// the hooks sim exports for it.
package story

import (
	"fmt"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim"
	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/controller"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubelet"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Scene is a settled cluster a story plays on, with what the story
// remembers: where the rollout table starts, when the node went down, and
// the times of the delete race.
type Scene struct {
	*sim.Cluster
	historyFrom int
	downAt      time.Duration
	race        race
	curve       LoadCurve // the autoscale story's load
	curveBase   int64
}

// New starts a story on c.
func New(c *sim.Cluster) *Scene { return &Scene{Cluster: c} }

// RolloutTable is the Deployment's rollout table since the story began.
func (c *Scene) RolloutTable(ns, name string) trace.KeyedTable {
	t := trace.KeyedTable{Title: "rollout.title", Header: []string{"rollout.sync", "rollout.old", "rollout.new", "rollout.sizes", "rollout.pods", "rollout.terminating", "rollout.available"}}
	for i, r := range c.RolloutHistory(ns, name) {
		if i < c.historyFrom {
			continue
		}
		// The pods that exist when the sizes change (terminating ones
		// too, as kubectl get pods lists them), beside the sizes the
		// controller bounds.
		t.Rows = append(t.Rows, []string{fmt.Sprint(i - c.historyFrom + 1), fmt.Sprint(r.Old), fmt.Sprint(r.New), fmt.Sprint(r.Old + r.New),
			fmt.Sprint(r.Pods), fmt.Sprint(r.Terminating), fmt.Sprint(r.Available)})
	}
	return t
}

// MarkHistory starts the rollout table afresh for the Deployment.
func (c *Scene) MarkHistory(ns, name string) { c.historyFrom = len(c.RolloutHistory(ns, name)) }

// RolloutPlan is the rollout table of the Deployment's own numbers if every
// new pod were Ready before the controller's next sync.
func (c *Scene) RolloutPlan(dep *appsv1.Deployment) trace.KeyedTable {
	replicas := int32(1)
	if dep.Spec.Replicas != nil {
		replicas = *dep.Spec.Replicas
	}
	var surge, unavail *intstr.IntOrString
	if ru := dep.Spec.Strategy.RollingUpdate; ru != nil {
		surge, unavail = ru.MaxSurge, ru.MaxUnavailable
	}
	s, u, _ := controller.ResolveFenceposts(surge, unavail, replicas)
	t := trace.KeyedTable{Title: "rollout.plan", Header: []string{"rollout.sync", "rollout.old", "rollout.new", "rollout.sizes", "rollout.available"}}
	for i, r := range controller.PlanRollout(replicas, s, u) {
		t.Rows = append(t.Rows, []string{fmt.Sprint(i + 1), fmt.Sprint(r.Old), fmt.Sprint(r.New), fmt.Sprint(r.Old + r.New), fmt.Sprint(r.Available)})
	}
	return t
}

// Crash makes pod's first container fail times times (see kubelet.Crash).
func (c *Scene) Crash(pod *corev1.Pod, reason string, times int) error {
	k := c.Kubelet(pod.Spec.NodeName)
	if k == nil {
		return fmt.Errorf("pod %s is not bound to a node", pod.Name)
	}
	kind := trace.Kind("story.crash")
	if reason == "readiness" {
		// The kubelet fails the readiness check once and for all
		// (kubelet.Crash ignores times for it): the story must not say
		// "N times in a row".
		kind = "story.unready"
	}
	c.Recorder().Add(trace.Step{Phase: trace.PhaseKubectl, Actor: "story", Kind: kind, Object: apiserver.ObjectRef(pod),
		Fields: trace.F("pod", pod.Name, "reason", trace.P("crash."+reason), "times", times, "ip", pod.Status.PodIP, "node", pod.Spec.NodeName)})
	return k.Crash(pod.Name, reason, times)
}

// BackOffTable is the kubelet's restart back-off sequence.
func BackOffTable(n int) trace.KeyedTable {
	t := trace.KeyedTable{Title: "crash.title", Header: []string{"crash.restart", "crash.delay", "crash.since"},
		Durations: []bool{false, true, true}}
	var total time.Duration
	for i := 0; i < n; i++ {
		d := kubelet.CrashBackOff(i)
		total += d
		t.Rows = append(t.Rows, []string{fmt.Sprint(i + 1), d.String(), total.String()})
	}
	return t
}

// FailNode cuts the power of a node: its kubelet stops renewing its Lease
// and does nothing any more.
func (c *Scene) FailNode(name string) error {
	k := c.Kubelet(name)
	if k == nil {
		return fmt.Errorf("node %q is not in the cluster (nodes: %s)", name, strings.Join(c.NodeNames(), ", "))
	}
	var pods []string
	for _, p := range c.Pods() {
		if p.Spec.NodeName == name {
			pods = append(pods, p.Name)
		}
	}
	c.Recorder().Add(trace.Step{Phase: trace.PhaseKubelet, Actor: "story", Kind: "story.nodedown", Object: "nodes/" + name,
		Fields: trace.F("node", name, "pods", strings.Join(pods, ", "))})
	c.PowerOff(name)
	c.downAt = c.Now()
	return nil
}

// NodeFailureTable states the timings the story used and their upstream
// defaults, with what the run observed.
func (c *Scene) NodeFailureTable(node string) trace.KeyedTable {
	t := trace.KeyedTable{Title: "node.title", Header: []string{"node.setting", "node.value", "node.default"},
		Durations: []bool{false, true, false}}
	t.Rows = [][]string{
		{"node.renew", kubelet.RenewInterval.String(), "node.renew.default"},
		{"node.monitor", controller.NodeMonitorPeriod.String(), "node.monitor.default"},
		{"node.grace", controller.NodeMonitorGracePeriod.String(), "node.grace.default"},
		{"node.toleration", "300s", "node.toleration.default"},
	}
	if at, ok := c.MarkedUnknown(node); ok {
		t.Rows = append(t.Rows, []string{"node.observedUnknown", (at - c.downAt).Round(time.Second).String(), "node.observed.default"})
	}
	return t
}
