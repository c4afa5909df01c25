package live

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/k8sversion"
	"github.com/k8sexplain/k8sexplain/internal/oracle"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Words of the comparison table (word.live.* in the trace catalogue).
const (
	wTitle = "live.compare"
	wPhase = "live.phase"
	wStep  = "live.step"
	wReal  = "live.real"
	wSim   = "live.sim"
	wNote  = "live.note"
	wSame  = "live.same"
)

// pairs are the live kinds that show what a simulated kind shows, so that
// the two sides line up in one row.
var pairs = map[trace.Kind]string{
	"live.apply":    "kubectl.post",
	"live.validate": "kubectl.validate",
	"live.applied":  "kubectl.created",
	"live.podip":    "runtime.sandbox",
	"live.ready":    "kubelet.probe",
}

// rowKey is what a step is counted under in the comparison: its kind, an
// event by its reason.
func rowKey(s *trace.Step) string {
	switch s.Kind {
	case trace.KindEvent, trace.KindEventPatch:
		return "Event " + s.Get("reason")
	}
	if k, ok := pairs[s.Kind]; ok {
		return k
	}
	return string(s.Kind)
}

// inside are the simulated kinds that happen inside a component, which a
// cluster does not show through its API.
func inside(kind string) bool {
	for _, p := range []string{"apiserver.authn", "apiserver.authz", "apiserver.validated", "apiserver.mutating", "etcd.", "controller.",
		"scheduler.", "cri.", "runtime.namespaces", "runtime.cgroup", "kubeproxy.", "dns.", "replicaset.diff", "admission.", "resourcequota."} {
		if strings.HasPrefix(kind, p) && kind != "scheduler.bind" {
			return true
		}
	}
	return false
}

type tally struct {
	n     int
	first time.Duration
	order int // the position of the key's first step
}

func count(tr *trace.Trace) map[trace.Phase]map[string]*tally {
	out := map[trace.Phase]map[string]*tally{}
	for i := range tr.Steps {
		s := &tr.Steps[i]
		if s.Verbose {
			continue
		}
		m := out[s.Phase]
		if m == nil {
			m = map[string]*tally{}
			out[s.Phase] = m
		}
		k := rowKey(s)
		t := m[k]
		if t == nil {
			t = &tally{first: s.At - tr.Start, order: len(m)}
			m[k] = t
		}
		t.n++
	}
	return out
}

func cell(t *tally) string {
	if t == nil {
		return "live.none"
	}
	return fmt.Sprintf("%d× @ %s", t.n, trace.Clock(t.first))
}

// Compare is the side by side of the cluster's trace with the simulator's
// of the same manifests, one row per step kind in each phase (count and
// first time on each side), and the rows a learner checks first: the
// ReplicaSet's name (the pod-template-hash must match), the nodes chosen,
// the order, and when all pods were Ready. A note says why a known
// difference happens, from docs/FIDELITY.md where the recordings of a real
// control plane explained it.
//
// The notes are long, so the table refers to them by number and the
// second table lists them.
func Compare(real, sim *trace.Trace) []trace.KeyedTable {
	t := compare(real, sim)
	notes := trace.KeyedTable{Title: "live.notes", Left: true, Header: []string{"live.noteNo", wNote}}
	num := map[string]string{}
	for _, r := range t.Rows {
		n := r[4]
		if n == "" || n == wSame {
			continue
		}
		if num[n] == "" {
			num[n] = fmt.Sprintf("[%d]", len(num)+1)
			notes.Rows = append(notes.Rows, []string{num[n], n})
		}
		r[4] = num[n]
	}
	return []trace.KeyedTable{t, notes}
}

func compare(real, sim *trace.Trace) trace.KeyedTable {
	t := trace.KeyedTable{Title: wTitle, Left: true, Header: []string{wPhase, wStep, wReal, wSim, wNote}}
	if c := real.Cluster; c != nil {
		// The simulator models one minor version; another server's
		// defaults, event texts and feature gates may differ.
		note := wSame
		if !k8sversion.SameMinor(c.Version) {
			note = "live.note.skew"
		}
		t.Rows = append(t.Rows, []string{"", "live.version", c.Version, k8sversion.MinorString, note})
	}
	rc, sc := count(real), count(sim)
	for _, ph := range trace.Phases {
		phase := fmt.Sprintf("live.phase.%d", ph)
		rm, sm := rc[ph], sc[ph]
		if len(rm) == 0 && len(sm) == 0 {
			continue
		}
		t.Rows = append(t.Rows, []string{phase, "live.firstAt", firstAt(rm), firstAt(sm), latencyNote(ph)})
		keys := make([]string, 0, len(rm)+len(sm))
		for k := range rm {
			keys = append(keys, k)
		}
		for k := range sm {
			if rm[k] == nil {
				keys = append(keys, k)
			}
		}
		sort.SliceStable(keys, func(i, j int) bool {
			a, b := rm[keys[i]], rm[keys[j]]
			switch {
			case a != nil && b != nil:
				return a.order < b.order
			case a != nil || b != nil:
				return a != nil
			}
			return sm[keys[i]].order < sm[keys[j]].order
		})
		for _, k := range keys {
			r, s := rm[k], sm[k]
			note := ""
			switch {
			case r == nil && inside(k):
				note = "live.note.inside"
			case r == nil:
				note = "live.note.simonly"
			case s == nil && k == "live.podcreated":
				note = "live.note.podcreated"
			case s == nil:
				note = "live.note.realonly"
			case r.n != s.n:
				note = "live.note.count"
			}
			t.Rows = append(t.Rows, []string{phase, k, cell(r), cell(s), note})
		}
		switch ph {
		case trace.PhaseController:
			rr, sr := values(real, "deployment.newrs", "rs"), values(sim, "deployment.newrs", "rs")
			note := "live.note.hash"
			if rr != sr {
				note = "live.note.hashbug"
			}
			t.Rows = append(t.Rows, []string{phase, "live.rsName", rr, sr, note})
		case trace.PhaseScheduler:
			rs, ss := spread(real), spread(sim)
			note := wSame
			if rs != ss {
				note = oracle.KnownReason("field", "reservoir sampling")
			}
			t.Rows = append(t.Rows, []string{phase, "live.nodes", rs, ss, note})
		case trace.PhaseReady:
			t.Rows = append(t.Rows, []string{phase, "live.readyAt", readyAt(real), readyAt(sim), "live.note.latency"})
		}
		if ro, so := order(rm, sm); ro != so {
			t.Rows = append(t.Rows, []string{phase, "live.order", ro, so, orderReason(ph)})
		}
	}
	return t
}

func firstAt(m map[string]*tally) string {
	var first *tally
	for _, t := range m {
		if first == nil || t.first < first.first {
			first = t
		}
	}
	if first == nil {
		return "live.none"
	}
	return trace.Clock(first.first)
}

// latencyNote says why the times differ, once per phase where it matters.
func latencyNote(ph trace.Phase) string {
	switch ph {
	case trace.PhaseKubelet, trace.PhaseRuntime:
		return "live.note.pull"
	case trace.PhaseReady:
		return "live.note.probe"
	}
	return "live.note.latency"
}

// values is the distinct values of field of the steps of kind, sorted.
func values(tr *trace.Trace, kind trace.Kind, field string) string {
	seen := map[string]bool{}
	for i := range tr.Steps {
		if tr.Steps[i].Kind == kind {
			seen[tr.Steps[i].Get(field)] = true
		}
	}
	if len(seen) == 0 {
		return "live.none"
	}
	return strings.Join(sortedKeys(seen), ", ")
}

// spread is how many pods each node got: "node-a 2, node-b 1".
func spread(tr *trace.Trace) string {
	n := map[string]int{}
	for i := range tr.Steps {
		if tr.Steps[i].Kind == "scheduler.bind" {
			n[tr.Steps[i].Get("node")]++
		}
	}
	if len(n) == 0 {
		return "live.none"
	}
	var out []string
	for _, k := range sortedKeys(n) {
		out = append(out, fmt.Sprintf("%s %d", k, n[k]))
	}
	return strings.Join(out, ", ")
}

func readyAt(tr *trace.Trace) string {
	if !tr.Summary.AllReady {
		return fmt.Sprintf("%d/%d", tr.Summary.ReadyPods, tr.Summary.Pods)
	}
	return trace.Clock(tr.Summary.ReadyAt - tr.Start)
}

// order is the order of the first steps of the kinds both sides have.
func order(rm, sm map[string]*tally) (string, string) {
	var both []string
	for k := range rm {
		if sm[k] != nil && !strings.HasPrefix(k, "live.") {
			both = append(both, k)
		}
	}
	if len(both) < 2 {
		return "", ""
	}
	by := func(m map[string]*tally) string {
		ks := append([]string(nil), both...)
		sort.SliceStable(ks, func(i, j int) bool {
			if m[ks[i]].first != m[ks[j]].first {
				return m[ks[i]].first < m[ks[j]].first
			}
			return m[ks[i]].order < m[ks[j]].order
		})
		return strings.Join(ks, " → ")
	}
	return by(rm), by(sm)
}

// Workers are the nodes of the cluster that take pods: those without the
// control plane's NoSchedule taint (all of them when every node has it,
// as a kind cluster's single node has not). The simulator runs on copies
// of them: name, labels, taints, capacity.
func Workers(nodes []corev1.Node) []*corev1.Node {
	var out []*corev1.Node
	for _, n := range nodes {
		cp := false
		for _, t := range n.Spec.Taints {
			if t.Key == "node-role.kubernetes.io/control-plane" && t.Effect == corev1.TaintEffectNoSchedule {
				cp = true
			}
		}
		if cp {
			continue
		}
		out = append(out, &corev1.Node{
			TypeMeta:   n.TypeMeta,
			ObjectMeta: cleanMeta(n),
			Spec:       corev1.NodeSpec{Taints: n.Spec.Taints, Unschedulable: n.Spec.Unschedulable},
			Status:     corev1.NodeStatus{Capacity: n.Status.Capacity, Allocatable: n.Status.Allocatable},
		})
	}
	return out
}

func cleanMeta(n corev1.Node) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: n.Name, Labels: n.Labels}
}

// orderReason is the reason the recordings of a real control plane gave
// for the order of the steps of phase ph differing from the simulator's
// (docs/FIDELITY.md, "order").
func orderReason(ph trace.Phase) string {
	switch ph {
	case trace.PhaseController, trace.PhaseScheduler:
		return oracle.KnownReason("order", "client-go's event recorder is asynchronous")
	case trace.PhaseReady:
		return oracle.KnownReason("order", "first (empty) slice")
	}
	return oracle.KnownReason("order", "the simulator's fixed latencies")
}
