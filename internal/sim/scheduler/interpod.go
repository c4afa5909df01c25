package scheduler

import (
	"slices"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// InterPodAffinity filters on required pod affinity and anti-affinity, the
// incoming pod's and the existing pods' (symmetry), and scores preferred
// terms (plugins/interpodaffinity). Existing pods with terms are indexed by
// the Cluster; the incoming pod's own terms are matched against every pod.
type InterPodAffinity struct {
	// HardPodAffinityWeight scores existing pods' required affinity terms
	// that match the incoming pod (upstream default 1).
	HardPodAffinityWeight int64
	// IgnorePreferredTermsOfExistingPods skips scoring when the incoming
	// pod has no preferred terms of its own (scoring.go PreScore).
	IgnorePreferredTermsOfExistingPods bool
}

// InterPodAffinityName is the plugin's upstream name.
const InterPodAffinityName = "InterPodAffinity"

// Reasons of InterPodAffinity's Filter (interpodaffinity/filtering.go).
const (
	ReasonPodAffinity             = "node(s) didn't match pod affinity rules"
	ReasonPodAntiAffinity         = "node(s) didn't match pod anti-affinity rules"
	ReasonExistingPodAntiAffinity = "node(s) didn't satisfy existing pods anti-affinity rules"
)

func (InterPodAffinity) Name() string { return InterPodAffinityName }

// InterPodAffinityArgs are the plugin's pluginConfig args (kube-scheduler
// config/v1 InterPodAffinityArgs).
type InterPodAffinityArgs struct {
	HardPodAffinityWeight              *int32 `json:"hardPodAffinityWeight,omitempty"`
	IgnorePreferredTermsOfExistingPods bool   `json:"ignorePreferredTermsOfExistingPods"`
}

// newInterPodAffinity defaults hardPodAffinityWeight to 1 and checks it is
// in [0, 100] (validation validateHardPodAffinityWeight).
func newInterPodAffinity(args any) (Plugin, error) {
	ip := InterPodAffinity{HardPodAffinityWeight: 1}
	a, _ := args.(*InterPodAffinityArgs)
	if a == nil {
		return ip, nil
	}
	var errs FieldErrors
	if w := a.HardPodAffinityWeight; w != nil {
		if *w < 0 || *w > 100 {
			errs = append(errs, Invalid("hardPodAffinityWeight", *w, "not in valid range [0, 100]"))
		}
		ip.HardPodAffinityWeight = int64(*w)
	}
	ip.IgnorePreferredTermsOfExistingPods = a.IgnorePreferredTermsOfExistingPods
	return ip, errs.OrNil()
}

var (
	preFilterInterPodKey = NewStateKey("PreFilter" + InterPodAffinityName)
	preScoreInterPodKey  = NewStateKey("PreScore" + InterPodAffinityName)
)

// interPodScoreState is PreScore's: the pod's preferred terms and the score
// per topology domain.
type interPodScoreState struct {
	prefAff, prefAnti []affinityTerm
	topologyScore     map[string]map[string]int64 // key → value → score
}

// affinityTerm is a parsed PodAffinityTerm.
type affinityTerm struct {
	key        string
	selector   labels.Selector
	namespaces []string
	nsSelector labels.Selector // nil: only namespaces
	weight     int64
}

// matches reports whether p is in the term's namespaces and selected by it.
// A namespaceSelector sees only the kubernetes.io/metadata.name label, which
// the API server sets on every namespace.
func (t *affinityTerm) matches(p *corev1.Pod) bool {
	in := slices.Contains(t.namespaces, p.Namespace)
	if !in && t.nsSelector != nil {
		in = t.nsSelector.Matches(labels.Set{corev1.LabelMetadataName: p.Namespace})
	}
	return in && t.selector.Matches(labels.Set(p.Labels))
}

func parseTerms(owner *corev1.Pod, terms []corev1.PodAffinityTerm, weights []int32) []affinityTerm {
	var out []affinityTerm
	for i := range terms {
		t := &terms[i]
		sel, err := metav1.LabelSelectorAsSelector(t.LabelSelector)
		if err != nil {
			continue
		}
		at := affinityTerm{key: t.TopologyKey, selector: sel, namespaces: t.Namespaces, weight: 1}
		if t.NamespaceSelector != nil {
			if at.nsSelector, err = metav1.LabelSelectorAsSelector(t.NamespaceSelector); err != nil {
				continue
			}
		} else if len(t.Namespaces) == 0 {
			at.namespaces = []string{owner.Namespace}
		}
		if weights != nil {
			at.weight = int64(weights[i])
		}
		out = append(out, at)
	}
	return out
}

// podTerms returns a pod's required affinity, required anti-affinity,
// preferred affinity and preferred anti-affinity terms.
func podTerms(p *corev1.Pod) (reqAff, reqAnti, prefAff, prefAnti []affinityTerm) {
	a := p.Spec.Affinity
	if a == nil {
		return
	}
	weighted := func(ws []corev1.WeightedPodAffinityTerm) []affinityTerm {
		terms := make([]corev1.PodAffinityTerm, len(ws))
		weights := make([]int32, len(ws))
		for i := range ws {
			terms[i], weights[i] = ws[i].PodAffinityTerm, ws[i].Weight
		}
		return parseTerms(p, terms, weights)
	}
	if pa := a.PodAffinity; pa != nil {
		reqAff = parseTerms(p, pa.RequiredDuringSchedulingIgnoredDuringExecution, nil)
		prefAff = weighted(pa.PreferredDuringSchedulingIgnoredDuringExecution)
	}
	if pa := a.PodAntiAffinity; pa != nil {
		reqAnti = parseTerms(p, pa.RequiredDuringSchedulingIgnoredDuringExecution, nil)
		prefAnti = weighted(pa.PreferredDuringSchedulingIgnoredDuringExecution)
	}
	return
}

func hasPodAffinity(p *corev1.Pod) bool {
	a := p.Spec.Affinity
	return a != nil && (a.PodAffinity != nil || a.PodAntiAffinity != nil)
}

type topologyPair struct{ key, value string }

// affinityEntry is a bound pod with pod (anti-)affinity, its terms parsed
// once when the Cluster learns of it.
type affinityEntry struct {
	node                               *NodeInfo
	reqAff, reqAnti, prefAff, prefAnti []affinityTerm
}

type interPodState struct {
	reqAff, reqAnti []affinityTerm
	affinityCounts  map[topologyPair]int64 // pods matching all required affinity terms
	antiCounts      map[topologyPair]int64 // pods matching a required anti-affinity term
	existingAnti    map[topologyPair]int64 // existing pods whose anti-affinity matches the pod
}

// PreFilter counts, per topology pair, the pods that the incoming pod's
// required terms match and the existing pods whose required anti-affinity
// matches it. Skip when neither exists.
func (InterPodAffinity) PreFilter(st *CycleState, pod *corev1.Pod) *Status {
	s := stateOf[interPodState](st, preFilterInterPodKey)
	*s = interPodState{}
	s.reqAff, s.reqAnti, _, _ = podTerms(pod)
	for _, e := range st.cluster.affinityPods {
		for i := range e.reqAnti {
			t := &e.reqAnti[i]
			if v, ok := e.node.label(t.key); ok && t.matches(pod) {
				s.existingAnti = addPair(s.existingAnti, topologyPair{t.key, v}, 1)
			}
		}
	}
	if len(s.reqAff) == 0 && len(s.reqAnti) == 0 {
		if len(s.existingAnti) == 0 {
			return statusSkip
		}
		return nil
	}
	for _, n := range st.cluster.order {
		for _, p := range n.Pods {
			if len(s.reqAff) > 0 && matchesAll(s.reqAff, p) {
				for i := range s.reqAff {
					if v, ok := n.label(s.reqAff[i].key); ok {
						s.affinityCounts = addPair(s.affinityCounts, topologyPair{s.reqAff[i].key, v}, 1)
					}
				}
			}
			for i := range s.reqAnti {
				if v, ok := n.label(s.reqAnti[i].key); ok && s.reqAnti[i].matches(p) {
					s.antiCounts = addPair(s.antiCounts, topologyPair{s.reqAnti[i].key, v}, 1)
				}
			}
		}
	}
	return nil
}

func addPair(m map[topologyPair]int64, k topologyPair, d int64) map[topologyPair]int64 {
	if m == nil {
		m = map[topologyPair]int64{}
	}
	m[k] += d
	return m
}

func matchesAll(terms []affinityTerm, p *corev1.Pod) bool {
	for i := range terms {
		if !terms[i].matches(p) {
			return false
		}
	}
	return true
}

// Filter checks, in upstream's order: the pod's required affinity (every
// term's domain must hold a matching pod, unless no pod matches anywhere and
// the pod matches its own terms: the first of a group), its required
// anti-affinity, then the existing pods' anti-affinity.
func (InterPodAffinity) Filter(st *CycleState, pod *corev1.Pod, n *NodeInfo) *Status {
	s := readState[interPodState](st, preFilterInterPodKey)
	if len(s.reqAff) > 0 {
		exist := true
		for i := range s.reqAff {
			v, ok := n.label(s.reqAff[i].key)
			if !ok {
				return newStatus(UnschedulableAndUnresolvable, ReasonPodAffinity)
			}
			if s.affinityCounts[topologyPair{s.reqAff[i].key, v}] <= 0 {
				exist = false
			}
		}
		if !exist && !(len(s.affinityCounts) == 0 && matchesAll(s.reqAff, pod)) {
			return newStatus(UnschedulableAndUnresolvable, ReasonPodAffinity)
		}
	}
	for i := range s.reqAnti {
		if v, ok := n.label(s.reqAnti[i].key); ok && s.antiCounts[topologyPair{s.reqAnti[i].key, v}] > 0 {
			return newStatus(Unschedulable, ReasonPodAntiAffinity)
		}
	}
	for tp, cnt := range s.existingAnti {
		if v, ok := n.label(tp.key); ok && v == tp.value && cnt > 0 {
			return newStatus(Unschedulable, ReasonExistingPodAntiAffinity)
		}
	}
	return nil
}

// PreScore sums, per topology domain, the weights of preferred terms between
// the incoming pod and existing pods, in both directions, plus
// HardPodAffinityWeight for existing pods' required affinity to it. Skip
// when nothing contributes.
func (ip InterPodAffinity) PreScore(st *CycleState, pod *corev1.Pod, _ []*NodeInfo) *Status {
	s := stateOf[interPodScoreState](st, preScoreInterPodKey)
	s.topologyScore = nil
	_, _, s.prefAff, s.prefAnti = podTerms(pod)
	hasConstraints := len(s.prefAff) > 0 || len(s.prefAnti) > 0
	if !hasConstraints && (len(st.cluster.affinityPods) == 0 || ip.IgnorePreferredTermsOfExistingPods) {
		return statusSkip
	}
	add := func(n *NodeInfo, t *affinityTerm, w int64) {
		if v, ok := n.label(t.key); ok {
			if s.topologyScore == nil {
				s.topologyScore = map[string]map[string]int64{}
			}
			if s.topologyScore[t.key] == nil {
				s.topologyScore[t.key] = map[string]int64{}
			}
			s.topologyScore[t.key][v] += w
		}
	}
	incoming := func(p *corev1.Pod, n *NodeInfo) {
		for i := range s.prefAff {
			if s.prefAff[i].matches(p) {
				add(n, &s.prefAff[i], s.prefAff[i].weight)
			}
		}
		for i := range s.prefAnti {
			if s.prefAnti[i].matches(p) {
				add(n, &s.prefAnti[i], -s.prefAnti[i].weight)
			}
		}
	}
	existing := func(e *affinityEntry) {
		if ip.HardPodAffinityWeight > 0 {
			for i := range e.reqAff {
				if e.reqAff[i].matches(pod) {
					add(e.node, &e.reqAff[i], ip.HardPodAffinityWeight)
				}
			}
		}
		for i := range e.prefAff {
			if e.prefAff[i].matches(pod) {
				add(e.node, &e.prefAff[i], e.prefAff[i].weight)
			}
		}
		for i := range e.prefAnti {
			if e.prefAnti[i].matches(pod) {
				add(e.node, &e.prefAnti[i], -e.prefAnti[i].weight)
			}
		}
	}
	if hasConstraints { // every pod may match the incoming pod's terms
		for _, n := range st.cluster.order {
			for _, p := range n.Pods {
				incoming(p, n)
				if e := st.cluster.affinityPods[p]; e != nil {
					existing(e)
				}
			}
		}
	} else {
		for _, e := range st.cluster.affinityPods {
			existing(e)
		}
	}
	if len(s.topologyScore) == 0 {
		return statusSkip
	}
	return nil
}

// Score adds up the domain scores of the node's topology values.
func (InterPodAffinity) Score(st *CycleState, _ *corev1.Pod, n *NodeInfo) int64 {
	var score int64
	for key, values := range readState[interPodScoreState](st, preScoreInterPodKey).topologyScore {
		if v, ok := n.label(key); ok {
			score += values[v]
		}
	}
	return score
}

// NormalizeScore maps min..max to 0..100 in floating point, all 0 when the
// scores are equal (interpodaffinity/scoring.go).
func (InterPodAffinity) NormalizeScore(_ *CycleState, _ *corev1.Pod, _ []*NodeInfo, scores []int64) {
	if len(scores) == 0 {
		return
	}
	lo, hi := scores[0], scores[0]
	for _, s := range scores {
		lo, hi = min(lo, s), max(hi, s)
	}
	for i, s := range scores {
		f := 0.0
		if hi > lo {
			f = float64(MaxNodeScore) * (float64(s-lo) / float64(hi-lo))
		}
		scores[i] = int64(f)
	}
}
