package controller

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func startReplicaSet(h *harness) *ReplicaSet {
	r := NewReplicaSet(nil, h.client("replicaset-controller"), h.eng, h.rec)
	r.Start()
	return r
}

func (h *harness) rs(name string) *appsv1.ReplicaSet {
	o := h.get(&appsv1.ReplicaSet{}, "default", name)
	if o == nil {
		h.t.Fatalf("no ReplicaSet %s", name)
	}
	return o.(*appsv1.ReplicaSet)
}

// The controller creates pods up to spec.replicas, in slow-start batches,
// each owned by the ReplicaSet, and reports them in status.
func TestReplicaSetCreatesToDesired(t *testing.T) {
	h := newHarness(t)
	r := startReplicaSet(h)
	if r.Name() != "replicaset-controller" {
		t.Fatalf("Name: %q", r.Name())
	}
	h.create(replicaSet("web", 3))
	pods := h.pods("default")
	if len(pods) != 3 {
		t.Fatalf("%d pods, want 3", len(pods))
	}
	rs := h.rs("web")
	for _, p := range pods {
		ref := metav1.GetControllerOf(p)
		if ref == nil || ref.UID != rs.UID || ref.Kind != "ReplicaSet" || p.GenerateName != "web-" {
			t.Fatalf("pod %s is not owned by the ReplicaSet: %+v", p.Name, p.OwnerReferences)
		}
	}
	if d := h.steps("replicaset.diff"); len(d) != 1 || d[0].Get("create") != "3" {
		t.Fatalf("diff steps: %+v", d)
	}
	if rs.Status.Replicas != 3 || rs.Status.ReadyReplicas != 0 || rs.Status.ObservedGeneration != rs.Generation {
		t.Fatalf("status: %+v", rs.Status)
	}
	h.readyAll("default")
	if st := h.rs("web").Status; st.ReadyReplicas != 3 || st.AvailableReplicas != 3 {
		t.Fatalf("status after the pods turned ready: %+v", st)
	}
}

// Fewer replicas: the controller deletes the surplus, the unready pods
// first; a deleted pod is replaced.
func TestReplicaSetDeletesToDesired(t *testing.T) {
	h := newHarness(t)
	startReplicaSet(h)
	h.create(replicaSet("web", 3))
	pods := h.pods("default")
	h.admin.UpdateStatus(readyPod(pods[0], 0), nil) // one ready pod: it must survive the scale-down
	h.settle()
	rs := h.rs("web").DeepCopy()
	one := int32(1)
	rs.Spec.Replicas = &one
	h.update(rs)
	left := h.pods("default")
	if len(left) != 1 || left[0].Name != pods[0].Name {
		t.Fatalf("after scaling to 1: %d pods, want only the ready %s", len(left), pods[0].Name)
	}
	if st := h.rs("web").Status; st.Replicas != 1 || st.ReadyReplicas != 1 {
		t.Fatalf("status: %+v", st)
	}
	// An unbound pod is deleted at once; the controller makes a new one.
	h.delete(left[0])
	now := h.pods("default")
	if len(now) != 1 || now[0].Name == left[0].Name {
		t.Fatalf("replacement: %d pods (%v)", len(now), now)
	}
}
