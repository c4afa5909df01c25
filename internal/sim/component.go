package sim

import "github.com/k8sexplain/k8sexplain/internal/sim/kubelet"

// Component is one process of the simulated cluster that talks to the API
// server: a controller, the scheduler, a kubelet, a kube-proxy, CoreDNS.
// Each is built on its own client (its identity) and reads the cluster
// through informers; Start opens its watches and timers. NewCluster starts
// the components in list order, and that order is part of the story: it
// decides which watch is served first when two see the same change.
// (kube-controller-manager keeps its controllers the same way, as a list
// of named descriptors it starts in turn:
// cmd/kube-controller-manager/app/controller_descriptor.go.)
type Component interface {
	// Name is the component's client name, as the trace shows its actor.
	Name() string
	// Start opens the component's watches and timers.
	Start()
}

// heartbeat is a kubelet's node Lease loop, started apart from the kubelet
// because the node lifecycle controller that reads the Leases starts after
// every kubelet (its watch opens first).
type heartbeat struct{ k *kubelet.Kubelet }

func (h heartbeat) Name() string { return h.k.Name() + " (node lease)" }
func (h heartbeat) Start()       { h.k.StartHeartbeat() }
