package kubeproxy

import (
	"crypto/sha256"
	"encoding/base32"
	"fmt"
	"math"
	"net"
	"strconv"
	"strings"
)

// Hash16 is the first 16 characters of the base32 (A-Z2-7) SHA-256 of s:
// upstream portProtoHash, which keeps chain names within iptables' 28.
func Hash16(s string) string {
	h := sha256.Sum256([]byte(s))
	// 10 bytes are 16 base32 characters: encode only those.
	var out [16]byte
	base32.StdEncoding.Encode(out[:], h[:10])
	return string(out[:])
}

// portHash is the hash the port's KUBE-SVC, KUBE-SVL, KUBE-EXT and KUBE-FW
// chains share: hash16(NAME + proto).
func (sp ServicePort) portHash() string { return Hash16(sp.NameString() + sp.Proto()) }

// NameString is proxy.ServicePortName.String(): "ns/name:port", or
// "ns/name" for an unnamed port.
func (sp ServicePort) NameString() string {
	s := sp.Namespace + "/" + sp.Name
	if sp.PortName != "" {
		s += ":" + sp.PortName
	}
	return s
}

// Proto is the lowercase protocol used in chain hashes and "-m tcp -p tcp".
func (sp ServicePort) Proto() string {
	if sp.Protocol == "" {
		return "tcp"
	}
	return strings.ToLower(sp.Protocol)
}

// SVCChain is KUBE-SVC- + hash16(NAME + proto) (servicePortPolicyClusterChain).
func (sp ServicePort) SVCChain() string { return "KUBE-SVC-" + sp.portHash() }

// SVLChain is KUBE-SVL- + the same hash: the chain with only this node's
// endpoints, for a Local traffic policy (servicePortPolicyLocalChainName).
func (sp ServicePort) SVLChain() string { return "KUBE-SVL-" + sp.portHash() }

// EXTChain is KUBE-EXT- + the same hash: where NodePort, external IP and
// load-balancer traffic goes first (serviceExternalChainName).
func (sp ServicePort) EXTChain() string { return "KUBE-EXT-" + sp.portHash() }

// FWChain is KUBE-FW- + the same hash: loadBalancerSourceRanges
// (serviceFirewallChainName).
func (sp ServicePort) FWChain() string { return "KUBE-FW-" + sp.portHash() }

// SEPChain is KUBE-SEP- + hash16(NAME + proto + ip:port)
// (servicePortEndpointChainName).
func (sp ServicePort) SEPChain(ep Endpoint) string {
	return "KUBE-SEP-" + Hash16(sp.NameString()+sp.Proto()+ep.String())
}

// Probability is the text kube-proxy writes for "--probability" of the rule
// that picks one of n remaining endpoints: computeProbability, %0.10f of 1/n.
func Probability(n int) string { return strconv.FormatFloat(1.0/float64(n), 'f', 10, 64) }

// KernelProbability is what the statistic match stores for a probability
// text: lround(2^31 * p) (iptables libxt_statistic.c). The kernel matches
// when (random & 0x7FFFFFFF) < stored.
func KernelProbability(text string) uint32 {
	var p float64
	fmt.Sscanf(text, "%g", &p)
	return uint32(math.Round(p * (1 << 31)))
}

// SavedProbability is how iptables-save prints a stored probability:
// %.11f of stored/2^31 (1/3 → 0.33333333349).
func SavedProbability(text string) string {
	return fmt.Sprintf("%.11f", float64(KernelProbability(text))/(1<<31))
}

// MasqueradeMark is the mark kube-proxy writes: fmt %#08x of 1<<bit, which
// for the default bit 14 is "0x00004000" (iptables-save shows 0x4000).
func MasqueradeMark(bit int) string {
	if bit == 0 {
		bit = 14
	}
	return fmt.Sprintf("%#08x", 1<<uint(bit))
}

// NFTChainBaseMax is the nftables proxier's chainNameBaseLengthMax:
// knftables.NameLengthMax (256) minus chainNamePrefixLengthMax (16).
const NFTChainBaseMax = 256 - 16

// nftChainBase is the nftables proxier's hashAndTruncate over
// "ns/name/proto/port" (plus "__ip/port" for an endpoint, colons of an IPv6
// address turned into dots): 8 hash characters, a dash, the name, cut to
// NFTChainBaseMax with "..." at the end.
func nftChainBase(name string) string {
	h := sha256.Sum256([]byte(name))
	// 5 bytes are 8 base32 characters: encode only those.
	var pre [8]byte
	base32.StdEncoding.Encode(pre[:], h[:5])
	s := string(pre[:]) + "-" + name
	const max = NFTChainBaseMax
	if len(s) > max {
		s = s[:max-3] + "..."
	}
	return s
}

// NFTServiceChain is the nftables "service-…" chain of the port.
func (sp ServicePort) NFTServiceChain() string {
	return "service-" + sp.nftBase()
}

func (sp ServicePort) nftBase() string {
	return nftChainBase(sp.Namespace + "/" + sp.Name + "/" + sp.Proto() + "/" + sp.PortName)
}

// NFTLocalChain, NFTExternalChain and NFTFirewallChain share the service
// chain's base (newServiceInfo in pkg/proxy/nftables/proxier.go).
func (sp ServicePort) NFTLocalChain() string    { return "local-" + sp.nftBase() }
func (sp ServicePort) NFTExternalChain() string { return "external-" + sp.nftBase() }
func (sp ServicePort) NFTFirewallChain() string { return "firewall-" + sp.nftBase() }

// NFTAffinitySet is the endpoint's "affinity-…" set (newEndpointInfo).
func (sp ServicePort) NFTAffinitySet(ep Endpoint) string {
	return "affinity-" + strings.TrimPrefix(sp.NFTEndpointChain(ep), "endpoint-")
}

// NFTEndpointChain is the nftables "endpoint-…" chain of one endpoint.
func (sp ServicePort) NFTEndpointChain(ep Endpoint) string {
	ip, port, _ := net.SplitHostPort(ep.String())
	ip = strings.ReplaceAll(ip, ":", ".")
	return "endpoint-" + nftChainBase(fmt.Sprintf("%s/%s/%s/%s__%s/%s", sp.Namespace, sp.Name, sp.Proto(), sp.PortName, ip, port))
}
