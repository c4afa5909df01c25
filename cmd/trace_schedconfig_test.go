package cmd

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// --scheduler-config with the bin-packing example: the replicas that the
// default profile spreads over node-a, node-b and node-c all land on one
// node, and the trace names the profile.
func TestTraceApplySchedulerConfigGolden(t *testing.T) {
	inRoot(t)
	for _, lang := range []string{"en", "ru"} {
		out := runGolden(t, "trace-apply/scheduler-mostallocated."+lang+".txt",
			"--lang", lang, "trace", "apply", "--scheduler-config", "examples/scheduler-mostallocated.yaml", "examples/app.yaml")
		if lang != "en" {
			continue
		}
		if !strings.Contains(out, "kube-scheduler runs profile default-scheduler from examples/scheduler-mostallocated.yaml: NodeResourcesFit MostAllocated") {
			t.Error("the trace does not name the profile")
		}
		// The Score explanation lists the weights of the profile in use.
		if !strings.Contains(unwrapExplanations(out), "with the weights of the profile in use: TaintToleration ×3, NodeAffinity ×2, NodeResourcesFit ×5, InterPodAffinity ×2, NodeResourcesBalancedAllocation ×1, ImageLocality ×1 (") {
			t.Errorf("the Score explanation does not list the profile's weights:\n%s", out)
		}
		nodes := map[string]bool{}
		for _, m := range regexp.MustCompile(`bind web-\S+ → (node-\w+)`).FindAllStringSubmatch(out, -1) {
			nodes[m[1]] = true
		}
		if len(nodes) != 1 {
			t.Errorf("MostAllocated placed the replicas on %v, want one node", nodes)
		}
	}
	// The default profile spreads them.
	out, _, _ := run(t, "", "trace", "apply", "examples/app.yaml")
	nodes := map[string]bool{}
	for _, m := range regexp.MustCompile(`bind web-\S+ → (node-\w+)`).FindAllStringSubmatch(out, -1) {
		nodes[m[1]] = true
	}
	if len(nodes) != 3 || strings.Contains(out, "kube-scheduler runs profile") {
		t.Errorf("default profile: replicas on %v", nodes)
	}
	if !strings.Contains(unwrapExplanations(out), "with the weights of the profile in use: TaintToleration ×3, NodeAffinity ×2, NodeResourcesFit ×1, PodTopologySpread ×2, InterPodAffinity ×2, NodeResourcesBalancedAllocation ×1, ImageLocality ×1 (") {
		t.Errorf("default profile: the Score explanation does not list its weights:\n%s", out)
	}
}

// unwrapExplanations joins the lines a text trace wraps an explanation
// onto ("│ " under the step).
func unwrapExplanations(out string) string {
	return regexp.MustCompile(`\n\s*│ `).ReplaceAllString(out, " ")
}

// A bad --scheduler-config is one line at file:line and exit 1, for apply
// and for the story traces that share the flag.
func TestSchedulerConfigErrors(t *testing.T) {
	inRoot(t)
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	head := "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
	strategy := write("strategy.yaml", head+"  - pluginConfig:\n      - name: NodeResourcesFit\n        args:\n          scoringStrategy:\n            type: Packed\n")
	plugin := write("plugin.yaml", head+"  - plugins:\n      score:\n        enabled:\n          - name: NodeResourcesLeastAllocated\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"trace", "apply", "--scheduler-config", strategy}, strategy + `:8: profiles[0].pluginConfig[0].args.scoringStrategy.type: Unsupported value: "Packed"`},
		{[]string{"trace", "apply", "--scheduler-config", plugin}, plugin + `:7: profiles[0].plugins.score.enabled[0]: plugin "NodeResourcesLeastAllocated" does not exist`},
		{[]string{"trace", "apply", "--scheduler-config", filepath.Join(dir, "none.yaml")}, "--scheduler-config " + filepath.Join(dir, "none.yaml") + ": no such file or directory"},
		{[]string{"trace", "apply", "--scheduler-config", "examples/app.yaml"}, `examples/app.yaml:4: no kind "Deployment" is registered for version "apps/v1"`},
		{[]string{"trace", "rollout", "--image", "web=nginx:1.28", "--scheduler-config", strategy}, strategy + ":8: "},
	} {
		_, errOut, code := run(t, "", tc.args...)
		if code != 1 || !strings.Contains(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 1 and one line containing %q", tc.args, code, errOut, tc.want)
		}
	}
}

func TestSchedulerConfigCompletesYAML(t *testing.T) {
	for _, args := range [][]string{{"trace", "apply", "--scheduler-config", ""}, {"trace", "crash", "--scheduler-config", ""}} {
		out, _, code := run(t, "", append([]string{"__complete"}, args...)...)
		if code != 0 || !strings.Contains(out, "yaml\nyml\njson\n:8") {
			t.Errorf("complete %v: exit %d, got %q", args, code, out)
		}
	}
}

// A profile named other than default-scheduler leaves the pods that name
// default-scheduler Pending, and the trace says why.
func TestSchedulerConfigOtherSchedulerName(t *testing.T) {
	inRoot(t)
	out, errOut, code := run(t, "", "trace", "apply", "--scheduler-config", "internal/sim/scheduler/schedconfig/testdata/rtcr.yaml", "examples/app.yaml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Count(out, "names scheduler default-scheduler (spec.schedulerName), not this profile's bin-packer: it stays Pending") != 3 ||
		!strings.Contains(out, "0 of 3 pods Ready") || strings.Contains(out, "bind web-") {
		t.Errorf("pods for default-scheduler under profile bin-packer:\n%s", out)
	}
}
