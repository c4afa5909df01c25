package controller

import (
	"maps"
	"slices"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/sim/informer"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// DeletionTimeout is how long an eviction's entry in a budget's
// status.disruptedPods keeps the pod out of currentHealthy before the
// controller gives up waiting for its deletion
// (pkg/controller/disruption/disruption.go DeletionTimeout, 2 minutes).
const DeletionTimeout = 2 * time.Minute

// Disruption is kube-controller-manager's disruption controller
// (pkg/controller/disruption/disruption.go, v1.37): it keeps each
// PodDisruptionBudget's status — expectedPods, desiredHealthy,
// currentHealthy, disruptionsAllowed, disruptedPods and the
// DisruptionAllowed condition — which the eviction subresource reads. A
// pod change queues the budgets selecting it; a budget change queues the
// budget.
//
// Left out: StatefulSets, ReplicationControllers and custom scale
// subresources as controllers of pods (their pods count as found by no
// controller), and the stale DisruptionTarget cleanup worker.
type Disruption struct {
	c    *apiserver.Client
	eng  *engine.Engine
	rec  *trace.Recorder
	pdbs *informer.Informer[*policyv1.PodDisruptionBudget]
	pods *informer.Informer[*corev1.Pod]
	rss  *informer.Informer[*appsv1.ReplicaSet]
	deps *informer.Informer[*appsv1.Deployment]
	// queue is the budgets' work queue (recheckQueue's delayed adds go
	// straight to it).
	queue *workQueue
	own   *informer.Factory
}

// NewDisruption builds the controller on its client, its informers from f
// (nil: its own).
func NewDisruption(f *informer.Factory, c *apiserver.Client, eng *engine.Engine, rec *trace.Recorder) *Disruption {
	f, own := informer.Or(f, c)
	d := &Disruption{c: c, eng: eng, rec: rec, own: own,
		pdbs: informer.For[*policyv1.PodDisruptionBudget](f, "poddisruptionbudgets"),
		pods: informer.For[*corev1.Pod](f, "pods"),
		rss:  informer.For[*appsv1.ReplicaSet](f, "replicasets"),
		deps: informer.For[*appsv1.Deployment](f, "deployments")}
	d.queue = newWorkQueue(eng, d.sync)
	d.pdbs.AddEventHandlerFor(c.Actor, func(ev informer.Event[*policyv1.PodDisruptionBudget]) {
		if !ev.Deleted() {
			d.queue.add(informer.Key(ev.Obj)) // addDb, updateDb
		}
	})
	d.pods.AddEventHandlerFor(c.Actor, func(ev informer.Event[*corev1.Pod]) {
		// addPod, updatePod, deletePod: the budget of the pod (the first
		// when several select it, as getPdbForPod picks one).
		if pdb := d.budgetFor(ev.Obj); pdb != nil {
			d.queue.add(informer.Key(pdb))
		}
	})
	return d
}

// Name is the controller's client name.
func (d *Disruption) Name() string { return d.c.Actor }

// Start opens its own watches (on shared informers kube-controller-manager
// opens them).
func (d *Disruption) Start() { d.own.Start() }

// budgetFor is getPdbForPod: the first budget of the pod's namespace whose
// selector matches it.
func (d *Disruption) budgetFor(p *corev1.Pod) *policyv1.PodDisruptionBudget {
	for _, pdb := range d.pdbs.ByNamespace(p.Namespace) {
		sel, err := metav1.LabelSelectorAsSelector(pdb.Spec.Selector)
		if err == nil && !sel.Empty() && sel.Matches(labels.Set(p.Labels)) {
			return pdb
		}
	}
	return nil
}

// podsFor is getPodsForPdb.
func (d *Disruption) podsFor(pdb *policyv1.PodDisruptionBudget) []*corev1.Pod {
	sel, err := metav1.LabelSelectorAsSelector(pdb.Spec.Selector)
	if err != nil {
		return nil
	}
	var out []*corev1.Pod
	for _, p := range d.pods.ByNamespace(pdb.Namespace) {
		if sel.Matches(labels.Set(p.Labels)) {
			out = append(out, p)
		}
	}
	return out
}

// sync is sync → trySync (disruption.go): count, then updatePdbStatus.
func (d *Disruption) sync(p *engine.Proc, key string) error {
	pdb, _ := d.pdbs.GetByKey(key)
	if pdb == nil {
		return nil
	}
	pods := d.podsFor(pdb)
	if len(pods) == 0 {
		d.c.Event(trace.PhaseController, pdb, "Normal", "NoPods", "No matching pods found")
	}
	expected, desired, unmanaged, err := d.expectedPodCount(pdb, pods)
	if err != "" {
		d.c.Event(trace.PhaseController, pdb, "Warning", "CalculateExpectedPodCountFailed", "Failed to calculate the number of expected pods: "+err)
		return nil // upstream's failSafe writes disruptionsAllowed 0; the simulator leaves the status as it is
	}
	if len(unmanaged) > 0 {
		d.c.Event(trace.PhaseController, pdb, "Warning", "UnmanagedPods", "Pods selected by this PodDisruptionBudget (selector: "+
			metav1.FormatLabelSelector(pdb.Spec.Selector)+") were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, "+
			"which may result in undefined behavior. To account for these pods please set \".spec.minAvailable\" field of the PDB to an integer value.")
	}
	now := d.eng.Now()
	disrupted, recheck := buildDisruptedPodMap(pods, pdb, now)
	healthy := countHealthyPods(pods, disrupted, now)
	if err := d.updateStatus(p, pdb, healthy, desired, expected, disrupted); err != nil {
		return err
	}
	if recheck >= 0 {
		d.queue.addAfter(key, recheck-now)
	}
	return nil
}

// expectedPodCount is getExpectedPodCount: minAvailable as a number counts
// the selected pods; maxUnavailable and a percentage count the scale of
// their controllers (getExpectedScale).
func (d *Disruption) expectedPodCount(pdb *policyv1.PodDisruptionBudget, pods []*corev1.Pod) (expected, desired int32, unmanaged []string, err string) {
	switch {
	case pdb.Spec.MaxUnavailable != nil:
		if expected, unmanaged, err = d.expectedScale(pods); err != "" {
			return
		}
		maxUnavailable, e := intstr.GetScaledValueFromIntOrPercent(pdb.Spec.MaxUnavailable, int(expected), true)
		if e != nil {
			return 0, 0, nil, e.Error()
		}
		desired = max(expected-int32(maxUnavailable), 0)
	case pdb.Spec.MinAvailable != nil && pdb.Spec.MinAvailable.Type == intstr.Int:
		desired, expected = pdb.Spec.MinAvailable.IntVal, int32(len(pods))
	case pdb.Spec.MinAvailable != nil:
		if expected, unmanaged, err = d.expectedScale(pods); err != "" {
			return
		}
		minAvailable, e := intstr.GetScaledValueFromIntOrPercent(pdb.Spec.MinAvailable, int(expected), true)
		if e != nil {
			return 0, 0, nil, e.Error()
		}
		desired = int32(minAvailable)
	}
	return
}

// expectedScale is getExpectedScale: the sum of the scale of every
// controller of the pods, each counted once. A ReplicaSet owned by a
// Deployment counts as the Deployment (getPodReplicaSet leaves it to
// getPodDeployment).
func (d *Disruption) expectedScale(pods []*corev1.Pod) (int32, []string, string) {
	scale := map[string]int32{}
	var unmanaged []string
	for _, p := range pods {
		ref := metav1.GetControllerOfNoCopy(p)
		if ref == nil {
			unmanaged = append(unmanaged, p.Name)
			continue
		}
		uid, n, ok := d.controllerScale(p.Namespace, ref)
		if !ok {
			return 0, nil, `found no controllers for pod "` + p.Name + `"`
		}
		scale[uid] = n
	}
	var sum int32
	for _, k := range slices.Sorted(maps.Keys(scale)) {
		sum += scale[k]
	}
	return sum, unmanaged, ""
}

func (d *Disruption) controllerScale(ns string, ref *metav1.OwnerReference) (string, int32, bool) {
	if ref.Kind != "ReplicaSet" {
		return "", 0, false
	}
	rs, _ := d.rss.Get(ns, ref.Name)
	if rs == nil || rs.UID != ref.UID {
		return "", 0, false
	}
	if dref := metav1.GetControllerOfNoCopy(rs); dref != nil && dref.Kind == "Deployment" {
		dep, _ := d.deps.Get(ns, dref.Name)
		if dep == nil || dep.UID != dref.UID {
			return "", 0, false
		}
		return string(dep.UID), replicasOf(dep.Spec.Replicas), true
	}
	return string(rs.UID), replicasOf(rs.Spec.Replicas), true
}

func replicasOf(n *int32) int32 {
	if n == nil {
		return 1
	}
	return *n
}

// countHealthyPods: Ready pods that are neither terminating nor recently
// evicted.
func countHealthyPods(pods []*corev1.Pod, disrupted map[string]metav1.Time, now time.Duration) int32 {
	var n int32
	for _, p := range pods {
		if p.DeletionTimestamp != nil {
			continue
		}
		if at, ok := disrupted[p.Name]; ok && at.Add(DeletionTimeout).After(apiserver.Epoch.Add(now)) {
			continue
		}
		if apiserver.PodIsReady(p) {
			n++
		}
	}
	return n
}

// buildDisruptedPodMap keeps the entries of pods not yet terminating whose
// DeletionTimeout has not run out, and when to look again (-1: never).
func buildDisruptedPodMap(pods []*corev1.Pod, pdb *policyv1.PodDisruptionBudget, now time.Duration) (map[string]metav1.Time, time.Duration) {
	out := map[string]metav1.Time{}
	recheck := time.Duration(-1)
	if pdb.Status.DisruptedPods == nil {
		return out, recheck
	}
	for _, p := range pods {
		at, ok := pdb.Status.DisruptedPods[p.Name]
		if p.DeletionTimestamp != nil || !ok {
			continue
		}
		expires := at.Sub(apiserver.Epoch) + DeletionTimeout
		if expires < now {
			continue // upstream records a NotDeleted event here
		}
		if recheck < 0 || expires < recheck {
			recheck = expires
		}
		out[p.Name] = at
	}
	return out, recheck
}

// updateStatus is updatePdbStatus: one UpdateStatus when anything changed.
func (d *Disruption) updateStatus(p *engine.Proc, pdb *policyv1.PodDisruptionBudget, healthy, desired, expected int32, disrupted map[string]metav1.Time) error {
	allowed := healthy - desired
	if expected <= 0 || allowed <= 0 {
		allowed = 0
	}
	st := pdb.Status
	if st.CurrentHealthy == healthy && st.DesiredHealthy == desired && st.ExpectedPods == expected && st.DisruptionsAllowed == allowed &&
		apiequality.Semantic.DeepEqual(st.DisruptedPods, disrupted) && st.ObservedGeneration == pdb.Generation && conditionUpToDate(pdb) {
		return nil
	}
	upd := pdb.DeepCopy()
	upd.Status = policyv1.PodDisruptionBudgetStatus{CurrentHealthy: healthy, DesiredHealthy: desired, ExpectedPods: expected,
		DisruptionsAllowed: allowed, DisruptedPods: disrupted, ObservedGeneration: pdb.Generation, Conditions: upd.Status.Conditions}
	apiserver.SetDisruptionAllowed(upd)
	for i := range upd.Status.Conditions {
		if upd.Status.Conditions[i].LastTransitionTime.IsZero() {
			upd.Status.Conditions[i].LastTransitionTime = apiserver.TimeAt(d.eng.Now())
		}
	}
	d.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: d.c.Actor, Kind: "disruption.status", Object: apiserver.ObjectRef(pdb),
		Fields: trace.F("pdb", pdb.Name, "expected", expected, "desired", desired, "healthy", healthy, "allowed", allowed,
			"disrupted", len(disrupted))})
	obj, err := d.c.In(p).UpdateStatus(upd)
	if err != nil {
		return err
	}
	d.pdbs.Write(obj.(*policyv1.PodDisruptionBudget))
	return nil
}

// conditionUpToDate is pdbhelper.ConditionsAreUpToDate.
func conditionUpToDate(pdb *policyv1.PodDisruptionBudget) bool {
	for _, c := range pdb.Status.Conditions {
		if c.Type == policyv1.DisruptionAllowedCondition {
			want := metav1.ConditionFalse
			if pdb.Status.DisruptionsAllowed > 0 {
				want = metav1.ConditionTrue
			}
			return c.ObservedGeneration == pdb.Status.ObservedGeneration && c.Status == want
		}
	}
	return false
}
