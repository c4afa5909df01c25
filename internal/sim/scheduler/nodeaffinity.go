package scheduler

import corev1 "k8s.io/api/core/v1"

// NodeAffinityName is the plugin's upstream name.
const NodeAffinityName = "NodeAffinity"

// ReasonNodeAffinity is the plugin's reason text.
const ReasonNodeAffinity = "node(s) didn't match Pod's node affinity/selector"

// NodeAffinity filters on spec.nodeSelector and the required node affinity,
// and scores the preferred terms (plugins/nodeaffinity).
type NodeAffinity struct{}

func newNodeAffinity(any) (Plugin, error) { return NodeAffinity{}, nil }

func (NodeAffinity) Name() string { return NodeAffinityName }

var (
	preFilterNodeAffinityKey = NewStateKey("PreFilter" + NodeAffinityName)
	preScoreNodeAffinityKey  = NewStateKey("PreScore" + NodeAffinityName)
)

type nodeAffinityScoreState struct {
	preferred []corev1.PreferredSchedulingTerm
}

func (NodeAffinity) PreFilter(st *CycleState, pod *corev1.Pod) *Status {
	m := stateOf[nodeMatcher](st, preFilterNodeAffinityKey)
	*m = requiredNodeAffinity(pod)
	if m.empty() {
		return statusSkip
	}
	return nil
}

func (NodeAffinity) Filter(st *CycleState, _ *corev1.Pod, n *NodeInfo) *Status {
	if readState[nodeMatcher](st, preFilterNodeAffinityKey).match(n.Node) {
		return nil
	}
	return newStatus(UnschedulableAndUnresolvable, ReasonNodeAffinity)
}

// PreScore skips pods without preferred terms.
func (NodeAffinity) PreScore(st *CycleState, pod *corev1.Pod, _ []*NodeInfo) *Status {
	s := stateOf[nodeAffinityScoreState](st, preScoreNodeAffinityKey)
	s.preferred = nil
	if a := pod.Spec.Affinity; a != nil && a.NodeAffinity != nil {
		s.preferred = a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution
	}
	if len(s.preferred) == 0 {
		return statusSkip
	}
	return nil
}

// Score sums the weights of the preferred terms the node matches.
func (NodeAffinity) Score(st *CycleState, _ *corev1.Pod, n *NodeInfo) int64 {
	s := readState[nodeAffinityScoreState](st, preScoreNodeAffinityKey)
	var sum int64
	for i := range s.preferred {
		if p := &s.preferred[i]; p.Weight != 0 && termMatches(&p.Preference, n.Node) {
			sum += int64(p.Weight)
		}
	}
	return sum
}

func (NodeAffinity) NormalizeScore(_ *CycleState, _ *corev1.Pod, _ []*NodeInfo, scores []int64) {
	defaultNormalizeScore(MaxNodeScore, false, scores)
}
