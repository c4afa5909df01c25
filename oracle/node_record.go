package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
)

// nodeScenarios run against the real node (issue 24); their fixtures are
// testdata/<version>/node/<name>.json.
var nodeScenarios = []scenario{
	{Name: "node-app", Steps: []step{applyStep("examples/app.yaml")}},
	{Name: "node-init", Steps: []step{applyStep("examples/init.yaml")}},
	{Name: "node-rollout", Steps: []step{applyStep("examples/app.yaml"), setImageStep("web", "web", "nginx:1.28")}},
	{Name: "node-delete-prestop", Steps: []step{applyStep("oracle/scenarios/prestop.yaml"), deletePodStep()}},
	// the simulator's crash reasons (trace crash --reason), once each:
	// the back-off between exit and restart needs a longer quiet
	{Name: "node-crash-panic", Quiet: 25 * time.Second, Steps: []step{applyStep("examples/app.yaml"), crashStep("panic")}},
	{Name: "node-crash-oom", Quiet: 25 * time.Second, Steps: []step{applyStep("examples/app.yaml"), crashStep("oom")}},
	{Name: "node-crash-liveness", Quiet: 25 * time.Second, Steps: []step{applyStep("examples/app.yaml"), crashStep("liveness")}},
}

// crashStep makes the first pod's (by name) web container fail the way
// reason says, once: the stand-in server's /crash (oracle/images/server),
// asked from the node's network namespace on the pod's IP. The simulator
// replays it as `trace crash --reason REASON --times 1` does.
func crashStep(reason string) step {
	return step{Name: "crash", Command: "crash <first pod> --reason " + reason + " --times 1", run: func(ctx context.Context, c *cluster, ns string) error {
		name, ip, err := c.firstPod(ctx, ns, "{.status.podIP}")
		if err != nil {
			return err
		}
		if ip == "" {
			return fmt.Errorf("first pod %s has no IP", name)
		}
		cl := http.Client{Timeout: 5 * time.Second}
		resp, err := cl.Get("http://" + ip + ":8080/crash?reason=" + reason)
		if err != nil {
			return fmt.Errorf("crash %s: %w", name, err)
		}
		resp.Body.Close()
		return nil
	}}
}

// nodeRun is what the real node showed during one scenario run.
type nodeRun struct {
	// PodStatus: each pod's status as the kubelet wrote it, write by write
	// (podStatusLine), in the order the audit log has them.
	PodStatus [][]string `json:"podStatus"`
	// CRI: each pod's CRI calls as containerd logged them, in order.
	CRI [][]string `json:"cri"`
	// Pulls are the images the kubelet had containerd pull, in order.
	Pulls []string `json:"pulls"`
	// IPTables is `iptables-save -t nat` of the node, normalized, with the
	// scenario's Services in place.
	IPTables []string `json:"iptables"`
	// Cgroups: each container's cgroup v1 values (nodeCgroups).
	Cgroups []string `json:"cgroups"`
	// calls are the scenario's CRI log lines (criCall), up to its end.
	calls []string
	// Restarts: each container restart the kubelet reported, with the
	// back-off between the old container's finishedAt and the new one's
	// startedAt (restartLines).
	Restarts []string `json:"restarts"`
}

// NodeFixture is one node scenario as recorded: what held in every run.
type NodeFixture struct {
	Fixture
	// PodStatus: each distinct per-pod status sequence seen in every run,
	// with the fewest pods that showed it in one run.
	PodStatus []SeqCount `json:"podStatus"`
	CRI       []SeqCount `json:"cri"`
	Pulls     []string   `json:"pulls"`
	IPTables  []string   `json:"iptables"`
	// Cgroups: each container's cgroup v1 values that held in every run
	// (nodeCgroups); Cgroup says which version and driver the node used.
	Cgroups  []string `json:"cgroups"`
	Cgroup   string   `json:"cgroup"`
	Restarts []string `json:"restarts"`
}

type SeqCount struct {
	Seq   []string `json:"seq"`
	Count int      `json:"count"`
}

// runNodeRecording records the node scenarios -runs times, each run in
// fresh namespaces (a child process), and writes their fixtures.
func runNodeRecording(ctx context.Context, ver, only string, runs int, keep bool) error {
	var all []map[string]*scenarioRun
	t0 := time.Now()
	for i := 1; i <= runs; i++ {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		logv("node run %d of %d", i, runs)
		out, err := os.CreateTemp("", "k8sexplain-oracle-node-*.json")
		if err != nil {
			return err
		}
		out.Close()
		defer os.Remove(out.Name())
		args := []string{"-no-build", "-repo", repoRoot, "-node-run-out", out.Name()}
		if only != "" {
			args = append(args, "-only", only)
		}
		if keep {
			args = append(args, "-keep")
		}
		if err := runNodeParent(args); err != nil {
			return fmt.Errorf("node run %d: %w", i, err)
		}
		b, err := os.ReadFile(out.Name())
		if err != nil {
			return err
		}
		var r map[string]*scenarioRun
		if err := json.Unmarshal(b, &r); err != nil {
			return fmt.Errorf("node run %d: %w", i, err)
		}
		all = append(all, r)
	}
	logv("recorded %d node runs in %s", runs, time.Since(t0).Round(time.Second))
	dir := filepath.Join(repoRoot, "oracle", "testdata", strings.Join(strings.Split(ver, ".")[:2], "."), "node")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, sc := range nodeScenarios {
		if all[0][sc.Name] == nil {
			continue
		}
		fx := NodeFixture{Fixture: mergeScenario(sc, all), Cgroup: "v1 (cgroupfs driver; cgroup2 is mounted beside it without controllers)"}
		var ps, cri [][][]string
		var pulls, ipt, cgs, rs [][]string
		for _, r := range all {
			nr := r[sc.Name].Node
			ps, cri = append(ps, nr.PodStatus), append(cri, nr.CRI)
			pulls, ipt, cgs = append(pulls, nr.Pulls), append(ipt, nr.IPTables), append(cgs, nr.Cgroups)
			rs = append(rs, nr.Restarts)
		}
		fx.Restarts = commonLines(rs)
		fx.PodStatus, fx.CRI = mergeSeqs(ps), mergeSeqs(cri)
		fx.Pulls, fx.IPTables, fx.Cgroups = commonLines(pulls), commonLines(ipt), commonLines(cgs)
		b, err := json.MarshalIndent(fx, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, sc.Name+".json"), append(b, '\n'), 0o644); err != nil {
			return err
		}
		logv("wrote %s", filepath.Join(dir, sc.Name+".json"))
	}
	fixtures, err := filepath.Glob(filepath.Join(dir, "node-*.json"))
	if err != nil {
		return err
	}
	meta := map[string]any{"kubernetes": ver, "runs": runs, "containerd": envOr("CONTAINERD_VERSION", "v2.2.0"),
		"runc": envOr("RUNC_VERSION", "v1.3.3"), "registry": envOr("REGISTRY_VERSION", "v3.0.0"), "cni": "Debian containernetworking-plugins",
		"scenarios": len(fixtures)}
	b, _ := json.MarshalIndent(meta, "", "  ")
	return os.WriteFile(filepath.Join(dir, "meta.json"), append(b, '\n'), 0o644)
}

// mergeSeqs keeps each distinct sequence seen in every run, counted by the
// fewest pods that showed it in one run.
func mergeSeqs(runs [][][]string) []SeqCount {
	var counts []map[string]int
	for _, r := range runs {
		m := map[string]int{}
		for _, s := range r {
			m[strings.Join(s, "\x00")]++
		}
		counts = append(counts, m)
	}
	out := []SeqCount{}
	if len(counts) == 0 {
		return out
	}
	for k, n := range counts[0] {
		for _, m := range counts[1:] {
			n = min(n, m[k])
		}
		if n > 0 {
			out = append(out, SeqCount{Seq: strings.Split(k, "\x00"), Count: n})
		}
	}
	sort.Slice(out, func(i, j int) bool { return canon(out[i]) < canon(out[j]) })
	return out
}

// commonLines keeps the lines of the first run that every run has, in the
// first run's order.
func commonLines(runs [][]string) []string {
	out := []string{}
	if len(runs) == 0 {
		return out
	}
	for _, l := range runs[0] {
		ok := true
		for _, r := range runs[1:] {
			if !slices.Contains(r, l) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, l)
		}
	}
	return out
}

// runNodeChild runs inside the namespaces runNodeParent made: one control
// plane (without kwok) and the real node, every node scenario once.
func runNodeChild(ctx context.Context, cache, only, out string, keep bool) error {
	dir, err := os.MkdirTemp("", "k8sexplain-oracle-node-")
	if err != nil {
		return err
	}
	defer func() {
		if !keep {
			os.RemoveAll(dir)
		} else {
			logv("kept %s", dir)
		}
	}()
	cg, err := waitForCgroup()
	if err != nil {
		return err
	}
	if err := setupNodeNamespaces(dir); err != nil {
		return err
	}
	c := &cluster{bin: filepath.Join(cache, "bin"), dir: dir, realNode: true}
	defer c.stop()
	t0 := time.Now()
	if err := c.up(ctx); err != nil {
		return err
	}
	logv("control plane up in %s", time.Since(t0).Round(time.Millisecond))
	n := &node{c: c, dir: dir, cg: cg}
	if err := n.up(ctx, cache); err != nil {
		return err
	}
	var criOff int64
	// what came before the first scenario (the node's own start) is not a
	// scenario's
	if _, err := criCalls(filepath.Join(dir, "containerd.log"), &criOff); err != nil {
		return err
	}
	var cur *nodeRun
	c.afterSteps = func(ctx context.Context, ns string) error {
		out, err := exec.CommandContext(ctx, "iptables-save", "-t", "nat").Output()
		if err != nil {
			return fmt.Errorf("iptables-save: %w", err)
		}
		cur.IPTables = normalizeIPTables(string(out), ns)
		// the scenario's CRI calls end here: the namespace's deletion that
		// follows stops its containers, which is no step of the scenario
		if cur.calls, err = criCalls(filepath.Join(dir, "containerd.log"), &criOff); err != nil {
			return err
		}
		cur.Cgroups, err = nodeCgroups(cg, filepath.Join(dir, "containerd.log"))
		return err
	}
	var off int64
	res := map[string]*scenarioRun{}
	for _, sc := range nodeScenarios {
		if only != "" && !slices.Contains(strings.Split(only, ","), sc.Name) {
			continue
		}
		t := time.Now()
		cur = &nodeRun{}
		if err := n.forgetImages(ctx); err != nil {
			return err
		}
		r, err := recordScenario(ctx, c, sc, &off)
		if err != nil {
			return fmt.Errorf("%s: %w", sc.Name, err)
		}
		// skip what the namespace's deletion made the runtime do
		if _, err := criCalls(filepath.Join(dir, "containerd.log"), &criOff); err != nil {
			return err
		}
		for i := range r.Steps {
			for j := range r.Steps[i].Events {
				e := &r.Steps[i].Events[j]
				e.Message = normalizeNodeMessage(e.Message)
			}
		}
		nz := newNormalizer("oracle-"+sc.Name, r.raw)
		cur.PodStatus, cur.Restarts = podStatusSeqs(r.raw, nz)
		cur.CRI, cur.Pulls = criByPod(cur.calls)
		r.Node = cur
		res[sc.Name] = r
		logv("  %s recorded in %s", sc.Name, time.Since(t).Round(time.Millisecond))
	}
	b, err := json.Marshal(res)
	if err != nil {
		return err
	}
	return os.WriteFile(out, b, 0o644)
}

// podStatusSeqs: per pod, the kubelet's status writes (PATCH pods/status by
// system:node:*) as podStatusLine, in audit order.
func podStatusSeqs(raw [][]auditEvent, nz *normalizer) ([][]string, []string) {
	byPod := map[string][]string{}
	var order, restarts []string
	seen := map[string]bool{}
	for _, evs := range raw {
		for _, ev := range evs {
			if ev.ObjectRef.Resource != "pods" || ev.ObjectRef.Subresource != "status" ||
				!strings.HasPrefix(ev.User.Username, "system:node:") || len(ev.ResponseObject) == 0 {
				continue
			}
			var p podJSON
			if json.Unmarshal(ev.ResponseObject, &p) != nil {
				continue
			}
			name := ev.ObjectRef.Name
			if _, ok := byPod[name]; !ok {
				order = append(order, name)
			}
			byPod[name] = append(byPod[name], podStatusLine(p))
			for _, l := range restartLines(p) {
				if !seen[name+l] {
					seen[name+l] = true
					restarts = append(restarts, l)
				}
			}
		}
	}
	out := [][]string{}
	for _, name := range order {
		out = append(out, byPod[name])
	}
	sort.Strings(restarts)
	return out, restarts
}

// restartLines: for each restarted container that runs again, "NAME
// restart N: back-off Ds" — from the last termination's finishedAt to
// the running container's startedAt, in whole seconds (the kubelet's
// restart back-off, pkg/kubelet/kuberuntime doBackOff).
func restartLines(p podJSON) []string {
	var out []string
	for _, c := range append(p.Status.InitContainerStatuses, p.Status.ContainerStatuses...) {
		run, ok := c.State["running"]
		if c.RestartCount == 0 || !ok || run.StartedAt == "" || c.LastState.Terminated == nil {
			continue
		}
		start, err1 := time.Parse(time.RFC3339, run.StartedAt)
		end, err2 := time.Parse(time.RFC3339, c.LastState.Terminated.FinishedAt)
		if err1 != nil || err2 != nil {
			continue
		}
		out = append(out, fmt.Sprintf("%s restart %d: back-off %ds", c.Name, c.RestartCount, int(start.Sub(end).Round(time.Second).Seconds())))
	}
	return out
}

type podJSON struct {
	Status struct {
		Phase      string
		Conditions []struct{ Type, Status, Reason string }
		HostIP     string
		PodIP      string
		StartTime  string
		InitContainerStatuses,
		ContainerStatuses []containerStatusJSON
	}
}

type containerStatusJSON struct {
	Name         string
	Ready        bool
	Started      *bool
	RestartCount int
	State        map[string]struct {
		Reason    string
		ExitCode  *int
		StartedAt string
	}
	LastState struct {
		Terminated *struct{ FinishedAt string }
	}
}

// podStatusLine is one status as a line: phase; conditions in their order
// (TYPE=STATUS[/REASON]); each container's state (NAME=STATE[/REASON]
// [ready][started] restarts); which of hostIP, podIP and startTime are set.
// The simulator's side (internal/oracle node.go) writes the same line.
func podStatusLine(p podJSON) string {
	s := p.Status
	var conds []string
	for _, c := range s.Conditions {
		x := c.Type + "=" + c.Status
		if c.Reason != "" {
			x += "/" + c.Reason
		}
		conds = append(conds, x)
	}
	cs := func(l []containerStatusJSON) string {
		var out []string
		for _, c := range l {
			x := c.Name + "="
			for k, v := range c.State { // one key: waiting, running or terminated
				x += k
				if v.Reason != "" {
					x += "/" + v.Reason
				}
				if v.ExitCode != nil {
					x += fmt.Sprintf("/%d", *v.ExitCode)
				}
			}
			if c.Ready {
				x += " ready"
			}
			if c.Started != nil && *c.Started {
				x += " started"
			}
			if c.RestartCount > 0 {
				x += fmt.Sprintf(" restarts=%d", c.RestartCount)
			}
			out = append(out, x)
		}
		return strings.Join(out, ", ")
	}
	var set []string
	for _, f := range []struct{ name, v string }{{"hostIP", s.HostIP}, {"podIP", s.PodIP}, {"startTime", s.StartTime}} {
		if f.v != "" {
			set = append(set, f.name)
		}
	}
	return fmt.Sprintf("%s | %s | init: %s | containers: %s | %s", s.Phase, strings.Join(conds, " "), cs(s.InitContainerStatuses), cs(s.ContainerStatuses), strings.Join(set, " "))
}

// containerd's CRI log lines (internal/cri/instrument/instrumented_service.go,
// v2.2), with the request's metadata in protobuf text form as containerd
// v2.2.0 logged it on this machine: RunPodSandbox for name:\"web-…\"
// uid:\"…\" namespace:\"…\" [attempt:N]; CreateContainer within sandbox
// \"ID\" for container name:\"web\" [attempt:N], and its answer "for
// name:\"web\" … returns container id".
var (
	criMsg      = regexp.MustCompile(`msg="((?:[^"\\]|\\.)*)"`)
	criSandbox  = regexp.MustCompile(`^RunPodSandbox for name:\\"([^\\]*)\\".* returns sandbox id \\"([0-9a-f]+)\\"$`)
	criCreated  = regexp.MustCompile(`^CreateContainer within sandbox \\"([0-9a-f]+)\\" for name:\\"([^\\]*)\\"(?: attempt:(\d+))? returns container id \\"([0-9a-f]+)\\"$`)
	criCreate   = regexp.MustCompile(`^CreateContainer within sandbox \\"([0-9a-f]+)\\" for container name:\\"([^\\]*)\\"`)
	criOnID     = regexp.MustCompile(`^(StartContainer|StopContainer|RemoveContainer|StopPodSandbox|RemovePodSandbox) for \\"([0-9a-f]+)\\"`)
	criPull     = regexp.MustCompile(`^PullImage \\"([^\\]+)\\"$`)
	criRunStart = regexp.MustCompile(`^RunPodSandbox for name:\\"([^\\]*)\\"`)
)

// criCall keeps a log line that starts a CRI call (or reports the id a
// RunPodSandbox or CreateContainer returned), as its msg.
func criCall(line string) (string, bool) {
	m := criMsg.FindStringSubmatch(line)
	if m == nil {
		return "", false
	}
	msg := m[1]
	for _, re := range []*regexp.Regexp{criSandbox, criCreated, criCreate, criOnID, criPull, criRunStart} {
		if re.MatchString(msg) {
			if re == criOnID && strings.Contains(msg, "returns") {
				return "", false
			}
			return msg, true
		}
	}
	return "", false
}

// criByPod groups the CRI calls by pod, containers by name:
// "RunPodSandbox", "CreateContainer web", "StartContainer web", …
func criByPod(calls []string) ([][]string, []string) {
	sandboxPod := map[string]string{}
	ctr := map[string][2]string{} // container id -> sandbox, name
	byPod := map[string][]string{}
	var order []string
	var pulls []string
	add := func(pod, what string) {
		if _, ok := byPod[pod]; !ok {
			order = append(order, pod)
		}
		byPod[pod] = append(byPod[pod], what)
	}
	// ids are known only from the "returns" lines: resolve in two passes
	for _, c := range calls {
		if m := criSandbox.FindStringSubmatch(c); m != nil {
			sandboxPod[m[2]] = m[1]
		}
		if m := criCreated.FindStringSubmatch(c); m != nil {
			ctr[m[4]] = [2]string{m[1], m[2]}
		}
	}
	for _, c := range calls {
		switch {
		case criRunStart.MatchString(c) && !strings.Contains(c, "returns"):
			add(criRunStart.FindStringSubmatch(c)[1], "RunPodSandbox")
		case criCreate.MatchString(c):
			m := criCreate.FindStringSubmatch(c)
			add(sandboxPod[m[1]], "CreateContainer "+m[2])
		case criOnID.MatchString(c):
			m := criOnID.FindStringSubmatch(c)
			if strings.HasSuffix(m[1], "PodSandbox") {
				add(sandboxPod[m[2]], m[1])
			} else if x, ok := ctr[m[2]]; ok {
				add(sandboxPod[x[0]], m[1]+" "+x[1])
			}
		case criPull.MatchString(c):
			pulls = append(pulls, criPull.FindStringSubmatch(c)[1])
		}
	}
	out := [][]string{}
	for _, p := range order {
		if p == "" {
			continue
		}
		out = append(out, byPod[p])
	}
	return out, pulls
}

// normalizeIPTables keeps kube-proxy's lines of the nat table with the
// namespace, pod and cluster IPs by role; hashes in chain names stay (they
// come from the Service's namespace/name/port, here "default" for ns only
// after replacement, so they are dropped to KUBE-SVC-<hash>).
func normalizeIPTables(save, ns string) []string {
	chainHash := regexp.MustCompile(`(KUBE-(?:SVC|SEP|FW|EXT|XLB|SVL)-)[A-Z0-9]{16}`)
	ip := regexp.MustCompile(`\b10\.244\.\d+\.\d+\b`)
	cip := regexp.MustCompile(`\b10\.(9[6-9]|10\d|11[01])\.\d+\.\d+\b`)
	var out []string
	for _, l := range strings.Split(save, "\n") {
		if l == "" || strings.HasPrefix(l, "#") || !strings.Contains(l, "KUBE-") {
			continue
		}
		if strings.HasPrefix(l, ":") { // chain with its counters
			l = strings.Fields(l)[0]
		}
		l = strings.ReplaceAll(l, ns+"/", "default/")
		l = chainHash.ReplaceAllString(l, "${1}<hash>")
		l = ip.ReplaceAllString(l, "<podIP>")
		l = cip.ReplaceAllString(l, "<clusterIP>")
		out = append(out, l)
	}
	return out
}

// smokePod is examples/app.yaml's pod template as a static pod: what the
// standalone kubelet runs in -node-smoke.
const smokePod = `apiVersion: v1
kind: Pod
metadata:
  name: web
  namespace: default
spec:
  containers:
  - name: web
    image: nginx:1.27
    ports:
    - {name: http, containerPort: 8080}
    resources:
      requests: {cpu: 250m, memory: 128Mi}
      limits: {cpu: 500m, memory: 256Mi}
    readinessProbe:
      httpGet: {path: /healthz, port: http}
      initialDelaySeconds: 2
      periodSeconds: 5
    livenessProbe:
      httpGet: {path: /healthz, port: http}
      periodSeconds: 10
`

// runNodeSmoke runs inside the namespaces runNodeParent made: the registry,
// containerd and a standalone kubelet (no API server) running app.yaml's
// pod as a static pod, until the pod answers on its IP. It checks that
// the node runs on this machine while the control plane is not built.
func runNodeSmoke(ctx context.Context, cache string, keep bool) error {
	dir, err := os.MkdirTemp("", "k8sexplain-oracle-smoke-")
	if err != nil {
		return err
	}
	defer func() {
		if !keep {
			os.RemoveAll(dir)
		} else {
			logv("kept %s", dir)
		}
	}()
	cg, err := waitForCgroup()
	if err != nil {
		return err
	}
	if err := setupNodeNamespaces(dir); err != nil {
		return err
	}
	c := &cluster{bin: filepath.Join(cache, "bin"), dir: dir}
	defer c.stop()
	n := &node{c: c, dir: dir, cg: cg, standalone: true}
	if err := writeFile(n.path("manifests", "web.yaml"), smokePod); err != nil {
		return err
	}
	t0 := time.Now()
	if err := n.up(ctx, cache); err != nil {
		return err
	}
	var ip string
	if err := c.waitFor(ctx, 180*time.Second, "the static pod to answer on its IP", func() bool {
		ents, _ := os.ReadDir(n.path("cni", "ipam", "oracle"))
		for _, e := range ents {
			if net.ParseIP(e.Name()) != nil {
				ip = e.Name()
			}
		}
		if ip == "" {
			return false
		}
		cl := http.Client{Timeout: time.Second}
		resp, err := cl.Get("http://" + ip + ":8080/healthz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 200
	}); err != nil {
		return err
	}
	logv("static pod answered on %s:8080 %s after containerd's start", ip, time.Since(t0).Round(time.Millisecond))
	var off int64
	calls, err := criCalls(filepath.Join(dir, "containerd.log"), &off)
	if err != nil {
		return err
	}
	pods, pulls := criByPod(calls)
	logv("CRI calls per pod: %q; pulls: %q", pods, pulls)
	return nil
}

// waitForCgroup waits until the parent has moved this process into its
// cgroup (right after starting it), so every process started from here
// is inside, and returns the cgroup's name.
func waitForCgroup() (string, error) {
	cg := os.Getenv(nodeCgroupEnv)
	for i := 0; ; i++ {
		b, _ := os.ReadFile("/proc/self/cgroup")
		if strings.Contains(string(b), "/"+cg+"\n") {
			return cg, nil
		}
		if i == 100 {
			return "", fmt.Errorf("not moved into cgroup %s", cg)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

var hexID = regexp.MustCompile(`^[0-9a-f]{64}$`)

// nodeCgroups reads the cgroup v1 values runc wrote for every container of
// the node (under the kubelet's cgroupRoot cg): the ones the simulator's
// cgroup v2 values correspond to (cpu.shares → cpu.weight by runc's
// conversion, cfs quota/period → cpu.max, memory.limit_in_bytes →
// memory.max), as "QOS/CONTAINER: key=value …", sorted; the sandbox's
// (pause) container reads POD. containerd's log names the containers.
func nodeCgroups(cg, containerdLog string) ([]string, error) {
	var off int64
	calls, err := criCalls(containerdLog, &off)
	if err != nil {
		return nil, err
	}
	names := map[string]string{}
	for _, c := range calls {
		if m := criSandbox.FindStringSubmatch(c); m != nil {
			names[m[2]] = "POD"
		}
		if m := criCreated.FindStringSubmatch(c); m != nil {
			names[m[4]] = m[2]
		}
	}
	root := filepath.Join("/sys/fs/cgroup/cpu", cg)
	var out []string
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() || !hexID.MatchString(d.Name()) {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		qos := "guaranteed"
		if parts := strings.Split(rel, "/"); len(parts) > 1 && (parts[1] == "burstable" || parts[1] == "besteffort") {
			qos = parts[1]
		}
		read := func(h, f string) string {
			b, err := os.ReadFile(filepath.Join("/sys/fs/cgroup", h, cg, rel, f))
			if err != nil {
				return "?"
			}
			return strings.TrimSpace(string(b))
		}
		name := names[d.Name()]
		if name == "" {
			name = "?"
		}
		out = append(out, fmt.Sprintf("%s/%s: cpu.shares=%s cpu.cfs_quota_us=%s cpu.cfs_period_us=%s memory.limit_in_bytes=%s",
			qos, name, read("cpu", "cpu.shares"), read("cpu", "cpu.cfs_quota_us"), read("cpu", "cpu.cfs_period_us"), read("memory", "memory.limit_in_bytes")))
		return filepath.SkipDir
	})
	sort.Strings(out)
	return out, err
}

var (
	durationRE = regexp.MustCompile(`\b\d+(\.\d+)?(ns|µs|us|ms|s|m)\b`)
	uidRE      = regexp.MustCompile(`\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`)
)

// normalizeNodeMessage replaces what differs between runs in a kubelet
// event's message: durations (pull times) and pod UIDs (back-off
// messages). internal/oracle node.go does the same to the simulator's.
func normalizeNodeMessage(m string) string {
	return uidRE.ReplaceAllString(durationRE.ReplaceAllString(m, "<duration>"), "<uid>")
}

// forgetImages removes the example images containerd pulled for an earlier
// scenario (all but the pinned pause image), so every scenario starts with
// the cold image cache the simulator starts with: the kubelet pulls again
// ("Pulling", "Successfully pulled") instead of "already present on
// machine". Unused layers are left to containerd's garbage collector.
func (n *node) forgetImages(ctx context.Context) error {
	var refs []string
	for _, im := range oracleImages("") {
		if im.Ref != pauseImage {
			refs = append(refs, im.Ref)
		}
	}
	args := append([]string{"--address", n.sock(), "-n", "k8s.io", "images", "rm", "--sync"}, refs...)
	out, err := exec.CommandContext(ctx, filepath.Join(n.c.bin, "ctr"), args...).CombinedOutput()
	if err != nil && !strings.Contains(string(out), "not found") {
		return fmt.Errorf("ctr images rm: %v: %s", err, out)
	}
	return nil
}
