package sim

import (
	"slices"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/sim/simtest"
	corev1 "k8s.io/api/core/v1"
)

// A running pod's conditions are stored in the order the kubelet writes
// them: generateAPIPodStatus (pkg/kubelet/kubelet_pods.go, v1.37) keeps the
// conditions it does not own first, then appends PodReadyToStartContainers,
// Initialized, Ready, ContainersReady and PodScheduled, and the status
// manager's patch (strategicpatch CreateTwoWayMergePatch with
// $setElementOrder/conditions) makes the stored list follow that order, so
// `kubectl get pod -o yaml` lists PodScheduled last even though the
// scheduler's binding wrote it first.
func TestPodConditionsInKubeletOrder(t *testing.T) {
	c, err := NewCluster(Config{Seed: 1, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	c.Apply(simtest.Parse(t, policyDeployment), []string{"web.yaml"})
	c.Run("t")
	want := []corev1.PodConditionType{corev1.PodReadyToStartContainers, corev1.PodInitialized, corev1.PodReady, corev1.ContainersReady, corev1.PodScheduled}
	n := 0
	for _, p := range c.Pods() {
		var got []corev1.PodConditionType
		for _, cond := range p.Status.Conditions {
			got = append(got, cond.Type)
		}
		if !slices.Equal(got, want) {
			t.Errorf("pod %s: conditions %v, want %v", p.Name, got, want)
		}
		n++
	}
	if n != 2 {
		t.Fatalf("%d pods, want 2", n)
	}
}
