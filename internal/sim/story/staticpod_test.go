package story

import (
	"github.com/k8sexplain/k8sexplain/internal/trace"
	"os"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/golden"
	"github.com/k8sexplain/k8sexplain/internal/sim"
	"github.com/k8sexplain/k8sexplain/internal/sim/simtest"
	corev1 "k8s.io/api/core/v1"
)

// A static pod runs without the scheduler; its mirror pod carries the
// mirror annotation, the file source and the Node as controlling owner,
// and no service account token (the ServiceAccount plugin leaves mirror
// pods alone). kubectl delete of the mirror leaves the container running
// (no kill, no restart, same IP) and the kubelet creates a new mirror with
// a new UID, whose status it writes back.
func TestStaticPodMirror(t *testing.T) {
	c := New(settledApp(t, sim.Config{Seed: 1, Workers: 3}))
	src, err := os.ReadFile(golden.Root() + "/examples/static-pod.yaml")
	if err != nil {
		t.Fatal(err)
	}
	pod := simtest.Parse(t, string(src))[0].Obj.(*corev1.Pod)
	name, err := c.StaticPod("node-b", pod, "static-pod.yaml")
	if err != nil || name != "node-agent-node-b" {
		t.Fatalf("StaticPod: %q, %v", name, err)
	}
	c.RunFor(20 * time.Second)
	m := c.Mirror("kube-system", name)
	if m == nil {
		t.Fatal("no mirror pod")
	}
	if m.Annotations[corev1.MirrorPodAnnotationKey] == "" || m.Annotations["kubernetes.io/config.source"] != "file" ||
		m.Annotations[corev1.MirrorPodAnnotationKey] != m.Annotations["kubernetes.io/config.hash"] {
		t.Fatalf("mirror annotations: %v", m.Annotations)
	}
	if len(m.OwnerReferences) != 1 || m.OwnerReferences[0].Kind != "Node" || m.OwnerReferences[0].Name != "node-b" ||
		m.OwnerReferences[0].Controller == nil || !*m.OwnerReferences[0].Controller {
		t.Fatalf("mirror ownerReferences: %v", m.OwnerReferences)
	}
	if m.Spec.ServiceAccountName != "" || len(m.Spec.Volumes) != 0 {
		t.Fatalf("ServiceAccount admission changed the mirror: %q, %d volumes", m.Spec.ServiceAccountName, len(m.Spec.Volumes))
	}
	if m.Status.Phase != corev1.PodRunning || m.Status.PodIP == "" {
		t.Fatalf("mirror status: %s %q", m.Status.Phase, m.Status.PodIP)
	}
	ip, uid := m.Status.PodIP, m.UID
	c.DeleteMirrorPod(m)
	c.RunFor(time.Minute)
	tr := c.Story("t", "static-pod")
	n := c.Mirror("kube-system", name)
	if n == nil || n.UID == uid || n.DeletionTimestamp != nil {
		t.Fatalf("want a new mirror with a new UID, got %v", n)
	}
	if n.Status.Phase != corev1.PodRunning || n.Status.PodIP != ip || n.Status.ContainerStatuses[0].RestartCount != 0 {
		t.Fatalf("new mirror status: %s %q restarts %d; want Running on %s, no restart", n.Status.Phase, n.Status.PodIP, n.Status.ContainerStatuses[0].RestartCount, ip)
	}
	for _, kind := range []trace.Kind{"kubelet.kill", "runtime.sigterm", "scheduler.bind", "kubelet.admit"} {
		if s := simtest.StepsOf(tr, kind); len(s) != 0 {
			t.Errorf("a static pod and its mirror: unexpected %s step %v", kind, s[0])
		}
	}
	if len(simtest.StepsOf(tr, "kubelet.mirror")) != 2 || len(simtest.StepsOf(tr, "kubelet.mirror.replace")) != 1 {
		t.Errorf("want two mirror creates and one replacement")
	}
}
