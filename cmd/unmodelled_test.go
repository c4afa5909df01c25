package cmd

import (
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
)

// A paused Deployment is refused with its file and line before any
// simulation, by every command that would otherwise roll it out; stdin
// carries the manifest, so the position is "-".
func TestPausedDeploymentIsRefused(t *testing.T) {
	const manifest = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  paused: true\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.27\n"
	for _, args := range [][]string{
		{"trace", "apply", "-f", "-"},
		{"trace", "rollout", "-f", "-", "--image", "web=nginx:1.28"},
	} {
		out, errOut, code := run(t, manifest, args...)
		want := "-:1: Deployment web: spec.paused: true is not modelled by the simulator"
		if code != exitcode.Input || !strings.Contains(errOut, want) || out != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %d bytes; want exit %d and %q", args, code, errOut, len(out), exitcode.Input, want)
		}
	}
	// unpaused, the same manifest traces
	if _, errOut, code := run(t, strings.Replace(manifest, "paused: true", "paused: false", 1), "trace", "apply", "-f", "-", "--summary"); code != 0 {
		t.Fatalf("paused: false: exit %d: %s", code, errOut)
	}
}
