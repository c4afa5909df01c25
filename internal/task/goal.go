package task

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/labels"
)

// Goal is one condition a solution must meet: a typed predicate over the
// objects the simulated API server stores at the end of the run, or, for
// the history types, at every committed change while the task's action
// plays out.
type Goal struct {
	ID   string `yaml:"id"`
	Type string `yaml:"type"`
	Text Text   `yaml:"text"`
	// Selector and Namespace pick the pods (Namespace defaults to default).
	Selector  string `yaml:"selector"`
	Namespace string `yaml:"namespace"`
	// Count is how many pods must be Ready (ready), Min and Max the bounds
	// of the history types, the least priority (priority) or restarts.
	Count int `yaml:"count"`
	Min   int `yaml:"min"`
	Max   int `yaml:"max"`
	// Nodes are the nodes the pods may run on (nodes), or Min of them
	// must run on (someOn).
	Nodes []string `yaml:"nodes"`
	// TopologyKey and MaxSkew bound how unevenly Ready pods spread over
	// the nodes' values of a label (spread).
	TopologyKey string `yaml:"topologyKey"`
	MaxSkew     int    `yaml:"maxSkew"`
	// CPU and Memory are the least request of every container (requests).
	CPU    string `yaml:"cpu"`
	Memory string `yaml:"memory"`
	// Class is the QoS class every pod must have (qos).
	Class string `yaml:"class"`
	// Service, with Ready and Port, are the endpoints a Service must have.
	Service string `yaml:"service"`
	Ready   int    `yaml:"ready"`
	Port    int32  `yaml:"port"`
	// Deployment names the Deployment of rolloutDone.
	Deployment string `yaml:"deployment"`
	// Seconds is the least time from a container's start to its pod's
	// Ready (readyDelay).
	Seconds int `yaml:"seconds"`

	sel labels.Selector
}

// kinds of goal: what each needs, and whether it is judged on the history.
var goalTypes = map[string]struct {
	needs   []string
	history bool
}{
	"ready":        {needs: []string{"selector", "count"}},
	"nodes":        {needs: []string{"selector", "nodes"}},
	"someOn":       {needs: []string{"selector", "nodes", "min"}},
	"distinct":     {needs: []string{"selector"}},
	"names":        {needs: []string{"selector", "nodes"}},
	"spread":       {needs: []string{"selector", "topologyKey", "maxSkew"}},
	"requests":     {needs: []string{"selector"}},
	"qos":          {needs: []string{"selector", "class"}},
	"priority":     {needs: []string{"selector", "min"}},
	"endpoints":    {needs: []string{"service"}},
	"restarts":     {needs: []string{"selector", "min"}},
	"readyDelay":   {needs: []string{"selector", "seconds"}},
	"rolloutDone":  {needs: []string{"deployment"}},
	"drained":      {},
	"minAvailable": {needs: []string{"selector", "min"}, history: true},
	"maxPods":      {needs: []string{"selector", "max"}, history: true},
	"peakReady":    {needs: []string{"selector", "min"}},
	"oneVersion":   {needs: []string{"selector"}, history: true},
}

// History reports whether the goal is judged at every change, not only at
// the end.
func (g *Goal) History() bool { return goalTypes[g.Type].history }

func (g *Goal) validate() error {
	gt, ok := goalTypes[g.Type]
	if !ok {
		names := make([]string, 0, len(goalTypes))
		for n := range goalTypes {
			names = append(names, n)
		}
		sort.Strings(names)
		return fmt.Errorf("type %q: want one of %s", g.Type, strings.Join(names, ", "))
	}
	if !idPattern.MatchString(g.ID) {
		return fmt.Errorf("id %q: want lower-case words joined by -", g.ID)
	}
	if g.Text.En == "" || g.Text.Ru == "" {
		return fmt.Errorf("text: want en and ru")
	}
	set := map[string]bool{"selector": g.Selector != "", "count": g.Count > 0, "nodes": len(g.Nodes) > 0,
		"topologyKey": g.TopologyKey != "", "maxSkew": g.MaxSkew > 0, "class": g.Class != "", "min": g.Min > 0,
		"max": g.Max > 0, "service": g.Service != "", "deployment": g.Deployment != "", "seconds": g.Seconds > 0}
	for _, n := range gt.needs {
		if !set[n] {
			return fmt.Errorf("type %s needs %s", g.Type, n)
		}
	}
	if g.Namespace == "" {
		g.Namespace = "default"
	}
	if g.Selector != "" {
		sel, err := labels.Parse(g.Selector)
		if err != nil {
			return fmt.Errorf("selector %q: %v", g.Selector, err)
		}
		g.sel = sel
	}
	for _, q := range []string{g.CPU, g.Memory} {
		if q != "" {
			if _, err := resource.ParseQuantity(q); err != nil {
				return fmt.Errorf("quantity %q: %v", q, err)
			}
		}
	}
	return nil
}

// Finding is why a goal failed, as a message key of the catalogue
// (messages.go) and its arguments.
type Finding struct {
	Key  string
	Args []any
}

func found(key string, args ...any) *Finding { return &Finding{Key: key, Args: args} }

// state is what the end of a run stored, as the goals read it.
type state struct {
	pods   []*corev1.Pod
	nodes  map[string]*corev1.Node
	slices []*discoveryv1.EndpointSlice
	deps   []*appsv1.Deployment
}

// pods are the goal's pods that are not being deleted, by name.
func (g *Goal) pods(all []*corev1.Pod) []*corev1.Pod {
	var out []*corev1.Pod
	for _, p := range all {
		if p.Namespace == g.Namespace && p.DeletionTimestamp == nil && g.sel.Matches(labels.Set(p.Labels)) {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// podReady is the pod's Ready condition (controller.PodReady's rule).
func podReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// check judges a goal on the end state; nil is a pass.
func (g *Goal) check(s *state) *Finding {
	switch g.Type {
	case "ready":
		return g.checkReady(s)
	case "nodes":
		for _, p := range g.pods(s.pods) {
			// a Pending pod fails the ready goal, not this one
			if p.Spec.NodeName != "" && !slices.Contains(g.Nodes, p.Spec.NodeName) {
				return found("pod {1} runs on {2}, not on {3}", p.Name, p.Spec.NodeName, strings.Join(g.Nodes, ", "))
			}
		}
	case "someOn":
		n := 0
		for _, p := range g.pods(s.pods) {
			if slices.Contains(g.Nodes, p.Spec.NodeName) {
				n++
			}
		}
		if n < g.Min {
			return found("{1} pods of {2} on {3}, fewer than {4}", n, g.Selector, strings.Join(g.Nodes, ", "), g.Min)
		}
	case "names":
		// Nodes lists the pod names here: the Ready pods are exactly these.
		var got []string
		for _, p := range g.pods(s.pods) {
			if podReady(p) {
				got = append(got, p.Name)
			}
		}
		if strings.Join(got, ",") != strings.Join(g.Nodes, ",") {
			return found("the Ready pods are {1}, not {2}", dash(strings.Join(got, ", ")), strings.Join(g.Nodes, ", "))
		}
	case "distinct":
		on := map[string]string{}
		for _, p := range g.pods(s.pods) {
			if p.Spec.NodeName == "" {
				continue
			}
			if other, ok := on[p.Spec.NodeName]; ok {
				return found("pods {1} and {2} both run on {3}", other, p.Name, p.Spec.NodeName)
			}
			on[p.Spec.NodeName] = p.Name
		}
	case "spread":
		return g.checkSpread(s)
	case "requests":
		return g.checkRequests(s)
	case "qos":
		for _, p := range g.pods(s.pods) {
			if string(p.Status.QOSClass) != g.Class {
				return found("pod {1} has QoS class {2}, not {3}", p.Name, qosOf(p), g.Class)
			}
		}
	case "priority":
		for _, p := range g.pods(s.pods) {
			if p.Spec.Priority == nil || *p.Spec.Priority < int32(g.Min) {
				prio := int32(0)
				if p.Spec.Priority != nil {
					prio = *p.Spec.Priority
				}
				return found("pod {1} has priority {2}, below {3}", p.Name, prio, g.Min)
			}
		}
	case "endpoints":
		return g.checkEndpoints(s)
	case "restarts":
		var n int32
		for _, p := range g.pods(s.pods) {
			for _, cs := range p.Status.ContainerStatuses {
				n += cs.RestartCount
			}
		}
		if n < int32(g.Min) {
			return found("containers of {1} restarted {2} times, fewer than {3}", g.Selector, n, g.Min)
		}
	case "readyDelay":
		return g.checkReadyDelay(s)
	case "rolloutDone":
		return g.checkRollout(s)
	}
	return nil
}

func qosOf(p *corev1.Pod) string {
	if p.Status.QOSClass == "" {
		return "-"
	}
	return string(p.Status.QOSClass)
}

func (g *Goal) checkReady(s *state) *Finding {
	pods := g.pods(s.pods)
	ready := 0
	var pending *corev1.Pod
	for _, p := range pods {
		if podReady(p) {
			ready++
		} else if pending == nil {
			pending = p
		}
	}
	if ready == g.Count {
		return nil
	}
	if ready > g.Count {
		return found("{1} pods Ready, more than {2}", ready, g.Count)
	}
	if pending != nil {
		for _, c := range pending.Status.Conditions {
			if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse {
				return found("{1} of {2} pods Ready ({3} exist); {4} is Pending: {5}", ready, g.Count, len(pods), pending.Name, c.Message)
			}
		}
		return found("{1} of {2} pods Ready ({3} exist); {4} is not Ready", ready, g.Count, len(pods), pending.Name)
	}
	return found("{1} of {2} pods Ready ({3} exist)", ready, g.Count, len(pods))
}

func (g *Goal) checkSpread(s *state) *Finding {
	counts := map[string]int{}
	for _, n := range s.nodes {
		if v, ok := n.Labels[g.TopologyKey]; ok {
			counts[v] += 0
		}
	}
	for _, p := range g.pods(s.pods) {
		n := s.nodes[p.Spec.NodeName]
		if n == nil || !podReady(p) {
			continue
		}
		if v, ok := n.Labels[g.TopologyKey]; ok {
			counts[v]++
		}
	}
	if len(counts) == 0 {
		return found("no node has the label {1}", g.TopologyKey)
	}
	keys := make([]string, 0, len(counts))
	lo, hi := -1, 0
	for k, c := range counts {
		keys = append(keys, k)
		if lo < 0 || c < lo {
			lo = c
		}
		hi = max(hi, c)
	}
	if hi-lo <= g.MaxSkew {
		return nil
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, counts[k])
	}
	return found("Ready pods per {1}: {2}: skew {3}, more than {4}", g.TopologyKey, strings.Join(parts, ", "), hi-lo, g.MaxSkew)
}

func (g *Goal) checkRequests(s *state) *Finding {
	for _, p := range g.pods(s.pods) {
		for _, c := range p.Spec.Containers {
			for name, want := range map[corev1.ResourceName]string{corev1.ResourceCPU: g.CPU, corev1.ResourceMemory: g.Memory} {
				if want == "" {
					continue
				}
				got := c.Resources.Requests[name]
				if got.Cmp(resource.MustParse(want)) < 0 {
					return found("container {1} of pod {2} requests {3} {4}, less than {5}", c.Name, p.Name, string(name), quantity(got), want)
				}
			}
		}
	}
	return nil
}

func quantity(q resource.Quantity) string {
	if q.IsZero() {
		return "0"
	}
	return q.String()
}

func (g *Goal) checkEndpoints(s *state) *Finding {
	ready, total := 0, 0
	var ports []int32
	for _, sl := range s.slices {
		if sl.Namespace != g.Namespace || sl.Labels[discoveryv1.LabelServiceName] != g.Service {
			continue
		}
		for _, ep := range sl.Endpoints {
			total++
			if ep.Conditions.Ready != nil && *ep.Conditions.Ready {
				ready++
			}
		}
		for _, p := range sl.Ports {
			if p.Port != nil && len(sl.Endpoints) > 0 && !slices.Contains(ports, *p.Port) {
				ports = append(ports, *p.Port)
			}
		}
	}
	if ready != g.Ready {
		return found("Service {1} has {2} ready endpoints ({3} in all), want {4}", g.Service, ready, total, g.Ready)
	}
	if g.Port != 0 && ready > 0 && !slices.Contains(ports, g.Port) {
		got := make([]string, len(ports))
		for i, p := range ports {
			got[i] = fmt.Sprint(p)
		}
		return found("the endpoints of Service {1} carry port {2}, not {3}", g.Service, strings.Join(got, ", "), g.Port)
	}
	return nil
}

// checkReadyDelay: a pod's Ready condition turned true at least Seconds
// after its first container started (both as the API stores them, to the
// second).
func (g *Goal) checkReadyDelay(s *state) *Finding {
	for _, p := range g.pods(s.pods) {
		var readyAt, startedAt int64
		for _, c := range p.Status.Conditions {
			if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue {
				readyAt = c.LastTransitionTime.Unix()
			}
		}
		for _, cs := range p.Status.ContainerStatuses {
			if cs.State.Running != nil {
				startedAt = cs.State.Running.StartedAt.Unix()
			}
		}
		if readyAt == 0 || startedAt == 0 {
			return found("pod {1} is not Ready", p.Name)
		}
		if d := readyAt - startedAt; d < int64(g.Seconds) {
			return found("pod {1} was Ready {2} s after its container started, sooner than {3} s", p.Name, d, g.Seconds)
		}
	}
	return nil
}

func (g *Goal) checkRollout(s *state) *Finding {
	for _, d := range s.deps {
		if d.Namespace != g.Namespace || d.Name != g.Deployment {
			continue
		}
		want := int32(1)
		if d.Spec.Replicas != nil {
			want = *d.Spec.Replicas
		}
		st := d.Status
		if st.UpdatedReplicas == want && st.Replicas == want && st.AvailableReplicas == want {
			return nil
		}
		return found("Deployment {1}: {2} updated, {3} available of {4} replicas", d.Name, st.UpdatedReplicas, st.AvailableReplicas, want)
	}
	return found("no Deployment {1}", g.Deployment)
}
