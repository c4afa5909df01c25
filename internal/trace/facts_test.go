package trace

import (
	"strings"
	"testing"
)

// Explanations found wrong against v1.37 (issue 23): each check holds in
// both languages, on the message (Msg) or the explanation.
func TestExplanationFacts(t *testing.T) {
	for _, tc := range []struct {
		kind   Kind
		why    string
		msg    bool
		has    []string // every one, in every language
		hasNot []string
	}{
		{kind: "runtime.cgroup", why: "the printed weight comes from runc ≥ 1.3.2's quadratic fit (kubelet.SharesToWeight)",
			has: []string{"1.3.2", "(L² + 125·L)/612 − 7/34", "250m|0,25 CPU", "35"}},
		{kind: "scheduler.score", why: "the weights are the profile's, and the default profile scores InterPodAffinity at 2",
			has: []string{"{weights}", "default_plugins.go"}},
		{kind: "kubeproxy.sync", why: "KUBE-SVC picks a KUBE-SEP chain; the KUBE-SEP chain DNATs",
			has: []string{"KUBE-SEP-…", "DNAT"}},
		{kind: "kubeproxy.reject", why: "the DNAT is in the KUBE-SEP chains", has: []string{"KUBE-SEP"}},
		{kind: "runtime.namespaces", why: "on cgroup v2 containerd gives an unprivileged container its own cgroup namespace",
			has: []string{"cgroup v2", "/sys/fs/cgroup"}},
		{kind: "controller.observe", why: "v1.37 informers start with a streaming list (WatchListClient, on since v1.35)",
			has: []string{"sendInitialEvents=true", "WatchListClient", "v1.35", "LIST"}},
		{kind: "apiserver.mutating", why: "NamespaceLifecycle and NodeRestriction implement only Admit",
			has: []string{"NamespaceLifecycle", "NodeRestriction"}},
		{kind: "apiserver.validated", why: "the validating list names neither", has: []string{"NamespaceLifecycle и NodeRestriction|NamespaceLifecycle and NodeRestriction"},
			hasNot: []string{"namespace lifecycle", "жизненный цикл неймспейса"}},
		{kind: "kubelet.prestop", msg: true, why: "the kubelet waits for the hook at most the grace period", has: []string{"SIGTERM"},
			hasNot: []string{"runs for {took} before", "выполняется {took} до"}},
		{kind: "kubelet.prestop", why: "after the grace period SIGTERM, then 2 s to SIGKILL", has: []string{"minimumGracePeriodInSeconds"}},
		{kind: "kubelet.readiness", msg: true, why: "with examples/app.yaml the liveness probe would fail too: no general \"no restart\"",
			hasNot: []string{"no restart", "без перезапуска"}},
		{kind: "runtime.unready", why: "the story keeps the liveness probe passing, and says so", has: []string{"liveness", "/healthz"}},
		{kind: "endpointslice.create", why: "the legacy Endpoints controller still runs in v1.37; the trace says it is omitted",
			has: []string{"Endpoints", "docs/FIDELITY.md"}},
		{kind: "replicaset.shrink", why: "ActivePodsWithRanks also ranks by pod-deletion-cost, ready time and restarts",
			has: []string{"pod-deletion-cost"}},
		{kind: "kubelet.running", why: "a real kubelet's first status write is Pending with ContainerCreating, hostIP and startTime, and the simulator's kubelet writes it first too",
			has: []string{"ContainerCreating", "hostIP", "startTime"}},
		{kind: "kubectl.delete", why: "kubectl delete waits for the object to go by default", has: []string{"--wait=true"}},
	} {
		for _, lang := range []string{"en", "ru"} {
			e := Lookup(lang, tc.kind)
			text := e.Explain
			if tc.msg {
				text = e.Msg
			}
			for _, h := range tc.has {
				ok := false
				for _, alt := range strings.Split(h, "|") {
					ok = ok || strings.Contains(text, alt)
				}
				if !ok {
					t.Errorf("%s (%s) lacks %q — %s:\n%s", tc.kind, lang, h, tc.why, text)
				}
			}
			for _, h := range tc.hasNot {
				if strings.Contains(text, h) {
					t.Errorf("%s (%s) still says %q — %s:\n%s", tc.kind, lang, h, tc.why, text)
				}
			}
		}
	}
}

// An explanation's placeholders are filled from its step.
func TestExplanationFilled(t *testing.T) {
	s := &Step{Kind: "scheduler.score", Fields: F("pod", "p", "node", "n", "weights", "NodeResourcesFit ×5")}
	for _, lang := range []string{"en", "ru"} {
		if got := Explanation(lang, s); !strings.Contains(got, "NodeResourcesFit ×5") || strings.Contains(got, "{weights}") {
			t.Errorf("%s: %q", lang, got)
		}
	}
}
