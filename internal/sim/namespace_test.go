package sim

import (
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/simtest"
	"github.com/k8sexplain/k8sexplain/internal/trace"
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

// kube-controller-manager fills a new namespace: the serviceaccount
// controller creates "default", the root-ca-cert-publisher the
// kube-root-ca.crt ConfigMap, each with its own service account and a
// step of its own, after the Namespace's watch event.
func TestNamespaceControllers(t *testing.T) {
	c := exampleCluster(t, "quota.yaml", Config{Seed: 1, Workers: 3})
	tr := c.Run("t")
	if _, ok := c.api.Get(apiserver.ResourceOf(&corev1.ServiceAccount{}), "team-a", "default").(*corev1.ServiceAccount); !ok {
		t.Error("no ServiceAccount team-a/default")
	}
	cm, _ := c.api.Get(apiserver.ResourceOf(&corev1.ConfigMap{}), "team-a", "kube-root-ca.crt").(*corev1.ConfigMap)
	if cm == nil || cm.Data["ca.crt"] == "" || cm.Annotations["kubernetes.io/description"] == "" {
		t.Errorf("kube-root-ca.crt: %v", cm)
	}
	for kind, actor := range map[trace.Kind]string{"serviceaccount.create": "service-account-controller", "rootca.publish": "root-ca-cert-publisher"} {
		s, ok := simtest.FirstAt(tr, kind, "", "")
		if !ok || s.Actor != actor || s.Get("namespace") != "team-a" {
			t.Errorf("%s: %v %+v", kind, ok, s)
		}
	}
	// the bootstrap namespaces already have theirs: nothing is written
	if n := len(simtest.StepsOf(tr, "serviceaccount.create")); n != 1 {
		t.Errorf("%d serviceaccount.create steps, want 1", n)
	}
	for _, ns := range []string{"default", "kube-system", "kube-public", "kube-node-lease"} {
		if c.api.Get(apiserver.ResourceOf(&corev1.ConfigMap{}), ns, "kube-root-ca.crt") == nil {
			t.Errorf("bootstrap namespace %s has no kube-root-ca.crt", ns)
		}
	}
}

// NamespaceLifecycle implements only Admit (plugin/pkg/admission/namespace/
// lifecycle/admission.go, v1.37): an object for a namespace that does not
// exist is refused in the mutating phase, before validation, so an invalid
// object there gets 404 namespaces "x" not found, not 422; and no other
// mutating plugin has run.
func TestMissingNamespaceRefusedBeforeValidation(t *testing.T) {
	c := appliedCluster(t, Config{Seed: 1, Workers: 1}, "t.yaml", `apiVersion: v1
kind: Service
metadata: {name: web, namespace: nowhere}
spec:
  ports: [{port: 99999}]
`)
	tr := c.Run("t")
	s, ok := simtest.FirstAt(tr, "kubectl.error", "", "")
	if !ok || !strings.Contains(s.Get("message"), `namespaces "nowhere" not found`) {
		t.Fatalf("want the NotFound of NamespaceLifecycle, got %v %q", ok, s.Get("message"))
	}
	if _, ok := simtest.FirstAt(tr, "apiserver.clusterip", "", ""); ok {
		t.Error("a ClusterIP was allocated for a request NamespaceLifecycle refuses")
	}
}
