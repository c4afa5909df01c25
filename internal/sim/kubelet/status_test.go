package kubelet

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// TestHeldStatusWritesKeepTheirConditions: two pods' Pending writes are
// built one after the other in the kubelet's scratch buffer and held
// unsent; each request keeps its own conditions, so each stored pod names
// its own container when they are delivered.
func TestHeldStatusWritesKeepTheirConditions(t *testing.T) {
	h := newHarness(t)
	ob := h.k.c.Hold()
	h.create(newPod("a", ctr("app-a", "nginx:1.27")))
	h.create(newPod("b", ctr("app-b", "nginx:1.27")))
	h.settle()
	ob.Release()
	h.settle()
	for name, want := range map[string]string{"a": "app-a", "b": "app-b"} {
		p := h.pod(name)
		if p.Status.Phase != corev1.PodRunning {
			t.Fatalf("%s: phase %s", name, p.Status.Phase)
		}
		var ready *corev1.PodCondition
		for i := range p.Status.Conditions {
			if p.Status.Conditions[i].Type == corev1.PodReady {
				ready = &p.Status.Conditions[i]
			}
		}
		if ready == nil || ready.Status != corev1.ConditionTrue || len(p.Status.Conditions) != 4 { // no scheduler: no PodScheduled
			t.Fatalf("%s: conditions %+v", name, p.Status.Conditions)
		}
		if cs := p.Status.ContainerStatuses; len(cs) != 1 || cs[0].Name != want {
			t.Fatalf("%s: container statuses %+v", name, cs)
		}
	}
}

// TestPendingMessagesPerPod: the two pods' Pending writes are built one
// after the other in the kubelet's scratch buffer and travel together;
// each stored pod's unready message names its own container.
func TestPendingMessagesPerPod(t *testing.T) {
	h := newHarness(t)
	h.create(newPod("a", ctr("app-a", "nginx:1.27")))
	h.create(newPod("b", ctr("app-b", "nginx:1.27")))
	h.eng.RunUntil(time.Second) // the pull takes 1.64 s
	for name, want := range map[string]string{"a": "containers with unready status: [app-a]", "b": "containers with unready status: [app-b]"} {
		p := h.pod(name)
		n := 0
		for _, c := range p.Status.Conditions {
			if c.Type == corev1.PodReady || c.Type == corev1.ContainersReady {
				n++
				if c.Message != want {
					t.Errorf("%s: %s message %q, want %q", name, c.Type, c.Message, want)
				}
			}
		}
		if p.Status.Phase != corev1.PodPending || n != 2 {
			t.Fatalf("%s: phase %s, conditions %+v", name, p.Status.Phase, p.Status.Conditions)
		}
	}
	h.settle()
}

// TestRestartHistoryIsThePods: a crashing container's restarts are kept in
// its pod's own history; a pod that never restarted has none, and the
// shared empty history stays empty.
func TestRestartHistoryIsThePods(t *testing.T) {
	h := running(t, ctr("web", "nginx:1.27"))
	h.create(newPod("calm", ctr("calm", "nginx:1.27")))
	h.settle()
	if err := h.k.Crash("web", CrashPanic, 1); err != nil {
		t.Fatal(err)
	}
	h.settle()
	var crashed, calm *podState
	for _, ps := range h.k.pods {
		switch ps.pod.Name {
		case "web":
			crashed = ps
		case "calm":
			calm = ps
		}
	}
	if crashed == nil || calm == nil {
		t.Fatal("pods not found")
	}
	if crashed.h == nil || crashed.h.restartCount["web"] != 1 || crashed.h.lastState["web"].Terminated == nil {
		t.Fatalf("crashed pod's history %+v", crashed.h)
	}
	if calm.h != nil || calm.hist().restartCount["calm"] != 0 {
		t.Fatalf("calm pod has a history: %+v", calm.h)
	}
	if noHistory.restartCount != nil || noHistory.lastState != nil || noHistory.sidecars != nil || noHistory.initStarted != nil {
		t.Fatalf("the shared empty history was written: %+v", noHistory)
	}
	if got := h.pod("calm").Status.ContainerStatuses[0].RestartCount; got != 0 {
		t.Fatalf("calm pod restarts %d", got)
	}
}

// TestWaitingStatusesShared: pods of one template on a node show the same
// Pending container statuses, shared, and a pod with another container
// gets its own.
func TestWaitingStatusesShared(t *testing.T) {
	h := newHarness(t)
	a := h.k.waitingStatuses([]corev1.Container{ctr("web", "nginx:1.27")}, "ContainerCreating")
	b := h.k.waitingStatuses([]corev1.Container{ctr("web", "nginx:1.27")}, "ContainerCreating")
	c := h.k.waitingStatuses([]corev1.Container{ctr("web", "nginx:1.27")}, "PodInitializing")
	two := h.k.waitingStatuses([]corev1.Container{ctr("web", "nginx:1.27"), ctr("log", "busybox")}, "ContainerCreating")
	if &a[0] != &b[0] || &a[0] == &c[0] || c[0].State.Waiting.Reason != "PodInitializing" {
		t.Fatalf("sharing: a %p b %p c %p (%s)", &a[0], &b[0], &c[0], c[0].State.Waiting.Reason)
	}
	if len(two) != 2 || two[1].Name != "log" || two[0].Started == nil || *two[0].Started {
		t.Fatalf("two containers: %+v", two)
	}
}
