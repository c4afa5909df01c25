package scheduler

// DefaultPreemption's PostFilter (pkg/scheduler/framework/plugins/
// defaultpreemption/default_preemption.go and framework/preemption/
// preemption.go, v1.37): on every node where preemption might help (not
// rejected as UnschedulableAndUnresolvable), SelectVictimsOnNode removes
// every pod of lower priority, checks the preemptor then fits, and
// reprieves as many as it can — the pods whose eviction would violate a
// PodDisruptionBudget first, then the others, most important first — and
// pickOneNodeForPreemption takes the node by upstream's criteria in order.
//
// Left out: nominated pods of other preemptors counted on the node, the
// dry-run candidate sampling (minCandidateNodesPercentage: every node is a
// candidate here), and extenders.

import (
	"math"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// Budget is what preemption reads of a PodDisruptionBudget: its namespace,
// selector and status.disruptionsAllowed.
type Budget struct {
	Namespace string
	Selector  labels.Selector
	Allowed   int32
}

// Candidate is a node with the pods preemption would evict there.
type Candidate struct {
	Node    string
	Victims []*corev1.Pod
	// PDBViolations counts victims whose eviction breaks a budget.
	PDBViolations int
}

// PodPriority is corev1helpers.PodPriority: spec.priority, 0 when unset.
func PodPriority(p *corev1.Pod) int32 {
	if p.Spec.Priority != nil {
		return *p.Spec.Priority
	}
	return 0
}

// moreImportant is util.MoreImportantPod: higher priority, then the
// earlier start time.
func moreImportant(a, b *corev1.Pod) bool {
	pa, pb := PodPriority(a), PodPriority(b)
	if pa != pb {
		return pa > pb
	}
	return startTime(a) < startTime(b)
}

// byImportance orders the more important pod first (moreImportant), for
// slices.SortStableFunc.
func byImportance(a, b *corev1.Pod) int {
	switch {
	case moreImportant(a, b):
		return -1
	case moreImportant(b, a):
		return 1
	}
	return 0
}

func startTime(p *corev1.Pod) time.Duration {
	if p.Status.StartTime == nil {
		return math.MaxInt64
	}
	return time.Duration(p.Status.StartTime.UnixNano())
}

// fitsOn runs PreFilter and the Filter plugins for pod on one node as the
// cache holds it now.
func (s *Scheduler) fitsOn(pod *corev1.Pod, c *Cluster, n *NodeInfo) bool {
	s.st.cluster = c
	var skip []string
	for _, pl := range s.profile.PreFilter {
		if st := pl.PreFilter(&s.st, pod); st != nil && st.Code == Skip {
			skip = append(skip, pl.Name())
		}
	}
	for _, pl := range s.profile.Filter {
		if slices.Contains(skip, pl.Name()) {
			continue
		}
		if st := pl.Filter(&s.st, pod, n); !st.IsSuccess() {
			return false
		}
	}
	return true
}

// Preempt is DefaultPreemption's PostFilter for a pod no node fits:
// the candidates (in node order) and the one picked, nil when no node
// can make room. The cache is changed only while it runs.
func (s *Scheduler) Preempt(pod *corev1.Pod, c *Cluster, verdicts []NodeVerdict, budgets []Budget) (best *Candidate, all []Candidate) {
	helps := map[string]bool{}
	for _, v := range verdicts {
		if v.Code != UnschedulableAndUnresolvable {
			helps[v.Node] = true
		}
	}
	for _, n := range c.Nodes() {
		if !helps[n.name] {
			continue
		}
		if cand, ok := s.selectVictimsOnNode(pod, c, n, budgets); ok {
			all = append(all, cand)
		}
	}
	if len(all) == 0 {
		return nil, nil
	}
	return pickOneNodeForPreemption(all), all
}

// selectVictimsOnNode is SelectVictimsOnNode.
func (s *Scheduler) selectVictimsOnNode(pod *corev1.Pod, c *Cluster, n *NodeInfo, budgets []Budget) (Candidate, bool) {
	var potential []*corev1.Pod
	for _, p := range n.Pods {
		if PodPriority(p) < PodPriority(pod) {
			potential = append(potential, p)
		}
	}
	if len(potential) == 0 {
		return Candidate{}, false
	}
	for _, p := range potential {
		n.RemovePod(p)
	}
	restore := func(pods []*corev1.Pod) {
		for _, p := range pods {
			n.AddPod(p)
		}
	}
	if !s.fitsOn(pod, c, n) {
		restore(potential)
		return Candidate{}, false
	}
	slices.SortStableFunc(potential, byImportance)
	violating, other := podsWithPDBViolation(potential, budgets)
	cand := Candidate{Node: n.name}
	reprieve := func(p *corev1.Pod) bool {
		n.AddPod(p)
		if s.fitsOn(pod, c, n) {
			return true
		}
		n.RemovePod(p)
		cand.Victims = append(cand.Victims, p)
		return false
	}
	for _, p := range violating {
		if !reprieve(p) {
			cand.PDBViolations++
		}
	}
	for _, p := range other {
		reprieve(p)
	}
	restore(cand.Victims)
	slices.SortStableFunc(cand.Victims, byImportance)
	return cand, true
}

// podsWithPDBViolation is filterPodsWithPDBViolation: going down the
// sorted pods, each takes one disruption from every budget selecting it;
// a pod that drives one below zero would violate it.
func podsWithPDBViolation(pods []*corev1.Pod, budgets []Budget) (violating, other []*corev1.Pod) {
	allowed := make([]int32, len(budgets))
	for i, b := range budgets {
		allowed[i] = b.Allowed
	}
	for _, p := range pods {
		violated := false
		for i, b := range budgets {
			if b.Namespace != p.Namespace || b.Selector == nil || b.Selector.Empty() || !b.Selector.Matches(labels.Set(p.Labels)) {
				continue
			}
			allowed[i]--
			if allowed[i] < 0 {
				violated = true
			}
		}
		if violated {
			violating = append(violating, p)
		} else {
			other = append(other, p)
		}
	}
	return violating, other
}

// pickOneNodeForPreemption applies upstream's criteria in order, each
// keeping the nodes that tie on it: fewest PDB violations; the lowest
// highest-priority victim; the smallest sum of victims' priorities (each
// shifted by MaxInt32+1, so that negative priorities count); the fewest
// victims; the latest start time of the highest-priority victims; then the
// first node.
func pickOneNodeForPreemption(cands []Candidate) *Candidate {
	keep := func(in []int, score func(c *Candidate) int64) []int {
		var out []int
		best := int64(math.MinInt64)
		for _, i := range in {
			v := score(&cands[i])
			switch {
			case v > best:
				best, out = v, []int{i}
			case v == best:
				out = append(out, i)
			}
		}
		return out
	}
	idx := make([]int, len(cands))
	for i := range idx {
		idx[i] = i
	}
	for _, score := range []func(c *Candidate) int64{
		func(c *Candidate) int64 { return -int64(c.PDBViolations) },
		func(c *Candidate) int64 { return -int64(PodPriority(c.Victims[0])) },
		func(c *Candidate) int64 {
			var sum int64
			for _, p := range c.Victims {
				sum += int64(PodPriority(p)) + int64(math.MaxInt32) + 1
			}
			return -sum
		},
		func(c *Candidate) int64 { return -int64(len(c.Victims)) },
		func(c *Candidate) int64 { return int64(earliestStartOfTopVictims(c.Victims)) },
	} {
		if idx = keep(idx, score); len(idx) == 1 {
			break
		}
	}
	return &cands[idx[0]]
}

// earliestStartOfTopVictims is GetEarliestPodStartTime: the earliest start
// among the victims of the highest priority.
func earliestStartOfTopVictims(victims []*corev1.Pod) time.Duration {
	top := PodPriority(victims[0])
	earliest := time.Duration(math.MaxInt64)
	for _, p := range victims {
		if PodPriority(p) == top {
			earliest = min(earliest, startTime(p))
		}
	}
	return earliest
}
