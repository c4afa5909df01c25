package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/trace"
	"time"
)

// storyCases are the golden runs of the "what happens when…" traces:
// default, a variant, Russian, Markdown and Mermaid for each.
var storyCases = []struct {
	dir  string
	args []string
	alt  []string // the variant
}{
	{"trace-rollout", []string{"trace", "rollout", "-f", "examples/app.yaml", "--image", "web=nginx:1.28"},
		[]string{"trace", "rollout", "-f", "examples/app.yaml", "--image", "web=nginx:1.28", "--broken-image"}},
	{"trace-delete", []string{"trace", "delete", "pod", "-f", "examples/app.yaml"},
		[]string{"trace", "delete", "pod", "-f", "examples/app.yaml", "--prestop-sleep", "5s"}},
	{"trace-crash", []string{"trace", "crash", "-f", "examples/app.yaml"},
		[]string{"trace", "crash", "-f", "examples/app.yaml", "--reason", "readiness"}},
	{"trace-autoscale", []string{"trace", "autoscale", "-f", "examples/app.yaml"},
		[]string{"trace", "autoscale", "-f", "examples/app.yaml", "--min", "2", "--max", "5", "--target-cpu", "60", "--cpu", "20%,90%,150%,40%", "--every", "2m"}},
	{"trace-node-failure", []string{"trace", "node-failure", "-f", "examples/app.yaml", "--node", "node-b"},
		[]string{"trace", "node-failure", "-f", "examples/app.yaml", "--node", "node-a", "--bare-pod=false"}},
	{"trace-drain", []string{"trace", "drain", "node-a", "examples/app.yaml", "--nodes", "2", "--pdb", "minAvailable=2"},
		[]string{"trace", "drain", "node-a", "examples/app.yaml", "--nodes", "2", "--pdb", "minAvailable=2", "--disable-eviction"}},
	{"trace-preempt", []string{"trace", "preempt"}, []string{"trace", "preempt", "--pdb", "minAvailable=2"}},
	{"trace-apply-modes", []string{"trace", "apply-modes", "-f", "examples/app.yaml"}, []string{"trace", "apply-modes", "-f", "examples/app.yaml", "--mode", "client"}},
	{"trace-static-pod", []string{"trace", "static-pod"}, []string{"trace", "static-pod", "examples/static-pod.yaml", "--node", "node-c", "-f", "examples/init.yaml"}},
}

func TestStoryGolden(t *testing.T) {
	inRoot(t)
	for _, tc := range storyCases {
		t.Run(tc.dir, func(t *testing.T) {
			runGolden(t, tc.dir+"/default.en.txt", tc.args...)
			runGolden(t, tc.dir+"/variant.en.txt", tc.alt...)
			runGolden(t, tc.dir+"/default.ru.txt", append([]string{"--lang", "ru"}, tc.args...)...)
			runGolden(t, tc.dir+"/default.en.md", append([]string{"--format", "markdown"}, tc.args...)...)
			runGolden(t, tc.dir+"/default.en.mmd", append([]string{"--format", "mermaid"}, tc.args...)...)
		})
	}
}

type jsonOut struct {
	Steps []struct {
		AtMS   int64             `json:"at_ms"`
		Kind   string            `json:"kind"`
		Actor  string            `json:"actor"`
		Object string            `json:"object"`
		Fields map[string]string `json:"fields"`
		Table  *struct {
			Rows [][]string `json:"rows"`
		} `json:"table"`
	} `json:"steps"`
	Tables []struct {
		Title string     `json:"title"`
		Rows  [][]string `json:"rows"`
	} `json:"tables"`
}

func storyJSON(t *testing.T, args ...string) jsonOut {
	t.Helper()
	out, errOut, code := run(t, "", append([]string{"--format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errOut)
	}
	var j jsonOut
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	return j
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// For 3 replicas with the default 25 %/25 %: never fewer than 3 available
// and never more than 4 pods, ending with the new ReplicaSet at 3.
func TestRolloutBudget(t *testing.T) {
	inRoot(t)
	j := storyJSON(t, "trace", "rollout", "--image", "web=nginx:1.28")
	rows := j.Tables[0].Rows
	for _, r := range rows {
		if atoi(r[3]) > 4 || atoi(r[4]) < 3 {
			t.Errorf("row %v breaks the budget (≤ 4 pods, ≥ 3 available)", r)
		}
	}
	if last := rows[len(rows)-1]; last[1] != "0" || last[2] != "3" {
		t.Errorf("last row %v: want old 0, new 3", last)
	}
	plan := j.Tables[1].Rows
	if len(plan) != 6 {
		t.Errorf("textbook plan for 3/1/0 has %d rows, want 6", len(plan))
	}
	// The new ReplicaSet's "from 0 to N" comes first, when it is created,
	// before the old set's scale-down of the same sync.
	var scaling []string
	for _, s := range j.Steps {
		if s.Kind == "event" && s.Fields["reason"] == "ScalingReplicaSet" {
			scaling = append(scaling, s.Fields["message"])
		}
	}
	if len(scaling) < 2 || !strings.HasPrefix(scaling[0], "Scaled up replica set web-") || !strings.HasSuffix(scaling[0], "from 0 to 1") ||
		!strings.HasPrefix(scaling[1], "Scaled down") {
		t.Errorf("scaling events %q: want the new set's 0 → 1 first, then a scale-down", scaling)
	}
}

// --nodes beyond what 10.244.0.0/16 holds works (the default cluster CIDR
// widens); an explicit cluster CIDR that is too small fails in one line.
func TestManyNodes(t *testing.T) {
	inRoot(t)
	if _, errOut, code := run(t, "", "trace", "apply", "--nodes", "300", "--summary"); code != 0 {
		t.Errorf("--nodes 300: exit %d: %s", code, errOut)
	}
	_, errOut, code := run(t, "", "trace", "apply", "--nodes", "300", "--cluster-cidr", "10.244.0.0/16", "--summary")
	if code != 1 || !strings.Contains(errOut, "cluster CIDR 10.244.0.0/16 is exhausted") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("exhausted cluster CIDR: exit %d, %q", code, errOut)
	}
}

func TestDeleteRace(t *testing.T) {
	inRoot(t)
	verdict := func(args ...string) map[string]string {
		j := storyJSON(t, append([]string{"trace", "delete", "pod"}, args...)...)
		for _, s := range j.Steps {
			if s.Kind == "race.result" {
				return s.Fields
			}
		}
		t.Fatalf("%v: no verdict", args)
		return nil
	}
	// kube-proxy's runner is idle when the story starts: the endpoint goes
	// within milliseconds; on a busy cluster it waits up to the 1 s
	// --iptables-min-sync-period, and that window refuses connections.
	if v := verdict(); v["removed"] != "8ms" || atoi(v["failed"]) != 0 || atoi(v["busyFailed"]) == 0 || v["code"] != "0" {
		t.Errorf("handles-sigterm without preStop: want removal after 8ms, none refused when idle, some when busy, exit 0; got %v", v)
	}
	if v := verdict("--prestop-sleep", "5s"); v["failed"] != "0" || v["busyFailed"] != "0" || v["code"] != "0" {
		t.Errorf("preStop sleep 5s: want no refused connection, got %v", v)
	}
	if v := verdict("--app", "ignores-sigterm"); v["code"] != "137" || v["exited"] != "30.004s" {
		t.Errorf("ignores-sigterm: want SIGKILL (137) at the 30 s deadline, got %v", v)
	}
}

func TestCrashKeepsIP(t *testing.T) {
	inRoot(t)
	j := storyJSON(t, "trace", "crash", "--reason", "oom", "--times", "3")
	var delays []string
	ip := ""
	for _, s := range j.Steps {
		switch s.Kind {
		case "story.crash":
			ip = s.Fields["ip"]
		case "kubelet.exited", "kubelet.exitednow":
			delays = append(delays, s.Fields["delay"])
			if s.Fields["code"] != "137" || s.Fields["reason"] != "OOMKilled" {
				t.Errorf("OOM kill: %v", s.Fields)
			}
		case "runtime.restart":
			if s.Fields["ip"] != ip {
				t.Errorf("restart changed the pod IP: %s → %s", ip, s.Fields["ip"])
			}
		case "cri.RunPodSandbox":
			t.Error("a container restart must not create a new sandbox")
		}
	}
	if strings.Join(delays, ",") != "0s,10s,20s" {
		t.Errorf("back-offs %v, want 0s,10s,20s", delays)
	}
}

// The replacement never lands on the dead node: the unreachable:NoSchedule
// taint is in the store when the scheduler filters, so TaintToleration
// rejects it. (While the taint write was lost to a 409 the dead node
// passed Filter, and won the random Score tie-break in the node-a variant.)
func TestNodeFailure(t *testing.T) {
	inRoot(t)
	for _, dead := range []string{"node-a", "node-b"} {
		t.Run(dead, func(t *testing.T) { testNodeFailure(t, dead) })
	}
}

func testNodeFailure(t *testing.T, dead string) {
	j := storyJSON(t, "trace", "node-failure", "--node", dead)
	var unknownAt, evictAt int64
	evicted := map[string]bool{}
	scheduledOn := map[string]string{}
	filtered := false
	for _, s := range j.Steps {
		switch s.Kind {
		case "node.unknown":
			unknownAt = s.AtMS
		case "node.evict":
			evictAt = s.AtMS
			evicted[s.Fields["pod"]] = true
		case "scheduler.bind", "scheduler.single":
			scheduledOn[s.Fields["pod"]] = s.Fields["node"]
		case "scheduler.filter":
			filtered = true
			for _, r := range s.Table.Rows {
				if r[0] == dead && r[1] != "TaintToleration" {
					t.Errorf("Filter row for the dead node: %v, want TaintToleration (unreachable:NoSchedule)", r)
				}
			}
		}
	}
	if !filtered {
		t.Error("no Filter step for the replacement")
	}
	// 50 s grace after the last renewal (up to 10 s before the cut), checked every 5 s.
	if unknownAt < 40000 || unknownAt > 55000 {
		t.Errorf("Ready=Unknown at %d ms", unknownAt)
	}
	if evictAt-unknownAt < 299000 || evictAt-unknownAt > 301000 {
		t.Errorf("eviction %d ms after the taint, want 300 s", evictAt-unknownAt)
	}
	if !evicted["standalone"] {
		t.Error("the bare pod should be evicted too")
	}
	if len(scheduledOn) != 1 {
		t.Errorf("want exactly one replacement (none for the bare pod), got %v", scheduledOn)
	}
	for p, n := range scheduledOn {
		if n == dead || strings.HasPrefix(p, "standalone") {
			t.Errorf("replacement %s on %s", p, n)
		}
	}
}

func TestStoryBadInput(t *testing.T) {
	inRoot(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"trace", "rollout", "--image", "nginx:1.28"}, `invalid --image "nginx:1.28": want CONTAINER=IMAGE`},
		{[]string{"trace", "rollout", "--image", "api=nginx:1.28"}, `deployment web has no container "api"`},
		{[]string{"trace", "delete", "pod", "web-0"}, `pod "web-0" is not in the cluster`},
		{[]string{"trace", "delete", "pod", "--app", "nice"}, `invalid --app "nice"`},
		{[]string{"trace", "crash", "--reason", "cosmic-ray"}, `invalid --reason "cosmic-ray"`},
		{[]string{"trace", "crash", "--pod", "nope"}, `pod "nope" is not in the cluster`},
		{[]string{"trace", "node-failure", "--node", "node-z"}, `node "node-z" is not in the cluster`},
		// Counts are checked before anything is made from them (issue 29: the
		// node list of ten million was built first and ran out of memory).
		{[]string{"trace", "node-failure", "--nodes", "10000000"}, "invalid --nodes 10000000: want 1 to 10000 workers"},
		{[]string{"trace", "node-failure", "--nodes", "10000", "--node", "x"}, `(nodes: control-plane, node-a, node-b, node-c, …, node-`},
		{[]string{"trace", "rollout", "-f", "examples/unschedulable.yaml", "--image", "worker=busybox:1.37"}, "did not settle"},
	} {
		_, errOut, code := run(t, "", tc.args...)
		if code != 1 || !strings.Contains(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 1 and one line with %q", tc.args, code, errOut, tc.want)
		}
	}
}

// The rollout (10 replicas, maxSurge 3, maxUnavailable 2): writes
// from a stale informer copy are refused with 409 and retried, so no
// scaling event repeats; -v shows the conflict and explains it.
func TestRolloutConflicts(t *testing.T) {
	inRoot(t)
	f := filepath.Join(t.TempDir(), "api.yaml")
	src := `apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  replicas: 10
  selector: {matchLabels: {app: api}}
  strategy: {rollingUpdate: {maxSurge: 3, maxUnavailable: 2}}
  template:
    metadata: {labels: {app: api}}
    spec:
      containers:
      - {name: api, image: example/api:1.0, resources: {requests: {cpu: 100m, memory: 64Mi}}}
`
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	j := storyJSON(t, "-v", "trace", "rollout", "-f", f, "--image", "api=example/api:2.0")
	seen := map[string]bool{}
	conflicts := 0
	for _, s := range j.Steps {
		if s.Kind == "event" && s.Fields["reason"] == "ScalingReplicaSet" {
			if seen[s.Fields["message"]] {
				t.Errorf("repeated: %s", s.Fields["message"])
			}
			seen[s.Fields["message"]] = true
		}
		if s.Kind == "apiserver.conflict" {
			conflicts++
		}
	}
	if conflicts == 0 {
		t.Error("no 409 Conflict in the trace: the race this rollout is known for was not shown")
	}
	out, _, _ := run(t, "", "trace", "rollout", "-v", "-f", f, "--image", "api=example/api:2.0")
	if !strings.Contains(out, "409 Conflict for system:serviceaccount:kube-system:") || !strings.Contains(out, "Optimistic concurrency") {
		t.Error("-v does not show and explain the conflict")
	}
}

// A readiness failure happens once, whatever --times says, and the story
// says so; the text about it follows what the simulation did: the readiness
// probe restarts nothing, and the story names the liveness probe it kept
// passing (issue 23).
func TestCrashReadinessSaysWhatHappened(t *testing.T) {
	inRoot(t)
	out, _, code := run(t, "", "trace", "crash", "--reason", "readiness", "--times", "4")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if strings.Contains(out, "4 times in a row") || strings.Contains(out, "— no restart") {
		t.Errorf("the readiness story claims what did not happen:\n%s", out)
	}
	if !strings.Contains(out, "starts failing its readiness check and keeps failing it") || !strings.Contains(out, "keeps the liveness probe") {
		t.Errorf("the readiness story does not say what the simulation did:\n%s", out)
	}
}

// A preStop hook longer than the grace period is cut there: the trace must
// not say it runs its whole length before SIGTERM (issue 23; kuberuntime
// killContainer, v1.37), and SIGTERM comes at the grace period.
func TestPreStopLongerThanGrace(t *testing.T) {
	inRoot(t)
	out, _, code := run(t, "", "trace", "delete", "pod", "-f", "examples/app.yaml", "--prestop-sleep", "40s")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if strings.Contains(out, "runs for 40s before SIGTERM") || !strings.Contains(out, "at most until the grace period ends") {
		t.Errorf("the preStop step claims the hook runs its full length before SIGTERM:\n%s", out)
	}
	if !regexp.MustCompile(`SIGTERM to PID 1 of web \(30s after deletion; SIGKILL at 32s\)`).MatchString(out) {
		t.Errorf("SIGTERM does not come at the 30 s grace period:\n%s", out)
	}
}

// Node objects in a story's manifest become its workers, as in trace apply
// (issue 29: crash, delete, node-failure and rollout applied them as bare
// objects no kubelet ran), and node-failure's --node is checked against them.
func TestStoryInlineNodes(t *testing.T) {
	inRoot(t)
	app, err := os.ReadFile("examples/app.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p := write(t, "inline.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: big-1}\nstatus: {capacity: {cpu: \"64\", memory: 256Gi, pods: \"110\"}}\n---\n"+string(app))
	for _, args := range [][]string{{"trace", "crash", "-f", p}, {"trace", "delete", "pod", "-f", p}, {"trace", "node-failure", "--node", "big-1", "-f", p},
		{"trace", "rollout", "--image", "web=nginx:2", "-f", p}} {
		out, errOut, code := run(t, "", append(args, "-o", "json")...)
		if code != 0 || !strings.Contains(out, `"nodeName": "big-1"`) && !strings.Contains(out, "big-1") {
			t.Errorf("%v: exit %d %s; the pods do not run on the inline node", args, code, errOut)
		}
		if strings.Contains(out, "node-a") {
			t.Errorf("%v: the default workers are still there", args)
		}
	}
	if _, errOut, code := run(t, "", "trace", "node-failure", "-f", p); code != 1 || !strings.Contains(errOut, `node "node-b" is not in the cluster (nodes: big-1)`) {
		t.Errorf("node-failure --node node-b on inline nodes: exit %d, %q", code, errOut)
	}
}

// Every story `trace` offers (its subcommands, the registry) has its title
// in the trace catalogue in both languages and a golden case above: a new
// story that forgets either fails here, not in a reader's terminal.
func TestEveryStoryHasATitleAndAGolden(t *testing.T) {
	cases := map[string]bool{}
	for _, tc := range storyCases {
		cases[tc.dir] = true
	}
	n := 0
	for _, sub := range NewCmdTrace(&Factory{Config: newConfig()}).Commands() {
		name := sub.Name()
		if name == "apply" || name == "watch" { // apply has the phases' titles; watch is no story of the cluster
			continue
		}
		n++
		for _, lang := range []string{"en", "ru"} {
			if _, ok := trace.Texts(lang).Msg("ui.story." + name); !ok {
				t.Errorf("trace %s: no ui.story.%s in the %s catalogue", name, name, lang)
			}
		}
		if !cases["trace-"+name] {
			t.Errorf("trace %s: no golden case in storyCases", name)
		}
	}
	if n == 0 {
		t.Fatal("NewCmdTrace registers no story")
	}
}

// The autoscale story's table on the default curve (40 %, 120 %, 120 %,
// 20 % a minute each, target 50 %): the first sync over target wants 8
// and the scale-up policy allows 7; the scale-down comes only once the
// 300 s window holds no higher recommendation — 300 s after the last
// recommendation of 7 —, and lands on 2.
func TestAutoscaleWindows(t *testing.T) {
	inRoot(t)
	j := storyJSON(t, "trace", "autoscale", "-f", "examples/app.yaml")
	var tab [][]string
	for _, tb := range j.Tables {
		tab = tb.Rows
	}
	secs := func(s string) int {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("time %q: %v", s, err)
		}
		return int(d.Seconds())
	}
	up, lastHigh, firstLow, down := -1, -1, -1, -1
	for _, r := range tab {
		if firstLow < 0 && atoi(r[6]) >= 7 {
			lastHigh = secs(r[0])
		}
		switch {
		case up < 0 && r[8] == "7":
			up = secs(r[0])
			if r[6] != "8" || r[9] != "ScaleUpLimit" {
				t.Errorf("scale-up row %v: want proposed 8 limited to 7 (ScaleUpLimit)", r)
			}
		case up >= 0 && firstLow < 0 && r[6] == "2":
			firstLow = secs(r[0])
		case firstLow >= 0 && down < 0 && r[8] == "2":
			down = secs(r[0])
		}
	}
	if up < 0 || firstLow < 0 || down < 0 {
		t.Fatalf("want a scale-up to 7, a proposal of 2 and a scale-down to 2; table %v", tab)
	}
	if w := down - lastHigh; w < 300 || w > 315 {
		t.Errorf("scale-down %ds after the last recommendation of 7; want the 300 s window (one sync more at most)", w)
	}
	if down-firstLow >= 300 {
		t.Errorf("the window counts from the last high recommendation, not the first low one: %ds", down-firstLow)
	}
}

// Each per-pod NodeNotReady event line names its pod, as the OBJECT column
// of `kubectl get events` does: "Node is not ready" alone does not say
// which pod MarkPodsNotReady marked.
func TestNodeNotReadyEventsNameTheirPod(t *testing.T) {
	inRoot(t)
	out, errOut, code := run(t, "", "trace", "node-failure", "--node", "node-b")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	marked := regexp.MustCompile(`pods on node-b marked Ready=False: (.*)`).FindStringSubmatch(out)
	if marked == nil {
		t.Fatalf("no MarkPodsNotReady line:\n%s", out)
	}
	var named []string
	for _, m := range regexp.MustCompile(`Event Warning NodeNotReady (\S*): Node is not ready`).FindAllStringSubmatch(out, -1) {
		named = append(named, m[1])
	}
	var want []string
	for _, p := range strings.Split(marked[1], ", ") {
		want = append(want, "pod/"+p)
	}
	slices.Sort(named)
	slices.Sort(want)
	if !slices.Equal(named, want) {
		t.Errorf("NodeNotReady event lines name %q, want one per marked pod %q", named, want)
	}
	if !strings.Contains(out, "Event Normal NodeNotReady node/node-b: Node node-b status is now: NodeNotReady") {
		t.Error("the Node's NodeNotReady event line does not name node/node-b")
	}
}

// The rollout table's pods column counts the pods that exist when the
// ReplicaSet sizes change (the Deployment controller's pod cache,
// terminating ones too), not the sizes again: at the first scaling the new
// ReplicaSet is 1 but its pod is not created yet, so 3 pods exist while
// old + new is 4 (the bound replicas + maxSurge is on the sizes:
// rolling.go NewRSNewReplicas sums spec.replicas).
func TestRolloutTableCountsExistingPods(t *testing.T) {
	inRoot(t)
	out, errOut, code := run(t, "", "trace", "rollout", "-f", "examples/app.yaml", "--image", "web=nginx:1.28")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	i := strings.Index(out, "Rollout table:")
	if i < 0 || !strings.Contains(out[i:], "pods existing") || !strings.Contains(out[i:], "old + new (≤ replicas + maxSurge)") {
		t.Fatalf("no rollout table with sizes and existing pods:\n%s", out)
	}
	// step, old RS, new RS, old + new, pods existing, of them terminating, available
	rows := regexp.MustCompile(`(?m)^(\d+) +(\d+) +(\d+) +(\d+) +(\d+) +(\d+) +(\d+)$`).FindAllStringSubmatch(out[i:], -1)
	if len(rows) == 0 || rows[0][4] != "4" || rows[0][5] != "3" {
		t.Fatalf("first row %v, want old + new 4 and 3 pods existing", rows)
	}
	differ := false
	for _, r := range rows {
		differ = differ || r[4] != r[5]
	}
	if !differ {
		t.Errorf("pods existing equals old + new in every row: %v", rows)
	}
}

// A StatefulSet's pod on a dead node is evicted but never replaced: the
// replacement would have its name, so the controller waits for the object
// to go (and says so) — unlike the Deployment's, whose ReplicaSet creates
// a new pod at once.
func TestNodeFailureStatefulSetWaits(t *testing.T) {
	inRoot(t)
	j := storyJSON(t, "trace", "node-failure", "-f", "examples/statefulset.yaml", "--node", "node-a", "--bare-pod=false")
	waits := 0
	for _, s := range j.Steps {
		switch s.Kind {
		case "statefulset.create":
			t.Errorf("at %dms the StatefulSet created %s while the old pod existed", s.AtMS, s.Fields["pod"])
		case "statefulset.terminating":
			waits++
		}
	}
	if waits != 1 {
		t.Errorf("%d statefulset.terminating steps, want 1", waits)
	}
}

// A StatefulSet's rolling update with partition 1: web-2 is replaced
// first, then web-1 — each only after the one before is Ready — and web-0,
// below the partition, keeps the old revision.
func TestStatefulSetRolloutPartition(t *testing.T) {
	inRoot(t)
	args := []string{"trace", "rollout", "-f", "examples/statefulset.yaml", "--statefulset", "web", "--image", "nginx=registry.k8s.io/nginx-slim:0.28", "--partition", "1"}
	runGolden(t, "trace-rollout/statefulset.en.txt", args...)
	runGolden(t, "trace-rollout/statefulset.ru.txt", append([]string{"--lang", "ru"}, args...)...)
	runGolden(t, "trace-rollout/statefulset.en.md", append([]string{"--format", "markdown"}, args...)...)
	j := storyJSON(t, args...)
	var updated []string
	for _, s := range j.Steps {
		if s.Kind == "statefulset.update" {
			updated = append(updated, s.Fields["pod"])
		}
	}
	if strings.Join(updated, ",") != "web-2,web-1" {
		t.Errorf("updated %v, want web-2 then web-1 (web-0 is below the partition)", updated)
	}
	rows := j.Tables[len(j.Tables)-1].Rows
	if len(rows) != 3 || rows[0][2] != "sts.no" && !strings.HasPrefix(rows[0][2], "no") || rows[1][1] != rows[2][1] || rows[0][1] == rows[1][1] {
		t.Errorf("pods at the end: %v; want web-0 on the old revision, web-1 and web-2 on the new one", rows)
	}
}

// minReadySeconds (examples/min-ready.yaml: 30 s, maxSurge 1,
// maxUnavailable 0): the new ReplicaSet reports its pod Ready but not yet
// available, then available 30 s later, and only then is an old pod
// removed; three such steps of about 40 s make the rollout about 120 s.
func TestRolloutMinReadySeconds(t *testing.T) {
	inRoot(t)
	args := []string{"-v", "trace", "rollout", "examples/min-ready.yaml", "--image", "web=nginx:1.28"}
	runGolden(t, "trace-rollout/min-ready.verbose.en.txt", args...)
	runGolden(t, "trace-rollout/min-ready.verbose.ru.txt", append([]string{"--lang", "ru"}, args...)...)
	j := storyJSON(t, args...)
	var readyAt, availableAt, lastScale int64 = -1, -1, -1
	for _, s := range j.Steps {
		switch {
		case s.Kind == "replicaset.status" && s.Fields["ready"] == "1" && s.Fields["available"] == "0" && readyAt < 0:
			readyAt = s.AtMS
		case s.Kind == "replicaset.status" && s.Fields["ready"] == "1" && s.Fields["available"] == "1" && readyAt >= 0 && availableAt < 0:
			availableAt = s.AtMS
		case s.Kind == "deployment.rollout":
			lastScale = s.AtMS
		}
	}
	if readyAt < 0 || availableAt-readyAt < 30000 {
		t.Errorf("the first new pod: Ready at %dms, available at %dms; want available ≥ 30 s after Ready", readyAt, availableAt)
	}
	if lastScale < 120000 || lastScale > 125000 {
		t.Errorf("the last scaling at %dms, want about 120 s", lastScale)
	}
}
