package scheduler

import (
	"math"

	"github.com/k8sexplain/k8sexplain/internal/k8sversion"
	corev1 "k8s.io/api/core/v1"
)

// BalancedAllocationName is the plugin's upstream name.
const BalancedAllocationName = "NodeResourcesBalancedAllocation"

// BalancedAllocationArgs are the plugin's pluginConfig args
// (kube-scheduler config/v1 NodeResourcesBalancedAllocationArgs).
type BalancedAllocationArgs struct {
	Resources []ResourceSpec `json:"resources,omitempty"`
}

// newBalancedAllocation defaults and validates the args as upstream does
// (apis/config/v1/defaults.go, validation ValidateNodeResourcesBalancedAllocationArgs):
// cpu and memory by default, a weight left 0 becomes 1, and every weight
// must be 1.
func newBalancedAllocation(args any) (Plugin, error) {
	// The score of the change the pod makes from v1.36 (PR #135573).
	b := &BalancedAllocation{Resources: []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory}, Legacy: !k8sversion.AtLeast(36)}
	a, _ := args.(*BalancedAllocationArgs)
	if a == nil || len(a.Resources) == 0 {
		return b, nil
	}
	var errs FieldErrors
	b.Resources = nil
	seen := map[string]bool{}
	for i, r := range a.Resources {
		if seen[r.Name] {
			errs = append(errs, Duplicate(indexPath("resources", i)+".name", r.Name))
		}
		seen[r.Name] = true
		if r.Weight != 0 && r.Weight != 1 {
			errs = append(errs, Invalid(indexPath("resources", i)+".weight", r.Weight, "must be 1"))
		}
		b.Resources = append(b.Resources, corev1.ResourceName(r.Name))
	}
	if len(b.Resources) > 8 {
		errs = append(errs, Invalid("resources", len(b.Resources), "the simulator scores at most 8 resources"))
	}
	return b, errs.OrNil()
}

// BalancedAllocation favours nodes whose cpu and memory fractions stay close
// (noderesources/balanced_allocation.go). It uses actual requests, and skips
// best-effort pods (PR #130260). From v1.36 (PR #135573) the score rewards
// the change the pod makes: 50 + (50 + S_with − S_without)/2, where
// S = int64((1−std)*100); Legacy selects the older S_with alone.
type BalancedAllocation struct {
	Resources []corev1.ResourceName // default cpu, memory
	Legacy    bool
}

func (*BalancedAllocation) Name() string { return BalancedAllocationName }

func (b *BalancedAllocation) PreScore(st *CycleState, _ *corev1.Pod, _ []*NodeInfo) *Status {
	for _, name := range b.Resources {
		if resourceValue(&st.request, name) != 0 {
			return nil
		}
	}
	return statusSkip // best-effort pod: see kubernetes#129138
}

func (b *BalancedAllocation) Score(st *CycleState, _ *corev1.Pod, n *NodeInfo) int64 {
	if b.cpuMemory() { // the default resources, without the generic lookup
		return b.scoreCPUMemory(n, st.request.MilliCPU, st.request.Memory)
	}
	var with, without [8]float64
	k := 0
	for _, name := range b.Resources {
		alloc, req := allocatableAndRequested(n, &n.Requested, &st.request, name)
		if alloc == 0 || k == len(with) {
			continue
		}
		before := req - resourceValue(&st.request, name)
		with[k] = min(float64(req)/float64(alloc), 1)
		without[k] = min(float64(before)/float64(alloc), 1)
		k++
	}
	return b.combine(with[:k], without[:k])
}

// scoreAll is Score over the feasible nodes, the resources checked once.
func (b *BalancedAllocation) scoreAll(st *CycleState, pod *corev1.Pod, feasible []*NodeInfo, scores []int64) {
	if !b.cpuMemory() {
		for j, n := range feasible {
			scores[j] = b.Score(st, pod, n)
		}
		return
	}
	cpu, mem := st.request.MilliCPU, st.request.Memory
	for j, n := range feasible {
		scores[j] = b.scoreCPUMemory(n, cpu, mem)
	}
}

// scoreCPUMemory is Score on cpu and memory, the pod requesting cpu
// milli-CPU and mem bytes.
func (b *BalancedAllocation) scoreCPUMemory(n *NodeInfo, cpu, mem int64) int64 {
	var with, without [2]float64
	k := 0
	ac, am := n.Allocatable.MilliCPU, n.Allocatable.Memory
	rc, rm := n.Requested.MilliCPU, n.Requested.Memory
	if ac != 0 {
		with[k] = min(float64(rc+cpu)/float64(ac), 1)
		k++
	}
	if am != 0 {
		with[k] = min(float64(rm+mem)/float64(am), 1)
		k++
	}
	sWith := balanceScore(with[:k])
	if b.Legacy {
		return sWith
	}
	// S_without depends on the node alone; NodeInfo caches it until its
	// pods or allocatable change.
	if !n.balanceOK {
		k = 0
		if ac != 0 {
			without[k] = min(float64(rc)/float64(ac), 1)
			k++
		}
		if am != 0 {
			without[k] = min(float64(rm)/float64(am), 1)
			k++
		}
		n.balance, n.balanceOK = balanceScore(without[:k]), true
	}
	return MaxNodeScore/2 + (MaxNodeScore/2+sWith-n.balance)/2
}

func (b *BalancedAllocation) cpuMemory() bool {
	return len(b.Resources) == 2 && b.Resources[0] == corev1.ResourceCPU && b.Resources[1] == corev1.ResourceMemory
}

func (b *BalancedAllocation) combine(with, without []float64) int64 {
	sWith := balanceScore(with)
	if b.Legacy {
		return sWith
	}
	return MaxNodeScore/2 + (MaxNodeScore/2+sWith-balanceScore(without))/2
}

// balanceScore is int64((1−std)*100): for two fractions std = |f1−f2|/2,
// for more the population standard deviation, for fewer 0.
func balanceScore(f []float64) int64 {
	std := 0.0
	switch {
	case len(f) == 2:
		std = math.Abs((f[0] - f[1]) / 2)
	case len(f) > 2:
		var mean float64
		for _, x := range f {
			mean += x
		}
		mean /= float64(len(f))
		var sum float64
		for _, x := range f {
			sum += (x - mean) * (x - mean)
		}
		std = math.Sqrt(sum / float64(len(f)))
	}
	return int64((1 - std) * float64(MaxNodeScore))
}
