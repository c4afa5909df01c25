package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/render"
)

// Fuzz targets that reach what issue 29 found by hand: every trace
// scenario on a fuzzed manifest with fuzzed flags inside their documented
// bounds, the quiz commands on fuzzed store files, and trace apply under a
// fuzzed scheduler configuration. The invariant is the README's: no exit 3
// (a panic or an unclassified error), a failure is one line on stderr, and
// output stays bounded. Seeds: the f.Add calls below and
// testdata/fuzz/<target>; `go test ./cmd -fuzz FuzzTraceScenarios` explores.

// checkRun asserts the invariant on one run.
func checkRun(t *testing.T, args []string, out, errOut string, code int) {
	t.Helper()
	if code == 3 || strings.Contains(errOut, "internal error") {
		t.Fatalf("%q: exit %d: %s", args, code, errOut)
	}
	if code != 0 && strings.Count(errOut, "\n") != 1 {
		t.Fatalf("%q: exit %d with %d stderr lines: %.500q", args, code, strings.Count(errOut, "\n"), errOut)
	}
	if len(out) > 16<<20 || len(errOut) > 64<<10 {
		t.Fatalf("%q: %d bytes out, %d bytes err", args, len(out), len(errOut))
	}
}

// scenarioArgs turns fuzzed numbers into one command line of a trace
// scenario, each flag inside the bound its help and README give.
func scenarioArgs(path string, scenario, nodes uint8, a uint16, b uint8) []string {
	n := fmt.Sprint(1 + int(nodes)%5)
	formats := render.Formats // the registry: a new format is fuzzed too
	format := formats[int(b)%len(formats)]
	switch scenario % 7 {
	case 0:
		args := []string{"trace", "apply", "--nodes", n, "--max-steps", fmt.Sprint(1 + int(a)%5000), "-o", format, path}
		if b&8 != 0 {
			args = append(args, "-v")
		}
		if b&16 != 0 {
			args = append(args, "--summary")
		}
		return args
	case 1:
		reasons := []string{"panic", "oom", "liveness", "readiness"}
		return []string{"trace", "crash", "-f", path, "--nodes", n, "--reason", reasons[int(a)%4], "--times", fmt.Sprint(1 + int(b)%10), "-o", format}
	case 2:
		apps := []string{"handles-sigterm", "ignores-sigterm", "slow-drain"}
		return []string{"trace", "delete", "pod", "-f", path, "--nodes", n, "--app", apps[int(a)%3], "--prestop-sleep", fmt.Sprintf("%ds", int(b)%60), "-o", format}
	case 3:
		return []string{"trace", "node-failure", "-f", path, "--nodes", n, "--node", "node-a", fmt.Sprintf("--bare-pod=%t", b&1 == 0), "-o", format}
	case 4:
		return []string{"trace", "rollout", "-f", path, "--nodes", n, "--image", "web=nginx:1." + fmt.Sprint(int(a)%40), "-o", format}
	case 5:
		// 10ms to 1h, the --poll-interval bound (the 10 s panic lived here).
		poll := []string{"10ms", "1s", "6s", "10s", "59s", "1h"}[int(a)%6]
		return []string{"trace", "watch", "--poll-interval", poll, "--controllers", fmt.Sprint(1 + int(b)%100), "--pods", fmt.Sprint(1 + int(a)%20000), "--nodes", fmt.Sprint(200 + int(nodes)), "-o", format}
	default:
		age := []string{"0s", "1s", "30s", "5m"}[int(b)%4]
		return []string{"grpc-skew", "--clients", fmt.Sprint(1 + int(nodes)%20), "--pods", fmt.Sprint(1 + int(a)%200), "--max-connection-age", age, "-o", format}
	}
}

func FuzzTraceScenarios(f *testing.F) {
	app, err := os.ReadFile("../examples/app.yaml")
	if err != nil {
		f.Fatal(err)
	}
	hostile := []string{
		string(app),
		strings.Replace(string(app), "livenessProbe:\n", "livenessProbe:\n            failureThreshold: 2147483647\n", 1),
		strings.Replace(string(app), "replicas: 3", "replicas: 150000", 1),
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n",
		"apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n",
		"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  terminationGracePeriodSeconds: 9223372036854775807\n  containers: [{name: web, image: \"nginx\\e[31m\"}]\n",
	}
	for i, m := range hostile {
		for s := uint8(0); s < 7; s++ {
			if i > 0 && s > 4 { // watch and grpc-skew take no manifest
				continue
			}
			f.Add(m, s, uint8(i), uint16(37*i+int(s)), uint8(i+int(s)))
		}
	}
	f.Fuzz(func(t *testing.T, manifest string, scenario, nodes uint8, a uint16, b uint8) {
		if len(manifest) > 64<<10 {
			return
		}
		inRoot(t)
		path := filepath.Join(t.TempDir(), "m.yaml")
		if err := os.WriteFile(path, []byte(manifest), 0o600); err != nil {
			t.Fatal(err)
		}
		args := scenarioArgs(path, scenario, nodes, a, b)
		// A run that does not end is a finding too: say which (no
		// wall-clock assertion otherwise; the fuzzer has no per-input
		// timeout of its own).
		watchdog := time.AfterFunc(40*time.Second, func() { panic(fmt.Sprintf("still running after 40 s: %q\n%s", args, manifest)) })
		defer watchdog.Stop()
		out, errOut, code := run(t, "", args...)
		checkRun(t, args, out, errOut, code)
	})
}

// FuzzQuizStoreCommands runs quiz stats (text and JSON) and quiz list on
// fuzzed store files: what a hand-edited or corrupted store can be.
func FuzzQuizStoreCommands(f *testing.F) {
	good := `{"id":"a","topic":"etcd","at":"2026-03-02T09:00:00Z","score":1,"rating":4,"seconds":3}` + "\n"
	f.Add("", good)
	f.Add(`{"version":1,"applied":1,"cards":{}}`, good)
	f.Add("", `{"id":"a","topic":"etcd","at":"2026-03-02T09:00:00Z","score":1e308,"rating":3,"seconds":4}`+"\n")
	f.Add("{", `{"id":"a","at":"2026-03-02T09:00:00Z","score":-1,"rating":-7,"seconds":1e300}`+"\n"+good)
	f.Fuzz(func(t *testing.T, state, log string) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "state.json"), []byte(state), 0o600)
		os.WriteFile(filepath.Join(dir, "reviews.jsonl"), []byte(log), 0o600)
		setEnv(t, "K8SEXPLAIN_QUIZ_STATE_DIR", dir)
		for _, args := range [][]string{{"quiz", "stats", "--now", "2026-04-01T00:00:00Z"}, {"quiz", "stats", "-o", "json", "--now", "2026-04-01T00:00:00Z"}} {
			out, errOut, code := run(t, "", args...)
			checkRun(t, args, out, errOut, code)
		}
	})
}

// FuzzSchedulerConfig traces the example under a fuzzed
// KubeSchedulerConfiguration: refused with one line, or run.
func FuzzSchedulerConfig(f *testing.F) {
	most, err := os.ReadFile("../examples/scheduler-mostallocated.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(most))
	f.Add("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: default-scheduler\n  pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        type: LeastAllocated\n        resources: [{name: cpu, weight: 100}, {name: memory, weight: 0}]\n")
	f.Add("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles: []\n")
	f.Add("kind: List\n")
	f.Fuzz(func(t *testing.T, config string) {
		if len(config) > 64<<10 {
			return
		}
		inRoot(t)
		path := filepath.Join(t.TempDir(), "sched.yaml")
		os.WriteFile(path, []byte(config), 0o600)
		args := []string{"trace", "apply", "--summary", "--scheduler-config", path, "examples/app.yaml"}
		out, errOut, code := run(t, "", args...)
		checkRun(t, args, out, errOut, code)
	})
}
