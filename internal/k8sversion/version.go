// Package k8sversion names the one Kubernetes version the simulator models.
//
// It is the minor of k8s.io/api in go.mod: k8s.io/api v0.37.x is the API of
// Kubernetes v1.37.x. Every version-dependent fact (kubeletVersion, image tags,
// scheduler formulas, kube-proxy rules, quiz answers) follows these constants,
// and TestVersionFollowsGoMod fails when go.mod moves, so that a bump of
// k8s.io/api forces a review of those facts.
package k8sversion

import "strings"

const (
	// Major and Minor are the modelled Kubernetes release.
	Major = 1
	Minor = 37
	// Patch is the patch release of k8s.io/api in go.mod (v0.37.2 → v1.37.2).
	Patch = 2
)

// Version is the modelled release as Kubernetes prints it (kubeletVersion,
// kube-proxy image tag). Spelled out rather than built from Major, Minor
// and Patch, so that nothing is computed when the binary starts;
// TestVersionFollowsGoMod checks that they agree.
const Version = "v1.37.2"

// MinorString is "v1.37", the form traces print ("modelled on Kubernetes v1.37").
const MinorString = "v1.37"

// AtLeast reports whether the modelled release is minor m (of major 1) or newer.
func AtLeast(m int) bool { return Minor >= m }

// PauseImage is the sandbox image kubeadm configures for this release
// (cmd/kubeadm/app/constants PauseVersion: 3.10 in v1.31–v1.32, 3.10.1 in
// v1.33–v1.35, 3.10.2 from v1.36).
const PauseImage = "registry.k8s.io/pause:3.10.2"

// KubeProxyImage is kube-proxy's image as kubeadm deploys it: the release's
// own tag.
const KubeProxyImage = "registry.k8s.io/kube-proxy:" + Version

// ContainerdVersion and RuncVersion are the runtime the simulated nodes
// run. From runc 1.3.2 (runc PR #4785) cpu.shares become cpu.weight by a
// quadratic fit instead of the old linear formula (kubelet.SharesToWeight).
const (
	ContainerdVersion = "2.2.0"
	RuncVersion       = "1.3.3"
)

// SameMinor reports whether a server's gitVersion ("v1.37.2",
// "v1.37.0-gke.100", "v1.37.1+k3s1") is of the modelled minor release.
func SameMinor(gitVersion string) bool {
	rest, ok := strings.CutPrefix(gitVersion, MinorString)
	return ok && (rest == "" || rest[0] == '.' || rest[0] == '-' || rest[0] == '+')
}
