package scheduler

import (
	"math"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// Reasons of PodTopologySpread's Filter (podtopologyspread/filtering.go).
const (
	ReasonSpreadConstraints = "node(s) didn't match pod topology spread constraints"
	ReasonSpreadMissingKey  = ReasonSpreadConstraints + " (missing required label)"
)

// spreadFilterState is the PreFilter state for the pod's DoNotSchedule
// constraints: per constraint the matching pods per domain, over every node
// that honours the pod's node affinity and has all the constraints' keys.
type spreadFilterState struct {
	constraints []spreadConstraint
	minDomains  []int32
	selfMatch   []bool
	minMatch    []int64 // the least populated domain's count, per constraint
}

// PreFilter counts, for each DoNotSchedule constraint of the pod, the
// matching pods in each domain. Pods without such constraints Skip. This
// walks every pod of every eligible node, as upstream does.
func (PodTopologySpread) PreFilter(st *CycleState, pod *corev1.Pod) *Status {
	f := stateOf[spreadFilterState](st, preFilterSpreadKey)
	*f = spreadFilterState{constraints: f.constraints[:0], minDomains: f.minDomains[:0], selfMatch: f.selfMatch[:0], minMatch: f.minMatch[:0]}
	for _, c := range pod.Spec.TopologySpreadConstraints {
		if c.WhenUnsatisfiable != corev1.DoNotSchedule {
			continue
		}
		sel, err := constraintSelector(pod, &c)
		if err != nil {
			continue
		}
		f.constraints = append(f.constraints, spreadConstraint{key: c.TopologyKey, maxSkew: c.MaxSkew, selector: sel, counts: map[string]int64{}})
		md := int32(1)
		if c.MinDomains != nil {
			md = *c.MinDomains
		}
		f.minDomains = append(f.minDomains, md)
		f.selfMatch = append(f.selfMatch, sel.Matches(labels.Set(pod.Labels)))
	}
	if len(f.constraints) == 0 {
		return statusSkip
	}
	affinity := requiredNodeAffinity(pod)
	for _, n := range st.cluster.order {
		if !affinity.empty() && !affinity.match(n.Node) {
			continue
		}
		if !hasAllKeys(n, f.constraints) {
			continue
		}
		for i := range f.constraints {
			c := &f.constraints[i]
			v, _ := n.label(c.key)
			cnt := 0
			for _, p := range n.Pods {
				if p.Namespace == pod.Namespace && counted(p) && c.selector.Matches(labels.Set(p.Labels)) {
					cnt++
				}
			}
			c.counts[v] += int64(cnt)
		}
	}
	for i := range f.constraints {
		c := &f.constraints[i]
		m := int64(math.MaxInt64)
		for _, cnt := range c.counts {
			m = min(m, cnt)
		}
		if len(c.counts) == 0 || int32(len(c.counts)) < f.minDomains[i] {
			m = 0 // too few domains: the missing ones count as empty
		}
		f.minMatch = append(f.minMatch, m)
	}
	return nil
}

// Filter rejects a node whose domain would exceed maxSkew over the least
// populated domain: count + self − min > maxSkew. With fewer domains than
// minDomains the minimum counts as 0. A node missing a key cannot fit.
func (PodTopologySpread) Filter(st *CycleState, _ *corev1.Pod, n *NodeInfo) *Status {
	f := readState[spreadFilterState](st, preFilterSpreadKey)
	for i := range f.constraints {
		c := &f.constraints[i]
		v, ok := n.label(c.key)
		if !ok {
			return newStatus(UnschedulableAndUnresolvable, ReasonSpreadMissingKey)
		}
		self := int64(0)
		if f.selfMatch[i] {
			self = 1
		}
		if c.counts[v]+self-f.minMatch[i] > int64(c.maxSkew) {
			return newStatus(Unschedulable, ReasonSpreadConstraints)
		}
	}
	return nil
}
