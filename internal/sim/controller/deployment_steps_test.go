package controller

import (
	"net/http"
	"slices"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	appsv1 "k8s.io/api/apps/v1"
)

// TestDeploymentStepByStep holds the Deployment controller's requests and
// delivers them one at a time: syncDeployment asks for one thing, waits for
// the answer, then asks for the next, as upstream's blocking calls do. A
// 409 on the revision write ends the sync; the key comes back after its
// back-off and the sync starts over from the informers.
func TestDeploymentStepByStep(t *testing.T) {
	h := newHarness(t)
	c := h.client("deployment-controller")
	ob := c.Hold()
	NewDeployment(nil, c, h.eng, h.rec).Start()
	dep := rollingDeployment(4, "nginx:1.27")
	deadline := int32(600)
	dep.Spec.ProgressDeadlineSeconds = &deadline
	h.create(dep)

	// getNewReplicaSet: the ReplicaSet, and nothing else until it is answered.
	lines, _ := held(ob, "")
	if !slices.Equal(lines, []string{"POST /apis/apps/v1/namespaces/default/replicasets"}) {
		t.Fatalf("first request(s): %q, want only the new ReplicaSet", lines)
	}
	rs := ob.Requests()[0].Object.(*appsv1.ReplicaSet)
	if spec(rs) != 4 || rs.Annotations["deployment.kubernetes.io/revision"] != "1" || rs.Labels["pod-template-hash"] == "" {
		t.Fatalf("new ReplicaSet ×%d, annotations %v, labels %v", spec(rs), rs.Annotations, rs.Labels)
	}
	ob.SendAll()
	h.settle()

	// syncRevision: the revision and NewReplicaSetCreated in one status
	// write, then the event of the creation: the recorder writes it
	// asynchronously (client-go tools/record), after the status write the
	// sync sends at the same moment — the order of the real cluster's
	// recording (oracle/testdata/v1.37, apply-tainted-nodes).
	lines, status := held(ob, "/deployments/web/status")
	want := []string{"PUT /apis/apps/v1/namespaces/default/deployments/web/status", "POST /api/v1/namespaces/default/events"}
	if !slices.Equal(lines, want) {
		t.Fatalf("after the ReplicaSet: %q, want %q", lines, want)
	}
	st := ob.Requests()[status[0]].Object.(*appsv1.Deployment)
	cond := deploymentCondition(st.Status, appsv1.DeploymentProgressing)
	if st.Annotations["deployment.kubernetes.io/revision"] != "1" || cond == nil || cond.Reason != "NewReplicaSetCreated" {
		t.Fatalf("revision write: annotations %v, Progressing %+v", st.Annotations, cond)
	}
	ob.Fail(status[0], &apiserver.Status{Code: http.StatusConflict, Reason: "Conflict", Message: "the object has been modified"})
	ob.SendAll()
	h.settle()
	if n := len(h.steps("controller.conflict")); n != 1 {
		t.Fatalf("%d controller.conflict steps, want 1", n)
	}
	// The retried sync finds the ReplicaSet and writes the revision again.
	lines, status = held(ob, "/deployments/web/status")
	if len(status) != 1 || len(lines) != 1 {
		t.Fatalf("after the retry: %q, want one status write", lines)
	}
	ob.Release()
	h.settle()
	if got := h.deploy("web").Annotations["deployment.kubernetes.io/revision"]; got != "1" {
		t.Fatalf("revision annotation %q after release", got)
	}
}
