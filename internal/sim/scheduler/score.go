package scheduler

import (
	"math"

	corev1 "k8s.io/api/core/v1"
)

// PreScore of NodeResourcesFit: the pod's requests with the non-zero defaults.
func (*NodeResourcesFit) PreScore(st *CycleState, pod *corev1.Pod, _ []*NodeInfo) *Status {
	st.nonZero = PodRequests(pod, true)
	return nil
}

// Score is LeastAllocated: per resource (alloc−req)*100/alloc, 0 when over,
// then the integer weighted mean, where req = the node's non-zero requested
// + the pod's non-zero request (least_allocated.go, resource_allocation.go).
func (f *NodeResourcesFit) Score(st *CycleState, _ *corev1.Pod, n *NodeInfo) int64 {
	if f.defaultResources() { // cpu:1, memory:1 without the generic lookup
		var score, weights int64
		if a := n.Allocatable.MilliCPU; a != 0 {
			score += leastRequested(n.NonZeroRequested.MilliCPU+st.nonZero.MilliCPU, a)
			weights++
		}
		if a := n.Allocatable.Memory; a != 0 {
			score += leastRequested(n.NonZeroRequested.Memory+st.nonZero.Memory, a)
			weights++
		}
		if weights == 0 {
			return 0
		}
		return score / weights
	}
	var score, weights int64
	for _, rw := range f.Resources {
		alloc, req := allocatableAndRequested(n, &n.NonZeroRequested, &st.nonZero, rw.Name)
		if alloc == 0 {
			continue
		}
		score += leastRequested(req, alloc) * rw.Weight
		weights += rw.Weight
	}
	if weights == 0 {
		return 0
	}
	return score / weights
}

// leastRequested is (alloc−req)*100/alloc, 0 when req exceeds alloc.
func leastRequested(req, alloc int64) int64 {
	if req > alloc {
		return 0
	}
	return (alloc - req) * MaxNodeScore / alloc
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
	return newStatus(Skip) // best-effort pod: see kubernetes#129138
}

func (b *BalancedAllocation) Score(st *CycleState, _ *corev1.Pod, n *NodeInfo) int64 {
	var with, without [8]float64
	k := 0
	if b.cpuMemory() { // the default resources, without the generic lookup
		ac, am := n.Allocatable.MilliCPU, n.Allocatable.Memory
		rc, rm := n.Requested.MilliCPU, n.Requested.Memory
		if ac != 0 {
			with[k] = min(float64(rc+st.request.MilliCPU)/float64(ac), 1)
			k++
		}
		if am != 0 {
			with[k] = min(float64(rm+st.request.Memory)/float64(am), 1)
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

// PreScore of TaintToleration keeps the tolerations that can tolerate a
// PreferNoSchedule taint (empty effect or PreferNoSchedule).
func (TaintToleration) PreScore(st *CycleState, pod *corev1.Pod, _ []*NodeInfo) *Status {
	st.preferTols = st.preferTols[:0]
	for _, t := range pod.Spec.Tolerations {
		if t.Effect == "" || t.Effect == corev1.TaintEffectPreferNoSchedule {
			st.preferTols = append(st.preferTols, t)
		}
	}
	return nil
}

// Score counts the PreferNoSchedule taints the pod does not tolerate.
func (TaintToleration) Score(st *CycleState, _ *corev1.Pod, n *NodeInfo) int64 {
	var cnt int64
	for i := range n.taints {
		t := &n.taints[i]
		if t.Effect == corev1.TaintEffectPreferNoSchedule && !toleratedBy(st.preferTols, t) {
			cnt++
		}
	}
	return cnt
}

// NormalizeScore: fewer untolerated taints is better.
func (TaintToleration) NormalizeScore(_ *CycleState, _ *corev1.Pod, _ []*NodeInfo, scores []int64) {
	defaultNormalizeScore(MaxNodeScore, true, scores)
}

// PreScore of NodeAffinity skips pods without preferred terms.
func (NodeAffinity) PreScore(st *CycleState, pod *corev1.Pod, _ []*NodeInfo) *Status {
	st.preferred = nil
	if a := pod.Spec.Affinity; a != nil && a.NodeAffinity != nil {
		st.preferred = a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution
	}
	if len(st.preferred) == 0 {
		return newStatus(Skip)
	}
	return nil
}

// Score sums the weights of the preferred terms the node matches.
func (NodeAffinity) Score(st *CycleState, _ *corev1.Pod, n *NodeInfo) int64 {
	var sum int64
	for i := range st.preferred {
		if p := &st.preferred[i]; p.Weight != 0 && termMatches(&p.Preference, n.Node) {
			sum += int64(p.Weight)
		}
	}
	return sum
}

func (NodeAffinity) NormalizeScore(_ *CycleState, _ *corev1.Pod, _ []*NodeInfo, scores []int64) {
	defaultNormalizeScore(MaxNodeScore, false, scores)
}

// ImageLocality favours nodes that already hold the pod's images, each image
// weighted by how widely it has spread (plugins/imagelocality).
type ImageLocality struct{}

func (ImageLocality) Name() string { return ImageLocalityName }

const (
	mb                    int64 = 1024 * 1024
	imageMinThreshold           = 23 * mb
	imageMaxContainerSize       = 1000 * mb
)

func (ImageLocality) PreScore(st *CycleState, pod *corev1.Pod, _ []*NodeInfo) *Status {
	st.images, st.imageSpread = st.images[:0], st.imageSpread[:0]
	st.imageCount = len(pod.Spec.InitContainers) + len(pod.Spec.Containers)
	total := float64(len(st.cluster.order))
	add := func(image string) {
		name := normalizedImageName(image)
		if k := st.cluster.imageNodes(name); k > 0 { // on no node: adds nothing anywhere
			st.images = append(st.images, st.cluster.imageSizes(name))
			st.imageSpread = append(st.imageSpread, float64(k)/total)
		}
	}
	for i := range pod.Spec.InitContainers {
		add(pod.Spec.InitContainers[i].Image)
	}
	for i := range pod.Spec.Containers {
		add(pod.Spec.Containers[i].Image)
	}
	return nil
}

// Score is 100*(sum−23MiB)/(maxThreshold−23MiB) with sum clamped to
// [23MiB, 1000MiB × containers] and sum = Σ size × nodesWithImage/allNodes
// over init and regular containers.
func (ImageLocality) Score(st *CycleState, _ *corev1.Pod, n *NodeInfo) int64 {
	var sum int64
	for i, sizes := range st.images {
		if int(n.slot) < len(sizes) && sizes[n.slot] > 0 {
			sum += int64(float64(sizes[n.slot]) * st.imageSpread[i])
		}
	}
	maxThreshold := imageMaxContainerSize * int64(st.imageCount)
	if maxThreshold <= imageMinThreshold {
		return 0
	}
	sum = min(max(sum, imageMinThreshold), maxThreshold)
	return MaxNodeScore * (sum - imageMinThreshold) / (maxThreshold - imageMinThreshold)
}
