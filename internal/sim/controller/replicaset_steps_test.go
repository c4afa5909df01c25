package controller

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// held lists the outbox's requests as "VERB path" lines, and the indexes
// of those whose path ends in suffix.
func held(ob *apiserver.Outbox, suffix string) (lines []string, idx []int) {
	for i, r := range ob.Requests() {
		lines = append(lines, r.Verb+" "+r.Path)
		if strings.HasSuffix(r.Path, suffix) {
			idx = append(idx, i)
		}
	}
	return lines, idx
}

// TestReplicaSetStepByStep drives the ReplicaSet controller one request at
// a time, as raft's tests drive a node through Ready: its requests are held
// in an outbox, the test reads what it asked for before anything is
// delivered, then delivers or fails each. Slow start shows as batches of
// 1, 2, 4; a failed creation in a batch stops the next one, and the status
// write that follows carries the ReplicaFailure condition.
func TestReplicaSetStepByStep(t *testing.T) {
	h := newHarness(t)
	c := h.client("replicaset-controller")
	ob := c.Hold()
	NewReplicaSet(nil, c, h.eng, h.rec).Start()
	h.create(replicaSet("web", 10))

	// Batch 1: one POST, nothing delivered yet, no pod stored.
	lines, pods := held(ob, "/pods")
	if !slices.Equal(lines, []string{"POST /api/v1/namespaces/default/pods"}) {
		t.Fatalf("first batch asked for %q, want one pod creation", lines)
	}
	if pod := ob.Requests()[0].Object.(*corev1.Pod); pod.GenerateName != "web-" || len(h.pods("default")) != 0 {
		t.Fatalf("held pod %q (generateName %q); %d pods stored before delivery", pod.Name, pod.GenerateName, len(h.pods("default")))
	}
	for _, want := range []int{2, 4} {
		ob.SendAll() // the creations, and the events of the batch before
		h.settle()
		lines, pods = held(ob, "/pods")
		if len(pods) != want {
			t.Fatalf("next batch asked for %d pods, want %d: %q", len(pods), want, lines)
		}
	}
	// Batch 3 (4 pods): the second fails, the others go through.
	ob.Fail(pods[1], &apiserver.Status{Code: http.StatusForbidden, Reason: "Forbidden", Message: "pods \"web-\" is forbidden: exceeded quota"})
	ob.SendAll()
	h.settle()
	if n := len(h.pods("default")); n != 1+2+3 {
		t.Fatalf("%d pods stored, want 6 (batches of 1, 2, then 3 of 4)", n)
	}
	// No batch of 8 follows the failure: the controller asks only for its
	// events and the status write.
	lines, pods = held(ob, "/pods")
	_, status := held(ob, "/replicasets/web/status")
	if len(pods) != 0 || len(status) != 1 {
		t.Fatalf("after the failed batch it asked for %q; want no pod, one status write", lines)
	}
	rs := ob.Requests()[status[0]].Object.(*appsv1.ReplicaSet)
	cond := replicaFailure(rs.Status)
	if rs.Status.Replicas != 0 || cond == nil || cond.Reason != "FailedCreate" || !strings.Contains(cond.Message, "exceeded quota") {
		// replicas 0: the status counts the pods seen when the sync began.
		t.Fatalf("status write: replicas %d, ReplicaFailure %+v", rs.Status.Replicas, cond)
	}
	ob.Release()
	h.settle()
	if n := len(h.pods("default")); n != 10 {
		t.Fatalf("after release: %d pods, want the requeued sync to make all 10", n)
	}
	if cond := replicaFailure(h.rs("web").Status); cond != nil {
		t.Fatalf("ReplicaFailure kept after the creations succeeded: %+v", cond)
	}
}

// TestSlowStartBatch runs slowStartBatch alone on an engine: batches of
// 1, 2, 4, … up to count, each call on its own proc, the next batch only
// after the whole batch returned; a failure ends it after its batch.
func TestSlowStartBatch(t *testing.T) {
	for _, tc := range []struct {
		count, failAt    int
		batches          string
		successes, calls int
	}{
		{count: 10, failAt: -1, batches: "1 2 4 3", successes: 10, calls: 10},
		{count: 10, failAt: 2, batches: "1 2", successes: 2, calls: 3},
		{count: 1, failAt: 0, batches: "1", successes: 0, calls: 1},
		{count: 0, failAt: -1, batches: "", successes: 0, calls: 0},
	} {
		t.Run(fmt.Sprint(tc.count, tc.failAt), func(t *testing.T) {
			e := engine.New(1)
			calls, running := 0, 0
			var batches []int
			var successes int
			var err *apiserver.Status
			e.Go(func(p *engine.Proc) {
				successes, err = slowStartBatch(p, tc.count, 1, func(c *engine.Proc) *apiserver.Status {
					if running == 0 {
						batches = append(batches, 0) // a new batch: the last one has returned
					}
					running++
					batches[len(batches)-1]++
					n := calls
					calls++
					c.Sleep(apiserver.RequestLatency) // in flight together with the batch
					running--
					if n == tc.failAt {
						return &apiserver.Status{Message: "no"}
					}
					return nil
				})
			})
			e.Run(e.Now() + 1e12)
			if got := strings.Trim(fmt.Sprint(batches), "[]"); got != tc.batches || successes != tc.successes || calls != tc.calls {
				t.Fatalf("batches %q successes %d calls %d; want %q %d %d", got, successes, calls, tc.batches, tc.successes, tc.calls)
			}
			if (err != nil) != (tc.failAt >= 0) || e.Procs() != 0 {
				t.Fatalf("err %v, %d procs left", err, e.Procs())
			}
		})
	}
}

// TestReplicaSetWaitsForDeletions: scaling down, the controller asks for
// its DELETEs and nothing else until they are answered (manageReplicas'
// wg.Wait); a failed deletion is manageReplicas' error: a FailedDelete
// event and the ReplicaFailure condition with reason FailedDelete.
func TestReplicaSetWaitsForDeletions(t *testing.T) {
	h := newHarness(t)
	c := h.client("replicaset-controller")
	NewReplicaSet(nil, c, h.eng, h.rec).Start()
	h.create(replicaSet("web", 3))
	rs := h.rs("web").DeepCopy()
	one := int32(1)
	rs.Spec.Replicas = &one
	ob := c.Hold()
	h.update(rs)

	lines, deletes := held(ob, "")
	if len(deletes) != 2 || !slices.Equal(lines, []string{
		"DELETE /api/v1/namespaces/default/pods/" + ob.Requests()[0].Name,
		"DELETE /api/v1/namespaces/default/pods/" + ob.Requests()[1].Name}) {
		t.Fatalf("scaling 3 → 1 asked for %q, want two DELETEs and no status write yet", lines)
	}
	ob.Fail(0, &apiserver.Status{Code: http.StatusInternalServerError, Reason: "InternalError", Message: "etcdserver: request timed out"})
	ob.SendAll()
	h.settle()
	var status *appsv1.ReplicaSet
	for _, r := range ob.Requests() {
		if strings.HasSuffix(r.Path, "/replicasets/web/status") {
			status = r.Object.(*appsv1.ReplicaSet)
		}
	}
	if lines, _ = held(ob, ""); status == nil {
		t.Fatalf("after the deletions were answered it asked for %q; want the status write", lines)
	}
	var reasons []string
	for _, st := range h.steps("event") {
		reasons = append(reasons, st.Get("reason")+" "+st.Get("message"))
	}
	if !slices.ContainsFunc(reasons, func(r string) bool { return strings.HasPrefix(r, "FailedDelete Error deleting: etcdserver") }) {
		t.Fatalf("events %q, want FailedDelete", reasons)
	}
	if cond := replicaFailure(status.Status); cond == nil || cond.Reason != "FailedDelete" || !strings.Contains(cond.Message, "timed out") {
		t.Fatalf("status write: ReplicaFailure %+v, want FailedDelete", cond)
	}
	if n := len(h.pods("default")); n != 2 {
		t.Fatalf("%d pods left, want 2 (one deleted, one failed)", n)
	}
}
