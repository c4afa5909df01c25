package kubelet

import (
	"fmt"
	"strings"
	"testing"

	_ "github.com/k8sexplain/k8sexplain/internal/golden"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

func TestCPUWeight(t *testing.T) {
	// kubelet MilliCPUToShares, then runc's (≥ 1.3.2) shares → cpu.weight:
	// 1 CPU gets the default weight 100 (the linear formula gave 39).
	for _, tc := range []struct{ milli, shares, weight int64 }{
		{0, 2, 1}, {1, 2, 1}, {100, 102, 17}, {250, 256, 35}, {1000, 1024, 100}, {4000, 4096, 303},
	} {
		s := MilliCPUToShares(tc.milli)
		if s != tc.shares || SharesToWeight(s) != tc.weight {
			t.Errorf("%dm: shares %d weight %d, want %d %d", tc.milli, s, SharesToWeight(s), tc.shares, tc.weight)
		}
	}
}

func res(cpu, mem string) corev1.ResourceList {
	l := corev1.ResourceList{}
	if cpu != "" {
		l[corev1.ResourceCPU] = resource.MustParse(cpu)
	}
	if mem != "" {
		l[corev1.ResourceMemory] = resource.MustParse(mem)
	}
	return l
}

func TestQoSAndCgroup(t *testing.T) {
	pod := func(req, lim corev1.ResourceList) *corev1.Pod {
		p := &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{Requests: req, Limits: lim}}}}}
		p.UID = "1234-5678"
		return p
	}
	g := pod(res("500m", "256Mi"), res("500m", "256Mi"))
	b := pod(res("250m", "128Mi"), res("500m", "256Mi"))
	be := pod(nil, nil)
	if QoSClass(g) != corev1.PodQOSGuaranteed || QoSClass(b) != corev1.PodQOSBurstable || QoSClass(be) != corev1.PodQOSBestEffort {
		t.Fatalf("QoS: %s %s %s", QoSClass(g), QoSClass(b), QoSClass(be))
	}
	cg := ContainerCgroup(b, &b.Spec.Containers[0], "abc")
	if cg.CPUMax != "50000 100000" || cg.MemoryMax != "268435456" || cg.CPUWeight != 35 {
		t.Fatalf("burstable cgroup: %+v", cg)
	}
	if !strings.Contains(cg.Path, "kubepods-burstable.slice/kubepods-burstable-pod1234_5678.slice/cri-containerd-abc.scope") {
		t.Fatalf("path %s", cg.Path)
	}
	if cg := ContainerCgroup(g, &g.Spec.Containers[0], "x"); !strings.Contains(cg.Path, "/kubepods.slice/kubepods-pod1234_5678.slice/") {
		t.Fatalf("guaranteed path %s", cg.Path)
	}
	if cg := ContainerCgroup(be, &be.Spec.Containers[0], "x"); cg.CPUMax != "max 100000" || cg.MemoryMax != "max" || cg.CPUWeight != 1 {
		t.Fatalf("best-effort cgroup %+v", cg)
	}
}

func TestImageSize(t *testing.T) {
	if ImageSize("nginx:1.27") != 72<<20 || ImageSize("docker.io/library/nginx@sha256:abc") != 72<<20 || ImageSize("example.com/x:1") != 50<<20 {
		t.Fatal("image sizes")
	}
}

func TestCrashBackOff(t *testing.T) {
	// First restart at once, then 10 s doubling, capped at 300 s.
	want := []string{"0s", "10s", "20s", "40s", "1m20s", "2m40s", "5m0s", "5m0s"}
	for i, w := range want {
		if got := CrashBackOff(i).String(); got != w {
			t.Errorf("restart %d: back-off %s, want %s", i+1, got, w)
		}
	}
	if imagePullBackOff(0).String() != "10s" || imagePullBackOff(10).String() != "5m0s" {
		t.Error("image pull back-off")
	}
}

// The cgroup explanation quotes the formula that made the printed weight:
// its worked examples (1 CPU → 100, 250m → 35) are SharesToWeight's, in
// both languages, and the old linear formula's results are named as the
// old ones.
func TestCgroupExplanationMatchesWeight(t *testing.T) {
	one, quarter := SharesToWeight(MilliCPUToShares(1000)), SharesToWeight(MilliCPUToShares(250))
	linear := func(m int64) int64 { return 1 + (MilliCPUToShares(m)-2)*9999/262142 }
	for _, lang := range []string{"en", "ru"} {
		ex := trace.Lookup(lang, "runtime.cgroup").Explain
		for _, want := range []string{
			fmt.Sprintf("%d", one), "250m|0,25 CPU", fmt.Sprintf("%d", quarter),
			fmt.Sprintf("%d и %d|%d and %d", linear(1000), linear(250), linear(1000), linear(250)),
		} {
			ok := false
			for _, alt := range strings.Split(want, "|") {
				ok = ok || strings.Contains(ex, alt)
			}
			if !ok {
				t.Errorf("%s: the explanation lacks %q (1 CPU → %d, 250m → %d):\n%s", lang, want, one, quarter, ex)
			}
		}
	}
}
