package scheduler

import (
	"math"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	"k8s.io/apimachinery/pkg/types"
)

// PodTopologySpread scores how evenly the pod's siblings are spread
// (plugins/podtopologyspread/scoring.go). A pod without constraints of its
// own gets the system defaults when something selects it (a Service,
// ReplicaSet, StatefulSet or ReplicationController): hostname maxSkew 3 and
// zone maxSkew 5, both ScheduleAnyway. Per constraint a node scores
// count·ln(domains+2) + maxSkew−1, summed and rounded; fewer is better.
//
// Counting: for the system defaults the pods are counted by the incoming
// pod's controller (its first ownerReference), which is what the default
// selector (the AND of the selecting objects' selectors, pod-template-hash
// included) picks out; NodeInfo and Cluster keep those counts incrementally.
// A pod's own constraints are counted with their label selector.
type PodTopologySpread struct {
	// DefaultConstraints apply to pods without constraints; upstream's
	// systemDefaulted list.
	DefaultConstraints []corev1.TopologySpreadConstraint
}

func (PodTopologySpread) Name() string { return PodTopologySpreadName }

// PodTopologySpreadName is the plugin's upstream name.
const PodTopologySpreadName = "PodTopologySpread"

func newPodTopologySpread(any) (Plugin, error) {
	return PodTopologySpread{DefaultConstraints: SystemDefaultConstraints}, nil
}

var (
	preFilterSpreadKey = NewStateKey("PreFilter" + PodTopologySpreadName)
	preScoreSpreadKey  = NewStateKey("PreScore" + PodTopologySpreadName)
)

// SystemDefaultConstraints are upstream's (podtopologyspread/plugin.go).
var SystemDefaultConstraints = []corev1.TopologySpreadConstraint{
	{TopologyKey: corev1.LabelHostname, WhenUnsatisfiable: corev1.ScheduleAnyway, MaxSkew: 3},
	{TopologyKey: corev1.LabelTopologyZone, WhenUnsatisfiable: corev1.ScheduleAnyway, MaxSkew: 5},
}

type spreadConstraint struct {
	key      string
	maxSkew  int32
	selector labels.Selector
	weight   float64 // ln(domains+2)
	// Domains and their matching pods. The zone key is counted per zone ID
	// in zoneCounts (-1: not a domain of this cycle); other keys in counts;
	// the hostname key per node, in Score.
	byHost     bool // the hostname key: counted per node
	byZone     bool
	zoneCounts []int64
	counts     map[string]int64
	done       bool // counts filled
}

type spreadState struct {
	constraints []spreadConstraint
	byOwner     types.UID // count by controller instead of selector
	slotCounts  []int32   // the controller's live pods by node slot
	perSlot     []int32   // scratch for slotCounts, reused across cycles
	scattered   []int32   // the slots set in perSlot, to clear next cycle
	zoneBuf     []int64   // backs the constraints' zoneCounts, reused across cycles
	requireAll  bool
	ignored     map[*NodeInfo]bool
	affinity    nodeMatcher // the pod's required node affinity (nodeAffinityPolicy Honor)
}

func (p PodTopologySpread) PreScore(st *CycleState, pod *corev1.Pod, feasible []*NodeInfo) *Status {
	s := stateOf[spreadState](st, preScoreSpreadKey)
	for _, slot := range s.scattered { // clear last cycle's scatter
		s.perSlot[slot] = 0
	}
	*s = spreadState{constraints: s.constraints[:0], perSlot: s.perSlot, scattered: s.scattered[:0], zoneBuf: s.zoneBuf,
		affinity: requiredNodeAffinity(pod)}
	if len(pod.Spec.TopologySpreadConstraints) > 0 {
		s.requireAll = true
		for _, c := range pod.Spec.TopologySpreadConstraints {
			if c.WhenUnsatisfiable != corev1.ScheduleAnyway {
				continue
			}
			sel, err := constraintSelector(pod, &c)
			if err != nil {
				continue // upstream fails the cycle; validation rejects a bad selector first
			}
			s.constraints = append(s.constraints, spreadConstraint{key: c.TopologyKey, maxSkew: c.MaxSkew, selector: sel})
		}
	} else if st.spreadSelector != nil && !st.spreadSelector.Empty() {
		s.byOwner = controllerUID(pod)
		// A controller on few nodes is scattered into a scratch slot array;
		// one on more nodes than are scored uses the Cluster's persistent
		// per-slot counts.
		owners := st.cluster.owners[s.byOwner]
		if len(owners) <= len(feasible) {
			if len(s.perSlot) < len(st.cluster.slots) {
				s.perSlot = make([]int32, len(st.cluster.slots))
			}
			for n, cnt := range owners {
				s.perSlot[n.slot] = cnt
				s.scattered = append(s.scattered, n.slot)
			}
			s.slotCounts = s.perSlot
		} else {
			s.slotCounts = st.cluster.ownerCounts(s.byOwner)
		}
		for _, c := range p.DefaultConstraints {
			s.constraints = append(s.constraints, spreadConstraint{key: c.TopologyKey, maxSkew: c.MaxSkew, selector: st.spreadSelector})
		}
	}
	if len(s.constraints) == 0 {
		return statusSkip
	}
	s.initDomains(len(st.cluster.zoneNames))
	// The domains are those of the feasible nodes; nodes missing a key of
	// the pod's own constraints are ignored (scored 0).
	scored := len(feasible)
	sizes := make([]int, len(s.constraints))
	unlabelled := make([]bool, len(s.constraints))
	for _, n := range feasible {
		if s.requireAll && !hasAllKeys(n, s.constraints) {
			if s.ignored == nil {
				s.ignored = map[*NodeInfo]bool{}
			}
			s.ignored[n] = true
			scored--
			continue
		}
		for i := range s.constraints {
			c := &s.constraints[i]
			switch {
			case c.byHost: // initDomains marked the key: no string compare per node
			case c.byZone && n.zoneID >= 0:
				if c.zoneCounts[n.zoneID] < 0 {
					c.zoneCounts[n.zoneID] = 0
					sizes[i]++
				}
			case c.byZone:
				unlabelled[i] = true // upstream's "" domain
			default:
				if _, ok := c.counts[n.Node.Labels[c.key]]; !ok {
					c.counts[n.Node.Labels[c.key]] = 0
					sizes[i]++
				}
			}
		}
	}
	for i := range s.constraints {
		c := &s.constraints[i]
		size := sizes[i]
		if unlabelled[i] {
			size++
		}
		if c.key == corev1.LabelHostname {
			size = scored
		}
		c.weight = math.Log(float64(size + 2))
	}
	p.countDomains(st, s, pod)
	return nil
}

// initDomains marks each constraint's key and gives it an empty domain
// count: per zone ID (all -1) for the zone key, taken from zoneBuf, which
// is reused across cycles; a map for other keys but the hostname.
func (s *spreadState) initDomains(zones int) {
	buf := s.zoneBuf[:0]
	for i := range s.constraints {
		c := &s.constraints[i]
		switch c.key {
		case corev1.LabelHostname:
			c.byHost = true
		case corev1.LabelTopologyZone:
			c.byZone = true
			start := len(buf)
			for range zones {
				buf = append(buf, -1)
			}
			c.zoneCounts = buf[start:len(buf):len(buf)] // an earlier one keeps its array if buf grows
		default:
			c.counts = map[string]int64{}
		}
	}
	s.zoneBuf = buf
}

// countDomains fills the per-domain counts over all nodes that honour the
// pod's required node affinity (nodeAffinityPolicy Honor, the default).
func (PodTopologySpread) countDomains(st *CycleState, s *spreadState, pod *corev1.Pod) {
	// Fast path: the Cluster keeps per-zone counts per controller, valid
	// when every node counts (no required node affinity).
	fast := s.byOwner != "" && s.affinity.empty() && !s.requireAll
	scan := false
	for i := range s.constraints {
		c := &s.constraints[i]
		switch {
		case c.key == corev1.LabelHostname:
			c.done = true // counted per node in Score
		case fast && c.byZone:
			for z, cnt := range c.zoneCounts {
				if cnt >= 0 {
					c.zoneCounts[z] = int64(st.cluster.zonePods(s.byOwner, st.cluster.zoneNames[z]))
				}
			}
			c.done = true
		default:
			scan = true
		}
	}
	if !scan {
		return
	}
	for _, n := range st.cluster.order {
		if !s.affinity.empty() && !s.affinity.match(n.Node) {
			continue
		}
		if s.requireAll && !hasAllKeys(n, s.constraints) {
			continue
		}
		for i := range s.constraints {
			c := &s.constraints[i]
			switch {
			case c.done:
			case c.byZone:
				if n.zoneID >= 0 && c.zoneCounts[n.zoneID] >= 0 {
					c.zoneCounts[n.zoneID] += int64(s.countOn(n, c, pod.Namespace))
				}
			default:
				v := n.Node.Labels[c.key]
				if old, ok := c.counts[v]; ok {
					c.counts[v] = old + int64(s.countOn(n, c, pod.Namespace))
				}
			}
		}
	}
}

func (s *spreadState) countOn(n *NodeInfo, c *spreadConstraint, ns string) int {
	if s.byOwner != "" {
		if int(n.slot) < len(s.slotCounts) {
			return int(s.slotCounts[n.slot])
		}
		return 0
	}
	cnt := 0
	for _, p := range n.Pods {
		if p.Namespace == ns && counted(p) && c.selector.Matches(labels.Set(p.Labels)) {
			cnt++
		}
	}
	return cnt
}

func (PodTopologySpread) Score(st *CycleState, pod *corev1.Pod, n *NodeInfo) int64 {
	return readState[spreadState](st, preScoreSpreadKey).score(n, pod.Namespace)
}

// scoreAll is Score over the feasible nodes, the state read once.
func (PodTopologySpread) scoreAll(st *CycleState, pod *corev1.Pod, feasible []*NodeInfo, scores []int64) {
	s := readState[spreadState](st, preScoreSpreadKey)
	for j, n := range feasible {
		scores[j] = s.score(n, pod.Namespace)
	}
}

// score is the node's raw score: Σ count·weight + maxSkew−1 over the
// constraints whose key the node has, rounded; 0 for an ignored node.
func (s *spreadState) score(n *NodeInfo, ns string) int64 {
	if s.ignored != nil && s.ignored[n] {
		return 0
	}
	var score float64
	for i := range s.constraints {
		c := &s.constraints[i]
		var cnt int64
		switch { // n.label(c.key), without comparing the key per node
		case c.byHost:
			if !n.hasH {
				continue
			}
			cnt = int64(s.countOn(n, c, ns))
		case c.byZone:
			if !n.hasZ {
				continue
			}
			cnt = max(c.zoneCounts[n.zoneID], 0)
		default:
			v, ok := n.Node.Labels[c.key]
			if !ok {
				continue
			}
			cnt = c.counts[v]
		}
		score += float64(cnt)*c.weight + float64(c.maxSkew-1)
	}
	return int64(math.Round(score))
}

// NormalizeScore maps s to 100*(max+min−s)/max over the scored nodes
// (100 for all when max is 0); ignored nodes get 0.
func (PodTopologySpread) NormalizeScore(st *CycleState, _ *corev1.Pod, feasible []*NodeInfo, scores []int64) {
	s := readState[spreadState](st, preScoreSpreadKey)
	minScore, maxScore := int64(math.MaxInt64), int64(0)
	ignored := func(n *NodeInfo) bool { return s.ignored != nil && s.ignored[n] }
	for i, n := range feasible {
		if ignored(n) {
			continue
		}
		minScore = min(minScore, scores[i])
		maxScore = max(maxScore, scores[i])
	}
	for i, n := range feasible {
		switch {
		case ignored(n):
			scores[i] = 0
		case maxScore == 0:
			scores[i] = MaxNodeScore
		default:
			scores[i] = MaxNodeScore * (maxScore + minScore - scores[i]) / maxScore
		}
	}
}

func hasAllKeys(n *NodeInfo, cs []spreadConstraint) bool {
	for i := range cs {
		if _, ok := n.label(cs[i].key); !ok {
			return false
		}
	}
	return true
}

// constraintSelector is the constraint's labelSelector plus, for each of its
// matchLabelKeys, the incoming pod's value of that label.
func constraintSelector(pod *corev1.Pod, c *corev1.TopologySpreadConstraint) (labels.Selector, error) {
	sel, err := metav1.LabelSelectorAsSelector(c.LabelSelector)
	if err != nil {
		return nil, err
	}
	for _, key := range c.MatchLabelKeys {
		if v, ok := pod.Labels[key]; ok {
			r, err := labels.NewRequirement(key, selection.In, []string{v})
			if err != nil {
				return nil, err
			}
			sel = sel.Add(*r)
		}
	}
	return sel, nil
}
