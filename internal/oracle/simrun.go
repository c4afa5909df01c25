package oracle

import (
	"encoding/json"
	"fmt"
	"net"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/sim"
	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	eventsv1 "k8s.io/api/events/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// SimRun is what the simulator did for a scenario, in the fixture's shape.
type SimRun struct {
	Steps   []SimStep
	Objects []any
	// What a node shows (compared with the node recordings, node.go):
	// per-pod kubelet status writes and CRI calls, images pulled, and the
	// nat table kube-proxy programs for the final Services.
	PodStatus [][]string
	CRI       [][]string
	Pulls     []string
	IPTables  []string
	Cgroups   []string
	Restarts  []string
}

// SimStep is the simulator's writes (classes, in answer order) and events
// after one command.
type SimStep struct {
	Writes []string
	Events []Event
}

// finalPlurals are the resources whose final state a fixture keeps
// (oracle/record.go finalKinds).
var finalPlurals = []string{"deployments", "replicasets", "pods", "services", "endpointslices", "endpoints", "limitranges", "resourcequotas", "statefulsets", "controllerrevisions"}

// RunScenario replays fx's commands in the simulator (seed 1, the default
// cluster) from the repository root root.
func RunScenario(root string, fx Fixture) (*SimRun, error) {
	// kube-controller-manager runs its disruption and statefulset
	// controllers always; the simulator only when a story needs them
	cfg := sim.Config{Seed: 1, Workers: 3, LogWrites: true, Disruption: true}
	if strings.HasPrefix(fx.Scenario, "node-") {
		// the real node's recordings run every pod on one worker, node-a
		// (oracle/node.go): so does the replay, so image pulls, CRI calls
		// and iptables are a single node's
		cfg.Workers = 1
	}
	type action func(c *sim.Cluster) error
	var actions []action
	for _, st := range fx.Steps {
		f := strings.Fields(st.Command)
		switch {
		case len(f) == 4 && f[1] == "apply" && f[2] == "-f":
			objs, err := manifest.Load([]string{filepath.Join(root, f[3])}, nil)
			if err != nil {
				return nil, err
			}
			// A manifest that brings its own Namespace (examples/quota.yaml)
			// runs in the scenario's namespace, as the recorder applies it
			// (oracle/scenarios.go intoNamespace): the Namespace is
			// dropped and its objects move to default.
			own := map[string]bool{}
			for _, o := range objs {
				if n, ok := o.Obj.(*corev1.Namespace); ok {
					own[n.Name] = true
				}
			}
			var apply []manifest.Object
			for _, o := range objs {
				if n, ok := o.Obj.(*corev1.Node); ok {
					cfg.Nodes = append(cfg.Nodes, readyNode(n, len(cfg.Nodes)+1))
					continue
				}
				if _, ok := o.Obj.(*corev1.Namespace); ok {
					continue
				}
				if own[o.Namespace] {
					apiserver.Meta(o.Obj).SetNamespace("default")
					o.Namespace = "default"
				}
				apply = append(apply, o)
			}
			cfg.StatefulSets = cfg.StatefulSets || sim.NeedsStatefulSets(apply)
			actions = append(actions, func(c *sim.Cluster) error { c.Apply(apply, []string{f[3]}); return nil })
		case len(f) == 5 && f[1] == "set" && f[2] == "image":
			dep, ci, ok := strings.Cut(f[4], "=")
			name := strings.TrimPrefix(f[3], "deployment/")
			if !ok {
				return nil, fmt.Errorf("%s: bad command %q", fx.Scenario, st.Command)
			}
			actions = append(actions, func(c *sim.Cluster) error {
				d := c.Deployment("default", name)
				if d == nil {
					return fmt.Errorf("no deployment %s", name)
				}
				return c.SetImage(d, dep, ci)
			})
		case len(f) == 4 && f[1] == "scale":
			name := strings.TrimPrefix(f[2], "deployment/")
			n, err := strconv.Atoi(strings.TrimPrefix(f[3], "--replicas="))
			if err != nil {
				return nil, fmt.Errorf("%s: bad command %q", fx.Scenario, st.Command)
			}
			actions = append(actions, func(c *sim.Cluster) error {
				d := c.Deployment("default", name)
				if d == nil {
					return fmt.Errorf("no deployment %s", name)
				}
				c.Scale(d, int32(n))
				return nil
			})
		case strings.HasPrefix(st.Command, "kubectl delete pod "):
			actions = append(actions, func(c *sim.Cluster) error {
				pod := firstPod(c)
				if pod == nil {
					return fmt.Errorf("no pod to delete")
				}
				c.DeletePod(pod)
				return nil
			})
		case strings.HasPrefix(st.Command, "kubectl drain <node of first pod> "):
			// oracle/scenarios.go drainStep: the node of the first pod by name
			timeout, err := time.ParseDuration(strings.TrimPrefix(f[len(f)-1], "--timeout="))
			if err != nil {
				return nil, fmt.Errorf("%s: bad command %q", fx.Scenario, st.Command)
			}
			actions = append(actions, func(c *sim.Cluster) error { return drainFirstPodsNode(c, timeout) })
		case len(f) == 7 && f[0] == "crash" && f[3] == "--reason" && f[5] == "--times":
			// a node scenario's crash (oracle/node_record.go crashStep):
			// the first pod by name fails as `trace crash` makes it fail
			reason := f[4]
			times, err := strconv.Atoi(f[6])
			if err != nil {
				return nil, fmt.Errorf("%s: bad command %q", fx.Scenario, st.Command)
			}
			actions = append(actions, func(c *sim.Cluster) error {
				pod := firstPod(c)
				if pod == nil {
					return fmt.Errorf("no pod to crash")
				}
				k := c.Kubelet(pod.Spec.NodeName)
				if k == nil {
					return fmt.Errorf("pod %s is not bound to a node", pod.Name)
				}
				if err := k.Crash(pod.Name, reason, times); err != nil {
					return err
				}
				// a liveness failure takes failureThreshold × periodSeconds
				// to be noticed, then the restart: run past it so its CRI
				// calls are in the steps (the recorder waits for quiet)
				c.RunFor(2 * time.Minute)
				return nil
			})
		default:
			return nil, fmt.Errorf("%s: the simulator cannot replay %q", fx.Scenario, st.Command)
		}
	}
	c, err := sim.NewCluster(cfg)
	if err != nil {
		return nil, err
	}
	c.Settle()
	run := &SimRun{}
	var steps []trace.Step
	from := len(c.Writes())
	for _, a := range actions {
		if err := a(c); err != nil {
			return nil, fmt.Errorf("%s: %v", fx.Scenario, err)
		}
		// the steps before Settle forgets them (a second Run inside
		// Settle finds nothing left to do)
		steps = append(steps, c.Run("").Steps...)
		c.Settle()
		ws := c.Writes()
		var st SimStep
		for _, w := range ws[from:] {
			if w.Namespace != "default" {
				continue
			}
			st.Writes = append(st.Writes, WriteClass(w))
			if e, ok := simEvent(w); ok {
				st.Events = append(st.Events, e)
			}
		}
		from = len(ws)
		run.Steps = append(run.Steps, st)
	}
	run.PodStatus = simPodStatus(c.Writes())
	run.Restarts = simRestarts(c.Writes())
	run.CRI, run.Pulls = simCRI(steps)
	var svcs []*corev1.Service
	var sls []*discoveryv1.EndpointSlice
	for _, o := range c.Objects("services") {
		if s, ok := o.(*corev1.Service); ok && s.Namespace == "default" && s.Name != "kubernetes" {
			svcs = append(svcs, s)
		}
	}
	for _, o := range c.Objects("endpointslices") {
		if s, ok := o.(*discoveryv1.EndpointSlice); ok && s.Namespace == "default" {
			sls = append(sls, s)
		}
	}
	run.IPTables = simIPTables(svcs, sls)
	var pods []*corev1.Pod
	for _, o := range c.Objects("pods") {
		if p, ok := o.(*corev1.Pod); ok && p.Namespace == "default" {
			pods = append(pods, p)
		}
	}
	run.Cgroups = simCgroups(pods)
	n := newNormalizer(c.Writes())
	for _, p := range finalPlurals {
		for _, o := range c.Objects(p) {
			if m := objectMap(o); m != nil && ns(m) == "default" {
				run.Objects = append(run.Objects, n.walk(m))
			}
		}
	}
	for i := range run.Steps {
		for j := range run.Steps[i].Events {
			e := &run.Steps[i].Events[j]
			e.Message = workerRE.ReplaceAllString(n.str(e.Message), "<node>")
			e.Object = n.str(e.Object)
		}
	}
	return run, nil
}

// readyNode is a kind: Node of the input as the simulator's worker (as
// `trace apply` makes it, cmd/trace.go prepareNodes).
func readyNode(n *corev1.Node, i int) *corev1.Node {
	n = n.DeepCopy()
	if n.Labels == nil {
		n.Labels = map[string]string{}
	}
	if n.Labels["kubernetes.io/hostname"] == "" {
		n.Labels["kubernetes.io/hostname"] = n.Name
	}
	if n.Spec.PodCIDR == "" {
		n.Spec.PodCIDR = fmt.Sprintf("10.244.%d.0/24", i)
	}
	if len(n.Status.Allocatable) == 0 {
		n.Status.Allocatable = n.Status.Capacity.DeepCopy()
	}
	n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}
	return n
}

// WriteClass is "USER VERB RESOURCE[.GROUP][/SUB] CODE", as the recorder
// writes it from an audit event.
func WriteClass(w apiserver.Write) string {
	r := w.Resource
	if w.Group != "" {
		r += "." + w.Group
	}
	if w.Subresource != "" {
		r += "/" + w.Subresource
	}
	return fmt.Sprintf("%s %s %s %d", w.User, w.Verb, r, w.Code)
}

func simEvent(w apiserver.Write) (Event, bool) {
	if w.Resource != "events" || w.Verb != "create" || w.Code != 201 {
		return Event{}, false
	}
	if ev, ok := w.Object.(*eventsv1.Event); ok {
		// kube-scheduler's events (apiserver.Client.EventV1): note, regarding, reportingController
		return Event{API: "events.k8s.io/v1", Type: ev.Type, Reason: ev.Reason, Message: ev.Note,
			Object: ev.Regarding.Kind + "/" + ev.Regarding.Name, Source: ev.ReportingController}, true
	}
	ev, ok := w.Object.(*corev1.Event)
	if !ok {
		return Event{}, false
	}
	return Event{API: "v1", Type: ev.Type, Reason: ev.Reason, Message: ev.Message,
		Object: ev.InvolvedObject.Kind + "/" + ev.InvolvedObject.Name, Source: ev.Source.Component}, true
}

func objectMap(o runtime.Object) map[string]any {
	o = o.DeepCopyObject()
	gvk := manifest.KindOf(o)
	b, err := json.Marshal(o)
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	m["apiVersion"], m["kind"] = gvk.GroupVersion().String(), gvk.Kind
	return m
}

func ns(m map[string]any) string {
	md, _ := m["metadata"].(map[string]any)
	s, _ := md["namespace"].(string)
	return s
}

// normalizer mirrors oracle/record.go's: what differs between runs becomes
// its role (UIDs, times, IPs, generated name suffixes).
type normalizer struct {
	names   map[string]string
	ordered []string
}

var (
	apiAccess = regexp.MustCompile(`kube-api-access-[a-z0-9]{5}`)
	workerRE  = regexp.MustCompile(`\bnode-[a-z]\b`)
	// rejectedPod is the generated name of a pod admission refused (never
	// created, so not among the names above), replaced as the recorder
	// does (oracle/record.go rejectedPod).
	rejectedPod = regexp.MustCompile(`(pods "[a-z0-9.-]+-)[a-z0-9]{5}(" is forbidden)`)
)

// generatedName: the API server made name from generateName (five
// characters after it: apiserver/pkg/storage/names SimpleNameGenerator). A
// StatefulSet's pods carry generateName "web-" beside the name "web-0"
// the controller chose (GetPodFromTemplate, then initIdentity): kept.
func generatedName(name, generateName string) bool {
	return generateName != "" && len(name) == len(generateName)+5 && strings.HasPrefix(name, generateName)
}

func newNormalizer(ws []apiserver.Write) *normalizer {
	n := &normalizer{names: map[string]string{}}
	for _, w := range ws {
		if w.Verb != "create" || w.Object == nil || w.Code != 201 {
			continue
		}
		m := apiserver.Meta(w.Object)
		if generatedName(m.GetName(), m.GetGenerateName()) {
			n.names[m.GetName()] = m.GetGenerateName() + "xxxxx"
		}
	}
	for k := range n.names {
		n.ordered = append(n.ordered, k)
	}
	sort.Slice(n.ordered, func(i, j int) bool { return len(n.ordered[i]) > len(n.ordered[j]) })
	return n
}

func (n *normalizer) str(s string) string {
	if _, err := time.Parse(time.RFC3339, s); err == nil {
		return "<time>"
	}
	if ip := net.ParseIP(s); ip != nil {
		return ipRole(ip)
	}
	for _, k := range n.ordered {
		if strings.Contains(s, k) {
			s = strings.ReplaceAll(s, k, n.names[k])
		}
	}
	s = rejectedPod.ReplaceAllString(s, "${1}xxxxx${2}")
	s = uidRE.ReplaceAllString(s, "<uid>")
	return apiAccess.ReplaceAllString(s, "kube-api-access-xxxxx")
}

func ipRole(ip net.IP) string {
	v4 := ip.To4()
	switch {
	case ip.IsLoopback():
		return "<nodeIP>"
	case v4 != nil && v4[0] == 10 && v4[1] == 244:
		return "<podIP>"
	case v4 != nil && v4[0] == 10 && v4[1] >= 96 && v4[1] < 112:
		return "<clusterIP>"
	}
	return "<IP>"
}

var dropKeys = map[string]bool{"managedFields": true, "resourceVersion": true, "selfLink": true}

func (n *normalizer) walk(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, val := range x {
			switch {
			case dropKeys[k]:
			case k == "uid":
				out[k] = "<uid>"
			default:
				out[n.str(k)] = n.walk(val)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = n.walk(e)
		}
		return out
	case string:
		return n.str(x)
	}
	return v
}

// drainFirstPodsNode drains the node of the pod that sorts first by name,
// as the recorder's drainStep does, and runs until kubectl has returned.
func drainFirstPodsNode(c *sim.Cluster, timeout time.Duration) error {
	pod := firstPod(c)
	if pod == nil || pod.Spec.NodeName == "" {
		return fmt.Errorf("no bound pod to drain the node of")
	}
	res := c.Drain(sim.DrainOptions{Node: pod.Spec.NodeName, IgnoreDaemonSets: true, Timeout: timeout})
	c.RunFor(timeout + time.Minute)
	if !res.Done {
		return fmt.Errorf("kubectl drain %s did not return", pod.Spec.NodeName)
	}
	return nil
}

// firstPod is the stored pod that sorts first by name, the one the
// recorder's steps act on ("<first pod>": oracle/scenarios.go firstPod);
// nil when there is none.
func firstPod(c *sim.Cluster) *corev1.Pod {
	pods := c.Pods()
	if len(pods) == 0 {
		return nil
	}
	return slices.MinFunc(pods, func(a, b *corev1.Pod) int { return strings.Compare(a.Name, b.Name) })
}
