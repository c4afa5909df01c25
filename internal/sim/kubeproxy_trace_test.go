package sim

import (
	"testing"
	"time"

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

// kube-proxy's sync runner (BoundedFrequencyRunner): each node's syncs
// begin at least --iptables-min-sync-period apart, the first change is
// synced at once, and once the cluster settles no runner is left parked.
func TestKubeProxySyncRunner(t *testing.T) {
	c, err := NewCluster(Config{Seed: 1, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	c.Apply(deployment(3), []string{"t.yaml"})
	tr := c.Run("t")
	last := map[string]time.Duration{}
	syncs := 0
	for _, s := range tr.Steps {
		if s.Kind.Component() != "kubeproxy" {
			continue
		}
		prev, ok := last[s.Actor]
		if ok && s.At != prev && s.At-prev < minSyncPeriod {
			t.Fatalf("%s synced at %v and again at %v: closer than the min sync period", s.Actor, prev, s.At)
		}
		last[s.Actor] = s.At
		syncs++
	}
	if len(last) < 3 || syncs < 2*len(last) {
		t.Fatalf("%d kube-proxies synced %d service ports, want every node (3 workers and more) with the REJECT and the KUBE-SVC sync", len(last), syncs)
	}
	if n := c.eng.Procs(); n != 0 {
		t.Fatalf("%d procs parked after the run", n)
	}
}
