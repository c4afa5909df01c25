package oracle

import (
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubelet"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
)

// The real node's recordings (issue 24): kubelet, containerd, runc, the CNI
// bridge and kube-proxy, recorded by `oracle -node` into
// oracle/testdata/<version>/node/. A NodeFixture is the scenario as the
// control-plane fixtures have it (writes, events, final objects) plus what
// only a node shows.

// NodeFixture is one node scenario: what held in every run.
type NodeFixture struct {
	Fixture
	// PodStatus: each distinct per-pod sequence of the kubelet's status
	// writes (PodStatusLine), with the fewest pods that showed it in a run.
	PodStatus []SeqCount `json:"podStatus"`
	// CRI: each distinct per-pod sequence of CRI calls containerd logged.
	CRI []SeqCount `json:"cri"`
	// Pulls are the images pulled, in order.
	Pulls []string `json:"pulls"`
	// IPTables is the node's `iptables-save -t nat`, kube-proxy's lines,
	// IPs by role and chain hashes as <hash>.
	IPTables []string `json:"iptables"`
	// Cgroups are each container's cgroup v1 values (QOS/CONTAINER:
	// cpu.shares, cfs quota and period, memory.limit_in_bytes).
	Cgroups []string `json:"cgroups"`
	// Cgroup says which cgroup version and driver the real node used.
	Cgroup string `json:"cgroup"`
	// Restarts: "NAME restart N: back-off Ds", from the last termination's
	// finishedAt to the restarted container's startedAt (RestartLines).
	Restarts []string `json:"restarts"`
}

// nodeCheck says whether a Diff check comes from the node recordings.
func nodeCheck(check string) bool {
	switch check {
	case "node-event-missing", "node-event-extra", "pod-status", "cri", "iptables-missing", "iptables-extra", "cgroup", "restart":
		return true
	}
	return false
}

// SeqCount is a sequence and how many pods showed it.
type SeqCount struct {
	Seq   []string `json:"seq"`
	Count int      `json:"count"`
}

// NodeMeta is node/meta.json.
type NodeMeta struct {
	Kubernetes string `json:"kubernetes"`
	Runs       int    `json:"runs"`
	Containerd string `json:"containerd"`
	Runc       string `json:"runc"`
	Registry   string `json:"registry"`
	CNI        string `json:"cni"`
	Scenarios  int    `json:"scenarios"`
}

// LoadNodeFixtures reads node/meta.json and every node scenario, in name
// order.
func LoadNodeFixtures(root string) (NodeMeta, []NodeFixture, error) {
	var m NodeMeta
	dir := filepath.Join(root, Dir(), "node")
	if err := readJSON(filepath.Join(dir, "meta.json"), &m); err != nil {
		return m, nil, err
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return m, nil, err
	}
	sort.Strings(files)
	var out []NodeFixture
	for _, f := range files {
		if filepath.Base(f) == "meta.json" {
			continue
		}
		var fx NodeFixture
		if err := readJSON(f, &fx); err != nil {
			return m, nil, err
		}
		out = append(out, fx)
	}
	return m, out, nil
}

// PodStatusLine is one pod status as the recorder writes it
// (oracle/node_record.go podStatusLine): phase; conditions in their order;
// each container's state; which of hostIP, podIP and startTime are set.
func PodStatusLine(s corev1.PodStatus) string {
	var conds []string
	for _, c := range s.Conditions {
		x := string(c.Type) + "=" + string(c.Status)
		if c.Reason != "" {
			x += "/" + c.Reason
		}
		conds = append(conds, x)
	}
	cs := func(l []corev1.ContainerStatus) string {
		var out []string
		for _, c := range l {
			x := c.Name + "="
			switch st := c.State; {
			case st.Waiting != nil:
				x += "waiting"
				if st.Waiting.Reason != "" {
					x += "/" + st.Waiting.Reason
				}
			case st.Running != nil:
				x += "running"
			case st.Terminated != nil:
				x += "terminated"
				if st.Terminated.Reason != "" {
					x += "/" + st.Terminated.Reason
				}
				x += fmt.Sprintf("/%d", st.Terminated.ExitCode)
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
	if s.HostIP != "" {
		set = append(set, "hostIP")
	}
	if s.PodIP != "" {
		set = append(set, "podIP")
	}
	if s.StartTime != nil {
		set = append(set, "startTime")
	}
	return fmt.Sprintf("%s | %s | init: %s | containers: %s | %s", s.Phase, strings.Join(conds, " "),
		cs(s.InitContainerStatuses), cs(s.ContainerStatuses), strings.Join(set, " "))
}

// RestartLines: for each restarted container that runs again, "NAME
// restart N: back-off Ds", from its last termination's finishedAt to its
// startedAt in whole seconds (the recorder's restartLines).
func RestartLines(s corev1.PodStatus) []string {
	var out []string
	for _, c := range append(append([]corev1.ContainerStatus(nil), s.InitContainerStatuses...), s.ContainerStatuses...) {
		t := c.LastTerminationState.Terminated
		if c.RestartCount == 0 || c.State.Running == nil || c.State.Running.StartedAt.IsZero() || t == nil || t.FinishedAt.IsZero() {
			continue
		}
		d := c.State.Running.StartedAt.Sub(t.FinishedAt.Time).Round(time.Second)
		out = append(out, fmt.Sprintf("%s restart %d: back-off %ds", c.Name, c.RestartCount, int(d.Seconds())))
	}
	return out
}

// simRestarts are the RestartLines of every simulated status write, once
// per pod, sorted.
func simRestarts(ws []apiserver.Write) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range ws {
		p, ok := w.Object.(*corev1.Pod)
		if !ok || w.Namespace != "default" || w.Subresource != "status" || w.Code >= 300 {
			continue
		}
		for _, l := range RestartLines(p.Status) {
			if !seen[p.Name+l] {
				seen[p.Name+l] = true
				out = append(out, l)
			}
		}
	}
	sort.Strings(out)
	return out
}

// simPodStatus is, per pod in order of its first status write, the
// kubelets' status writes as PodStatusLine.
func simPodStatus(ws []apiserver.Write) [][]string {
	byPod := map[string][]string{}
	var order []string
	for _, w := range ws {
		if w.Namespace != "default" || w.Resource != "pods" || w.Subresource != "status" || !strings.HasPrefix(w.User, "system:node:") || w.Code >= 300 {
			continue
		}
		p, ok := w.Object.(*corev1.Pod)
		if !ok {
			continue
		}
		if _, ok := byPod[p.Name]; !ok {
			order = append(order, p.Name)
		}
		byPod[p.Name] = append(byPod[p.Name], PodStatusLine(p.Status))
	}
	out := make([][]string, 0, len(order))
	for _, n := range order {
		out = append(out, byPod[n])
	}
	return out
}

// simCRI is, per pod, the CRI calls the simulated kubelets made (their
// cri.* trace steps) in the recorder's shape, and the images pulled.
// ImagePresent (an ImageStatus answer) and PullImageFailed are not calls
// containerd logs at info.
func simCRI(steps []trace.Step) ([][]string, []string) {
	byPod := map[string][]string{}
	var order, pulls []string
	for _, s := range steps {
		call, ok := strings.CutPrefix(string(s.Kind), "cri.")
		if !ok || !strings.HasPrefix(s.Object, "pods/default/") {
			continue
		}
		var what string
		switch call {
		case "RunPodSandbox", "StopPodSandbox", "RemovePodSandbox":
			what = call
		case "CreateContainer", "StartContainer", "StopContainer", "RemoveContainer":
			what = call + " " + s.Get("container")
		case "PullImage":
			pulls = append(pulls, s.Get("image"))
			continue
		default:
			continue
		}
		if _, ok := byPod[s.Object]; !ok {
			order = append(order, s.Object)
		}
		byPod[s.Object] = append(byPod[s.Object], what)
	}
	out := make([][]string, 0, len(order))
	for _, o := range order {
		out = append(out, byPod[o])
	}
	return out, pulls
}

// CompareNode lists how the simulator's run differs from a node recording:
// the kubelet's events, each recorded per-pod status sequence and CRI call
// sequence (a simulated pod must show the same one), the images pulled and
// kube-proxy's nat rules.
func CompareNode(fx NodeFixture, run *SimRun) []Diff {
	var out []Diff
	add := func(check, what, detail string) {
		out = append(out, Diff{Check: check, Scenario: fx.Scenario, What: what, Detail: detail})
	}
	// the kubelet's events, by type, reason, object and message
	for i, st := range fx.Steps {
		if i >= len(run.Steps) {
			break
		}
		key := func(e Event) string {
			return fmt.Sprintf("%s %s %s: %s", e.Type, e.Reason, e.Object, NormalizeNodeMessage(e.Message))
		}
		real, sim := map[string]bool{}, map[string]bool{}
		for _, e := range st.Events {
			if e.Source == "kubelet" {
				real[key(e.Event)] = true
			}
		}
		for _, e := range run.Steps[i].Events {
			if e.Source == "kubelet" {
				sim[key(e)] = true
			}
		}
		for _, k := range sortedKeys(real) {
			if !sim[k] {
				add("node-event-missing", st.Name+": "+k, "the real kubelet recorded it; the simulator did not")
			}
		}
		for _, k := range sortedKeys(sim) {
			if !real[k] {
				add("node-event-extra", st.Name+": "+k, "the simulator recorded it; the real kubelet did not (in every run)")
			}
		}
	}
	seqs := func(check, what string, recorded []SeqCount, simulated [][]string) {
		have := map[string]bool{}
		for _, s := range simulated {
			have[strings.Join(s, "\n")] = true
		}
		for _, r := range recorded {
			if have[strings.Join(r.Seq, "\n")] {
				continue
			}
			// the simulated sequence closest to it: the longest shared start
			best, at := []string(nil), -1
			for _, s := range simulated {
				n := 0
				for n < len(s) && n < len(r.Seq) && s[n] == r.Seq[n] {
					n++
				}
				if n > at {
					best, at = s, n
				}
			}
			realLine, simLine := "(end)", "(end)"
			if at < 0 {
				at = 0
			}
			if at < len(r.Seq) {
				realLine = r.Seq[at]
			}
			if at < len(best) {
				simLine = best[at]
			}
			add(check, fmt.Sprintf("%s %d: %s", what, at+1, realLine), "simulated: "+simLine)
		}
	}
	simStatus := run.PodStatus
	seqs("pod-status", "write", fx.PodStatus, simStatus)
	seqs("cri", "call", fx.CRI, run.CRI)
	if r, s := strings.Join(uniq(fx.Pulls), ","), strings.Join(uniq(run.Pulls), ","); r != s {
		add("cri", "pulls: "+r, "simulated: "+s)
	}
	if r, s := strings.Join(fx.Restarts, "; "), strings.Join(uniq(run.Restarts), "; "); r != s {
		add("restart", "restarts: "+r, "simulated: "+s)
	}
	if len(fx.Cgroups) > 0 {
		simCg := map[string]bool{}
		for _, l := range run.Cgroups {
			simCg[l] = true
		}
		for _, l := range uniq(fx.Cgroups) {
			if !strings.Contains(l, "/POD: ") && !simCg[l] {
				add("cgroup", l, "the real node's value; simulated: "+strings.Join(run.Cgroups, "; "))
			}
		}
	}
	if len(fx.IPTables) > 0 {
		// iptables-save prints a rule in its own canonical order (addresses
		// as /32, -s -d -p before the matches): rules are compared by
		// their options, in any order (canonicalRule); the lines quoted are
		// each side's own.
		simRules := map[string]bool{}
		for _, l := range run.IPTables {
			simRules[canonicalRule(l)] = true
		}
		realRules := map[string]bool{}
		for _, l := range fx.IPTables {
			realRules[canonicalRule(l)] = true
			if !simRules[canonicalRule(l)] {
				add("iptables-missing", l, "in the real node's nat table, not in the simulated kube-proxy's")
			}
		}
		for _, l := range run.IPTables {
			if !realRules[canonicalRule(l)] {
				add("iptables-extra", l, "in the simulated kube-proxy's nat table, not in the real node's")
			}
		}
	}
	return out
}

func uniq(l []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range l {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// simIPTables is the nat table the simulated kube-proxy programs for the
// run's Services on node-a (kubeproxy.BuildIPTables, the one `dnat` and the
// trace use), normalized as the recorder normalizes iptables-save
// (oracle/node_record.go normalizeIPTables): kube-proxy's lines, IPs by
// role, chain hashes as <hash>.
func simIPTables(svcs []*corev1.Service, slices []*discoveryv1.EndpointSlice) []string {
	var ports []kubeproxy.ServicePort
	for _, s := range svcs {
		ports = append(ports, kubeproxy.FromAPI(s, slices)...)
	}
	rs := kubeproxy.BuildIPTables(kubeproxy.Config{ClusterCIDR: "10.244.0.0/16", NodeName: "node-a", NodeIP: "10.0.0.11"}, ports)
	var nat strings.Builder
	for _, c := range rs.NAT.Chains {
		fmt.Fprintf(&nat, ":%s - [0:0]\n", c)
	}
	nat.WriteString(rs.BuiltinRules("nat"))
	for _, r := range rs.NAT.Rules {
		nat.WriteString(r.Text() + "\n")
	}
	return NormalizeIPTables(nat.String(), "default")
}

var (
	chainHash = regexp.MustCompile(`(KUBE-(?:SVC|SEP|FW|EXT|XLB|SVL)-)[A-Z0-9]{16}`)
	podIPRE   = regexp.MustCompile(`\b10\.244\.\d+\.\d+\b`)
	vipRE     = regexp.MustCompile(`\b10\.(9[6-9]|10\d|11[01])\.\d+\.\d+\b`)
)

// NormalizeIPTables mirrors oracle/node_record.go normalizeIPTables.
func NormalizeIPTables(save, ns string) []string {
	var out []string
	for _, l := range strings.Split(save, "\n") {
		if l == "" || strings.HasPrefix(l, "#") || !strings.Contains(l, "KUBE-") {
			continue
		}
		if strings.HasPrefix(l, ":") {
			l = strings.Fields(l)[0]
		}
		l = strings.ReplaceAll(l, ns+"/", "default/")
		l = chainHash.ReplaceAllString(l, "${1}<hash>")
		l = podIPRE.ReplaceAllString(l, "<podIP>")
		l = vipRE.ReplaceAllString(l, "<clusterIP>")
		out = append(out, l)
	}
	return out
}

// v1Unlimited is memory.limit_in_bytes of a cgroup v1 without a limit
// (PAGE_COUNTER_MAX pages of 4 KiB): what memory.max "max" reads as in v1.
const v1Unlimited = "9223372036854771712"

// simCgroups is, for each container of the run's pods, the simulated
// kubelet's cgroup values written as the cgroup v1 files the real node
// (cgroupfs driver on cgroup v1) shows: the shares the kubelet computes
// (before runc's v2 conversion to cpu.weight), cpu.max as quota and
// period, memory.max as limit_in_bytes. Same shape as the recorder's
// nodeCgroups; the sandbox (POD) is not modelled and left out.
func simCgroups(pods []*corev1.Pod) []string {
	var out []string
	for _, p := range pods {
		qos := strings.ToLower(string(kubelet.QoSClass(p)))
		// the running containers: the app containers and the native
		// sidecars (init containers with restartPolicy Always), whose
		// cgroups outlive the init phase; a finished init container's are gone
		var running []*corev1.Container
		for i := range p.Spec.InitContainers {
			if c := &p.Spec.InitContainers[i]; c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways {
				running = append(running, c)
			}
		}
		for i := range p.Spec.Containers {
			running = append(running, &p.Spec.Containers[i])
		}
		for _, c := range running {
			g := kubelet.ContainerCgroup(p, c, "")
			quota, period, _ := strings.Cut(g.CPUMax, " ")
			if quota == "max" {
				quota = "-1"
			}
			mem := g.MemoryMax
			if mem == "max" {
				mem = v1Unlimited
			}
			req := c.Resources.Requests[corev1.ResourceCPU]
			out = append(out, fmt.Sprintf("%s/%s: cpu.shares=%d cpu.cfs_quota_us=%s cpu.cfs_period_us=%s memory.limit_in_bytes=%s",
				qos, c.Name, kubelet.MilliCPUToShares(req.MilliValue()), quota, period, mem))
		}
	}
	sort.Strings(out)
	return out
}

// canonicalRule is a rule line as its chain and its options, sorted: an
// option is a flag with its arguments and a "!" before it; quoted
// arguments stay whole; a /32 host mask is dropped, as kube-proxy writes
// an address without it and iptables-save with it.
func canonicalRule(l string) string {
	if !strings.HasPrefix(l, "-A ") {
		return l
	}
	l = saveForm(l)
	var toks []string
	for rest := strings.TrimSpace(l); rest != ""; rest = strings.TrimSpace(rest) {
		if rest[0] == '"' {
			end := strings.Index(rest[1:], `"`)
			if end < 0 {
				toks, rest = append(toks, rest), ""
				continue
			}
			toks, rest = append(toks, rest[:end+2]), rest[end+2:]
			continue
		}
		tok, after, _ := strings.Cut(rest, " ")
		toks, rest = append(toks, strings.TrimSuffix(tok, "/32")), after
	}
	var groups []string
	neg := false
	for i := 0; i < len(toks); i++ {
		if toks[i] == "!" {
			neg = true
			continue
		}
		g := toks[i]
		for i+1 < len(toks) && !strings.HasPrefix(toks[i+1], "-") && toks[i+1] != "!" {
			i++
			g += " " + strings.Trim(toks[i], `"`)
		}
		if neg {
			g, neg = "! "+g, false
		}
		groups = append(groups, g)
	}
	// groups[0] is "-A CHAIN"
	rest := groups[1:]
	sort.Strings(rest)
	return groups[0] + " " + strings.Join(rest, " ")
}

var (
	durationRE = regexp.MustCompile(`\b\d+(\.\d+)?(ns|µs|us|ms|s|m)\b`)
	uidRE      = regexp.MustCompile(`\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`)
)

// imageSizeRE is the size a Pulled event reports: the recorder's images
// are stand-ins built from source (oracle/images.go), a few MB where the
// simulator models nginx's, so only the sentence is compared.
var imageSizeRE = regexp.MustCompile(`Image size: \d+ bytes`)

// NormalizeNodeMessage mirrors oracle/node_record.go normalizeNodeMessage:
// durations and UIDs in a kubelet event's message by their role; and the
// pulled image's size, which belongs to the stand-in image.
func NormalizeNodeMessage(m string) string {
	m = imageSizeRE.ReplaceAllString(m, "Image size: <bytes> bytes")
	m = podIPRE.ReplaceAllString(m, "<podIP>") // a probe's URL
	return uidRE.ReplaceAllString(durationRE.ReplaceAllString(m, "<duration>"), "<uid>")
}

var (
	orMarkRE  = regexp.MustCompile(`--or-mark (0x[0-9a-fA-F]+)`)
	xorMarkRE = regexp.MustCompile(`--xor-mark (0x[0-9a-fA-F]+)`)
	markRE    = regexp.MustCompile(`--mark (0x[0-9a-fA-F]+)/(0x[0-9a-fA-F]+)`)
	probRE    = regexp.MustCompile(`--probability ([0-9.]+)`)
)

// saveForm turns a rule as kube-proxy writes it (iptables-restore input,
// what the simulator, dnat and the trace print: proxier.go writes
// "--or-mark 0x00004000" and "%0.10f" probabilities) into the form
// iptables-save prints after the kernel round trip, so the two compare:
// the MARK target keeps value/mask ("--or-mark X" is "--set-xmark X/X",
// "--xor-mark X" is "--set-xmark X/0x0": libxt_MARK.c mark_tg_save), hex
// without leading zeros, and xt_statistic keeps a probability as
// lround(p × 2^31), printed "%.11f" of that over 2^31 (libxt_statistic.c).
// A line already in save form is unchanged.
func saveForm(l string) string {
	hex := func(h string) string {
		v, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(h), "0x"), 16, 32)
		if err != nil {
			return h
		}
		return fmt.Sprintf("%#x", v)
	}
	l = orMarkRE.ReplaceAllStringFunc(l, func(m string) string {
		v := hex(orMarkRE.FindStringSubmatch(m)[1])
		return "--set-xmark " + v + "/" + v
	})
	l = xorMarkRE.ReplaceAllStringFunc(l, func(m string) string {
		return "--set-xmark " + hex(xorMarkRE.FindStringSubmatch(m)[1]) + "/0x0"
	})
	l = markRE.ReplaceAllStringFunc(l, func(m string) string {
		g := markRE.FindStringSubmatch(m)
		return "--mark " + hex(g[1]) + "/" + hex(g[2])
	})
	return probRE.ReplaceAllStringFunc(l, func(m string) string {
		p, err := strconv.ParseFloat(probRE.FindStringSubmatch(m)[1], 64)
		if err != nil {
			return m
		}
		return fmt.Sprintf("--probability %.11f", math.Round(p*(1<<31))/(1<<31))
	})
}
