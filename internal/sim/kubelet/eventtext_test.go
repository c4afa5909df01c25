package kubelet

import (
	"regexp"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	corev1 "k8s.io/api/core/v1"
)

// kubeletEventTexts are the v1.37 formats of every reason the kubelet
// records, checked against upstream source (kubernetes v1.37):
// pkg/kubelet/events/event.go (the reasons), pkg/kubelet/images/
// image_manager.go EnsureImageExists (Pulling, Pulled, BackOff pulling,
// Failed to pull), pkg/kubelet/kuberuntime/kuberuntime_container.go
// startContainer ("Error: %v", Container created/started since PR #134043)
// and killContainer ("Stopping container %s"), kuberuntime_manager.go
// computePodActions ("Container %s failed %s probe, will be restarted")
// and doBackOff ("Back-off restarting failed container %s in pod %s",
// format.Pod = name_namespace(uid)), pkg/kubelet/prober/prober.go
// ("%s probe failed: %s", the probe type capitalised).
var kubeletEventTexts = map[string]*regexp.Regexp{
	"Pulling": regexp.MustCompile(`^Pulling image "[^"]+"$`),
	"Pulled": regexp.MustCompile(`^(Successfully pulled image "[^"]+" in \S+ \(\S+ including waiting\)\. Image size: \d+ bytes\.` +
		`|Container image "[^"]+" already present on machine and can be accessed by the pod)$`),
	"Created":   regexp.MustCompile(`^Container created$`),
	"Started":   regexp.MustCompile(`^Container started$`),
	"Killing":   regexp.MustCompile(`^(Stopping container \S+|Container \S+ failed (liveness|startup) probe, will be restarted)$`),
	"BackOff":   regexp.MustCompile(`^(Back-off restarting failed container \S+ in pod [^_\s]+_[^(\s]+\([0-9a-f-]+\)|Back-off pulling image "[^"]+")$`),
	"Unhealthy": regexp.MustCompile(`^(Liveness|Readiness|Startup) probe failed: .+$`),
	"Failed":    regexp.MustCompile(`^(Failed to pull image "[^"]+": .+|Error: (ErrImagePull|ImagePullBackOff))$`),
}

// Every event the kubelet records, over a pull, a failed pull, a liveness
// crash, a panic and a deletion, has a v1.37 reason and text.
func TestKubeletEventTextsAreV137(t *testing.T) {
	seen := map[string]bool{}
	check := func(h *harness) {
		for _, s := range h.rec.Steps {
			if s.Kind != "event" && s.Kind != "event.patch" {
				continue
			}
			reason, msg := s.Get("reason"), s.Get("message")
			re, ok := kubeletEventTexts[reason]
			if !ok {
				t.Errorf("reason %q (%q) is not one the v1.37 kubelet records", reason, msg)
				continue
			}
			if !re.MatchString(msg) {
				t.Errorf("%s: %q does not match v1.37's %s", reason, msg, re)
			}
			seen[reason] = true
		}
	}
	h := running(t, probed(ctr("web", "nginx:1.27")))
	if err := h.k.Crash("web", CrashLiveness, 1); err != nil {
		t.Fatal(err)
	}
	h.settle()
	if err := h.k.Crash("web", CrashPanic, 1); err != nil {
		t.Fatal(err)
	}
	h.settle()
	h.admin.Delete(apiserver.ResourceOf(&corev1.Pod{}), "default", "web", nil)
	h.settle()
	check(h)
	h = newHarness(t)
	h.k.Missing = map[string]bool{"nginx:9": true}
	h.create(newPod("web", ctr("web", "nginx:9")))
	h.eng.RunUntil(time.Minute)
	h.create(newPod("api", ctr("api", "nginx:1.27")))
	h.eng.RunUntil(2 * time.Minute)
	check(h)
	for r := range kubeletEventTexts {
		if !seen[r] {
			t.Errorf("no %s event in these scenarios", r)
		}
	}
}
