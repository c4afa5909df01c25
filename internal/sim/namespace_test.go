package sim

import (
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	corev1 "k8s.io/api/core/v1"
)

// A new Namespace as v1.37 stores it: core/v1 defaulting adds the
// kubernetes.io/metadata.name label and phase Active, the namespace
// strategy's PrepareForCreate the kubernetes finalizer
// (pkg/registry/core/namespace/strategy.go).
func TestNamespaceDefaults(t *testing.T) {
	c := exampleCluster(t, "quota.yaml", Config{Seed: 1, Workers: 3})
	c.Run("t")
	ns, _ := c.api.Get(apiserver.ResourceOf(&corev1.Namespace{}), "", "team-a").(*corev1.Namespace)
	if ns == nil {
		t.Fatal("namespace team-a not stored")
	}
	if ns.Labels[corev1.LabelMetadataName] != "team-a" || ns.Status.Phase != corev1.NamespaceActive {
		t.Errorf("labels %v, phase %q", ns.Labels, ns.Status.Phase)
	}
	if len(ns.Spec.Finalizers) != 1 || ns.Spec.Finalizers[0] != corev1.FinalizerKubernetes {
		t.Errorf("spec.finalizers %v, want [kubernetes]", ns.Spec.Finalizers)
	}
}
