package scheduler

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// WeightedScore is a score plugin with its weight in the profile.
type WeightedScore struct {
	Plugin ScorePlugin
	Weight int64
}

// Profile is a scheduler profile: the plugins at each extension point, in
// order, and percentageOfNodesToScore (0 = adaptive).
type Profile struct {
	// Name is the profile's schedulerName.
	Name                     string
	PreFilter                []PreFilterPlugin
	Filter                   []FilterPlugin
	Score                    []WeightedScore
	PercentageOfNodesToScore int32
	// DRAPostFilter adds DynamicResources' PostFilter sentence ("no new
	// claims to deallocate") before preemption's, as clusters with
	// DynamicResources enabled (the default since v1.34) print it. v1.37
	// does not (recorded by the oracle, oracle/testdata/v1.37/scenarios/
	// apply-unschedulable.json): DynamicResources.PostFilter returns a bare
	// Unschedulable status for a pod without claims (pkg/scheduler/framework/
	// plugins/dynamicresources/dynamicresources.go, "No new claims to
	// deallocate" is only logged). The release that dropped the sentence is
	// not checked; before v1.37 the simulator keeps printing it.
	DRAPostFilter bool
}

// DefaultProfile is the default-scheduler profile of
// pkg/scheduler/apis/config/v1/default_plugins.go, reduced to the plugins
// this package models, in upstream order.
func DefaultProfile() Profile {
	p, err := InTree().NewProfile(ProfileSpec{SchedulerName: corev1.DefaultSchedulerName})
	if err != nil {
		panic(err) // the defaults are valid
	}
	return p
}

// Describe returns NodeResourcesFit's scoring strategy with its resources
// ("MostAllocated (cpu 1, memory 1)") and the score plugins with their
// weights ("TaintToleration ×3, NodeAffinity ×2, …"), "—" for either when
// there is none, for the trace.
func (p *Profile) Describe() (strategy, weights string) {
	strategy, weights = "—", "—"
	var w []string
	for _, ws := range p.Score {
		w = append(w, ws.Plugin.Name()+" ×"+strconv.FormatInt(ws.Weight, 10))
		if fit, ok := ws.Plugin.(*NodeResourcesFit); ok {
			var res []string
			for _, r := range fit.Resources {
				res = append(res, string(r.Name)+" "+strconv.FormatInt(r.Weight, 10))
			}
			strategy = cmp.Or(fit.Strategy, LeastAllocated) + " (" + strings.Join(res, ", ") + ")"
		}
	}
	if len(w) > 0 {
		weights = strings.Join(w, ", ")
	}
	return strategy, weights
}

// Scheduler runs scheduling cycles with one profile. It is not safe for
// concurrent use: it keeps nextStartNodeIndex and reuses its buffers.
type Scheduler struct {
	// Summary skips the per-node detail a trace prints only for small
	// clusters: Result.Filtered keeps only rejected nodes and NodeScore keeps
	// only the total. Decisions and messages are the same.
	Summary bool

	profile            Profile
	nextStartNodeIndex int
	st                 CycleState
	buf                buffers
}

// New returns a scheduler with the default profile.
func New() *Scheduler { return NewWithProfile(DefaultProfile()) }

// NewWithProfile returns a scheduler with the given profile.
func NewWithProfile(p Profile) *Scheduler { return &Scheduler{profile: p} }

// Profile returns the scheduler's profile.
func (s *Scheduler) Profile() *Profile { return &s.profile }

// numFeasibleNodesToFind is how many feasible nodes Filter looks for before
// it stops: all below 100 nodes, else pct% (adaptive 50 − n/125, at least 5)
// but never fewer than 100 (schedule_one.go).
func numFeasibleNodesToFind(percentage int32, numAllNodes int) int {
	const minFeasibleNodesToFind, minFeasibleNodesPercentageToFind = 100, 5
	if numAllNodes < minFeasibleNodesToFind {
		return numAllNodes
	}
	pct := int(percentage)
	if pct == 0 {
		pct = 50 - numAllNodes/125
		if pct < minFeasibleNodesPercentageToFind {
			pct = minFeasibleNodesPercentageToFind
		}
	}
	n := numAllNodes * pct / 100
	if n < minFeasibleNodesToFind {
		return minFeasibleNodesToFind
	}
	return n
}

// Schedule runs one scheduling cycle for pod over the cluster's nodes and
// returns the chosen node, or "" and the FailedScheduling message.
//
// spreadSelector is what upstream's helper.DefaultSelector would return for
// the pod: the AND of the selectors of the Services, ReplicationControllers,
// ReplicaSets and StatefulSets in its namespace that select it (see
// DefaultSpreadSelector); nil or empty means the system default spreading
// does not apply. rng breaks ties among the top-scored nodes.
//
// The slices in the Result are owned by the Scheduler and overwritten by the
// next call; use Result.Clone to keep them.
func (s *Scheduler) Schedule(pod *corev1.Pod, c *Cluster, rng *rand.Rand, spreadSelector labels.Selector) Result {
	nodes := c.Nodes()
	s.st.cluster, s.st.spreadSelector = c, spreadSelector
	s.st.request = PodRequests(pod, false)
	s.buf.reset()
	res := Result{NumAllNodes: len(nodes)}
	if len(nodes) == 0 {
		res.Message = "no nodes available to schedule pods"
		return res
	}

	// PreFilter: a plugin that returns Skip is not called at Filter.
	skip := s.buf.skipFilter[:0]
	for _, pl := range s.profile.PreFilter {
		st := pl.PreFilter(&s.st, pod)
		if st != nil && st.Code == Skip {
			skip = append(skip, pl.Name())
		} else if !st.IsSuccess() {
			s.preFilterRejected(pod, nodes, st, pl.Name(), &res)
			return res
		}
	}
	s.buf.skipFilter = skip
	filters := s.buf.filters[:0]
	for _, pl := range s.profile.Filter {
		if !slices.Contains(skip, pl.Name()) {
			filters = append(filters, pl)
		}
	}
	s.buf.filters = filters

	// Filter from nextStartNodeIndex until enough feasible nodes are found.
	res.NumFeasibleToFind = numFeasibleNodesToFind(s.profile.PercentageOfNodesToScore, len(nodes))
	feasible := s.buf.feasible[:0]
	processed, next := 0, s.nextStartNodeIndex%len(nodes)
	for processed < len(nodes) && len(feasible) < res.NumFeasibleToFind {
		n := nodes[next] // nodes[(nextStartNodeIndex+processed) % len(nodes)], without a division per node
		if next++; next == len(nodes) {
			next = 0
		}
		processed++
		st := s.filter(pod, n)
		if st == nil {
			feasible = append(feasible, n)
			if !s.Summary {
				s.buf.verdicts = append(s.buf.verdicts, NodeVerdict{Node: n.name})
			}
			continue
		}
		s.buf.verdicts = append(s.buf.verdicts, NodeVerdict{Node: n.name, Plugin: st.Plugin, Code: st.Code, Reasons: st.Reasons, Detail: st.Detail})
	}
	s.buf.feasible = feasible
	s.nextStartNodeIndex = (s.nextStartNodeIndex + processed) % len(nodes)
	res.Evaluated, res.Feasible, res.Filtered = processed, len(feasible), s.buf.verdicts

	switch len(feasible) {
	case 0:
		res.Message = failureMessage(pod, len(nodes), res.Filtered, s.profile.DRAPostFilter)
		return res
	case 1:
		res.Node = feasible[0].name // upstream skips scoring
		return res
	}
	s.score(pod, feasible, &res)
	res.Node, res.Ties = s.selectHost(s.buf.totals[:len(feasible)], feasible, rng)
	return res
}

func (s *Scheduler) filter(pod *corev1.Pod, n *NodeInfo) *Status {
	for _, pl := range s.buf.filters {
		if st := pl.Filter(&s.st, pod, n); !st.IsSuccess() {
			st.Plugin = pl.Name()
			return st
		}
	}
	return nil
}

// selectHost picks the highest total; among ties the k-th tie replaces the
// choice with probability 1/k (reservoir sampling, schedule_one.go). It
// reads score's dense totals, in Scores' order (feasible's), not the
// 48-byte NodeScores.
func (s *Scheduler) selectHost(totals []int64, feasible []*NodeInfo, rng *rand.Rand) (string, []string) {
	best, cnt := 0, 1
	ties := s.buf.ties[:0]
	ties = append(ties, feasible[0].name)
	for i := 1; i < len(totals); i++ {
		switch t := totals[i]; {
		case t > totals[best]:
			best, cnt = i, 1
			ties = append(ties[:0], feasible[i].name)
		case t == totals[best]:
			cnt++
			ties = append(ties, feasible[i].name)
			if rng.IntN(cnt) == 0 {
				best = i
			}
		}
	}
	s.buf.ties = ties
	if cnt == 1 {
		return feasible[best].name, nil
	}
	return feasible[best].name, ties
}
