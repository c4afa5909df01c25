// Package nodeset is the simulated cluster's nodes before it starts: the
// default nodes (a tainted control plane and identical workers, named and
// addressed in order) and their podCIDRs as kube-controller-manager's
// node-ipam controller hands them out. The cluster (package sim) and the
// other models (watchload) build their nodes here without importing each
// other. It models no node lifecycle: that is the node lifecycle
// controller's and the kubelet's.
package nodeset
