package controller

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// A 409 on an old ReplicaSet's scale-down: upstream's reconcileOldReplicaSets
// swallows the error (return false, nil) and rolloutRolling goes on to
// syncRolloutStatus: the sync ends without an error (found in review: the
// simulator ended it as a conflict and retried with back-off).
func TestOldScaleDownConflictDoesNotEndTheSync(t *testing.T) {
	h := newHarness(t)
	c := h.client("deployment-controller")
	NewDeployment(nil, c, h.eng, h.rec).Start()
	startReplicaSet(h)
	h.create(rollingDeployment(4, "nginx:1.27"))
	h.readyAll("default")
	dep := h.deploy("web").DeepCopy()
	dep.Spec.Template.Spec.Containers[0].Image = "nginx:1.28"
	h.update(dep)
	ob := c.Hold()
	h.readyAll("default")
	h.settle()
	for round := 0; round < 6 && ob.Len() > 0; round++ {
		before := len(h.steps("controller.conflict"))
		failed := false
		for i, r := range ob.Requests() {
			if r.Verb == "PUT" && !failed && contains(r.Path, "/replicasets/") && !contains(r.Path, "/status") &&
				r.Object.(*appsv1.ReplicaSet).Annotations["deployment.kubernetes.io/revision"] == "1" {
				ob.Fail(i, &apiserver.Status{Code: http.StatusConflict, Reason: "Conflict", Message: "the object has been modified"})
				failed = true
				break
			}
		}
		if failed {
			ob.SendAll()
			h.settle()
			if after := len(h.steps("controller.conflict")); after != before {
				t.Errorf("the old ReplicaSet's 409 ended the sync as a conflict (%d → %d conflict steps): rolling.go returns (false, nil) and goes on", before, after)
			}
			ob.Release()
			h.settle()
			return
		}
		ob.SendAll()
		h.settle()
	}
	t.Fatal("no old ReplicaSet scale-down was held")
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// updateReplicaSetStatus after a 409: upstream sets ObservedGeneration
// once, from the generation the sync acted on, before the retry loop ("Save
// the generation number we acted on, otherwise we might wrongfully indicate
// that we've seen a spec update when we retry"; found in review).
func TestStatusRetryKeepsTheObservedGeneration(t *testing.T) {
	h := newHarness(t)
	c := h.client("replicaset-controller")
	ob := c.Hold()
	NewReplicaSet(nil, c, h.eng, h.rec).Start()
	h.create(replicaSet("web", 1))
	ob.SendAll() // the pod
	h.settle()
	_, status := held(ob, "/replicasets/web/status")
	if len(status) != 1 {
		t.Fatalf("no status write held")
	}
	acted := ob.Requests()[status[0]].Object.(*appsv1.ReplicaSet).Generation
	// The user scales the ReplicaSet while the status write is in flight.
	rs := h.get(&appsv1.ReplicaSet{}, "default", "web").(*appsv1.ReplicaSet).DeepCopy()
	three := int32(3)
	rs.Spec.Replicas = &three
	h.update(rs)
	ob.SendAll() // the status PUT (409) ...
	h.settle()
	ob.SendAll() // ... the GET
	h.settle()
	_, status = held(ob, "/replicasets/web/status")
	for _, i := range status {
		w := ob.Requests()[i].Object.(*appsv1.ReplicaSet)
		if w.Status.ObservedGeneration != acted {
			t.Errorf("the retry claims generation %d observed; the sync acted on %d", w.Status.ObservedGeneration, acted)
		}
	}
	ob.Release()
	h.settle()
}

// deletePodHandler tries addConditionAndDeletePod up to 5 times, 10 ms
// apart (taint_eviction.go retries, retryDelay): a failed status PATCH is
// followed by a fresh GET 10 ms later, and the pod is still evicted.
func TestTaintEvictionRetries(t *testing.T) {
	h := newHarness(t)
	h.seedNode("node-a", 30)
	n := NewNodeLifecycle(nil, h.client("node-controller"), h.eng, h.rec)
	te := h.client("taint-eviction-controller")
	n.Eviction = te
	n.Start()
	ob := te.Hold()
	h.runUntil(NodeMonitorGracePeriod + 2*NodeMonitorPeriod + 31*time.Second)
	step := func(d time.Duration) { h.runUntil(h.eng.Now() + d) }
	// podCalls lists the held requests on the pod (the eviction's Event
	// goes through the same client).
	podCalls := func() (verbs []string, idx []int) {
		for i, r := range ob.Requests() {
			if strings.Contains(r.Path, "/pods/on-node-a") {
				verbs, idx = append(verbs, r.Verb), append(idx, i)
			}
		}
		return verbs, idx
	}
	// GET, answered; then the PATCH of the DisruptionTarget condition fails.
	for _, want := range []string{"GET", "PATCH"} {
		verbs, idx := podCalls()
		if len(verbs) != 1 || verbs[0] != want {
			t.Fatalf("held on the pod: %v; want one %s", verbs, want)
		}
		if want == "PATCH" {
			ob.Fail(idx[0], &apiserver.Status{Code: http.StatusInternalServerError, Reason: "InternalError", Message: "etcdserver: request timed out"})
		} else {
			ob.SendAll()
		}
		step(5 * time.Millisecond)
	}
	if verbs, _ := podCalls(); len(verbs) != 0 {
		t.Fatalf("asked again within 5 ms (%v); want the retry 10 ms later", verbs)
	}
	step(evictRetryDelay)
	if verbs, _ := podCalls(); len(verbs) != 1 || verbs[0] != "GET" {
		t.Fatalf("after 10 ms: %v; want the retry's GET", verbs)
	}
	ob.Release()
	step(time.Second)
	if pod := h.get(&corev1.Pod{}, "default", "on-node-a").(*corev1.Pod); pod.DeletionTimestamp == nil {
		t.Fatal("the pod was not evicted on the retry")
	}
}
