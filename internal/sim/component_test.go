package sim

import (
	"slices"
	"testing"
)

// NewCluster starts its components in the order the trace depends on:
// controllers, kube-controller-manager's shared informers (started after
// its controllers, as controllermanager.go starts the factory), scheduler,
// per node a kubelet and a kube-proxy, then the node lifecycle controller
// and the heartbeats, CoreDNS last.
func TestComponentStartOrder(t *testing.T) {
	c, err := NewCluster(Config{Workers: 2, Heartbeats: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, comp := range c.comps {
		got = append(got, comp.Name())
	}
	want := []string{"deployment-controller", "replicaset-controller", "endpointslice-controller", "resourcequota-controller", "service-account-controller", "root-ca-cert-publisher",
		"kube-controller-manager", "default-scheduler", "kubelet/control-plane", "kube-proxy/control-plane", "kubelet/node-a", "kube-proxy/node-a", "kubelet/node-b", "kube-proxy/node-b",
		"node-lifecycle-controller", "kubelet/control-plane (node lease)", "kubelet/node-a (node lease)", "kubelet/node-b (node lease)", "coredns"}
	if !slices.Equal(got, want) {
		t.Fatalf("start order:\n got %q\nwant %q", got, want)
	}
	// Past proxySample nodes the kube-proxies are counted, not started.
	c, err = NewCluster(Config{Workers: proxySample + 5})
	if err != nil {
		t.Fatal(err)
	}
	proxies := 0
	for _, comp := range c.comps {
		if _, ok := comp.(*proxyAgent); ok {
			proxies++
		}
	}
	if proxies != proxySample {
		t.Fatalf("%d kube-proxies started, want %d", proxies, proxySample)
	}
}

// kube-controller-manager's controllers share its informer factory: one
// watch per resource for the process (Deployments, ReplicaSets, pods,
// Services, ResourceQuotas, Namespaces, ServiceAccounts, ConfigMaps, and
// with heartbeats Leases and nodes), none of
// a controller's own.
func TestControllersShareInformers(t *testing.T) {
	for _, hb := range []bool{false, true} {
		c, err := NewCluster(Config{Workers: 2, Heartbeats: hb})
		if err != nil {
			t.Fatal(err)
		}
		want := 8
		if hb {
			want = 10
		}
		if got := c.api.Requests["kube-controller-manager"]; got != want {
			t.Errorf("heartbeats %v: kube-controller-manager opened %d watches, want %d", hb, got, want)
		}
		for _, name := range []string{"deployment-controller", "replicaset-controller", "endpointslice-controller", "resourcequota-controller", "service-account-controller", "root-ca-cert-publisher", "node-lifecycle-controller"} {
			if n := c.api.Requests[name]; n != 0 {
				t.Errorf("heartbeats %v: %s sent %d requests before anything was applied, want none (its informers are shared)", hb, name, n)
			}
		}
	}
}
