package scheduler

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// Non-zero defaults: a container that sets no request for cpu or memory is
// counted as 100m / 200Mi when the scheduler *scores* resources; an explicit
// 0 stays 0 (pkg/scheduler/util/pod_resources.go).
const (
	DefaultMilliCPURequest int64 = 100
	DefaultMemoryRequest   int64 = 200 * 1024 * 1024
)

// Resource is a set of quantities in the scheduler's units: milli-CPU, bytes,
// a pod count, and scalar (extended, hugepages) resources by name.
type Resource struct {
	MilliCPU         int64
	Memory           int64
	EphemeralStorage int64
	AllowedPods      int
	Scalar           map[corev1.ResourceName]int64
}

// isScalar reports whether name is an extended or hugepages resource, which
// Fit checks by name (v1helper.IsScalarResourceName, simplified).
func isScalar(name corev1.ResourceName) bool {
	s := string(name)
	if strings.HasPrefix(s, corev1.ResourceHugePagesPrefix) || strings.HasPrefix(s, "attachable-volumes-") {
		return true
	}
	return strings.Contains(s, "/") && !strings.HasPrefix(s, "kubernetes.io/") && !strings.HasPrefix(s, "requests.")
}

// resourceFromList converts an allocatable or request list.
func resourceFromList(rl corev1.ResourceList) Resource {
	var r Resource
	r.addList(rl, 1)
	return r
}

func (r *Resource) addList(rl corev1.ResourceList, sign int64) {
	for name, q := range rl {
		switch name {
		case corev1.ResourceCPU:
			r.MilliCPU += sign * q.MilliValue()
		case corev1.ResourceMemory:
			r.Memory += sign * q.Value()
		case corev1.ResourceEphemeralStorage:
			r.EphemeralStorage += sign * q.Value()
		case corev1.ResourcePods:
			r.AllowedPods += int(sign * q.Value())
		default:
			if isScalar(name) {
				if r.Scalar == nil {
					r.Scalar = map[corev1.ResourceName]int64{}
				}
				r.Scalar[name] += sign * q.Value()
			}
		}
	}
}

// add adds (sign 1) or subtracts (sign -1) o.
func (r *Resource) add(o *Resource, sign int64) {
	r.MilliCPU += sign * o.MilliCPU
	r.Memory += sign * o.Memory
	r.EphemeralStorage += sign * o.EphemeralStorage
	for name, v := range o.Scalar {
		if r.Scalar == nil {
			r.Scalar = map[corev1.ResourceName]int64{}
		}
		r.Scalar[name] += sign * v
		if r.Scalar[name] == 0 {
			delete(r.Scalar, name)
		}
	}
}

// setMax raises each quantity of r to at least o's.
func (r *Resource) setMax(o *Resource) {
	r.MilliCPU = max(r.MilliCPU, o.MilliCPU)
	r.Memory = max(r.Memory, o.Memory)
	r.EphemeralStorage = max(r.EphemeralStorage, o.EphemeralStorage)
	for name, v := range o.Scalar {
		if r.Scalar == nil {
			r.Scalar = map[corev1.ResourceName]int64{}
		}
		r.Scalar[name] = max(r.Scalar[name], v)
	}
}

func (r *Resource) clone() Resource {
	c := *r
	c.Scalar = nil
	for name, v := range r.Scalar {
		if c.Scalar == nil {
			c.Scalar = make(map[corev1.ResourceName]int64, len(r.Scalar))
		}
		c.Scalar[name] = v
	}
	return c
}

func (r *Resource) isZero() bool {
	return r.MilliCPU == 0 && r.Memory == 0 && r.EphemeralStorage == 0 && len(r.Scalar) == 0
}

// containerRequest returns one container's requests; with nonZero, a missing
// cpu or memory request becomes the scheduler's default.
func containerRequest(c *corev1.Container, nonZero bool) Resource {
	r := resourceFromList(c.Resources.Requests)
	if nonZero {
		if _, ok := c.Resources.Requests[corev1.ResourceCPU]; !ok {
			r.MilliCPU = DefaultMilliCPURequest
		}
		if _, ok := c.Resources.Requests[corev1.ResourceMemory]; !ok {
			r.Memory = DefaultMemoryRequest
		}
	}
	return r
}

// PodRequests returns what the pod asks of a node: max(Σ regular containers,
// each init container) + overhead, where a sidecar (an init container with
// restartPolicy Always) keeps running and so adds to both the later init
// containers and the regular ones (k8s.io/component-helpers/resource
// PodRequests). nonZero applies the scoring defaults per container.
func PodRequests(pod *corev1.Pod, nonZero bool) Resource {
	var reqs Resource
	for i := range pod.Spec.Containers {
		c := containerRequest(&pod.Spec.Containers[i], nonZero)
		reqs.add(&c, 1)
	}
	var sidecars, initMax Resource
	for i := range pod.Spec.InitContainers {
		ic := &pod.Spec.InitContainers[i]
		c := containerRequest(ic, nonZero)
		if ic.RestartPolicy != nil && *ic.RestartPolicy == corev1.ContainerRestartPolicyAlways {
			reqs.add(&c, 1)
			sidecars.add(&c, 1)
			c = sidecars.clone()
		} else {
			c.add(&sidecars, 1)
		}
		initMax.setMax(&c)
	}
	reqs.setMax(&initMax)
	if pod.Spec.Overhead != nil {
		reqs.addList(pod.Spec.Overhead, 1)
	}
	return reqs
}
