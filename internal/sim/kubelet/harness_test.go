package kubelet

import (
	"strings"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
)

// harness is one node's kubelet on its own API server: pods are created
// bound to the node (no scheduler), and the kubelet's client can hold its
// requests in an outbox, so a test reads what the kubelet asked for, in
// order, before anything is delivered.
type harness struct {
	t     *testing.T
	eng   *engine.Engine
	rec   *trace.Recorder
	api   *apiserver.Server
	admin *apiserver.Client
	k     *Kubelet
	ready int // OnReady calls
}

func newHarness(t *testing.T, images ...string) *harness {
	t.Helper()
	eng := engine.New(1)
	rec := trace.NewRecorder(eng.Now, 0)
	api, err := apiserver.New(eng, rec, "10.96.0.0/12")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"default", "kube-node-lease"} {
		ns := &corev1.Namespace{}
		ns.Name = name
		ns.Status.Phase = corev1.NamespaceActive
		api.Seed(ns)
	}
	node := &corev1.Node{}
	node.Name = "node-a"
	node.Spec.PodCIDR = "10.244.1.0/24"
	node.Status.Addresses = []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "10.0.0.11"}, {Type: corev1.NodeHostName, Address: "node-a"}}
	node.Status.Images = []corev1.ContainerImage{{Names: append([]string{PauseImage}, images...), SizeBytes: 1 << 20}}
	node.Status.Allocatable = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2"), corev1.ResourceMemory: resource.MustParse("4Gi"), corev1.ResourcePods: resource.MustParse("110")}
	api.Seed(node)
	c := api.NewClient("kubelet/node-a", apiserver.Identity{User: "system:node:node-a", Groups: []string{"system:nodes", "system:authenticated"}}, trace.PhaseKubelet)
	k, err := New(c, eng, rec, node)
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, eng: eng, rec: rec, api: api, k: k,
		admin: api.NewClient("kubectl", apiserver.Identity{User: "kubernetes-admin", Groups: []string{"kubeadm:cluster-admins", "system:authenticated"}}, trace.PhaseKubectl)}
	k.OnReady = func() { h.ready++ }
	k.Start()
	h.settle()
	return h
}

// settle runs until no foreground work is left.
func (h *harness) settle() { h.eng.Run(h.eng.Now() + time.Hour) }

// create stores pod bound to the harness's node.
func (h *harness) create(pod *corev1.Pod) {
	h.t.Helper()
	pod.Spec.NodeName = "node-a"
	h.admin.Create(pod, func(_ runtime.Object, err *apiserver.Status) {
		if err != nil {
			h.t.Errorf("create pod %s: %s", pod.Name, err.Message)
		}
	})
}

// pod is the stored pod.
func (h *harness) pod(name string) *corev1.Pod {
	obj := h.api.Get(apiserver.ResourceOf(&corev1.Pod{}), "default", name)
	if obj == nil {
		return nil
	}
	return obj.(*corev1.Pod)
}

// asked lists the held requests as "VERB path" lines, an event's reason
// and message after it, a status patch's phase.
func asked(ob *apiserver.Outbox) []string {
	var out []string
	for _, r := range ob.Requests() {
		line := r.Verb + " " + r.Path
		if ev, ok := r.Object.(*corev1.Event); ok {
			line = "event " + ev.Reason + ": " + ev.Message
		}
		out = append(out, line)
	}
	return out
}

func newPod(name string, containers ...corev1.Container) *corev1.Pod {
	p := &corev1.Pod{}
	p.Name, p.Namespace = name, "default"
	p.Spec.Containers = containers
	return p
}

func ctr(name, image string) corev1.Container {
	return corev1.Container{Name: name, Image: image, ImagePullPolicy: corev1.PullIfNotPresent}
}

func wantLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("%s:\n got  %s\n want %s", what, strings.Join(got, "\n      "), strings.Join(want, "\n      "))
	}
}

// hasStep reports whether the recorder kept a step of kind.
func (h *harness) hasStep(kind trace.Kind) bool {
	for _, s := range h.rec.Steps {
		if s.Kind == kind {
			return true
		}
	}
	return false
}

// steps counts the kept steps of kind.
func (h *harness) steps(kind trace.Kind) int {
	n := 0
	for _, s := range h.rec.Steps {
		if s.Kind == kind {
			n++
		}
	}
	return n
}
