package scheduler

import (
	"math"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// NodeResourcesFitName is the plugin's upstream name.
const NodeResourcesFitName = "NodeResourcesFit"

// ReasonTooManyPods is Fit's reason when the node's pod count is full.
const ReasonTooManyPods = "Too many pods"

// Scoring strategies of NodeResourcesFit (apis/config ScoringStrategyType).
const (
	LeastAllocated           = "LeastAllocated"
	MostAllocated            = "MostAllocated"
	RequestedToCapacityRatio = "RequestedToCapacityRatio"
)

// maxCustomPriorityScore is the top of a RequestedToCapacityRatio shape's
// score axis (apis/config MaxCustomPriorityScore); the plugin scales it to
// MaxNodeScore.
const maxCustomPriorityScore = 10

// NodeResourcesFitArgs are the plugin's pluginConfig args (kube-scheduler
// config/v1 NodeResourcesFitArgs).
type NodeResourcesFitArgs struct {
	IgnoredResources      []string         `json:"ignoredResources,omitempty"`
	IgnoredResourceGroups []string         `json:"ignoredResourceGroups,omitempty"`
	ScoringStrategy       *ScoringStrategy `json:"scoringStrategy,omitempty"`
}

// ScoringStrategy is NodeResourcesFitArgs.scoringStrategy.
type ScoringStrategy struct {
	Type                     string                         `json:"type,omitempty"`
	Resources                []ResourceSpec                 `json:"resources,omitempty"`
	RequestedToCapacityRatio *RequestedToCapacityRatioParam `json:"requestedToCapacityRatio,omitempty"`
}

// ResourceSpec is a resource and its weight in a scoring strategy.
type ResourceSpec struct {
	Name   string `json:"name"`
	Weight int64  `json:"weight,omitempty"`
}

// RequestedToCapacityRatioParam is the strategy's shape.
type RequestedToCapacityRatioParam struct {
	Shape []UtilizationShapePoint `json:"shape,omitempty"`
}

// UtilizationShapePoint is one point of the shape: utilization 0–100 (%),
// score 0–10.
type UtilizationShapePoint struct {
	Utilization int32 `json:"utilization"`
	Score       int32 `json:"score"`
}

// NodeResourcesFit filters on requests against allocatable minus what is
// already requested, and scores with its strategy: LeastAllocated (the
// default), MostAllocated or RequestedToCapacityRatio (plugins/noderesources
// fit.go, least_allocated.go, most_allocated.go,
// requested_to_capacity_ratio.go).
type NodeResourcesFit struct {
	// Strategy is the scoring strategy; "" means LeastAllocated.
	Strategy string
	// Resources scored with their weights; the default is cpu:1, memory:1.
	Resources []ResourceWeight
	// Shape is RequestedToCapacityRatio's broken linear function, scores
	// already scaled to 0–MaxNodeScore.
	Shape []ShapePoint
	// IgnoredResources and IgnoredResourceGroups are extended resources
	// (by name, or by the prefix before "/") that Filter does not check.
	IgnoredResources, IgnoredResourceGroups []string
}

// ResourceWeight is one entry of NodeResourcesFitArgs.ScoringStrategy.Resources.
type ResourceWeight struct {
	Name   corev1.ResourceName
	Weight int64
}

// ShapePoint is a point of RequestedToCapacityRatio's scoring function.
type ShapePoint struct {
	Utilization, Score int64
}

var supportedStrategies = []string{LeastAllocated, MostAllocated, RequestedToCapacityRatio}

// newNodeResourcesFit defaults and validates the args as upstream does
// (apis/config/v1/defaults.go SetDefaults_NodeResourcesFitArgs, validation
// ValidateNodeResourcesFitArgs): no scoringStrategy means LeastAllocated on
// cpu:1, memory:1; no resources means those two; a weight left 0 becomes 1.
func newNodeResourcesFit(args any) (Plugin, error) {
	f := &NodeResourcesFit{Strategy: LeastAllocated, Resources: []ResourceWeight{{corev1.ResourceCPU, 1}, {corev1.ResourceMemory, 1}}}
	a, _ := args.(*NodeResourcesFitArgs)
	if a == nil {
		return f, nil
	}
	var errs FieldErrors
	for i, g := range a.IgnoredResourceGroups {
		if strings.Contains(g, "/") {
			errs = append(errs, Invalid(indexPath("ignoredResourceGroups", i), g, "resource group name can't contain '/'"))
		}
	}
	f.IgnoredResources, f.IgnoredResourceGroups = a.IgnoredResources, a.IgnoredResourceGroups
	s := a.ScoringStrategy
	if s == nil {
		return f, errs.OrNil()
	}
	if !slices.Contains(supportedStrategies, s.Type) {
		errs = append(errs, NotSupported("scoringStrategy.type", s.Type, supportedStrategies))
	}
	f.Strategy = s.Type
	if len(s.Resources) > 0 {
		f.Resources = nil
	}
	for i, r := range s.Resources {
		w := r.Weight
		if w == 0 {
			w = 1
		}
		if w < 0 || w > 100 {
			errs = append(errs, Invalid(indexPath("scoringStrategy.resources", i)+".weight", w, "resource weight of "+r.Name+" not in valid range (0, 100]"))
		}
		f.Resources = append(f.Resources, ResourceWeight{corev1.ResourceName(r.Name), w})
	}
	switch {
	case s.Type == RequestedToCapacityRatio && s.RequestedToCapacityRatio == nil:
		errs = append(errs, Required("scoringStrategy.requestedToCapacityRatio", "must be specified when type is RequestedToCapacityRatio"))
	case s.Type == RequestedToCapacityRatio:
		errs = append(errs, validateShape(s.RequestedToCapacityRatio.Shape)...)
		for _, p := range s.RequestedToCapacityRatio.Shape {
			f.Shape = append(f.Shape, ShapePoint{int64(p.Utilization), int64(p.Score) * (MaxNodeScore / maxCustomPriorityScore)})
		}
	case s.RequestedToCapacityRatio != nil:
		errs = append(errs, Forbidden("scoringStrategy.requestedToCapacityRatio", "must be nil when type is not RequestedToCapacityRatio"))
	}
	return f, errs.OrNil()
}

// validateShape is upstream's validateFunctionShape.
func validateShape(shape []UtilizationShapePoint) FieldErrors {
	const path = "scoringStrategy.requestedToCapacityRatio.shape"
	if len(shape) == 0 {
		return FieldErrors{Required(path, "at least one point must be specified")}
	}
	var errs FieldErrors
	for i := 1; i < len(shape); i++ {
		if shape[i-1].Utilization >= shape[i].Utilization {
			errs = append(errs, Invalid(indexPath(path, i)+".utilization", shape[i].Utilization, "values must be sorted in increasing order"))
			break
		}
	}
	for i, p := range shape {
		if p.Utilization < 0 || p.Utilization > 100 {
			errs = append(errs, Invalid(indexPath(path, i)+".utilization", p.Utilization, "not in valid range [0, 100]"))
		}
		if p.Score < 0 || p.Score > maxCustomPriorityScore {
			errs = append(errs, Invalid(indexPath(path, i)+".score", p.Score, "not in valid range [0, 10]"))
		}
	}
	return errs
}

func (*NodeResourcesFit) Name() string { return NodeResourcesFitName }

var (
	preFilterFitKey = NewStateKey("PreFilter" + NodeResourcesFitName)
	preScoreFitKey  = NewStateKey("PreScore" + NodeResourcesFitName)
	// preScoreFitResKey: the scoring resources that can score for the pod.
	preScoreFitResKey = NewStateKey("PreScoreResources" + NodeResourcesFitName)
)

type fitState struct {
	scalarNames []corev1.ResourceName // the pod's scalar requests, sorted
}

func (f *NodeResourcesFit) PreFilter(st *CycleState, _ *corev1.Pod) *Status {
	s := stateOf[fitState](st, preFilterFitKey)
	s.scalarNames = s.scalarNames[:0]
	for name := range st.request.Scalar {
		if !f.ignored(name) {
			s.scalarNames = append(s.scalarNames, name)
		}
	}
	slices.Sort(s.scalarNames) // reasons in a stable order
	return nil
}

// ignored reports whether Filter skips an extended resource (fit.go
// fitsRequest: ignoredExtendedResources, ignoredResourceGroups).
func (f *NodeResourcesFit) ignored(name corev1.ResourceName) bool {
	if len(f.IgnoredResources) == 0 && len(f.IgnoredResourceGroups) == 0 {
		return false
	}
	s := string(name)
	if strings.HasPrefix(s, corev1.ResourceHugePagesPrefix) || strings.HasPrefix(s, "attachable-volumes-") {
		return false // not an extended resource
	}
	group, _, _ := strings.Cut(s, "/")
	return slices.Contains(f.IgnoredResources, s) || slices.Contains(f.IgnoredResourceGroups, group)
}

func (*NodeResourcesFit) Filter(st *CycleState, _ *corev1.Pod, n *NodeInfo) *Status {
	var reasons []string
	code := Unschedulable
	if len(n.Pods)+1 > n.Allocatable.AllowedPods {
		reasons = append(reasons, ReasonTooManyPods)
	}
	r := &st.request
	if r.isZero() {
		if reasons == nil {
			return nil
		}
		return newStatus(code, reasons...)
	}
	check := func(want, alloc, used int64, reason string) {
		if want > 0 && want > alloc-used {
			reasons = append(reasons, reason)
			if want > alloc { // preemption cannot free a node this small
				code = UnschedulableAndUnresolvable
			}
		}
	}
	check(r.MilliCPU, n.Allocatable.MilliCPU, n.Requested.MilliCPU, "Insufficient cpu")
	check(r.Memory, n.Allocatable.Memory, n.Requested.Memory, "Insufficient memory")
	check(r.EphemeralStorage, n.Allocatable.EphemeralStorage, n.Requested.EphemeralStorage, "Insufficient ephemeral-storage")
	if len(r.Scalar) > 0 { // scalarNames are some of r.Scalar's (PreFilter)
		for _, name := range readState[fitState](st, preFilterFitKey).scalarNames {
			check(r.Scalar[name], n.Allocatable.Scalar[name], n.Requested.Scalar[name], "Insufficient "+string(name))
		}
	}
	if reasons == nil {
		return nil
	}
	return newStatus(code, reasons...)
}

// PreScore keeps the pod's requests with the non-zero defaults.
// It also keeps the scoring resources that can score at all: cpu, memory,
// ephemeral-storage, and the extended resources the pod requests (for
// another allocatableAndRequested gives 0, which Score skips). A
// configuration of 10,000 scoring resources then costs one pass per pod,
// not one per node and pod (issue 29: 24 CPU s instead of 1.2 for 3,000
// pods on 200 nodes); the scores are the same.
func (f *NodeResourcesFit) PreScore(st *CycleState, pod *corev1.Pod, _ []*NodeInfo) *Status {
	req := stateOf[Resource](st, preScoreFitKey)
	*req = PodRequests(pod, true)
	used := stateOf[[]ResourceWeight](st, preScoreFitResKey)
	*used = (*used)[:0]
	for _, rw := range f.Resources {
		switch rw.Name {
		case corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceEphemeralStorage:
		default:
			if req.Scalar[rw.Name] == 0 {
				continue
			}
		}
		*used = append(*used, rw)
	}
	return nil
}

// Score runs the strategy over the resources: per resource a score from
// req = the node's non-zero requested + the pod's non-zero request and the
// node's allocatable, then the weighted mean (resource_allocation.go).
func (f *NodeResourcesFit) Score(st *CycleState, _ *corev1.Pod, n *NodeInfo) int64 {
	nonZero := readState[Resource](st, preScoreFitKey)
	if f.defaultLeast() {
		return leastCPUMemory(n, nonZero.MilliCPU, nonZero.Memory)
	}
	var score, weights int64
	for _, rw := range *readState[[]ResourceWeight](st, preScoreFitResKey) {
		alloc, req := allocatableAndRequested(n, &n.NonZeroRequested, nonZero, rw.Name)
		if alloc == 0 {
			continue
		}
		switch f.Strategy {
		case MostAllocated:
			score += mostRequested(req, alloc) * rw.Weight
		case RequestedToCapacityRatio:
			// Only resources scoring above 0 count, and the mean is rounded
			// (requested_to_capacity_ratio.go).
			s := f.ratioScore(req, alloc)
			if s <= 0 {
				continue
			}
			score += s * rw.Weight
		default:
			score += leastRequested(req, alloc) * rw.Weight
		}
		weights += rw.Weight
	}
	if weights == 0 {
		return 0
	}
	if f.Strategy == RequestedToCapacityRatio {
		return int64(math.Round(float64(score) / float64(weights)))
	}
	return score / weights
}

// scoreAll is Score over the feasible nodes, with the default strategy's
// per-cycle checks made once.
func (f *NodeResourcesFit) scoreAll(st *CycleState, pod *corev1.Pod, feasible []*NodeInfo, scores []int64) {
	if !f.defaultLeast() {
		for j, n := range feasible {
			scores[j] = f.Score(st, pod, n)
		}
		return
	}
	nonZero := readState[Resource](st, preScoreFitKey)
	cpu, mem := nonZero.MilliCPU, nonZero.Memory
	for j, n := range feasible {
		scores[j] = leastCPUMemory(n, cpu, mem)
	}
}

// leastCPUMemory is LeastAllocated on cpu:1, memory:1 (the default) without
// the generic lookup; cpu and mem are the pod's non-zero requests.
func leastCPUMemory(n *NodeInfo, cpu, mem int64) int64 {
	var score, weights int64
	if a := n.Allocatable.MilliCPU; a != 0 {
		score += leastRequested(n.NonZeroRequested.MilliCPU+cpu, a)
		weights++
	}
	if a := n.Allocatable.Memory; a != 0 {
		score += leastRequested(n.NonZeroRequested.Memory+mem, a)
		weights++
	}
	if weights == 0 {
		return 0
	}
	return score / weights
}

// defaultLeast reports whether the plugin scores LeastAllocated on
// cpu:1, memory:1, the default.
func (f *NodeResourcesFit) defaultLeast() bool {
	return (f.Strategy == LeastAllocated || f.Strategy == "") && f.defaultResources()
}

// leastRequested is (alloc−req)*100/alloc, 0 when req exceeds alloc.
func leastRequested(req, alloc int64) int64 {
	if req > alloc {
		return 0
	}
	return (alloc - req) * MaxNodeScore / alloc
}

// mostRequested is req*100/alloc with req capped at alloc: pods without
// requests count the non-zero defaults and may overshoot (most_allocated.go).
func mostRequested(req, alloc int64) int64 {
	req = min(req, alloc)
	return req * MaxNodeScore / alloc
}

// ratioScore applies the shape to the utilization req*100/alloc, or to 100
// when req exceeds alloc.
func (f *NodeResourcesFit) ratioScore(req, alloc int64) int64 {
	if req > alloc {
		return brokenLinear(f.Shape, 100)
	}
	return brokenLinear(f.Shape, req*100/alloc)
}

// brokenLinear is helper.BuildBrokenLinearFunction: shape[0].Score below
// the first point, the last score above the last, linear (in integers)
// between.
func brokenLinear(shape []ShapePoint, p int64) int64 {
	for i := range shape {
		if p <= shape[i].Utilization {
			if i == 0 {
				return shape[0].Score
			}
			a, b := shape[i-1], shape[i]
			return a.Score + (b.Score-a.Score)*(p-a.Utilization)/(b.Utilization-a.Utilization)
		}
	}
	return shape[len(shape)-1].Score
}

func (f *NodeResourcesFit) defaultResources() bool {
	r := f.Resources
	return len(r) == 2 && r[0] == ResourceWeight{corev1.ResourceCPU, 1} && r[1] == ResourceWeight{corev1.ResourceMemory, 1}
}

// allocatableAndRequested picks one resource: the node's allocatable and
// nodeReq + podReq. An extended resource the pod does not ask for is left
// out (0, 0), as upstream's calculateResourceAllocatableRequest does.
func allocatableAndRequested(n *NodeInfo, nodeReq, podReq *Resource, name corev1.ResourceName) (int64, int64) {
	switch name {
	case corev1.ResourceCPU:
		return n.Allocatable.MilliCPU, nodeReq.MilliCPU + podReq.MilliCPU
	case corev1.ResourceMemory:
		return n.Allocatable.Memory, nodeReq.Memory + podReq.Memory
	case corev1.ResourceEphemeralStorage:
		return n.Allocatable.EphemeralStorage, n.Requested.EphemeralStorage + podReq.EphemeralStorage
	}
	if podReq.Scalar[name] == 0 {
		return 0, 0
	}
	return n.Allocatable.Scalar[name], n.Requested.Scalar[name] + podReq.Scalar[name]
}

// resourceValue reads one resource of r by name.
func resourceValue(r *Resource, name corev1.ResourceName) int64 {
	switch name {
	case corev1.ResourceCPU:
		return r.MilliCPU
	case corev1.ResourceMemory:
		return r.Memory
	case corev1.ResourceEphemeralStorage:
		return r.EphemeralStorage
	}
	return r.Scalar[name]
}
