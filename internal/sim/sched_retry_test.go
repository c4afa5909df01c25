package sim

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// An unschedulable pod retried after a cluster change stays
// PodScheduled=False, and its lastTransitionTime stays when it first became
// False: each retry works on the pod as the informer has it now, with the
// condition the scheduler wrote (upstream's queue keeps pending pods
// current).
func TestUnschedulableRetryKeepsTransitionTime(t *testing.T) {
	const src = `apiVersion: v1
kind: Pod
metadata: {name: big}
spec:
  containers:
  - name: app
    image: nginx:1.27
    resources: {requests: {cpu: "1000"}}
---
apiVersion: v1
kind: Pod
metadata: {name: small}
spec:
  containers:
  - name: app
    image: nginx:1.27
`
	c := appliedCluster(t, Config{Seed: 1, Workers: 3}, "big.yaml", src)
	scheduled := func() (corev1.ConditionStatus, metav1.Time) {
		for _, p := range c.Pods() {
			if p.Name != "big" {
				continue
			}
			for _, cd := range p.Status.Conditions {
				if cd.Type == corev1.PodScheduled {
					return cd.Status, cd.LastTransitionTime
				}
			}
		}
		return "", metav1.Time{}
	}
	c.RunThrough(2 * time.Second)
	st0, t0 := scheduled()
	if st0 != corev1.ConditionFalse || t0.IsZero() {
		t.Fatalf("big: PodScheduled %q at %s, want False with a time", st0, t0)
	}
	c.RunThrough(30 * time.Second)
	for _, p := range c.Pods() {
		if p.Name == "small" {
			c.DeletePod(p) // a cluster change: the scheduler retries big
		}
	}
	c.RunThrough(10 * time.Minute)
	if st, t1 := scheduled(); st != corev1.ConditionFalse || !t1.Equal(&t0) {
		t.Errorf("after the retry: PodScheduled %q since %s, want False since %s", st, t1, t0)
	}
}
