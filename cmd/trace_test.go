package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/golden"
)

// traceCases are the golden inputs of trace apply: every file in examples/,
// and the webhook flags.
var traceCases = []struct {
	name string
	args []string
}{
	{"app", []string{"trace", "apply", "examples/app.yaml"}},
	{"unschedulable", []string{"trace", "apply", "examples/unschedulable.yaml"}},
	{"tainted-nodes", []string{"trace", "apply", "examples/tainted-nodes.yaml"}},
	{"init", []string{"trace", "apply", "examples/init.yaml"}},
	{"quota", []string{"trace", "apply", "examples/quota.yaml"}},
	{"nodeport-local", []string{"trace", "apply", "examples/nodeport-local.yaml"}},
	{"statefulset", []string{"trace", "apply", "examples/statefulset.yaml"}},
	{"limits-only", []string{"trace", "apply", "examples/limits-only.yaml"}},
	{"startup-probe", []string{"trace", "apply", "examples/startup-probe.yaml"}},
	// A native sidecar before a regular init container: the quota charges
	// the peak, 1200m (issue 22 §5).
	{"sidecar-quota", []string{"trace", "apply", "examples/sidecar-quota.yaml"}},
	// An admission webhook on pod CREATE that does not answer, with each
	// failurePolicy (issue 22 §5).
	{"webhook-fail", []string{"trace", "apply", "--webhook", "mutating", "examples/app.yaml"}},
	{"webhook-ignore", []string{"trace", "apply", "--webhook", "validating", "--failure-policy", "Ignore", "examples/app.yaml"}},
}

var formatExt = map[string]string{"text": "txt", "markdown": "md", "mermaid": "mmd", "json": "json"}

// inRoot runs the test from the repository root, so that the golden
// command lines name examples/... as a user would.
func inRoot(t *testing.T) {
	t.Helper()
	wd, _ := os.Getwd()
	if err := os.Chdir(golden.Root()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chdir(wd) })
}

func TestTraceApplyGolden(t *testing.T) {
	inRoot(t)
	for _, tc := range traceCases {
		for _, lang := range []string{"en", "ru"} {
			for _, format := range []string{"text", "markdown", "mermaid", "json"} {
				name := "trace-apply/" + tc.name + "." + lang + "." + formatExt[format]
				t.Run(name, func(t *testing.T) {
					args := append([]string{"--lang", lang, "--format", format}, tc.args...)
					runGolden(t, name, args...)
				})
			}
		}
	}
	runGolden(t, "trace-apply/app.verbose.en.txt", "-v", "trace", "apply", "examples/app.yaml")
	// Every node's kube-proxy: KUBE-SVL or the drop per node, by traffic policy.
	runGolden(t, "trace-apply/nodeport-local.verbose.en.txt", "-v", "trace", "apply", "examples/nodeport-local.yaml")
	runGolden(t, "trace-apply/builtin.en.txt", "trace", "apply")
	// A claim that cannot bind: ProvisioningFailed, and the pod Pending with
	// VolumeBinding's PreFilter message.
	runGolden(t, "trace-apply/claim-pending.en.txt", "trace", "apply", "examples/claim-pending.yaml")
	runGolden(t, "trace-apply/claim-pending.ru.txt", "--lang", "ru", "trace", "apply", "examples/claim-pending.yaml")
}

// --at prints the cluster at a moment, replayed from the state log: at a
// time, and at step 39, where the scheduler sends the binding of the
// second pod: the API server has not stored it yet, so that pod still has
// no node, while the first one has.
func TestTraceAt(t *testing.T) {
	inRoot(t)
	runGolden(t, "trace-apply/at-00-01.500.en.txt", "trace", "apply", "--at", "00:01.500", "examples/app.yaml")
	runGolden(t, "trace-apply/at-step-39.en.txt", "trace", "apply", "--at", "39", "examples/app.yaml") // README's sample
	out39 := runGolden(t, "trace-apply/at-step-39.ru.txt", "--lang", "ru", "trace", "apply", "--at", "39", "examples/app.yaml")
	if !regexp.MustCompile(`web-6c64cbcbb9-p8scn +0/1 +Pending .*<none> +<none>`).MatchString(out39) ||
		!regexp.MustCompile(`web-6c64cbcbb9-lt5xd +0/1 +Pending .* node-c`).MatchString(out39) {
		t.Errorf("at step 39 the second pod is not yet bound and the first is:\n%s", out39)
	}
	out, _, code := run(t, "", "trace", "apply", "--at", "99:00.000", "examples/app.yaml")
	if code != 0 || strings.Count(out, "Running") != 3 || strings.Contains(out, "Pending") {
		t.Errorf("at the end every pod runs; exit %d:\n%s", code, out)
	}
	out, _, _ = run(t, "", "trace", "apply", "--at", "00:00.000", "examples/app.yaml")
	if strings.Contains(out, "web-") || !strings.Contains(out, "node-a") {
		t.Errorf("before kubectl's requests arrive there are nodes and no workload:\n%s", out)
	}
}

var podName = regexp.MustCompile(`web-[bcdfghjklmnpqrstvwxz2456789]{1,10}-[bcdfghjklmnpqrstvwxz2456789]{5}`)

func TestTraceDeterminism(t *testing.T) {
	inRoot(t)
	a, _, _ := run(t, "", "--seed", "7", "trace", "apply", "examples/app.yaml")
	b, _, _ := run(t, "", "--seed", "7", "trace", "apply", "examples/app.yaml")
	c, _, _ := run(t, "", "--seed", "8", "trace", "apply", "examples/app.yaml")
	if a != b {
		t.Fatalf("same seed, different output:\n%s", golden.Diff(a, b))
	}
	if a == c {
		t.Fatalf("seeds 7 and 8 gave identical output; the seed should change pod names")
	}
	namesA, namesC := podName.FindAllString(a, -1), podName.FindAllString(c, -1)
	if len(namesA) == 0 || namesA[0] == namesC[0] {
		t.Fatalf("pod names should differ between seeds: %v vs %v", first(namesA), first(namesC))
	}
	// Same structure: the same number of lines, and the same lines once
	// names, addresses, hashes and chain names are masked.
	mask := regexp.MustCompile(`web-[a-z0-9]+(-[a-z0-9]{5})?|\d+\.\d+\.\d+\.\d+|KUBE-SVC-[A-Z2-7]+|kubepods[^ ]*|node-[abc]|\d+`)
	la, lc := strings.Split(mask.ReplaceAllString(a, "X"), "\n"), strings.Split(mask.ReplaceAllString(c, "X"), "\n")
	if len(la) != len(lc) {
		t.Fatalf("structure differs between seeds: %d vs %d lines", len(la), len(lc))
	}
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

func TestTraceChangesWithManifest(t *testing.T) {
	inRoot(t)
	data, err := os.ReadFile("examples/app.yaml")
	if err != nil {
		t.Fatal(err)
	}
	five := strings.Replace(string(data), "replicas: 3", "replicas: 5", 1)
	out, errOut, code := run(t, five, "trace", "apply", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if n := len(regexp.MustCompile(`Scheduled pod/web-\S+: Successfully assigned default/web-`).FindAllString(out, -1)); n != 5 {
		t.Fatalf("5 replicas should schedule 5 pods, got %d", n)
	}
	if !strings.Contains(out, "All 5 pods Ready") {
		t.Fatalf("summary should report 5 Ready pods")
	}
}

func TestTraceBadInput(t *testing.T) {
	inRoot(t)
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	neg := write("neg.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: -1\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers: [{name: web, image: nginx}]\n")
	typo := write("typo.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    imagee: nginx\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"trace", "apply", filepath.Join(dir, "missing.yaml")}, "no such file"},
		{[]string{"trace", "apply", neg}, "spec.replicas: Invalid value: -1: must be greater than or equal to 0"},
		{[]string{"trace", "apply", typo}, `unknown field`},
		{[]string{"trace", "apply", "--nodes", "0", "examples/app.yaml"}, "invalid --nodes 0"},
		{[]string{"trace", "apply", "--at", "1.5s", "examples/app.yaml"}, `--at "1.5s": want a time as the trace prints it (00:01.500) or a step number (1 to 104)`},
		{[]string{"trace", "apply", "--at", "0", "examples/app.yaml"}, "--at 0: no such step; this trace shows steps 1 to 104"},
		{[]string{"trace", "apply", "--at", "5", "--summary", "examples/app.yaml"}, "--at and --summary: choose one"},
		{[]string{"trace", "apply", "--webhook", "both", "examples/app.yaml"}, `invalid --webhook "both": want mutating or validating`},
		{[]string{"trace", "apply", "--webhook", "mutating", "--failure-policy", "ignore", "examples/app.yaml"}, `invalid --failure-policy "ignore": supported values: "Fail", "Ignore"`},
		{[]string{"trace", "apply", "--webhook", "mutating", "--webhook-timeout-seconds", "31", "examples/app.yaml"}, "invalid --webhook-timeout-seconds 31: the timeout value must be between 1 and 30 seconds"},
		{[]string{"trace", "apply", "--failure-policy", "Ignore", "examples/app.yaml"}, "--failure-policy and --webhook-timeout-seconds need --webhook mutating|validating"},
		{[]string{"trace", "static-pod", "examples/app.yaml"}, "examples/app.yaml: a static pod manifest holds one object, kind: Pod; found 2"},
		{[]string{"trace", "static-pod", "--node", "node-z"}, `node "node-z" is not in the cluster (nodes: control-plane, node-a, node-b, node-c)`},
	} {
		_, errOut, code := run(t, "", tc.args...)
		if code != 1 || !strings.Contains(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 1 and one line containing %q", tc.args, code, errOut, tc.want)
		}
	}
}

// TestTraceRealManifests traces every real-world manifest in
// ../shared/manifests/real: each must trace (exit 0) or fail with one clear
// line (exit 1) — never a panic or an internal error.
func TestTraceRealManifests(t *testing.T) {
	dir := filepath.Join(golden.Root(), "..", "shared", "manifests", "real")
	files, _ := filepath.Glob(filepath.Join(dir, "*.y*ml*"))
	if len(files) == 0 {
		t.Skipf("no real-world manifests at %s (the shared folder is not beside this checkout)", dir)
	}
	for _, f := range files {
		_, errOut, code := run(t, "", "--format", "json", "trace", "apply", f)
		switch {
		case code == 0:
			t.Logf("%s: traced", filepath.Base(f))
		case code == 1 && strings.Count(errOut, "\n") == 1:
			t.Logf("%s: %s", filepath.Base(f), strings.TrimSpace(errOut))
		default:
			t.Errorf("%s: exit %d, stderr %q", filepath.Base(f), code, errOut)
		}
	}
}

// TestTraceMermaidParses checks the Mermaid output with the real mermaid
// parser (../shared/tools/mermaid-check), when node is installed.
func TestTraceMermaidParses(t *testing.T) {
	tool := filepath.Join(golden.Root(), "..", "shared", "tools", "mermaid-check", "mermaid-check")
	if _, err := os.Stat(tool); err != nil {
		t.Skip("mermaid-check not found beside this checkout")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	if testing.Short() {
		t.Skip("-short")
	}
	files, _ := filepath.Glob(filepath.Join(golden.Dir(), "*", "*.mmd"))
	if len(files) == 0 {
		t.Fatal("no golden .mmd files")
	}
	out, err := exec.Command(tool, files...).CombinedOutput()
	if err != nil {
		t.Fatalf("mermaid-check: %v\n%s", err, out)
	}
}

// A --summary run past the kube-proxy sample folds per-node rows, reports
// the scale section (with what was sampled), and is deterministic.
func TestTraceApplySummaryScale(t *testing.T) {
	out, errOut, code := run(t, "", "trace", "apply", "--nodes", "30", "--summary")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"kubelet/* (26 more nodes)", "kube-proxy/* (5 more nodes)", "Scale", "Bytes encoded:", "pods/s",
		"slice writes", "the other 21 nodes' kube-proxies are counted", "none kept (--summary)"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	// Per-node rows are folded beyond five, in the requests table and in
	// the scale section's watch events alike.
	if n := strings.Count(out, "\nkubelet/node-"); n > 2*5 {
		t.Errorf("%d per-node kubelet rows, want at most 5 per table:\n%s", n, out)
	}
	again, _, _ := run(t, "", "trace", "apply", "--nodes", "30", "--summary")
	if again != out {
		t.Error("same seed, different output")
	}
}

// A Deployment whose selector does not match its template: the API
// server's validation refuses it with upstream's message, nothing of it is
// stored, the Service beside it is created, and the apply exits 1 as
// kubectl's does (the see: line of selector-template-mismatch).
func TestTraceApplySelectorMismatch(t *testing.T) {
	inRoot(t)
	for _, lang := range []string{"en", "ru"} {
		args := []string{"--lang", lang, "trace", "apply", "examples/selector-mismatch.yaml"}
		out, errOut, code := run(t, "", args...)
		if code != 1 || !strings.Contains(errOut, "`selector` does not match template `labels`") {
			t.Fatalf("%v: exit %d, stderr %q; want 1 and the validation error", args, code, errOut)
		}
		golden.Assert(t, "trace-apply/selector-mismatch."+lang+".txt", []byte(out))
		if strings.Contains(out, "ScalingReplicaSet") || !strings.Contains(out, "service/web created") {
			t.Errorf("%s: the Deployment must create nothing and the Service must be created:\n%s", lang, out)
		}
	}
}
