package sim

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"sort"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/sim/informer"
	"github.com/k8sexplain/k8sexplain/internal/sim/scheduler"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
)

// cycleTime is the virtual time one scheduling cycle takes.
const cycleTime = time.Millisecond

// schedAgent is kube-scheduler's process around the scheduling framework:
// informers for nodes, pods, Services and ReplicaSets; a FIFO of pods to
// schedule; one cycle at a time; the asynchronous bind through the API.
type schedAgent struct {
	c        *apiserver.Client
	eng      *engine.Engine
	rec      *trace.Recorder
	fw       *scheduler.Scheduler
	cache    *scheduler.Cluster
	queue    []*corev1.Pod
	queued   map[types.UID]bool
	busy     bool
	bound    map[types.UID]scheduler.PodRef // pods assumed or bound, by UID: where the cache holds each
	nodes    *informer.Informer[*corev1.Node]
	services *informer.Informer[*corev1.Service]
	rsets    *informer.Informer[*appsv1.ReplicaSet]
	pods     *informer.Informer[*corev1.Pod]
	// pdbs is the PodDisruptionBudget lister preemption reads, nil when
	// the cluster keeps no budgets' status (Config.Disruption).
	pdbs    *informer.Informer[*policyv1.PodDisruptionBudget]
	failed  map[types.UID]*corev1.Pod // unschedulable, waiting for a cluster change
	others  map[types.UID]bool        // pods for another scheduler, already reported
	Pending map[types.UID]string      // unschedulable pods' messages, for the summary
	spread  spreadMemo
	// weights are the profile's Score weights as the score step's
	// explanation lists them (scheduler.Profile.Describe), built once.
	weights string
	// Scheduled counts binds that succeeded, between FirstBind and
	// LastBind (virtual time), for the summary's scale section.
	Scheduled           int
	FirstBind, LastBind time.Duration
	// volumes are the VolumeBinding plugin's informers and binder the
	// plugin, nil unless Config.Volumes (schedvolumes.go).
	volumes *volumeInformers
	binder  *scheduler.VolumeBinding
}

func newSchedAgent(c *apiserver.Client, eng *engine.Engine, rec *trace.Recorder) *schedAgent {
	s := &schedAgent{c: c, eng: eng, rec: rec, fw: scheduler.New(), cache: scheduler.NewCluster(),
		queued: map[types.UID]bool{}, bound: map[types.UID]scheduler.PodRef{},
		nodes: informer.New[*corev1.Node]("nodes"), services: informer.New[*corev1.Service]("services"),
		rsets: informer.New[*appsv1.ReplicaSet]("replicasets"), pods: informer.New[*corev1.Pod]("pods"),
		failed: map[types.UID]*corev1.Pod{}, Pending: map[types.UID]string{}}
	// The scheduler's own cache (scheduler.Cluster) follows the node
	// informer, as upstream's eventhandlers.go addNodeToCache does.
	s.nodes.AddEventHandler(informer.HandlerFuncs[*corev1.Node]{
		AddFunc: func(n *corev1.Node, _ int64) {
			s.cache.AddNode(n)
			s.retryFailed()
		},
		UpdateFunc: func(_, n *corev1.Node, _ int64) {
			s.cache.UpdateNode(n)
			s.retryFailed()
		},
		DeleteFunc: func(n *corev1.Node, _ int64) { s.cache.RemoveNode(n.Name) },
	}.Handle)
	s.pods.AddEventHandler(s.onPod)
	return s
}

func (s *schedAgent) Name() string { return s.c.Actor }

// Start opens the scheduler's watches: nodes, Services, ReplicaSets, pods.
func (s *schedAgent) Start() {
	s.nodes.Run(s.c)
	s.services.Run(s.c)
	s.rsets.Run(s.c)
	s.pods.Run(s.c)
	if s.pdbs != nil {
		s.pdbs.Run(s.c)
	}
	s.startVolumes()
}

// useProfile replaces the default profile with one from a
// KubeSchedulerConfiguration and says so in the trace.
func (s *schedAgent) useProfile(p scheduler.Profile, source string) {
	s.fw = scheduler.NewWithProfile(p)
	strategy, weights := p.Describe()
	s.weights = weights
	s.rec.Add(trace.Step{Phase: trace.PhaseScheduler, Actor: s.c.Actor, Kind: "scheduler.profile",
		Fields: trace.F("profile", p.Name, "file", source, "strategy", strategy, "weights", weights)})
}

// profileName is the schedulerName of the agent's profile: pods naming
// another scheduler are left alone.
func (s *schedAgent) profileName() string {
	if name := s.fw.Profile().Name; name != "" {
		return name
	}
	return corev1.DefaultSchedulerName
}

func (s *schedAgent) onPod(ev informer.Event[*corev1.Pod]) {
	pod := ev.Obj
	if ev.Deleted() {
		delete(s.others, pod.UID)
		if _, ok := s.bound[pod.UID]; ok {
			s.cache.RemovePod(pod)
			delete(s.bound, pod.UID)
			s.retryFailed()
		}
		delete(s.failed, pod.UID)
		delete(s.Pending, pod.UID)
		return
	}
	if pod.Spec.NodeName != "" {
		ref, ok := s.bound[pod.UID]
		if !ok {
			s.bound[pod.UID], _ = s.cache.AddPodAt(pod) // bound by someone else (or spec.nodeName set)
			return
		}
		// The binding confirmed, or a later update: the cache follows the
		// informer's object (its assumed copy is dropped).
		if nref := s.cache.UpdatePodAt(ref, pod, pod); nref != ref {
			s.bound[pod.UID] = nref
		}
		return
	}
	if name := pod.Spec.SchedulerName; name != s.profileName() && (name != "" || s.profileName() != corev1.DefaultSchedulerName) {
		// Another scheduler's pod: it stays Pending unless that scheduler
		// runs. Said once per pod.
		if !s.others[pod.UID] {
			if s.others == nil {
				s.others = map[types.UID]bool{}
			}
			s.others[pod.UID] = true
			s.rec.Add(trace.Step{Phase: trace.PhaseScheduler, Actor: s.c.Actor, Kind: "scheduler.other", Object: apiserver.ObjectRef(pod),
				Fields: trace.F("pod", pod.Name, "scheduler", cmp.Or(name, corev1.DefaultSchedulerName), "profile", s.profileName())})
		}
		return
	}
	if s.queued[pod.UID] || s.failed[pod.UID] != nil {
		return
	}
	if _, ok := s.bound[pod.UID]; ok {
		return // assumed; the binding is in flight
	}
	s.queued[pod.UID] = true
	if !s.rec.Full() {
		s.rec.Add(trace.Step{Phase: trace.PhaseScheduler, Actor: s.c.Actor, Kind: "scheduler.queue", Object: apiserver.ObjectRef(pod),
			Fields: trace.F("pod", pod.Name, "queue", len(s.queue)+1)})
	}
	s.queue = append(s.queue, pod)
	s.kick()
}

// kick starts the scheduling loop when pods wait and it is not running.
func (s *schedAgent) kick() {
	if s.busy || len(s.queue) == 0 {
		return
	}
	s.busy = true
	s.eng.Go(s.scheduleLoop)
}

// scheduleLoop is the scheduler's Run loop (pkg/scheduler/scheduler.go:
// wait.UntilWithContext(sched.ScheduleOne)): it pops the next pod a
// cycle apart and runs scheduleOne, until the queue is empty; kick starts
// it again when a pod comes.
func (s *schedAgent) scheduleLoop(p *engine.Proc) {
	for len(s.queue) > 0 {
		p.Sleep(cycleTime)
		pod := s.queue[0]
		s.queue[0] = nil // the backing array must not keep scheduled pods alive
		s.queue = s.queue[1:]
		delete(s.queued, pod.UID)
		s.scheduleOne(p, pod)
	}
	// A Go map keeps the room of its largest size: a drained queue's set
	// would hold about 47 bytes per pod of the largest burst for the rest
	// of the run.
	s.queued = map[types.UID]bool{}
	s.busy = false
}

// retryFailed moves unschedulable pods back to the queue after a cluster
// change that might make them fit (upstream: MoveAllToActiveOrBackoffQueue).
func (s *schedAgent) retryFailed() {
	if len(s.failed) == 0 {
		return
	}
	pods := make([]*corev1.Pod, 0, len(s.failed))
	for _, p := range s.failed {
		pods = append(pods, p)
	}
	// The active queue's PrioritySort: higher spec.priority first (a
	// preemptor before the pods it made room against), then namespace/name
	// order, without a name kept for every pod ever queued.
	sort.Slice(pods, func(i, j int) bool {
		if pi, pj := scheduler.PodPriority(pods[i]), scheduler.PodPriority(pods[j]); pi != pj {
			return pi > pj
		}
		return pods[i].Namespace+"/"+pods[i].Name < pods[j].Namespace+"/"+pods[j].Name
	})
	for _, p := range pods {
		delete(s.failed, p.UID)
		s.queued[p.UID] = true
		s.queue = append(s.queue, p)
	}
	s.kick()
}

// spreadSelector gathers what the scheduler's DefaultSpreadSelector needs
// from the agent's informers: the Services and the owning ReplicaSet.
func (s *schedAgent) spreadSelector(pod *corev1.Pod) labels.Selector {
	var owner *metav1.LabelSelector
	if ref := metav1.GetControllerOfNoCopy(pod); ref != nil {
		if rs, _ := s.rsets.Get(pod.Namespace, ref.Name); rs != nil && rs.UID == ref.UID {
			owner = rs.Spec.Selector
		}
	}
	svcs := s.services.ByNamespace(pod.Namespace)
	if m := &s.spread; m.sel != nil && m.ns == pod.Namespace && m.owner == owner &&
		slices.Equal(m.services, svcs) && maps.Equal(m.labels, pod.Labels) {
		return m.sel
	}
	sel := scheduler.DefaultSpreadSelector(pod, svcs, owner)
	s.spread = spreadMemo{ns: pod.Namespace, labels: maps.Clone(pod.Labels), services: svcs, owner: owner, sel: sel}
	return sel
}

// spreadMemo is the last default spreading selector built, with what it
// was built from: the pod's namespace and labels, the Services of the
// namespace and the controller's selector. Stored objects are never
// changed in place (a new version is a new object), so the same objects
// and the same labels give the same selector; the pods of one ReplicaSet
// reuse it, cycle after cycle, instead of parsing every selector again.
type spreadMemo struct {
	ns       string
	labels   map[string]string
	services []*corev1.Service
	owner    *metav1.LabelSelector
	sel      labels.Selector
}

// scheduleOne is scheduleOne (pkg/scheduler/schedule_one.go): the
// scheduling cycle (filter, score, assume) on this proc, then the binding
// cycle on a proc of its own, as upstream runs it on a goroutine.
func (s *schedAgent) scheduleOne(p *engine.Proc, pod *corev1.Pod) {
	// The queue holds the pod as it was queued; the cycle works on the
	// newest version the informer has (upstream's queue updates a pending
	// pod's entry on every update event, and drops a deleted one).
	cur, ok := s.pods.Get(pod.Namespace, pod.Name)
	if !ok || cur.UID != pod.UID {
		return
	}
	pod = cur
	// The per-node detail feeds only the filter and score steps: past the
	// recording limit the cycle skips it (same decision, same messages).
	s.fw.Summary = !s.rec.Keeping()
	res := s.fw.Schedule(pod, s.cache, s.eng.Rand(), s.spreadSelector(pod))
	var ref string // for the steps; once the trace is full it stays full
	if !s.rec.Full() {
		ref = apiserver.ObjectRef(pod)
		s.rec.Add(trace.Step{Phase: trace.PhaseScheduler, Actor: s.c.Actor, Kind: "scheduler.filter", Object: ref,
			Fields:    trace.F("pod", pod.Name, "feasible", res.Feasible, "evaluated", res.Evaluated, "nodes", res.NumAllNodes),
			Placement: filterPlacement(res)})
	}
	if res.Node == "" {
		// PostFilter: DefaultPreemption may nominate a node and evict
		// victims there (preempt.go).
		nominated, msg := s.postFilter(pod, res)
		s.failed[pod.UID] = pod
		s.Pending[pod.UID] = msg
		// The scheduler records through events.k8s.io/v1 (schedule_one.go
		// handleSchedulingFailure: action "Scheduling").
		s.c.EventV1(trace.PhaseScheduler, pod, "Warning", "FailedScheduling", "Scheduling", msg)
		upd := pod.DeepCopy()
		if nominated != "" {
			upd.Status.NominatedNodeName = nominated
		}
		upd.Status.Phase = corev1.PodPending
		upd.Status.Conditions = append(upd.Status.Conditions, corev1.PodCondition{Type: corev1.PodScheduled,
			Status: corev1.ConditionFalse, Reason: corev1.PodReasonUnschedulable, Message: msg})
		apiserver.StampConditions(&pod.Status, &upd.Status, pod.Generation, s.eng.Now())
		// The scheduler patches the condition in (scheduler util.PatchPodStatus).
		s.c.PatchPodStatus(pod, upd, nil)
		return
	}
	delete(s.Pending, pod.UID)
	if s.rec.Full() {
		// past the recording limit: no tables to build
	} else if len(res.Scores) > 0 {
		if s.weights == "" {
			_, s.weights = s.fw.Profile().Describe()
		}
		s.rec.Add(trace.Step{Phase: trace.PhaseScheduler, Actor: s.c.Actor, Kind: "scheduler.score", Object: ref,
			Fields: trace.F("pod", pod.Name, "node", res.Node, "ties", len(res.Ties), "weights", s.weights), Placement: scorePlacement(res)})
	} else {
		s.rec.Add(trace.Step{Phase: trace.PhaseScheduler, Actor: s.c.Actor, Kind: "scheduler.single", Object: ref,
			Fields: trace.F("pod", pod.Name, "node", res.Node)})
	}
	// Assume: the cache counts the pod on the node before the bind lands,
	// so the next cycle already sees its requests. Upstream assumes a
	// DeepCopy with nodeName set (pkg/scheduler/schedule_one.go); here the
	// cache holds the informer's read-only pod under the node itself
	// (Cluster.AssumePod), which no one writes.
	s.bound[pod.UID], _ = s.cache.AssumePod(pod, res.Node)
	claims := s.reserveVolumes()
	if len(claims) == 0 {
		s.bindStep(pod, res.Node)
	}
	node := res.Node
	s.eng.Go(func(bp *engine.Proc) { s.bindingCycle(bp, pod, node, claims) })
	p.Yield() // the binding sends its request before the loop waits for the next cycle
}

// bindStep records the binding's POST.
func (s *schedAgent) bindStep(pod *corev1.Pod, node string) {
	if !s.rec.Full() {
		s.rec.Add(trace.Step{Phase: trace.PhaseScheduler, Actor: s.c.Actor, To: "kube-apiserver", Kind: "scheduler.bind", Object: apiserver.ObjectRef(pod),
			Fields: trace.F("pod", pod.Name, "node", node, "path", fmt.Sprintf("/api/v1/namespaces/%s/pods/%s/binding", pod.Namespace, pod.Name))})
	}
}

// bindingCycle is bindingCycle (schedule_one.go): PreBind (the claims to
// provision, if any: schedvolumes.go), then POST the Binding; on failure
// the assumed pod leaves the cache (ForgetPod), on success the Scheduled
// event.
func (s *schedAgent) bindingCycle(p *engine.Proc, pod *corev1.Pod, node string, claims []*corev1.PersistentVolumeClaim) {
	if len(claims) > 0 {
		if !s.preBindVolumes(p, pod, node, claims) {
			s.cache.ForgetPod(pod, node)
			delete(s.bound, pod.UID)
			return
		}
		s.bindStep(pod, node)
	}
	if _, err := s.c.In(p).Bind(pod, node); err != nil {
		s.cache.ForgetPod(pod, node)
		delete(s.bound, pod.UID)
		return
	}
	if s.Scheduled == 0 {
		s.FirstBind = s.eng.Now()
	}
	s.Scheduled++
	s.LastBind = s.eng.Now()
	s.c.EventV1(trace.PhaseScheduler, pod, "Normal", "Scheduled", "Binding", "Successfully assigned "+pod.Namespace+"/"+pod.Name+" to "+node)
}

// filterPlacement and scorePlacement copy a cycle's result into its step
// (nothing in it aliases the scheduler's buffers or its plugins' statuses):
// the trace keeps data, and trace/explain draws the tables.
func filterPlacement(res scheduler.Result) *trace.Placement {
	p := &trace.Placement{Node: res.Node, Filtered: make([]trace.NodeVerdict, len(res.Filtered))}
	for i, v := range res.Filtered {
		p.Filtered[i] = trace.NodeVerdict{Node: v.Node, Plugin: v.Plugin, Reasons: slices.Clone(v.Reasons)}
	}
	return p
}

func scorePlacement(res scheduler.Result) *trace.Placement {
	p := &trace.Placement{Node: res.Node, Scores: make([]trace.NodeScore, len(res.Scores))}
	for i, ns := range res.Scores {
		ps := make([]trace.PluginScore, len(ns.Plugins))
		for j, sc := range ns.Plugins {
			ps[j] = trace.PluginScore{Plugin: sc.Plugin, Normalized: sc.Normalized, Weight: sc.Weight}
		}
		p.Scores[i] = trace.NodeScore{Node: ns.Node, Plugins: ps, Total: ns.Total}
	}
	return p
}
