package sim

import (
	"os"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/golden"
	"github.com/k8sexplain/k8sexplain/internal/sim/simtest"
	corev1 "k8s.io/api/core/v1"
)

// examples/statefulset.yaml with the default class: each claim is
// defaulted to "standard", provisioned on the node the scheduler chose for
// its pod (pvc-<claim UID>, node affinity to that node) and bound both
// ways; the pod is bound only after its claim.
func TestStatefulSetClaimsBound(t *testing.T) {
	src, err := os.ReadFile(golden.Root() + "/examples/statefulset.yaml")
	if err != nil {
		t.Fatal(err)
	}
	objs := simtest.Parse(t, string(src))
	if !NeedsVolumes(objs) {
		t.Fatal("NeedsVolumes: false for a StatefulSet with volumeClaimTemplates")
	}
	c, err := NewCluster(Config{Seed: 1, Workers: 3, StatefulSets: true, Volumes: true})
	if err != nil {
		t.Fatal(err)
	}
	c.Apply(objs, []string{"statefulset.yaml"})
	tr := c.Run("t")
	pods := map[string]*corev1.Pod{}
	for _, p := range c.Pods() {
		pods[p.Name] = p
	}
	volumes := map[string]*corev1.PersistentVolume{}
	for _, o := range c.Objects("persistentvolumes") {
		pv := o.(*corev1.PersistentVolume)
		volumes[pv.Name] = pv
	}
	claims := c.Objects("persistentvolumeclaims")
	if len(claims) != 3 || len(volumes) != 3 {
		t.Fatalf("%d claims, %d volumes; want 3 and 3", len(claims), len(volumes))
	}
	for _, o := range claims {
		pvc := o.(*corev1.PersistentVolumeClaim)
		pod := pods[strings.TrimPrefix(pvc.Name, "www-")]
		if pvc.Status.Phase != corev1.ClaimBound || pvc.Spec.VolumeName != "pvc-"+string(pvc.UID) {
			t.Errorf("claim %s: phase %s, volumeName %q; want Bound to pvc-%s", pvc.Name, pvc.Status.Phase, pvc.Spec.VolumeName, pvc.UID)
		}
		if sc := pvc.Spec.StorageClassName; sc == nil || *sc != "standard" {
			t.Errorf("claim %s: storageClassName %v, want the default standard", pvc.Name, sc)
		}
		for k, want := range map[string]string{"pv.kubernetes.io/bind-completed": "yes", "pv.kubernetes.io/bound-by-controller": "yes",
			"volume.kubernetes.io/storage-provisioner": "rancher.io/local-path", "volume.kubernetes.io/selected-node": pod.Spec.NodeName} {
			if got := pvc.Annotations[k]; got != want {
				t.Errorf("claim %s: annotation %s = %q, want %q", pvc.Name, k, got, want)
			}
		}
		if len(pvc.Finalizers) != 1 || pvc.Finalizers[0] != "kubernetes.io/pvc-protection" {
			t.Errorf("claim %s: finalizers %v", pvc.Name, pvc.Finalizers)
		}
		pv := volumes[pvc.Spec.VolumeName]
		if pv == nil {
			t.Fatalf("claim %s: volume %s not stored", pvc.Name, pvc.Spec.VolumeName)
		}
		if pv.Status.Phase != corev1.VolumeBound || pv.Spec.ClaimRef == nil || pv.Spec.ClaimRef.UID != pvc.UID {
			t.Errorf("volume %s: phase %s, claimRef %v", pv.Name, pv.Status.Phase, pv.Spec.ClaimRef)
		}
		if !volumeFits(pv, pod.Spec.NodeName) {
			t.Errorf("volume %s: node affinity %v does not hold %s's node %s", pv.Name, pv.Spec.NodeAffinity, pod.Name, pod.Spec.NodeName)
		}
	}
	// Per pod: the claim bound, then the pod's binding.
	bound := map[string]int{}
	for i, s := range tr.Steps {
		switch s.Kind {
		case "scheduler.volumesbound":
			bound[s.Get("pod")] = i
		case "scheduler.bind":
			if b, ok := bound[s.Get("pod")]; !ok || b > i {
				t.Errorf("pod %s bound at step %d before its claims (step %d, %v)", s.Get("pod"), i, b, ok)
			}
		}
	}
	if !tr.Summary.AllReady {
		t.Errorf("not every pod Ready: %+v", tr.Summary.PendingPods)
	}
}

func volumeFits(pv *corev1.PersistentVolume, node string) bool {
	na := pv.Spec.NodeAffinity
	if na == nil || na.Required == nil {
		return false
	}
	for _, term := range na.Required.NodeSelectorTerms {
		for _, e := range term.MatchExpressions {
			if e.Key == corev1.LabelHostname && len(e.Values) == 1 && e.Values[0] == node {
				return true
			}
		}
	}
	return false
}

// A claim that cannot bind keeps its pod Pending with the scheduler's
// message, and the PV controller says why on the claim: no class at all,
// or a class that does not exist.
func TestUnbindableClaimKeepsPodPending(t *testing.T) {
	for _, tc := range []struct {
		name, class, reason, msg string
	}{
		{"no class", `""`, "FailedBinding", "no persistent volumes available for this claim and no storage class is set"},
		{"missing class", "fast", "ProvisioningFailed", `storageclass.storage.k8s.io "fast" not found`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			objs := simtest.Parse(t, `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  storageClassName: `+tc.class+`
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
---
apiVersion: v1
kind: Pod
metadata: {name: db}
spec:
  containers: [{name: db, image: registry.k8s.io/nginx-slim:0.27}]
  volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]
`)
			c, err := NewCluster(Config{Seed: 1, Workers: 3, Volumes: NeedsVolumes(objs)})
			if err != nil {
				t.Fatal(err)
			}
			c.Apply(objs, []string{"t.yaml"})
			tr := c.Run("t")
			want := "0/4 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling."
			if len(tr.Summary.PendingPods) != 1 || tr.Summary.PendingPods[0].Message != want {
				t.Errorf("pending: %+v\nwant db: %s", tr.Summary.PendingPods, want)
			}
			found := false
			for _, s := range tr.Steps {
				if s.Kind == "event" && s.Get("reason") == tc.reason && s.Get("message") == tc.msg {
					found = true
				}
			}
			if !found {
				t.Errorf("no %s event %q", tc.reason, tc.msg)
			}
			if n := len(c.Objects("persistentvolumes")); n != 0 {
				t.Errorf("%d volumes provisioned, want none", n)
			}
		})
	}
}

// A pod applied before its claim is unschedulable ("persistentvolumeclaim
// … not found") until the claim arrives; the claim's ADDED event queues it
// again and it runs.
func TestClaimAfterPodRequeues(t *testing.T) {
	objs := simtest.Parse(t, `apiVersion: v1
kind: Pod
metadata: {name: db}
spec:
  containers: [{name: db, image: registry.k8s.io/nginx-slim:0.27}]
  volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`)
	c, err := NewCluster(Config{Seed: 1, Workers: 3, Volumes: NeedsVolumes(objs)})
	if err != nil {
		t.Fatal(err)
	}
	c.Apply(objs, []string{"t.yaml"})
	tr := c.Run("t")
	notFound := false
	for _, s := range tr.Steps {
		if s.Kind == "event" && s.Get("reason") == "FailedScheduling" && strings.Contains(s.Get("message"), `persistentvolumeclaim "data" not found`) {
			notFound = true
		}
	}
	if !notFound || !tr.Summary.AllReady {
		t.Errorf("FailedScheduling for the missing claim: %v; all Ready: %v (%+v)", notFound, tr.Summary.AllReady, tr.Summary.PendingPods)
	}
}
