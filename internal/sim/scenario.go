package sim

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/controller"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubelet"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Settle runs the cluster until it is quiet and starts a new story: the
// steps and counters so far are dropped, and the time is remembered as the
// story's start. It reports whether every pod became Ready.
func (c *Cluster) Settle() bool {
	tr := c.Run("")
	c.start = c.eng.Now()
	c.rec.Reset()
	c.api.Requests = map[string]int{}
	c.api.WatchEvents = 0
	c.api.ResetFirstRevision()
	c.readyAt = 0
	c.eventsBefore = c.eng.Processed()
	return tr.Failed == "" && tr.Summary.AllReady
}

// Failed is the first error that stopped the apply ("" if none): the API
// server's message for an object it rejected.
func (c *Cluster) Failed() string { return c.failed }

// Pods lists the stored pods (namespace/name → pod), for choosing targets.
func (c *Cluster) Pods() []*corev1.Pod { return c.api.Pods() }

// Deployment returns a stored Deployment, or nil.
func (c *Cluster) Deployment(ns, name string) *appsv1.Deployment {
	o := c.api.Get(apiserver.ResourceOf(&appsv1.Deployment{}), ns, name)
	if o == nil {
		return nil
	}
	return o.(*appsv1.Deployment)
}

// SetImage is `kubectl set image deployment/NAME CONTAINER=IMAGE`: kubectl
// reads the Deployment, changes the image locally and sends the difference
// as a strategic merge patch (kubectl set/set_image.go: PATCH with
// application/strategic-merge-patch+json, RBAC verb patch). A new template,
// so a new ReplicaSet and a rolling update.
func (c *Cluster) SetImage(dep *appsv1.Deployment, container, image string) error {
	found := false
	for _, ct := range dep.Spec.Template.Spec.Containers {
		found = found || ct.Name == container
	}
	if !found {
		var names []string
		for _, ct := range dep.Spec.Template.Spec.Containers {
			names = append(names, ct.Name)
		}
		return fmt.Errorf("deployment %s has no container %q (it has %s)", dep.Name, container, strings.Join(names, ", "))
	}
	body, _ := json.Marshal(map[string]any{"spec": map[string]any{"template": map[string]any{"spec": map[string]any{
		"containers": []map[string]string{{"image": image, "name": container}}}}}})
	c.rec.Add(trace.Step{Phase: trace.PhaseKubectl, Actor: "kubectl", To: "kube-apiserver", Kind: "kubectl.setimage", Object: apiserver.ObjectRef(dep),
		Fields: trace.F("deployment", dep.Name, "container", container, "image", image)})
	c.kubectl.Patch(apiserver.ResourceOf(dep), dep.Namespace, dep.Name, "strategic merge patch "+string(body), func(o runtime.Object) {
		d := o.(*appsv1.Deployment)
		for i := range d.Spec.Template.Spec.Containers {
			if d.Spec.Template.Spec.Containers[i].Name == container {
				d.Spec.Template.Spec.Containers[i].Image = image
			}
		}
	}, func(_ runtime.Object, err *apiserver.Status) {
		if err != nil {
			c.failed = err.Message
		}
	})
	return nil
}

// Undo is `kubectl rollout undo deployment/NAME`: kubectl finds the
// ReplicaSet of the previous revision and sends a JSON patch that replaces
// the Deployment's spec.template with that set's template (without its
// pod-template-hash label) and its annotations (kubectl polymorphichelpers
// rollback.go getDeploymentPatch). The Deployment controller then finds
// that old ReplicaSet for the template and reuses it under a new revision.
func (c *Cluster) Undo(dep *appsv1.Deployment) {
	rs := c.previousRS(dep)
	if rs == nil {
		return
	}
	tmpl := rs.Spec.Template.DeepCopy()
	delete(tmpl.Labels, "pod-template-hash")
	c.rec.Add(trace.Step{Phase: trace.PhaseKubectl, Actor: "kubectl", To: "kube-apiserver", Kind: "kubectl.undo", Object: apiserver.ObjectRef(dep),
		Fields: trace.F("deployment", dep.Name, "rs", rs.Name, "revision", rs.Annotations["deployment.kubernetes.io/revision"])})
	c.kubectl.Patch(apiserver.ResourceOf(dep), dep.Namespace, dep.Name,
		`JSON patch [{"op":"replace","path":"/spec/template","value":{…}},{"op":"replace","path":"/metadata/annotations","value":{…}}]`,
		func(o runtime.Object) { o.(*appsv1.Deployment).Spec.Template = *tmpl }, nil)
}

// previousRS is the ReplicaSet of the revision before the current one.
func (c *Cluster) previousRS(dep *appsv1.Deployment) *appsv1.ReplicaSet {
	var owned []*appsv1.ReplicaSet
	for _, o := range c.api.List("replicasets") {
		rs := o.(*appsv1.ReplicaSet)
		for _, ref := range rs.OwnerReferences {
			if ref.UID == dep.UID {
				owned = append(owned, rs)
			}
		}
	}
	sort.Slice(owned, func(i, j int) bool {
		ri, _ := strconv.Atoi(owned[i].Annotations["deployment.kubernetes.io/revision"])
		rj, _ := strconv.Atoi(owned[j].Annotations["deployment.kubernetes.io/revision"])
		return ri > rj
	})
	if len(owned) < 2 {
		return nil
	}
	return owned[1]
}

// RunFor drives the story for at most d of virtual time after its start
// (periodic work such as image-pull retries would otherwise never end).
func (c *Cluster) RunFor(d time.Duration) {
	c.eng.Run(c.start + d)
}

// Story returns the trace of the story since Settle.
func (c *Cluster) Story(command, story string) *trace.Trace {
	tr := c.Run(command)
	tr.Story = story
	tr.Start = c.start
	if tr.Summary.ReadyAt > 0 {
		tr.Summary.ReadyAt -= c.start
	}
	tr.Summary.End -= c.start
	return tr
}

// RolloutTable is the Deployment's rollout table since the story began.
func (c *Cluster) RolloutTable(ns, name string) trace.KeyedTable {
	t := trace.KeyedTable{Title: "rollout.title", Header: []string{"rollout.sync", "rollout.old", "rollout.new", "rollout.pods", "rollout.available"}}
	for i, r := range c.deploy.History[ns+"/"+name] {
		if i < c.historyFrom {
			continue
		}
		t.Rows = append(t.Rows, []string{fmt.Sprint(i - c.historyFrom + 1), fmt.Sprint(r.Old), fmt.Sprint(r.New), fmt.Sprint(r.Old + r.New), fmt.Sprint(r.Available)})
	}
	return t
}

// MarkHistory starts the rollout table afresh for the Deployment.
func (c *Cluster) MarkHistory(ns, name string) { c.historyFrom = len(c.deploy.History[ns+"/"+name]) }

// RolloutPlan is the rollout table of the Deployment's own numbers if every
// new pod were Ready before the controller's next sync.
func (c *Cluster) RolloutPlan(dep *appsv1.Deployment) trace.KeyedTable {
	replicas := int32(1)
	if dep.Spec.Replicas != nil {
		replicas = *dep.Spec.Replicas
	}
	var surge, unavail *intstr.IntOrString
	if ru := dep.Spec.Strategy.RollingUpdate; ru != nil {
		surge, unavail = ru.MaxSurge, ru.MaxUnavailable
	}
	s, u, _ := controller.ResolveFenceposts(surge, unavail, replicas)
	t := trace.KeyedTable{Title: "rollout.plan", Header: []string{"rollout.sync", "rollout.old", "rollout.new", "rollout.pods", "rollout.available"}}
	for i, r := range controller.PlanRollout(replicas, s, u) {
		t.Rows = append(t.Rows, []string{fmt.Sprint(i + 1), fmt.Sprint(r.Old), fmt.Sprint(r.New), fmt.Sprint(r.Old + r.New), fmt.Sprint(r.Available)})
	}
	return t
}

// Crash makes pod's first container fail times times (see kubelet.Crash).
func (c *Cluster) Crash(pod *corev1.Pod, reason string, times int) error {
	k := c.kubelets[pod.Spec.NodeName]
	if k == nil {
		return fmt.Errorf("pod %s is not bound to a node", pod.Name)
	}
	c.rec.Add(trace.Step{Phase: trace.PhaseKubectl, Actor: "story", Kind: "story.crash", Object: apiserver.ObjectRef(pod),
		Fields: trace.F("pod", pod.Name, "reason", reason, "times", times, "ip", pod.Status.PodIP, "node", pod.Spec.NodeName)})
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
func (c *Cluster) FailNode(name string) error {
	k := c.kubelets[name]
	if k == nil {
		var names []string
		for _, n := range c.nodes {
			names = append(names, n.Name)
		}
		return fmt.Errorf("node %q is not in the cluster (nodes: %s)", name, strings.Join(names, ", "))
	}
	var pods []string
	for _, p := range c.api.Pods() {
		if p.Spec.NodeName == name {
			pods = append(pods, p.Name)
		}
	}
	c.rec.Add(trace.Step{Phase: trace.PhaseKubelet, Actor: "story", Kind: "story.nodedown", Object: "nodes/" + name,
		Fields: trace.F("node", name, "pods", strings.Join(pods, ", "))})
	k.Dead = true
	c.downAt = c.eng.Now()
	return nil
}

// NodeFailureTable states the timings the story used and their upstream
// defaults, with what the run observed.
func (c *Cluster) NodeFailureTable(node string) trace.KeyedTable {
	t := trace.KeyedTable{Title: "node.title", Header: []string{"node.setting", "node.value", "node.default"},
		Durations: []bool{false, true, false}}
	t.Rows = [][]string{
		{"node.renew", kubelet.RenewInterval.String(), "node.renew.default"},
		{"node.monitor", controller.NodeMonitorPeriod.String(), "node.monitor.default"},
		{"node.grace", controller.NodeMonitorGracePeriod.String(), "node.grace.default"},
		{"node.toleration", "300s", "node.toleration.default"},
	}
	if at, ok := c.nodeLife.Marked[node]; ok {
		t.Rows = append(t.Rows, []string{"node.observedUnknown", (at - c.downAt).Round(time.Second).String(), "node.observed.default"})
	}
	return t
}

// RunThrough drives the story to d after its start, periodic background
// work (heartbeats, the node monitor) included.
func (c *Cluster) RunThrough(d time.Duration) { c.eng.RunUntil(c.start + d) }

// Scale is `kubectl scale deployment/NAME --replicas=N`. Real kubectl
// patches the scale subresource; the simulator writes the Deployment.
func (c *Cluster) Scale(dep *appsv1.Deployment, replicas int32) {
	upd := dep.DeepCopy()
	upd.Spec.Replicas = &replicas
	c.kubectl.Update(upd, func(_ runtime.Object, err *apiserver.Status) {
		if err != nil {
			c.failed = err.Message
		}
	})
}
