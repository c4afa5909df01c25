package sim

import (
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/sim/simtest"
)

// A Service whose pods are not Ready yet gets only the filter-table REJECT:
// no sync reports a KUBE-SVC chain with zero endpoints.
func TestKubeProxyNoEndpointsRejects(t *testing.T) {
	c, err := NewCluster(Config{Seed: 1, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	c.Apply(deployment(3), []string{"t.yaml"})
	tr := c.Run("t")
	for _, s := range simtest.StepsOf(tr, "kubeproxy.sync") {
		if s.Get("endpoints") == "0" {
			t.Fatalf("sync with 0 endpoints writes a KUBE-SVC chain: %v", s.Fields)
		}
	}
	rej := simtest.StepsOf(tr, "kubeproxy.reject")
	if len(rej) == 0 {
		t.Fatal("no kubeproxy.reject step for the Service before its pods were Ready")
	}
	if got, want := rej[0].Get("comment"), "default/web has no endpoints"; got != want {
		t.Fatalf("REJECT comment %q, want %q (ServicePortName of an unnamed port)", got, want)
	}
	if sync := simtest.StepsOf(tr, "kubeproxy.sync"); len(sync) == 0 || sync[0].At < rej[0].At {
		t.Fatalf("want the REJECT first, then a KUBE-SVC sync once endpoints are ready")
	}
}
