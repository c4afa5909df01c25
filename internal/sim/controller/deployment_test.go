package controller

import (
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/informer"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// startDeployment runs the deployment controller and, under it, the
// replicaset controller that turns its ReplicaSets into pods.
func startDeployment(h *harness) *Deployment {
	d := NewDeployment(nil, h.client("deployment-controller"), h.eng, h.rec)
	d.Start()
	startReplicaSet(h)
	return d
}

// rollingDeployment has upstream's defaults: maxSurge and maxUnavailable 25%.
func rollingDeployment(replicas int32, image string) *appsv1.Deployment {
	d := deployment("web", replicas, image)
	q := intstr.FromString("25%")
	d.Spec.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{MaxSurge: &q, MaxUnavailable: &q}
	return d
}

// ownedSets returns the Deployment's ReplicaSets by revision annotation.
func (h *harness) ownedSets(dep *appsv1.Deployment) map[string]*appsv1.ReplicaSet {
	out := map[string]*appsv1.ReplicaSet{}
	for _, o := range h.api.List("replicasets") {
		rs := o.(*appsv1.ReplicaSet)
		if ref := metav1.GetControllerOf(rs); ref != nil && ref.UID == dep.UID {
			out[rs.Annotations["deployment.kubernetes.io/revision"]] = rs
		}
	}
	return out
}

func (h *harness) deploy(name string) *appsv1.Deployment {
	return h.get(&appsv1.Deployment{}, "default", name).(*appsv1.Deployment)
}

// A new Deployment gets one ReplicaSet, revision 1, named after the pod
// template hash, scaled to the replicas; the status follows the pods.
func TestDeploymentScalesUp(t *testing.T) {
	h := newHarness(t)
	d := startDeployment(h)
	h.create(rollingDeployment(3, "nginx:1.27"))
	dep := h.deploy("web")
	sets := h.ownedSets(dep)
	rs := sets["1"]
	if len(sets) != 1 || rs == nil {
		t.Fatalf("ReplicaSets by revision: %v", sets)
	}
	if want := "web-" + PodTemplateHash(&dep.Spec.Template, nil); rs.Name != want || spec(rs) != 3 {
		t.Fatalf("ReplicaSet %s ×%d, want %s ×3", rs.Name, spec(rs), want)
	}
	if rs.Spec.Template.Labels[appsv1.DefaultDeploymentUniqueLabelKey] == "" {
		t.Fatal("the ReplicaSet's template carries no pod-template-hash label")
	}
	if n := len(h.pods("default")); n != 3 {
		t.Fatalf("%d pods, want 3", n)
	}
	h.readyAll("default")
	if st := h.deploy("web").Status; st.Replicas != 3 || st.ReadyReplicas != 3 || st.UpdatedReplicas != 3 || st.AvailableReplicas != 3 {
		t.Fatalf("status: %+v", st)
	}
	// Scaling the Deployment scales its ReplicaSet.
	dep = h.deploy("web").DeepCopy()
	five := int32(5)
	dep.Spec.Replicas = &five
	h.update(dep)
	if rs := h.ownedSets(dep)["1"]; spec(rs) != 5 || len(h.pods("default")) != 5 {
		t.Fatalf("after scaling to 5: ReplicaSet ×%d, %d pods", spec(rs), len(h.pods("default")))
	}
	if len(d.History["default/web"]) == 0 {
		t.Fatal("no rollout history recorded")
	}
}

// A new template starts revision 2; one rolling step is bounded by the
// surge (25% of 4 = 1 more pod) and unavailability (25% of 4 = 1 fewer),
// and the rollout completes only as new pods turn ready.
func TestDeploymentRollingUpdateStep(t *testing.T) {
	h := newHarness(t)
	startDeployment(h)
	h.create(rollingDeployment(4, "nginx:1.27"))
	h.readyAll("default")
	dep := h.deploy("web").DeepCopy()
	dep.Spec.Template.Spec.Containers[0].Image = "nginx:1.28"
	h.update(dep)
	sets := h.ownedSets(dep)
	old, cur := sets["1"], sets["2"]
	if old == nil || cur == nil {
		t.Fatalf("ReplicaSets by revision: %v", sets)
	}
	// No new pod is ready: the new set got the surge, the old one gave up
	// the one pod the budget allows, and there it stops.
	if spec(cur) != 2 || spec(old) != 3 {
		t.Fatalf("first step: new ×%d, old ×%d; want 2 and 3", spec(cur), spec(old))
	}
	// Ready new pods let the rollout go on until the old set is empty.
	for i := 0; i < 10 && spec(h.ownedSets(dep)["1"]) > 0; i++ {
		h.readyAll("default")
	}
	sets = h.ownedSets(dep)
	if spec(sets["2"]) != 4 || spec(sets["1"]) != 0 {
		t.Fatalf("after the rollout: new ×%d, old ×%d", spec(sets["2"]), spec(sets["1"]))
	}
	if st := h.deploy("web").Status; st.UpdatedReplicas != 4 || st.AvailableReplicas != 4 {
		t.Fatalf("status: %+v", st)
	}
	// Going back to the first template reuses revision 1's ReplicaSet,
	// which becomes revision 3 (rollout undo).
	dep = h.deploy("web").DeepCopy()
	dep.Spec.Template.Spec.Containers[0].Image = "nginx:1.27"
	h.update(dep)
	sets = h.ownedSets(dep)
	if len(sets) != 2 || sets["3"] == nil || sets["3"].UID != old.UID {
		t.Fatalf("undo: ReplicaSets by revision %v, want the old one as revision 3", keys(sets))
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// The controller reads its ReplicaSets through the informer's owner index.
func TestDeploymentOwnedByIndex(t *testing.T) {
	h := newHarness(t)
	d := startDeployment(h)
	h.create(rollingDeployment(1, "nginx:1.27"))
	stray := replicaSet("stray", 0) // not the Deployment's: no controller reference
	h.create(stray)
	dep := h.deploy("web")
	newRS, olds := d.owned(dep, "web-"+PodTemplateHash(&dep.Spec.Template, nil))
	if newRS == nil || len(olds) != 0 {
		t.Fatalf("owned: %v, %d others", newRS, len(olds))
	}
	if got := d.rsets.ByIndex(informer.ControllerIndex, string(dep.UID)); len(got) != 1 {
		t.Fatalf("index: %d ReplicaSets", len(got))
	}
}

// status.terminatingReplicas (DeploymentReplicaSetTerminatingReplicas,
// beta and on by default since v1.35): a ReplicaSet counts its pods that
// are being deleted and not yet finished (controller.FilterTerminatingPods
// in syncReplicaSet, calculateStatus in replica_set_utils.go), and the
// Deployment sums its ReplicaSets' (calculateStatus in
// deployment/sync.go). They are not replicas: status.replicas leaves them
// out, which is why more pods than replicas + maxSurge can exist while old
// ones shut down.
func TestTerminatingReplicasCounted(t *testing.T) {
	h := newHarness(t)
	startDeployment(h)
	h.create(rollingDeployment(3, "nginx:1.27"))
	h.readyAll("default")
	rs := h.ownedSets(h.deploy("web"))["1"]
	if rs.Status.TerminatingReplicas == nil || *rs.Status.TerminatingReplicas != 0 {
		t.Fatalf("ReplicaSet terminatingReplicas %v, want 0", rs.Status.TerminatingReplicas)
	}
	// A pod with a grace period: deleted, still there (no kubelet here
	// finishes it), replaced by the ReplicaSet.
	pod := h.pods("default")[0]
	h.admin.Bind(pod, "node-a", nil) // a pod on no node is deleted at once
	h.settle()
	h.admin.DeleteGrace(apiserver.ResourceOf(pod), pod.Namespace, pod.Name, 30, nil)
	h.settle()
	rs = h.ownedSets(h.deploy("web"))["1"]
	if rs.Status.TerminatingReplicas == nil || *rs.Status.TerminatingReplicas != 1 || rs.Status.Replicas != 3 {
		t.Fatalf("ReplicaSet replicas %d terminatingReplicas %v, want 3 and 1", rs.Status.Replicas, rs.Status.TerminatingReplicas)
	}
	if st := h.deploy("web").Status; st.TerminatingReplicas == nil || *st.TerminatingReplicas != 1 || st.Replicas != 3 {
		t.Fatalf("Deployment replicas %d terminatingReplicas %v, want 3 and 1", st.Replicas, st.TerminatingReplicas)
	}
}
