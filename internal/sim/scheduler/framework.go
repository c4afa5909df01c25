package scheduler

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// MaxNodeScore is the top of every plugin's normalised score range
// (framework/interface.go).
const MaxNodeScore int64 = 100

// Code is the outcome of one plugin at one extension point, as in upstream's
// framework.Code.
type Code int

// The codes this simulator uses, with upstream's names.
const (
	Success Code = iota
	// Unschedulable: the node does not fit now, but preemption might help.
	Unschedulable
	// UnschedulableAndUnresolvable: the node cannot fit the pod whatever
	// happens to other pods; preemption skips it.
	UnschedulableAndUnresolvable
	// Skip: returned by PreScore (or PreFilter) when the plugin has nothing to
	// do for this pod; its Score is then not called.
	Skip
)

// String returns upstream's name of the code.
func (c Code) String() string {
	switch c {
	case Success:
		return "Success"
	case Unschedulable:
		return "Unschedulable"
	case UnschedulableAndUnresolvable:
		return "UnschedulableAndUnresolvable"
	case Skip:
		return "Skip"
	}
	return "Unknown"
}

// Status is a plugin's verdict. A nil *Status means Success, as upstream.
type Status struct {
	Code    Code
	Reasons []string // upstream reason texts; FitError counts each one
	Plugin  string   // set by the framework, not by the plugin
	// Detail is extra context for the trace that upstream logs but does not
	// put in the event (e.g. which taint was not tolerated).
	Detail string
}

// statusSkip is the Skip every PreFilter and PreScore returns, shared so a
// cycle allocates none (six plugins skip for a plain pod): the framework
// only reads a PreFilter's or PreScore's Skip (it sets Plugin on Filter
// statuses only, scheduler.go filter), as upstream's framework only reads
// the code of those statuses (framework/runtime/framework.go
// RunPreFilterPlugins, RunPreScorePlugins: IsSkip).
var statusSkip = newStatus(Skip)

func newStatus(code Code, reasons ...string) *Status {
	return &Status{Code: code, Reasons: reasons}
}

// IsSuccess reports whether s is nil or Success.
func (s *Status) IsSuccess() bool { return s == nil || s.Code == Success }

// Message joins the reasons with ", " like upstream's Status.Message.
func (s *Status) Message() string {
	if s == nil {
		return ""
	}
	return strings.Join(s.Reasons, ", ")
}

// Plugin is the base of every plugin (framework.Plugin).
type Plugin interface {
	Name() string
}

// PreFilterPlugin computes per-pod state once per cycle; it may return Skip.
type PreFilterPlugin interface {
	Plugin
	PreFilter(st *CycleState, pod *corev1.Pod) *Status
}

// FilterPlugin accepts or rejects one node.
type FilterPlugin interface {
	Plugin
	Filter(st *CycleState, pod *corev1.Pod, n *NodeInfo) *Status
}

// PreScorePlugin prepares scoring over the feasible nodes; Skip drops the
// plugin from this cycle's scoring.
type PreScorePlugin interface {
	Plugin
	PreScore(st *CycleState, pod *corev1.Pod, feasible []*NodeInfo) *Status
}

// ScorePlugin ranks one feasible node.
type ScorePlugin interface {
	Plugin
	Score(st *CycleState, pod *corev1.Pod, n *NodeInfo) int64
}

// batchScorer is a ScorePlugin that scores all the feasible nodes in one
// call: scores[j] is exactly what Score(st, pod, feasible[j]) returns. The
// per-cycle state is read once instead of once per node, and the loop runs
// without an interface call per node (about 500 nodes per cycle at 5,000).
type batchScorer interface {
	scoreAll(st *CycleState, pod *corev1.Pod, feasible []*NodeInfo, scores []int64)
}

// NormalizeScorer is the ScoreExtensions of plugins whose raw scores are not
// already in [0, MaxNodeScore]. scores is parallel to the feasible nodes.
type NormalizeScorer interface {
	NormalizeScore(st *CycleState, pod *corev1.Pod, feasible []*NodeInfo, scores []int64)
}

// defaultNormalizeScore scales scores so the highest becomes maxPriority
// (reversed: the highest becomes 0). With every score 0 they stay 0, or all
// become maxPriority when reversed (plugins/helper/normalize_score.go).
func defaultNormalizeScore(maxPriority int64, reverse bool, scores []int64) {
	var maxCount int64
	for _, s := range scores {
		if s > maxCount {
			maxCount = s
		}
	}
	if maxCount == 0 {
		if reverse {
			for i := range scores {
				scores[i] = maxPriority
			}
		}
		return
	}
	for i, s := range scores {
		s = maxPriority * s / maxCount
		if reverse {
			s = maxPriority - s
		}
		scores[i] = s
	}
}

// StateKey names one entry of the CycleState (framework.StateKey). Keys are
// small integers handed out by NewStateKey, so a plugin reading its state on
// every node costs an index, not a map lookup.
type StateKey int

var stateKeyNames []string

// NewStateKey registers a key; call it once per key, from a package-level
// var next to the plugin that owns the state.
func NewStateKey(name string) StateKey {
	stateKeyNames = append(stateKeyNames, name)
	return StateKey(len(stateKeyNames) - 1)
}

// String returns the name the key was registered with.
func (k StateKey) String() string { return stateKeyNames[k] }

// CycleState is what one scheduling cycle shares: the inputs every plugin
// may read (the scheduler's cache, the default spreading selector, the
// pod's requests) and a keyed store where each plugin keeps its own
// PreFilter/PreScore state (upstream framework.CycleState: Write and Read by
// StateKey). Unlike upstream's, one CycleState lives across cycles so that
// plugins can reuse their buffers; every plugin resets its entry in the
// PreFilter or PreScore that writes it.
type CycleState struct {
	cluster        *Cluster
	spreadSelector labels.Selector
	request        Resource // the pod's actual requests (Fit's Filter, BalancedAllocation)

	data []any // by StateKey
}

// Write stores v under k.
func (c *CycleState) Write(k StateKey, v any) {
	if int(k) >= len(c.data) {
		c.data = append(c.data, make([]any, int(k)+1-len(c.data))...)
	}
	c.data[k] = v
}

// Read returns what was stored under k, and whether anything was.
func (c *CycleState) Read(k StateKey) (any, bool) {
	if int(k) >= len(c.data) || c.data[k] == nil {
		return nil, false
	}
	return c.data[k], true
}

// Cluster returns the scheduler's cache the cycle runs over.
func (c *CycleState) Cluster() *Cluster { return c.cluster }

// PodRequest returns the pod's actual requests (no non-zero defaults).
func (c *CycleState) PodRequest() *Resource { return &c.request }

// stateOf returns the *T stored under k, storing a new zero T first when
// there is none: a plugin's PreFilter or PreScore resets and fills it, its
// Filter or Score reads it.
func stateOf[T any](c *CycleState, k StateKey) *T {
	if v, ok := c.Read(k); ok {
		return v.(*T)
	}
	t := new(T)
	c.Write(k, t)
	return t
}

// readState is the state a plugin's PreFilter or PreScore wrote under k
// (upstream's getPreFilterState / getPreScoreState in each plugin).
func readState[T any](c *CycleState, k StateKey) *T {
	v, _ := c.Read(k)
	return v.(*T)
}
