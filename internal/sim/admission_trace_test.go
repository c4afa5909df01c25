package sim

import (
	"regexp"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/simtest"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// examples/quota.yaml: LimitRanger gives the pods default requests (so they
// are Burstable), ResourceQuota admits two and refuses the third with
// upstream's message, the ReplicaSet reports FailedCreate and retries with
// a growing back-off, and status.used ends equal to the two pods' usage.
func TestQuotaAndLimitRange(t *testing.T) {
	c := exampleCluster(t, "quota.yaml", Config{Seed: 1, Workers: 3})
	tr := c.Run("t")
	if tr.Summary.Pods != 2 || !tr.Summary.AllReady {
		t.Fatalf("want 2 pods admitted and Ready, got %d (%d ready)", tr.Summary.Pods, tr.Summary.ReadyPods)
	}
	for _, s := range simtest.StepsOf(tr, "kubelet.admit") {
		if s.Get("qos") != "Burstable" {
			t.Fatalf("QoS %s: LimitRanger defaults should make the pod Burstable", s.Get("qos"))
		}
	}
	for _, p := range c.Pods() {
		if !strings.HasPrefix(p.Annotations["kubernetes.io/limit-ranger"], "LimitRanger plugin set: cpu, memory request for container web; cpu, memory limit for container web") {
			t.Fatalf("limit-ranger annotation: %q", p.Annotations["kubernetes.io/limit-ranger"])
		}
		if p.Spec.Priority == nil || *p.Spec.Priority != 0 || p.Spec.PreemptionPolicy == nil || *p.Spec.PreemptionPolicy != corev1.PreemptLowerPriority {
			t.Fatalf("Priority admission: priority %v, preemptionPolicy %v", p.Spec.Priority, p.Spec.PreemptionPolicy)
		}
	}
	msg := regexp.MustCompile(`^Error creating: pods "web-[a-z0-9]+-[a-z0-9]{5}" is forbidden: exceeded quota: compute, requested: requests.cpu=200m, used: requests.cpu=400m, limited: requests.cpu=500m$`)
	var failed []string
	var at []float64
	for _, s := range simtest.StepsOf(tr, "event") {
		if s.Get("reason") == "FailedCreate" {
			failed = append(failed, s.Get("message"))
			at = append(at, s.At.Seconds())
		}
	}
	if len(failed) < 5 {
		t.Fatalf("want the ReplicaSet to keep retrying, got %d FailedCreate", len(failed))
	}
	for i, m := range failed {
		// client-go's recorder aggregates: from the 10th similar event
		// (same object and reason, another message) on, one combined event.
		if i >= 9 {
			var ok bool
			if m, ok = strings.CutPrefix(m, "(combined from similar events): "); !ok {
				t.Fatalf("event %d is not aggregated: %s", i+1, m)
			}
		}
		if !msg.MatchString(m) {
			t.Fatalf("FailedCreate message: %s", m)
		}
	}
	if last, first := at[len(at)-1]-at[len(at)-2], at[1]-at[0]; last <= first {
		t.Fatalf("retries do not back off: first gap %.3fs, last %.3fs", first, last)
	}
	rq := c.api.Get(apiserver.ResourceOf(&corev1.ResourceQuota{}), "team-a", "compute").(*corev1.ResourceQuota)
	used := rq.Status.Used[corev1.ResourceRequestsCPU]
	pods := rq.Status.Used[corev1.ResourcePods]
	if used.String() != "400m" || pods.String() != "2" || rq.Status.Hard.Cpu() == nil {
		t.Fatalf("status.used %v, hard %v", rq.Status.Used, rq.Status.Hard)
	}
	mut, ok := simtest.FirstAt(tr, "apiserver.mutating", "", "")
	if !ok {
		t.Fatal("no mutating admission step")
	}
	var order []string
	for _, p := range strings.Split(mut.Get("plugins"), "; ") {
		name, _, _ := strings.Cut(p, ":")
		if len(order) == 0 || order[len(order)-1] != name {
			order = append(order, name)
		}
	}
	if got := strings.Join(order, ","); got != "LimitRanger,ServiceAccount,Priority,DefaultTolerationSeconds" {
		t.Fatalf("mutating plugins in order %s", got)
	}
}

const priorityPods = `apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
preemptionPolicy: Never
---
apiVersion: v1
kind: Pod
metadata: {name: hi}
spec:
  priorityClassName: high
  containers: [{name: app, image: nginx:1.27}]
---
apiVersion: v1
kind: Pod
metadata: {name: lost}
spec:
  priorityClassName: nope
  containers: [{name: app, image: nginx:1.27}]
`

func TestPriorityAdmission(t *testing.T) {
	c := appliedCluster(t, Config{Seed: 1, Workers: 1}, "p.yaml", priorityPods)
	tr := c.Run("t")
	pods := c.Pods()
	if len(pods) != 1 || *pods[0].Spec.Priority != 1000 || *pods[0].Spec.PreemptionPolicy != corev1.PreemptNever {
		t.Fatalf("pods %d, priority/policy from the class wanted", len(pods))
	}
	if want := `pods "lost" is forbidden: no PriorityClass with name nope was found`; !strings.Contains(tr.Failed, want) {
		t.Fatalf("failed: %q, want %q", tr.Failed, want)
	}
}

// The resource-quota controller gives a deleted pod's usage back.
func TestQuotaReplenished(t *testing.T) {
	c := appliedCluster(t, Config{Seed: 1, Workers: 1}, "q.yaml", `apiVersion: v1
kind: ResourceQuota
metadata: {name: q}
spec: {hard: {pods: "1"}}
---
apiVersion: v1
kind: Pod
metadata: {name: a}
spec:
  containers: [{name: app, image: nginx:1.27}]
`)
	c.Run("t")
	res := apiserver.ResourceOf(&corev1.ResourceQuota{})
	used := func() string {
		q := c.api.Get(res, "default", "q").(*corev1.ResourceQuota).Status.Used[corev1.ResourcePods]
		return q.String()
	}
	if got := used(); got != "1" {
		t.Fatalf("after the pod: used pods=%s, want 1", got)
	}
	c.Apply(simtest.Parse(t, "apiVersion: v1\nkind: Pod\nmetadata: {name: b}\nspec:\n  containers: [{name: app, image: nginx:1.27}]\n"), []string{"b.yaml"})
	if tr, want := c.Run("t"), `pods "b" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1`; !strings.Contains(tr.Failed, want) {
		t.Fatalf("second pod: %q, want %q", tr.Failed, want)
	}
	c.kubectl.Delete(apiserver.ResourceOf(&corev1.Pod{}), "default", "a", nil)
	c.Run("t")
	if got := used(); got != "0" {
		t.Fatalf("after deleting the pod: used pods=%s, want 0", got)
	}
}

// LimitRanger's validation: a container above the namespace's max is refused.
func TestLimitRangeMax(t *testing.T) {
	c := appliedCluster(t, Config{Seed: 1, Workers: 1}, "lr.yaml", `apiVersion: v1
kind: LimitRange
metadata: {name: lr}
spec:
  limits:
  - {type: Container, max: {cpu: "1"}}
---
apiVersion: v1
kind: Pod
metadata: {name: big}
spec:
  containers: [{name: app, image: nginx:1.27, resources: {limits: {cpu: "2"}}}]
`)
	tr := c.Run("t")
	if want := `pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2`; !strings.Contains(tr.Failed, want) {
		t.Fatalf("failed: %q, want %q", tr.Failed, want)
	}
}

// A quota limit the simulator does not count is named, not silently ignored.
func TestQuotaUnmodeledKeys(t *testing.T) {
	tr := applyTrace(t, 1, simtest.Parse(t, `apiVersion: v1
kind: ResourceQuota
metadata: {name: q}
spec: {hard: {pods: "5", services: "1", count/deployments.apps: "2"}}
`))
	s, ok := simtest.FirstAt(tr, "resourcequota.unmodeled", "", "")
	if !ok || s.Get("keys") != "count/deployments.apps, services" {
		t.Fatalf("unmodeled keys: %v", s.Fields)
	}
}

// syncReplicaSet writes the status after manageReplicas even when a pod
// creation failed (pkg/controller/replicaset/replica_set.go, calculateStatus
// in replica_set_utils.go): under the quota the ReplicaSet reports its two
// Ready pods and a ReplicaFailure condition (reason FailedCreate, the
// create error as message), and the Deployment counts one unavailable pod,
// not three.
func TestQuotaReplicaSetStatusAfterFailedCreate(t *testing.T) {
	c := exampleCluster(t, "quota.yaml", Config{Seed: 1, Workers: 3})
	c.Settle()
	var rs *appsv1.ReplicaSet
	for _, o := range c.Objects("replicasets") {
		rs = o.(*appsv1.ReplicaSet)
	}
	if rs == nil {
		t.Fatal("no ReplicaSet")
	}
	if st := rs.Status; st.Replicas != 2 || st.ReadyReplicas != 2 || st.AvailableReplicas != 2 || st.ObservedGeneration != rs.Generation {
		t.Errorf("ReplicaSet status %+v: want 2 replicas, 2 ready, 2 available", st)
	}
	var cond *appsv1.ReplicaSetCondition
	for i := range rs.Status.Conditions {
		if rs.Status.Conditions[i].Type == appsv1.ReplicaSetReplicaFailure {
			cond = &rs.Status.Conditions[i]
		}
	}
	if cond == nil || cond.Status != corev1.ConditionTrue || cond.Reason != "FailedCreate" ||
		!regexp.MustCompile(`^pods "web-[a-z0-9]+-[a-z0-9]{5}" is forbidden: exceeded quota: compute, `).MatchString(cond.Message) || cond.LastTransitionTime.IsZero() {
		t.Errorf("ReplicaFailure condition %+v", cond)
	}
	if d := c.Deployment("team-a", "web"); d == nil || d.Status.AvailableReplicas != 2 || d.Status.UnavailableReplicas != 1 {
		t.Errorf("Deployment status %+v: want 2 available, 1 unavailable", d.Status)
	}
}
