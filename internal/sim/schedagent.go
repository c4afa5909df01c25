package sim

import (
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/sim/scheduler"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
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
	bound    map[types.UID]string // pods assumed or bound, by UID → node
	services map[string]*corev1.Service
	rsets    map[types.UID]*appsv1.ReplicaSet
	failed   map[types.UID]*corev1.Pod // unschedulable, waiting for a cluster change
	Pending  map[types.UID]string      // unschedulable pods' messages, for the summary
	// Scheduled counts binds that succeeded, between FirstBind and
	// LastBind (virtual time), for the summary's scale section.
	Scheduled           int
	FirstBind, LastBind time.Duration
}

func newSchedAgent(c *apiserver.Client, eng *engine.Engine, rec *trace.Recorder) *schedAgent {
	s := &schedAgent{c: c, eng: eng, rec: rec, fw: scheduler.New(), cache: scheduler.NewCluster(),
		queued: map[types.UID]bool{}, bound: map[types.UID]string{}, services: map[string]*corev1.Service{},
		rsets: map[types.UID]*appsv1.ReplicaSet{}, failed: map[types.UID]*corev1.Pod{}, Pending: map[types.UID]string{}}
	c.Watch("nodes", func(ev apiserver.Event) {
		n := ev.Obj.(*corev1.Node)
		switch ev.Type {
		case apiserver.Added:
			s.cache.AddNode(n)
			s.retryFailed()
		case apiserver.Modified:
			s.cache.UpdateNode(n)
			s.retryFailed()
		case apiserver.Deleted:
			s.cache.RemoveNode(n.Name)
		}
	})
	c.Watch("services", func(ev apiserver.Event) {
		svc := ev.Obj.(*corev1.Service)
		if ev.Type == apiserver.Deleted {
			delete(s.services, svc.Namespace+"/"+svc.Name)
		} else {
			s.services[svc.Namespace+"/"+svc.Name] = svc
		}
	})
	c.Watch("replicasets", func(ev apiserver.Event) {
		rs := ev.Obj.(*appsv1.ReplicaSet)
		if ev.Type == apiserver.Deleted {
			delete(s.rsets, rs.UID)
		} else {
			s.rsets[rs.UID] = rs
		}
	})
	c.Watch("pods", func(ev apiserver.Event) { s.onPod(ev) })
	return s
}

func (s *schedAgent) onPod(ev apiserver.Event) {
	pod := ev.Obj.(*corev1.Pod)
	if ev.Type == apiserver.Deleted {
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
		if _, ok := s.bound[pod.UID]; !ok {
			s.bound[pod.UID] = pod.Spec.NodeName
			_ = s.cache.AddPod(pod) // bound by someone else (or spec.nodeName set)
		}
		return
	}
	if pod.Spec.SchedulerName != "" && pod.Spec.SchedulerName != corev1.DefaultSchedulerName {
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

func (s *schedAgent) kick() {
	if s.busy || len(s.queue) == 0 {
		return
	}
	s.busy = true
	s.eng.After(cycleTime, func() {
		pod := s.queue[0]
		s.queue[0] = nil // the backing array must not keep scheduled pods alive
		s.queue = s.queue[1:]
		delete(s.queued, pod.UID)
		s.cycle(pod)
		s.busy = false
		s.kick()
	})
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
	sort.Slice(pods, func(i, j int) bool { // namespace/name order, without a name kept for every pod ever queued
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
	svcs := make([]*corev1.Service, 0, len(s.services))
	for _, svc := range s.services {
		svcs = append(svcs, svc)
	}
	var owner *metav1.LabelSelector
	if ref := metav1.GetControllerOf(pod); ref != nil {
		if rs := s.rsets[ref.UID]; rs != nil {
			owner = rs.Spec.Selector
		}
	}
	return scheduler.DefaultSpreadSelector(pod, svcs, owner)
}

func (s *schedAgent) cycle(pod *corev1.Pod) {
	res := s.fw.Schedule(pod, s.cache, s.eng.Rand(), s.spreadSelector(pod))
	ref := apiserver.ObjectRef(pod)
	if !s.rec.Full() {
		s.rec.Add(trace.Step{Phase: trace.PhaseScheduler, Actor: s.c.Actor, Kind: "scheduler.filter", Object: ref,
			Fields: trace.F("pod", pod.Name, "feasible", res.Feasible, "evaluated", res.Evaluated, "nodes", res.NumAllNodes),
			Table:  filterTable(res)})
	}
	if res.Node == "" {
		s.failed[pod.UID] = pod
		s.Pending[pod.UID] = res.Message
		// The scheduler records through events.k8s.io/v1 (schedule_one.go
		// handleSchedulingFailure: action "Scheduling").
		s.c.EventV1(trace.PhaseScheduler, pod, "Warning", "FailedScheduling", "Scheduling", res.Message)
		upd := pod.DeepCopy()
		upd.Status.Phase = corev1.PodPending
		upd.Status.Conditions = append(upd.Status.Conditions, corev1.PodCondition{Type: corev1.PodScheduled,
			Status: corev1.ConditionFalse, Reason: corev1.PodReasonUnschedulable, Message: res.Message})
		// The scheduler patches the condition in (scheduler util.PatchPodStatus).
		s.c.PatchPodStatus(pod, upd, nil)
		return
	}
	delete(s.Pending, pod.UID)
	if s.rec.Full() {
		// past the recording limit: no tables to build
	} else if len(res.Scores) > 0 {
		s.rec.Add(trace.Step{Phase: trace.PhaseScheduler, Actor: s.c.Actor, Kind: "scheduler.score", Object: ref,
			Fields: trace.F("pod", pod.Name, "node", res.Node, "ties", len(res.Ties)), Table: scoreTable(res)})
	} else {
		s.rec.Add(trace.Step{Phase: trace.PhaseScheduler, Actor: s.c.Actor, Kind: "scheduler.single", Object: ref,
			Fields: trace.F("pod", pod.Name, "node", res.Node)})
	}
	// Assume: the cache counts the pod on the node before the bind lands,
	// so the next cycle already sees its requests.
	// The informer's pod is shared and read-only: the assumed pod is a new
	// top-level struct sharing the rest (upstream assumes a DeepCopy, pkg/scheduler/schedule_one.go; here nothing writes it).
	assumed := new(corev1.Pod)
	*assumed = *pod
	assumed.Spec.NodeName = res.Node
	_ = s.cache.AddPod(assumed)
	s.bound[pod.UID] = res.Node
	if !s.rec.Full() {
		s.rec.Add(trace.Step{Phase: trace.PhaseScheduler, Actor: s.c.Actor, To: "kube-apiserver", Kind: "scheduler.bind", Object: ref,
			Fields: trace.F("pod", pod.Name, "node", res.Node, "path", fmt.Sprintf("/api/v1/namespaces/%s/pods/%s/binding", pod.Namespace, pod.Name))})
	}
	s.c.Bind(pod, res.Node, func(_ runtime.Object, err *apiserver.Status) {
		if err != nil {
			s.cache.RemovePod(assumed)
			delete(s.bound, pod.UID)
			return
		}
		if s.Scheduled == 0 {
			s.FirstBind = s.eng.Now()
		}
		s.Scheduled++
		s.LastBind = s.eng.Now()
		s.c.EventV1(trace.PhaseScheduler, pod, "Normal", "Scheduled", "Binding", fmt.Sprintf("Successfully assigned %s/%s to %s", pod.Namespace, pod.Name, res.Node))
	})
}

func filterTable(res scheduler.Result) *report.Table {
	t := &report.Table{Header: []string{"node", "filter", "verdict"}}
	for _, v := range res.Filtered {
		if v.Plugin == "" {
			t.Rows = append(t.Rows, []string{v.Node, "all passed", "fits"})
			continue
		}
		reason := ""
		for i, r := range v.Reasons {
			if i > 0 {
				reason += "; "
			}
			reason += r
		}
		t.Rows = append(t.Rows, []string{v.Node, v.Plugin, reason})
	}
	return t
}

func scoreTable(res scheduler.Result) *report.Table {
	t := &report.Table{Header: []string{"node"}}
	if len(res.Scores) == 0 {
		return t
	}
	for _, p := range res.Scores[0].Plugins {
		t.Header = append(t.Header, fmt.Sprintf("%s ×%d", p.Plugin, p.Weight))
	}
	t.Header = append(t.Header, "total")
	t.Right = make([]bool, len(t.Header))
	for i := 1; i < len(t.Right); i++ {
		t.Right[i] = true
	}
	for _, ns := range res.Scores {
		row := []string{ns.Node}
		for _, p := range ns.Plugins {
			row = append(row, strconv.FormatInt(p.Normalized, 10))
		}
		row = append(row, strconv.FormatInt(ns.Total, 10))
		t.Rows = append(t.Rows, row)
		t.Highlight = append(t.Highlight, ns.Node == res.Node)
	}
	return t
}
