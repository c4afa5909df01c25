package explain

import (
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/provenance"
)

// dnatSources says where each sentence of `dnat` that states a fact comes
// from (package provenance): by key or by section
// (provenance.BySection). kube-proxy's sources are v1.37's; the kernel's
// are its netfilter documentation and source.
func dnatSources() map[string]provenance.Source {
	k := func(refs ...string) provenance.Source { return provenance.K8s("v1.37", refs...) }
	proxier := "pkg/proxy/iptables/proxier.go (syncProxyRules)"
	kernel := func(refs ...string) provenance.Source { return provenance.Of("Linux 6.x", refs...) }
	conntrack := kernel("torvalds/linux Documentation/networking/nf_conntrack-sysctl.rst", "torvalds/linux net/netfilter/nf_conntrack_core.c")
	iptables := provenance.Of("iptables 1.8", "netfilter iptables extensions/libxt_statistic.c, libxt_MARK.c, libxt_recent.c", "netfilter iptables iptables/iptables-save.c")
	return map[string]provenance.Source{
		"input.":           k("pkg/registry/core/service/storage/alloc.go (node ports)", "pkg/controller/endpointslice/endpointslice_controller.go"),
		"fiction.":         k(proxier, "pkg/proxy/iptables/proxier.go (no ICMP rule for the cluster IP)").Plus(conntrack),
		"restore.":         k(proxier, "pkg/proxy/iptables/proxier.go (iptables-restore --noflush --counters)", "pkg/util/iptables/iptables.go"),
		"jumps.":           k("pkg/proxy/iptables/proxier.go (iptablesJumpChains, EnsureRule)"),
		"save.":            iptables,
		"large.":           k("pkg/proxy/iptables/proxier.go (largeClusterEndpointsThreshold)"),
		"read.":            k(proxier),
		"read.fixed":       k(proxier, "pkg/proxy/iptables/proxier.go (KUBE-MARK-MASQ, KUBE-POSTROUTING, KUBE-FORWARD)"),
		"read.names":       k("pkg/proxy/iptables/proxier.go (servicePortChainName, servicePortEndpointChainName, portProtoHash)"),
		"read.hc":          k("pkg/proxy/healthcheck/service_health.go"),
		"read.nfacct":      k(proxier, "pkg/util/iptables/iptables.go (nfacct)"),
		"read.nonfacct":    k(proxier, "pkg/util/iptables/iptables.go (nfacct)"),
		"prob.":            k("pkg/proxy/iptables/proxier.go (probability: %0.10f of 1/(n−i))"),
		"graph.":           k(proxier),
		"walk.":            k(proxier).Plus(kernel("torvalds/linux net/netfilter/xt_statistic.c", "torvalds/linux net/netfilter/nf_nat_core.c")),
		"ct.":              conntrack,
		"ct.udp.stale":     k("pkg/proxy/conntrack/cleanup.go (CleanStaleEntries)").Plus(conntrack),
		"spread.":          k("pkg/proxy/iptables/proxier.go (statistic rules, recent match for ClientIP affinity)", "pkg/proxy/ipvs/proxier.go (rr)"),
		"ipvs.":            k("pkg/proxy/ipvs/proxier.go", "pkg/proxy/ipvs/README.md", "KEP-5495 (IPVS deprecated in v1.35)"),
		"cost.":            k(proxier, "pkg/proxy/ipvs/proxier.go", "pkg/proxy/nftables/proxier.go"),
		"ext.":             k(proxier, "pkg/proxy/iptables/proxier.go (KUBE-EXT, KUBE-SVL, externalTrafficPolicy)"),
		"nft.":             k("pkg/proxy/nftables/proxier.go", "pkg/proxy/nftables/README.md", "KEP-3866"),
		"scale.":           k(proxier, "pkg/proxy/ipvs/proxier.go", "pkg/proxy/nftables/proxier.go", "kubernetes/community sig-scalability/configs-and-limits/thresholds.md"),
		"src.ipvs2018":     provenance.Of("published 2018", "kubernetes/website content/en/blog/_posts/2018-07-09-ipvs-In-Cluster-Load-Balancing-Deep-Dive.md"),
		"src.nft2025":      provenance.Of("published 2025", "kubernetes/website content/en/blog/_posts/2025-02-28-nftables-kube-proxy.md"),
		"src.eks":          provenance.Of("published 2025", "aws/aws-eks-best-practices (EKS best practices guide, kube-proxy nftables)"),
		"src.partial":      k(proxier+" (partial sync)", "KEP-3453"),
		"extname.":         k("pkg/proxy/util/utils.go (ShouldSkipService: ExternalName)").Plus(provenance.Of("CoreDNS v1.12", "coredns/coredns plugin/kubernetes/kubernetes.go")),
		"headless.":        k("pkg/proxy/util/utils.go (ShouldSkipService: headless)", "kubernetes/dns docs/specification.md"),
		"dns.":             provenance.Of("CoreDNS v1.12", "coredns/coredns plugin/kubernetes/kubernetes.go", "kubernetes/dns docs/specification.md").Plus(k("cmd/kubeadm/app/phases/addons/dns/manifests.go (ttl 30)")),
		"seq.":             k(proxier).Plus(conntrack),
		"read.np.nolo":     k(proxier + " (localhost NodePort rule only with its nfacct counter)"),
		"read.svl.none":    k(proxier + " (internalTrafficPolicy Local without local endpoints: DROP)"),
		"read.ext.nolocal": k(proxier+" (externalTrafficPolicy Local without local endpoints: DROP)", "pkg/proxy/healthcheck/service_health.go"),
		"walk.intro.tcp":   k(proxier).Plus(kernel("torvalds/linux net/netfilter/nf_conntrack_core.c")),
		"read.statistic":   k(proxier).Plus(iptables),
		"read.affinity":    k(proxier + " (recent match, --rcheck --seconds)"),
		"read.masq":        k(proxier, "pkg/proxy/util/localdetector.go"),
		"read.masqall":     k("pkg/proxy/apis/config/types.go (MasqueradeAll)"),
		"read.nomasq":      k("pkg/proxy/util/localdetector.go (no-op detector)"),
	}
}

// explanations are the English texts that state something (a sentence,
// eight words at least); labels, headings and table words are not.
func explanations() map[string]string {
	out := map[string]string{}
	for k, v := range en() {
		v = strings.TrimSpace(v)
		if (strings.HasSuffix(v, ".") || strings.HasSuffix(v, ":") || strings.HasSuffix(v, "?")) && len(strings.Fields(v)) >= 8 {
			out[k] = v
		}
	}
	return out
}

// Provenance is the dnat catalogue's explanations and their sources, for
// docs/PROVENANCE.md.
func Provenance() provenance.Catalogue {
	texts := explanations()
	src := provenance.BySection(texts, dnatSources())
	return provenance.Catalogue{Name: "dnat: the reading of the rules", Package: "internal/sim/kubeproxy/explain", Texts: texts, Sources: src,
		Note: "Sources are assigned by section (a key prefix): every sentence of a section names the files that section paraphrases; the sentences were not each read again against them in this pass."}
}
