package sim

import (
	"strings"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubelet"
	"github.com/k8sexplain/k8sexplain/internal/sim/simtest"
	"github.com/k8sexplain/k8sexplain/internal/trace"
)

func applyTrace(t *testing.T, workers int, objs []manifest.Object) *trace.Trace {
	t.Helper()
	c, err := NewCluster(Config{Seed: 1, Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	c.Apply(objs, []string{"t.yaml"})
	return c.Run("t")
}

// An image counts as present only once its pull finished: no container of
// a node starts before that node's first pull of its image ends, and more
// replicas on the same nodes never get Ready sooner.
func TestImagePresentOnlyAfterPull(t *testing.T) {
	small := applyTrace(t, 3, deployment(3))
	big := applyTrace(t, 3, deployment(100))
	if !small.Summary.AllReady || !big.Summary.AllReady {
		t.Fatalf("not all ready: %d/%d, %d/%d", small.Summary.ReadyPods, small.Summary.Pods, big.Summary.ReadyPods, big.Summary.Pods)
	}
	if big.Summary.ReadyAt < small.Summary.ReadyAt {
		t.Fatalf("100 replicas Ready at %v, sooner than 3 replicas at %v", big.Summary.ReadyAt, small.Summary.ReadyAt)
	}
	pulled := map[string]time.Duration{} // node → when its first pull of nginx ended
	for _, s := range big.Steps {
		node := strings.TrimPrefix(s.Actor, "kubelet/")
		switch s.Kind {
		case "cri.PullImage":
			if _, ok := pulled[node]; !ok {
				pulled[node] = s.At
			}
		case "cri.ImagePresent", "cri.CreateContainer", "cri.PullImageResolved":
			at, ok := pulled[node]
			if !ok || s.At < at {
				t.Fatalf("%s on %s at %v before the node's pull of the image finished (%v, %v)", s.Kind, node, s.At, at, ok)
			}
		}
	}
	// Pods that asked while the first pull ran queued behind it: their
	// Pulled event says so ("including waiting" longer than the pull).
	waited := 0
	for _, s := range simtest.StepsOf(big, "event") {
		if s.Get("reason") == "Pulled" && strings.HasPrefix(s.Get("message"), "Successfully pulled") && !strings.Contains(s.Get("message"), "in 1.64s (1.64s") {
			waited++
		}
	}
	if waited == 0 {
		t.Fatal("no Pulled event shows time spent waiting for the serial puller")
	}
}

func TestPulledMessage(t *testing.T) {
	got := kubelet.PulledMessage("nginx:1.27", 1234567*time.Microsecond, 3456789*time.Microsecond, 75497472)
	want := `Successfully pulled image "nginx:1.27" in 1.234s (3.456s including waiting). Image size: 75497472 bytes.`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

// The kubelet never pulls the sandbox image: containerd does it inside
// RunPodSandbox when the node lacks it.
func TestPauseImagePulledByRuntime(t *testing.T) {
	nodes := DefaultNodes(1, false)
	nodes[0].Status.Images = nil
	c, err := NewCluster(Config{Seed: 1, Nodes: nodes})
	if err != nil {
		t.Fatal(err)
	}
	c.Apply(deployment(1), []string{"t.yaml"})
	tr := c.Run("t")
	for _, s := range tr.Steps {
		if (s.Kind == "cri.PullImage" || s.Kind == "cri.PullImageResolved") && s.Get("image") == kubelet.PauseImage {
			t.Fatalf("kubelet PullImage for the pause image: %v", s.Fields)
		}
		if s.Kind == "event" && strings.Contains(s.Get("message"), "pause") {
			t.Fatalf("kubelet event for the pause image: %s", s.Get("message"))
		}
	}
	if len(simtest.StepsOf(tr, "runtime.pullpause")) != 1 {
		t.Fatal("want one runtime pull of the pause image inside RunPodSandbox")
	}
	if !tr.Summary.AllReady {
		t.Fatal("pod not Ready")
	}
}

func TestDockerReference(t *testing.T) {
	for in, want := range map[string]string{
		"nginx:1.28": "docker.io/library/nginx:1.28", "example/api:2.0": "docker.io/example/api:2.0",
		"registry.k8s.io/pause:3.10": "registry.k8s.io/pause:3.10", "localhost/x:1": "localhost/x:1",
	} {
		if got := kubelet.DockerReference(in); got != want {
			t.Errorf("%s: got %s, want %s", in, got, want)
		}
	}
}

// Pod status writes of the kubelet and the scheduler are strategic-merge
// PATCHes of pods/status; the scheduler's events go to events.k8s.io/v1.
func TestStatusPatchesAndSchedulerEvents(t *testing.T) {
	tr := applyTrace(t, 1, simtest.Parse(t, `apiVersion: v1
kind: Pod
metadata: {name: big}
spec:
  containers:
  - {name: app, image: nginx:1.27, resources: {requests: {cpu: "64"}}}
---
apiVersion: v1
kind: Pod
metadata: {name: small}
spec:
  containers:
  - {name: app, image: nginx:1.27}
`))
	seen := map[string]bool{}
	for _, s := range simtest.StepsOf(tr, "apiserver.request") {
		user, verb, path := s.Get("user"), s.Get("verb"), s.Get("path")
		if strings.HasSuffix(path, "/status") && strings.Contains(path, "/pods/") {
			if verb != "PATCH" {
				t.Fatalf("%s writes pod status with %s", user, verb)
			}
			seen[user] = true
		}
		if user == "system:kube-scheduler" && strings.HasSuffix(path, "/events") && !strings.HasPrefix(path, "/apis/events.k8s.io/v1/") {
			t.Fatalf("scheduler event through %s", path)
		}
	}
	if !seen["system:node:node-a"] || !seen["system:kube-scheduler"] {
		t.Fatalf("want status PATCHes from the kubelet and the scheduler, saw %v", seen)
	}
	if len(simtest.StepsOf(tr, "apiserver.statuspatch")) == 0 {
		t.Fatal("no apiserver.statuspatch step")
	}
}
