package cmd

import "testing"

// The HTML pages are pinned like every other format; the browser test in
// internal/rendercheck opens each of them in headless Chromium.
func TestGoldenHTML(t *testing.T) {
	inRoot(t)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"trace-apply/app.en.html", []string{"--format", "html", "trace", "apply", "examples/app.yaml"}},
		{"trace-apply/app.ru.html", []string{"--lang", "ru", "-o", "html", "trace", "apply", "examples/app.yaml"}},
		{"trace-apply/app.verbose.en.html", []string{"-v", "--format", "html", "trace", "apply", "examples/app.yaml"}},
		{"trace-apply/webhook-ignore.en.html", []string{"--format", "html", "trace", "apply", "--webhook", "validating", "--failure-policy", "Ignore", "examples/app.yaml"}},
		{"trace-rollout/default.en.html", []string{"--format", "html", "trace", "rollout", "-f", "examples/app.yaml", "--image", "web=nginx:1.28"}},
		{"trace-rollout/statefulset.en.html", []string{"--format", "html", "trace", "rollout", "-f", "examples/statefulset.yaml", "--statefulset", "web",
			"--image", "nginx=registry.k8s.io/nginx-slim:0.28", "--partition", "1"}},
		{"trace-autoscale/default.en.html", []string{"--format", "html", "trace", "autoscale", "-f", "examples/app.yaml"}},
		{"dnat/default.html", []string{"--format", "html", "dnat"}},
		{"dnat/default.ru.html", []string{"--lang", "ru", "--format", "html", "dnat"}},
		{"quorum/nodes3-isolate-leader.html", []string{"--format", "html", "quorum", "--nodes", "3", "--isolate", "leader"}},
		{"grpc-skew/default.html", []string{"--format", "html", "grpc-skew"}},
	} {
		t.Run(tc.name, func(t *testing.T) { runGolden(t, tc.name, tc.args...) })
	}
}
