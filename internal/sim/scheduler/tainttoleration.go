package scheduler

import corev1 "k8s.io/api/core/v1"

// TaintTolerationName is the plugin's upstream name.
const TaintTolerationName = "TaintToleration"

// ReasonUntoleratedTaint is the plugin's reason text.
const ReasonUntoleratedTaint = "node(s) had untolerated taint(s)"

// TaintToleration filters on NoSchedule/NoExecute taints and scores the
// untolerated PreferNoSchedule ones (plugins/tainttoleration). In
// recent releases the event no longer names the taint ("untolerated
// taint(s)"); Detail keeps it for the trace.
type TaintToleration struct{}

func newTaintToleration(any) (Plugin, error) { return TaintToleration{}, nil }

func (TaintToleration) Name() string { return TaintTolerationName }

// preScoreTaintKey holds the tolerations that can tolerate a
// PreferNoSchedule taint.
var preScoreTaintKey = NewStateKey("PreScore" + TaintTolerationName)

type taintState struct{ preferTols []corev1.Toleration }

// filterTaintKey holds the pod's tolerations indexed by key, for pods with
// many of them: 35,000 taints per node against 2,500 tolerations cost 1.2
// CPU s per pod checked pairwise (issue 29); by key it is linear.
var filterTaintKey = NewStateKey("Filter" + TaintTolerationName)

type tolIndex struct {
	pod   *corev1.Pod
	any   []corev1.Toleration            // empty key: they match any taint key
	byKey map[string][]corev1.Toleration // the rest, by key
}

// manyTolerations is where the index starts to pay.
const manyTolerations = 16

// tolerated reports whether pod tolerates t, by the index for a pod with
// many tolerations (the same answer as toleratedBy over all of them).
func (x *tolIndex) tolerated(pod *corev1.Pod, t *corev1.Taint) bool {
	if len(pod.Spec.Tolerations) < manyTolerations {
		return toleratedBy(pod.Spec.Tolerations, t)
	}
	if x.pod != pod {
		x.pod, x.any, x.byKey = pod, x.any[:0], map[string][]corev1.Toleration{}
		for _, tol := range pod.Spec.Tolerations {
			if tol.Key == "" {
				x.any = append(x.any, tol)
			} else {
				x.byKey[tol.Key] = append(x.byKey[tol.Key], tol)
			}
		}
	}
	return toleratedBy(x.any, t) || toleratedBy(x.byKey[t.Key], t)
}

func (TaintToleration) Filter(st *CycleState, pod *corev1.Pod, n *NodeInfo) *Status {
	var idx *tolIndex
	for i := range n.taints {
		t := &n.taints[i]
		if t.Effect != corev1.TaintEffectNoSchedule && t.Effect != corev1.TaintEffectNoExecute {
			continue
		}
		if idx == nil {
			idx = stateOf[tolIndex](st, filterTaintKey)
		}
		if !idx.tolerated(pod, t) {
			return n.taintStatus(i)
		}
	}
	return nil
}

// taintStatus is the rejection for the node's i-th taint, built once per
// node object and shared by the cycles: it depends on the taint alone, and
// nothing writes a Status after the framework sets its Plugin (always
// TaintToleration for this one; scheduler.go filter).
func (n *NodeInfo) taintStatus(i int) *Status {
	if n.taintSt == nil {
		n.taintSt = make([]*Status, len(n.taints))
	}
	if n.taintSt[i] == nil {
		t := &n.taints[i]
		s := newStatus(UnschedulableAndUnresolvable, ReasonUntoleratedTaint)
		s.Detail = "{" + t.Key + ": " + t.Value + "}"
		n.taintSt[i] = s
	}
	return n.taintSt[i]
}

// PreScore keeps the tolerations that can tolerate a PreferNoSchedule taint
// (empty effect or PreferNoSchedule).
func (TaintToleration) PreScore(st *CycleState, pod *corev1.Pod, _ []*NodeInfo) *Status {
	s := stateOf[taintState](st, preScoreTaintKey)
	s.preferTols = s.preferTols[:0]
	for _, t := range pod.Spec.Tolerations {
		if t.Effect == "" || t.Effect == corev1.TaintEffectPreferNoSchedule {
			s.preferTols = append(s.preferTols, t)
		}
	}
	return nil
}

// Score counts the PreferNoSchedule taints the pod does not tolerate.
func (TaintToleration) Score(st *CycleState, _ *corev1.Pod, n *NodeInfo) int64 {
	return readState[taintState](st, preScoreTaintKey).untolerated(n)
}

// scoreAll is Score over the feasible nodes, the state read once.
func (TaintToleration) scoreAll(st *CycleState, _ *corev1.Pod, feasible []*NodeInfo, scores []int64) {
	s := readState[taintState](st, preScoreTaintKey)
	for j, n := range feasible {
		scores[j] = s.untolerated(n)
	}
}

// untolerated counts the node's PreferNoSchedule taints that
// preferTols do not tolerate.
func (s *taintState) untolerated(n *NodeInfo) int64 {
	var cnt int64
	for i := range n.taints {
		t := &n.taints[i]
		if t.Effect == corev1.TaintEffectPreferNoSchedule && !toleratedBy(s.preferTols, t) {
			cnt++
		}
	}
	return cnt
}

// NormalizeScore: fewer untolerated taints is better.
func (TaintToleration) NormalizeScore(_ *CycleState, _ *corev1.Pod, _ []*NodeInfo, scores []int64) {
	defaultNormalizeScore(MaxNodeScore, true, scores)
}
