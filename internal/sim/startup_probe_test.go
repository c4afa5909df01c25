package sim

import (
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/simtest"
	corev1 "k8s.io/api/core/v1"
)

// A container with a startupProbe and no readinessProbe is not started,
// and so not Ready, until the startup probe passes (prober_manager.go
// UpdatePodStatus); the Running write says started=false, and the pod
// turns Ready only after initialDelaySeconds, with a kubelet.startup step.
func TestStartupProbeHoldsReadiness(t *testing.T) {
	const manifest = `apiVersion: v1
kind: Pod
metadata: {name: slow}
spec:
  containers:
  - name: app
    image: nginx:1.27
    startupProbe:
      httpGet: {path: /started, port: 80}
      initialDelaySeconds: 20
      periodSeconds: 5
`
	c, err := NewCluster(Config{Seed: 1, Workers: 1, LogWrites: true})
	if err != nil {
		t.Fatal(err)
	}
	c.Apply(simtest.Parse(t, manifest), []string{"slow.yaml"})
	tr := c.Run("t")
	var running, ready time.Duration = -1, -1
	for _, w := range c.Writes() {
		p, ok := w.Object.(*corev1.Pod)
		if !ok || w.Subresource != "status" {
			continue
		}
		if p.Status.Phase == corev1.PodRunning && running < 0 {
			running = w.At
			cs := p.Status.ContainerStatuses[0]
			if cs.Started == nil || *cs.Started || cs.Ready {
				t.Fatalf("the Running write shows started=%v ready=%v, want started=false ready=false", cs.Started, cs.Ready)
			}
		}
		for _, cond := range p.Status.Conditions {
			if cond.Type == corev1.PodReady && cond.Status == corev1.ConditionTrue && ready < 0 {
				ready = w.At
				if cs := p.Status.ContainerStatuses[0]; cs.Started == nil || !*cs.Started {
					t.Fatalf("Ready while the container is not started")
				}
			}
		}
	}
	if running < 0 || ready < 0 {
		t.Fatalf("running at %s, ready at %s: want both", running, ready)
	}
	if d := ready - running; d < 20*time.Second || d > 21*time.Second {
		t.Fatalf("Ready %s after Running, want the startup probe's 20 s", d)
	}
	if len(simtest.StepsOf(tr, "kubelet.startup")) != 1 {
		t.Fatalf("want one kubelet.startup step")
	}
}
