package cmd

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/iostreams"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// write puts content in a file of a fresh temporary directory.
func write(t testing.TB, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// withReplicas is the bundled example with another replica count.
func withReplicas(t testing.TB, n string) string {
	t.Helper()
	data, err := os.ReadFile("examples/app.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return write(t, "app.yaml", strings.Replace(string(data), "replicas: 3", "replicas: "+n, 1))
}

// Each case ends with its exit code and a one-line error naming the cause.
func TestUsageAndBoundsExitCodes(t *testing.T) {
	inRoot(t)
	huge := withReplicas(t, "1000000000")
	example, _ := os.ReadFile("examples/app.yaml")
	surge := write(t, "surge.yaml", strings.Replace(string(example), "  replicas: 3\n",
		"  replicas: 3\n  strategy:\n    rollingUpdate: {maxSurge: abc}\n", 1))
	negative := write(t, "neg.yaml", strings.Replace(string(example), "cpu: 250m", `cpu: "-1"`, 1))
	ipv6 := write(t, "nodes.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nspec: {podCIDR: \"fd00:10:244:1::/64\"}\n"+
		"status: {capacity: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: nginx}]}\n")
	seedABC := write(t, "config.yaml", "seed: abc\n")
	unknownKey := write(t, "config.yaml", "lang: en\nlnag: ru\n")
	unknownSub := write(t, "config.yaml", "quiz:\n  state_dir: /tmp\n")
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"trace", "bogus"}, 2, `unknown command "bogus" for "k8sexplain trace"`},
		// issue 29: 0 silently meant unlimited.
		{[]string{"trace", "apply", "-v", "--max-steps", "0"}, 1, "invalid --max-steps 0: want 1 to 200000 steps kept"},
		{[]string{"trace", "apply", "--max-steps", "-3"}, 1, "invalid --max-steps -3"},
		{[]string{"trace", "apply", "--max-steps", "200001"}, 1, "invalid --max-steps 200001"},
		{[]string{"help", "nosuch"}, 2, `unknown help topic "nosuch"`},
		{[]string{"trace", "rollout"}, 2, "required flag --image"},
		{[]string{"--config", seedABC, "version"}, 2, `seed: "abc" is not a valid value for --seed (int64)`},
		{[]string{"--config", unknownKey, "version"}, 2, `unknown key "lnag"`},
		{[]string{"--config", unknownSub, "version"}, 2, `unknown key "quiz.state_dir"`},
		{[]string{"--config", "/dev/zero", "version"}, 1, "--config /dev/zero: larger than 1 MiB, the limit for a config file"},
		{[]string{"trace", "apply", huge}, 1, "more than the 150,000 pods per cluster Kubernetes supports"},
		{[]string{"trace", "rollout", "-f", huge, "--image", "web=nginx:1.28"}, 1, "150,000 pods per cluster"},
		{[]string{"trace", "crash", "-f", huge}, 1, "150,000 pods per cluster"},
		{[]string{"dnat", "-f", huge}, 1, "150,000 pods per cluster"},
		{[]string{"trace", "apply", withReplicas(t, "5000")}, 1, "the 4 nodes hold at most 440 pods"},
		{[]string{"trace", "apply", ipv6}, 1, `node "n1": spec.podCIDR "fd00:10:244:1::/64" is IPv6`},
		{[]string{"trace", "rollout", "-f", surge, "--image", "web=nginx:1.28"}, 1,
			`spec.strategy.rollingUpdate.maxSurge: Invalid value: "abc": a valid percent string must be a numeric string followed by an ending '%'`},
		{[]string{"trace", "apply", negative}, 1, `spec.template.spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0`},
	} {
		_, errOut, code := run(t, "", tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d (want %d), stderr %q (want one line with %q)", tc.args, code, tc.code, errOut, tc.msg)
		}
	}
	if out, _, code := run(t, "", "help", "trace"); code != 0 || !strings.Contains(out, "Available Commands") {
		t.Errorf("help trace: exit %d", code)
	}
	if out, _, code := run(t, "", "trace"); code != 0 || !strings.Contains(out, "Available Commands") {
		t.Errorf("trace alone prints its help: exit %d", code)
	}
}

// K8SEXPLAIN_<FLAG> and the config file reach every flag of every command,
// as README says, parsed as the flag parses it — but the command-line-only
// ones (destructive: they delete or write outside k8sexplain), which
// TestDestructiveFlagsOnlyFromCommandLine and TestLiveFlagsOnlyFromCommandLine
// refuse.
func TestEnvironmentReachesEveryFlag(t *testing.T) {
	io, _, _, _ := iostreams.Test()
	root := NewRoot(&Factory{IO: io, Config: newConfig()})
	var walk func(c *cobra.Command)
	checked := 0
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		if !c.Runnable() {
			return
		}
		c.Flags().VisitAll(func(fl *pflag.Flag) {
			if notSettings[fl.Name] || destructive[fl.Name] != "" {
				return
			}
			value := map[string]string{"bool": "true", "int": "7", "int64": "7", "duration": "7s", "float64": "0.5",
				"string": "x", "stringArray": "x", "stringSlice": "x", "intSlice": "7", "uint": "7"}[fl.Value.Type()]
			if value == "" {
				t.Errorf("%s --%s: no test value for type %s", c.CommandPath(), fl.Name, fl.Value.Type())
				return
			}
			for _, fl2 := range []*pflag.Flag{fl} {
				fl2.Changed = false
			}
			env := map[string]string{envName(fl.Name): value}
			f := &Factory{IO: &iostreams.Streams{Getenv: func(k string) string { return env[k] }}, Config: newConfig()}
			if err := applySettings(f, c); err != nil {
				t.Errorf("%s %s=%s: %v", c.CommandPath(), envName(fl.Name), value, err)
				return
			}
			if !fl.Changed || !strings.Contains(fl.Value.String(), value) {
				t.Errorf("%s: %s=%s did not reach --%s (value %q)", c.CommandPath(), envName(fl.Name), value, fl.Name, fl.Value.String())
			}
			checked++
		})
	}
	walk(root)
	if checked < 40 {
		t.Errorf("only %d flags checked", checked)
	}
	inRoot(t)
	setEnv(t, "K8SEXPLAIN_SEED", "abc")
	if _, errOut, code := run(t, "", "version"); code != 2 || !strings.Contains(errOut, `K8SEXPLAIN_SEED="abc" is not a valid value for --seed`) {
		t.Errorf("K8SEXPLAIN_SEED=abc: exit %d, %q", code, errOut)
	}
	setEnv(t, "K8SEXPLAIN_SEED", "")
	setEnv(t, "K8SEXPLAIN_NODES", "5")
	setEnv(t, "K8SEXPLAIN_LANG", "ru")
	out, _, code := run(t, "", "trace", "apply", "--summary")
	if code != 0 || !strings.Contains(out, "node-e") || !strings.Contains(out, "Что происходит") {
		t.Errorf("K8SEXPLAIN_NODES=5 K8SEXPLAIN_LANG=ru: exit %d\n%s", code, out)
	}
	cfg := write(t, "config.yaml", "nodes: 4\nlang: en\n")
	out, _, _ = run(t, "", "--config", cfg, "trace", "apply", "--summary")
	if !strings.Contains(out, "node-e") || !strings.Contains(out, "Что происходит") {
		t.Errorf("environment must win over the config file:\n%s", out)
	}
}

type failingWriter struct{ err error }

func (w failingWriter) Write([]byte) (int, error) { return 0, w.err }

// Disk full, a read-only state directory and /dev/full as stdout are
// environment errors (exit 4), not bugs.
func TestEnvironmentErrors(t *testing.T) {
	inRoot(t)
	for _, errno := range []error{syscall.ENOSPC, syscall.EROFS, syscall.EBADF} {
		io, _, _, errOut := iostreams.Test()
		io.Getenv = testGetenv
		io.Out = failingWriter{&os.PathError{Op: "write", Path: "/dev/stdout", Err: errno}}
		if code := Execute(io, []string{"version"}); code != 4 || !strings.Contains(errOut.String(), "environment error (not a bug in k8sexplain)") {
			t.Errorf("%v: exit %d, %q", errno, code, errOut)
		}
	}
	if f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0); err == nil {
		defer f.Close()
		io, _, _, errOut := iostreams.Test()
		io.Getenv, io.Out = testGetenv, f
		if code := Execute(io, []string{"trace", "apply", "--summary"}); code != 4 || !strings.Contains(errOut.String(), "no space left on device") {
			t.Errorf("/dev/full: exit %d, %q", code, errOut)
		}
	}
	dir := filepath.Join(t.TempDir(), "state")
	os.MkdirAll(dir, 0o700)
	setEnv(t, "K8SEXPLAIN_QUIZ_STATE_DIR", filepath.Join(dir, "file", "sub"))
	os.WriteFile(filepath.Join(dir, "file"), nil, 0o600) // a file where a directory should be
	if _, errOut, code := run(t, "", "quiz", "stats"); code == 3 || code == 0 {
		t.Errorf("unusable state directory: exit %d, %q", code, errOut)
	}
	if !errors.Is(&os.PathError{Err: syscall.ENOSPC}, syscall.ENOSPC) {
		t.Fatal("errors.Is does not see through PathError")
	}
}

// Answers are read with limits: an --answers file, a stdin line, and the
// --now clock stays in a sane range.
func TestQuizReadLimits(t *testing.T) {
	quizTest(t)
	if _, errOut, code := run(t, "", "quiz", "--answers", "/dev/zero"); code != 1 || !strings.Contains(errOut, "--answers: /dev/zero: larger than 4 MiB, the limit for an --answers file") {
		t.Errorf("--answers /dev/zero: exit %d, %q", code, errOut)
	}
	long := strings.Repeat("a", 100_000) + "\n"
	if _, errOut, code := run(t, long, "quiz", "--count", "1"); code != 1 || !strings.Contains(errOut, "standard input: larger than 64 KiB, the limit for an answer line") {
		t.Errorf("a 100 KB answer line: exit %d, %q", code, errOut)
	}
	if _, errOut, code := run(t, long, "quiz", "stats", "--reset"); code != 1 || !strings.Contains(errOut, "larger than 64 KiB") {
		t.Errorf("a 100 KB --reset answer: exit %d, %q", code, errOut)
	}
	for _, now := range []string{"9999-12-30T00:00:00Z", "0001-01-01T00:00:00Z"} {
		if _, errOut, code := run(t, "", "quiz", "stats", "--now", now); code != 1 || !strings.Contains(errOut, "is outside 2000-01-01 to 2200-01-01") {
			t.Errorf("--now %s: exit %d, %q", now, code, errOut)
		}
	}
}

// A huge object name makes a short error, not one as long as the name.
func TestOutputBoundedByInput(t *testing.T) {
	name := strings.Repeat("a", 2<<20)
	for _, kind := range []string{"apiVersion: v1\nkind: ConfigMap", "apiVersion: example.com/v1\nkind: Widget", "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role"} {
		p := write(t, "big.yaml", kind+"\nmetadata: {name: "+name+"}\n")
		out, errOut, code := run(t, "", "trace", "apply", p)
		if code != 1 || len(out)+len(errOut) > 64<<10 || !strings.Contains(out+errOut, "(2097152 bytes)") {
			t.Errorf("%s: exit %d, %d bytes out, %d bytes err: %.300q", kind, code, len(out), len(errOut), errOut)
		}
	}
}

// FuzzConfig loads fuzzed config files: never a panic or an internal
// error, and a bad file is a one-line error. Seeds are in
// testdata/fuzz/FuzzConfig.
func FuzzConfig(f *testing.F) {
	for _, s := range []string{"lang: ru\n", "seed: abc\n", "quiz:\n  state-dir: /tmp/x\n", "nodes: [1, 2]\n", "verbose: {a: 1}\n",
		"format: markdown\ncolor: never\n", "- 1\n", "lnag: ru\n", "seed: 99999999999999999999\n", "quiz: 3\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, content string) {
		p := write(t, "config.yaml", content)
		io, _, _, errOut := iostreams.Test()
		io.Getenv = testGetenv
		code := Execute(io, []string{"--config", p, "version"})
		if code != 0 && code != 1 && code != 2 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if code != 0 && strings.Count(errOut.String(), "\n") != 1 {
			t.Fatalf("want a one-line error, got %q", errOut)
		}
	})
}

// A config file may set a flag of any command: a command line builds only
// the commands it names, and the keys of the others are still known.
func TestConfigKeyOfAnotherCommand(t *testing.T) {
	inRoot(t)
	cfg := write(t, "config.yaml", "max-steps: 500\nquorum-nodes-unknown: 1\n")
	if _, errOut, code := run(t, "", "--config", cfg, "version"); code != 2 || !strings.Contains(errOut, `unknown key "quorum-nodes-unknown"`) {
		t.Errorf("an unknown key: exit %d, %q", code, errOut)
	}
	cfg = write(t, "config.yaml", "max-steps: 500\n")
	for _, args := range [][]string{{"version"}, {"quorum", "--nodes", "3"}, {"dnat"}} {
		if _, errOut, code := run(t, "", append([]string{"--config", cfg}, args...)...); code != 0 {
			t.Errorf("%v with max-steps (a trace flag) in the config: exit %d, %q", args, code, errOut)
		}
	}
}

// Objects a real kubectl refuses before sending anything are refused with
// its message, not traced as created (issue 27 §3, moved to issue 29).
func TestKubectlClientSideRefusals(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"apiVersion: v1\nkind: ConfigMap\nmetadata: {}\ndata: {a: b}\n",
			`error when retrieving current configuration of: Resource: "/v1, Resource=configmaps", GroupVersionKind: "/v1, Kind=ConfigMap" Name: "", Namespace: "default" from server for: "`},
		{"apiVersion: v1\nkind: ConfigMap\nmetadata: {generateName: cm-}\n", "from cm-: cannot use generate name with apply"},
		{"apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {a: 1}\n",
			`resource mapping not found for name: "w" namespace: "" from "`},
		{"apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles: [{schedulerName: default-scheduler}]\n",
			`no matches for kind "KubeSchedulerConfiguration" in version "kubescheduler.config.k8s.io/v1" ensure CRDs are installed first`},
	} {
		p := write(t, "m.yaml", tc.src)
		out, errOut, code := run(t, "", "trace", "apply", p)
		if code != 1 || !strings.Contains(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want exit 1 and one line with %q", tc.src, code, errOut, tc.want)
		}
		if strings.Contains(out, " created") {
			t.Errorf("%q: traced as created", tc.src)
		}
	}
}

// Objects a real API server refuses are refused with its message (issue 29
// Low): Services a single-stack IPv4 cluster with 10.96.0.0/12 cannot
// allocate, and Nodes that would give pods the same IPs.
func TestClusterRefusesWhatItCannotAllocate(t *testing.T) {
	svc := "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {%s, ports: [{port: 80}]}\n"
	node := "apiVersion: v1\nkind: Node\nmetadata: {name: %s}\nspec: {podCIDR: %s}\nstatus: {capacity: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}\n"
	for _, tc := range []struct {
		args      []string
		src, want string
	}{
		{nil, fmt.Sprintf(svc, "clusterIP: 192.168.5.5"),
			`Service "s" is invalid: spec.clusterIPs: Invalid value: ["192.168.5.5"]: failed to allocate IP 192.168.5.5: provided IP is not in the valid range. The range of valid IPs is 10.96.0.0/12`},
		{nil, fmt.Sprintf(svc, "clusterIP: 10.96.0.1"), `failed to allocate IP 10.96.0.1: provided IP is already allocated`},
		{nil, fmt.Sprintf(svc, `clusterIP: "fd00::5"`), `Service "s" is invalid: spec.clusterIPs[0]: Invalid value: ["fd00::5"]: IPv6 is not configured on this cluster`},
		{nil, fmt.Sprintf(svc, "ipFamilyPolicy: RequireDualStack"),
			`Service "s" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services`},
		{[]string{"--cluster"}, fmt.Sprintf(node, "n1", "10.244.1.0/24") + "---\n" + fmt.Sprintf(node, "n2", "10.244.1.128/25"),
			`node "n2": spec.podCIDR 10.244.1.128/25 overlaps node "n1"'s 10.244.1.0/24`},
	} {
		p := write(t, "m.yaml", tc.src)
		_, errOut, code := run(t, "", append(append([]string{"trace", "apply"}, tc.args...), p)...)
		if code != 1 || !strings.Contains(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want exit 1 and one line with %q", tc.src, code, errOut, tc.want)
		}
	}
}

// fullWriter refuses every write as /dev/full does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.ENOSPC}
}

// Help and completion that cannot be written are exit 4, like every other
// output (issue 29: `--help > /dev/full` exited 0).
func TestHelpToFullDisk(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"trace", "--help"}, {"completion", "bash"}, {"help", "environment"}} {
		io, _, _, errOut := iostreams.Test()
		io.Getenv = testGetenv
		io.Out = fullWriter{}
		if code := Execute(io, args); code != 4 || !strings.Contains(errOut.String(), "no space left on device") {
			t.Errorf("%v > /dev/full: exit %d, %q", args, code, errOut)
		}
	}
}

// Durations from a manifest never wrap into negative ones in a story
// (issue 29: terminationGracePeriodSeconds 9223372036854775807 printed
// "SIGKILL at -1s").
func TestHugeDurationsDoNotWrap(t *testing.T) {
	src := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: web}}\n" +
		"  template:\n    metadata: {labels: {app: web}}\n    spec:\n      terminationGracePeriodSeconds: 9223372036854775807\n" +
		"      containers: [{name: web, image: nginx, lifecycle: {preStop: {sleep: {seconds: 9223372036854775807}}}}]\n"
	p := write(t, "g.yaml", src)
	for _, args := range [][]string{{"trace", "delete", "pod", "-f", p}, {"trace", "crash", "-f", p, "--reason", "liveness"}} {
		out, errOut, code := run(t, "", args...)
		if code > 1 || regexp.MustCompile(`-\d+(h|m|s|ms)\b|-\d+\.\d+s`).MatchString(out) {
			t.Errorf("%v: exit %d, %s; a negative duration: %q", args, code, errOut, regexp.MustCompile(`.*-\d+(h|m|s|ms)\b.*`).FindString(out))
		}
	}
}
