package kubelet

import (
	"fmt"
	"math"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/manifest"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// Cgroup is what the runtime writes for one container under cgroup v2.
type Cgroup struct {
	Path      string
	CPUWeight int64
	CPUMax    string
	MemoryMax string
}

// QoSClass is the pod's QoS class: the one the API server stored, else
// computed (pkg/apis/core/helper/qos GetPodQOS).
func QoSClass(p *corev1.Pod) corev1.PodQOSClass {
	if p.Status.QOSClass != "" {
		return p.Status.QOSClass
	}
	return manifest.PodQOS(p)
}

// MilliCPUToShares mirrors kubelet cm/helpers_linux.go: shares =
// milliCPU*1024/1000, at least 2.
func MilliCPUToShares(milli int64) int64 {
	if milli == 0 {
		return 2
	}
	s := milli * 1024 / 1000
	if s < 2 {
		return 2
	}
	return s
}

// SharesToWeight is the runtime's cgroup v1 shares → v2 cpu.weight
// conversion. The modelled runc (k8sversion.RuncVersion, ≥ 1.3.2: runc PR
// #4785, opencontainers/cgroups ConvertCPUSharesToCgroupV2Value) uses the
// quadratic fit that maps the default 1024 shares to the default weight
// 100: ⌈10^((L² + 125·L)/612 − 7/34)⌉ with L = log2(shares), 1 at 2 shares
// and below, 10000 at 262144 and above. (Older runc used the linear
// 1 + (shares−2)·9999/262142, which gave 1 CPU only weight 39.)
func SharesToWeight(shares int64) int64 {
	switch {
	case shares <= 2:
		return 1
	case shares >= 262144:
		return 10000
	}
	l := math.Log2(float64(shares))
	return int64(math.Ceil(math.Pow(10, (l*l+125*l)/612-7.0/34)))
}

// cfsPeriod is the CFS period the kubelet uses (100 ms).
const cfsPeriod = 100000

// ContainerCgroup derives the container's cgroup from its resources.
func ContainerCgroup(p *corev1.Pod, c *corev1.Container, containerID string) Cgroup {
	qos := QoSClass(p)
	uid := strings.ReplaceAll(string(p.UID), "-", "_")
	path := "/kubepods.slice/"
	switch qos {
	case corev1.PodQOSGuaranteed:
		path += "kubepods-pod" + uid + ".slice"
	default:
		q := strings.ToLower(string(qos))
		path += "kubepods-" + q + ".slice/kubepods-" + q + "-pod" + uid + ".slice"
	}
	path += "/cri-containerd-" + containerID + ".scope"
	cpuReq := c.Resources.Requests[corev1.ResourceCPU]
	g := Cgroup{Path: path, CPUWeight: SharesToWeight(MilliCPUToShares(cpuReq.MilliValue())), CPUMax: fmt.Sprintf("max %d", cfsPeriod), MemoryMax: "max"}
	if lim, ok := c.Resources.Limits[corev1.ResourceCPU]; ok {
		// MilliCPUToQuota: milliCPU * period / 1000, at least 1000 µs.
		q := lim.MilliValue() * cfsPeriod / 1000
		if q < 1000 {
			q = 1000
		}
		g.CPUMax = fmt.Sprintf("%d %d", q, cfsPeriod)
	}
	if lim, ok := c.Resources.Limits[corev1.ResourceMemory]; ok {
		g.MemoryMax = fmt.Sprint(lim.Value())
	}
	return g
}

// HumanBytes prints a byte count like the kubelet's logs (binary units).
func HumanBytes(n int64) string {
	return resource.NewQuantity(n, resource.BinarySI).String()
}
