package explain

import (
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/provenance"
)

// grpcSources says where each sentence of `grpc-skew` that states a fact comes
// from (package provenance): by key or by section (provenance.BySection). grpc-go
// was read at the version in go.mod.
func grpcSources() map[string]provenance.Source {
	grpc := func(refs ...string) provenance.Source { return provenance.Of("grpc-go v1.85.0", refs...) }
	k := func(refs ...string) provenance.Source { return provenance.K8s("v1.37", refs...) }
	model := provenance.Of("this model", "k8sexplain internal/sim/grpclb (the simulated clients and pods)")
	proxier := "pkg/proxy/iptables/proxier.go (one DNAT per new connection)"
	return map[string]provenance.Source{
		"input.":         model.Plus(k(proxier)),
		"why.":           k(proxier).Plus(grpc("grpc/grpc-go balancer/pickfirst/pickfirst.go", "grpc/grpc doc/load-balancing.md")),
		"side.":          model,
		"ci.":            grpc("grpc/grpc-go balancer/pickfirst/pickfirst.go", "grpc/grpc-go internal/resolver/dns/dns_resolver.go").Plus(k(proxier)),
		"ci.many":        model,
		"ci.numbers":     model,
		"hl.":            grpc("grpc/grpc-go balancer/roundrobin/roundrobin.go", "grpc/grpc-go internal/resolver/dns/dns_resolver.go").Plus(provenance.Of("CoreDNS v1.12", "kubernetes/dns docs/specification.md (headless: one A record per ready pod)")),
		"hl.live":        grpc("grpc/grpc-go resolver/manual/manual.go", "grpc/grpc-go balancer/roundrobin/roundrobin.go"),
		"hl.later":       grpc("grpc/grpc-go internal/resolver/dns/dns_resolver.go (re-resolution on connection loss)"),
		"envoy.":         provenance.Of("Envoy (not pinned)", "envoyproxy/envoy api/envoy/config/cluster/v3/cluster.proto (lb_policy ROUND_ROBIN, the default)"),
		"time.":          model,
		"age.":           grpc("grpc/grpc-go keepalive/keepalive.go (ServerParameters.MaxConnectionAge, ±10 % jitter)", "grpc/grpc-go internal/transport/http2_server.go (GOAWAY)", "grpc/grpc-go clientconn.go (re-resolve on connection loss)"),
		"scale.":         grpc("grpc/grpc-go internal/resolver/dns/dns_resolver.go (MinResolutionInterval)", "grpc/grpc-go clientconn.go").Plus(k(proxier)),
		"scale.envoy":    provenance.Of("Envoy (not pinned)", "envoyproxy/envoy api/envoy/service/discovery/v3/ads.proto (endpoints pushed by the control plane)"),
		"kill.":          grpc("grpc/grpc-go balancer/roundrobin/roundrobin.go", "grpc/grpc-go balancer/pickfirst/pickfirst.go").Plus(k(proxier, "pkg/controller/endpointslice/endpointslice_controller.go")),
		"fix.":           grpc("grpc/grpc-go service_config.go (loadBalancingConfig, loadBalancingPolicy)", "grpc/grpc-go clientconn.go (NewClient: dns scheme)", "grpc/grpc-go keepalive/keepalive.go", "grpc/grpc-go internal/resolver/dns/dns_resolver.go"),
		"fix.proxy":      provenance.Of("Envoy (not pinned)", "envoyproxy/envoy api/envoy/config/cluster/v3/cluster.proto"),
		"fix.live":       model,
		"side.ratio":     model,
		"hl.dns":         provenance.Of("CoreDNS v1.12", "kubernetes/dns docs/specification.md").Plus(k("pkg/proxy/util/utils.go (ShouldSkipService: headless)")),
		"kill.event":     model.Plus(k("pkg/controller/endpointslice/endpointslice_controller.go")),
		"scale.event":    model,
		"title.":         model,
		"conns.":         model,
		"hl.livep":       model,
		"ci.live":        model.Plus(k(proxier)),
		"ci.liveage":     model.Plus(grpc("grpc/grpc-go keepalive/keepalive.go")),
		"hl.warm":        grpc("grpc/grpc-go balancer/roundrobin/roundrobin.go (only READY subchannels are picked)"),
		"fix.warm":       grpc("grpc/grpc-go balancer/roundrobin/roundrobin.go", "grpc/grpc-go rpc_util.go (WaitForReady)"),
		"fix.resolve":    grpc("grpc/grpc-go internal/resolver/dns/dns_resolver.go (MinResolutionInterval; TTL not used)"),
		"scale.ci.never": k(proxier),
	}
}

// explanations are the English texts that state something (a sentence,
// eight words at least); labels, headings and table words are not.
func explanations() map[string]string {
	out := map[string]string{}
	for k, v := range en() {
		v = strings.TrimSpace(v)
		if (strings.HasSuffix(v, ".") || strings.HasSuffix(v, ":")) && len(strings.Fields(v)) >= 8 {
			out[k] = v
		}
	}
	return out
}

// Provenance is the grpc-skew catalogue's explanations and their sources,
// for docs/PROVENANCE.md.
func Provenance() provenance.Catalogue {
	texts := explanations()
	src := provenance.BySection(texts, grpcSources())
	return provenance.Catalogue{Name: "grpc-skew: the report's sentences", Package: "internal/sim/grpclb/explain", Texts: texts, Sources: src,
		Note: "Sources are assigned by section (a key prefix): every sentence of a section names the files that section paraphrases; the sentences were not each read again against them in this pass."}
}
