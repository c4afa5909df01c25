package sim

import (
	"slices"
	"strconv"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
)

// policyRules reports a Service whose rules differ from node to node or
// reach past the cluster IP: internalTrafficPolicy Local, or a NodePort or
// LoadBalancer Service (node ports, externalTrafficPolicy). kube-proxy's
// sync writes them with the rules code of `k8sexplain dnat`
// (kubeproxy.BuildIPTables for this node), so the two agree.
func policyRules(svc *corev1.Service) bool {
	itpLocal := svc.Spec.InternalTrafficPolicy != nil && *svc.Spec.InternalTrafficPolicy == corev1.ServiceInternalTrafficPolicyLocal
	return itpLocal || svc.Spec.Type == corev1.ServiceTypeNodePort || svc.Spec.Type == corev1.ServiceTypeLoadBalancer
}

// syncPolicy is syncProxyRules for one port of such a Service on this
// node (pkg/proxy/iptables/proxier.go, v1.37): the ruleset is built for the
// node's name and IP, so its local endpoints are known; the steps say what
// the node got: the cluster IP's chain (KUBE-SVL with the node's own
// endpoints under internalTrafficPolicy Local, or a DROP "has no local
// endpoints"), the node port's KUBE-NODEPORTS → KUBE-EXT path with the
// external policy, and the health-check node port.
func (p *proxyAgent) syncPolicy(k string, svc *corev1.Service, port corev1.ServicePort, sls []*discoveryv1.EndpointSlice) {
	var sp kubeproxy.ServicePort
	for _, c := range kubeproxy.FromAPI(svc, sls) {
		if c.PortName == port.Name && c.Protocol == protoOf(port.Protocol) {
			sp = c
		}
	}
	rs := kubeproxy.BuildIPTables(kubeproxy.Config{NodeName: p.node, NodeIP: kubeproxy.NodeIP(p.node)}, []kubeproxy.ServicePort{sp})
	// Rules the same as this node's last write for the port are not
	// shown again (another node's endpoint changed, not this node's).
	restore := rs.Restore()
	if p.lastRules == nil {
		p.lastRules = map[string]string{}
	}
	if p.lastRules[k+"/"+port.Name] == restore {
		return
	}
	p.lastRules[k+"/"+port.Name] = restore
	cat := sp.Categorize(p.node)
	name := sp.NameString()
	base := []any{"service", k, "vip", svc.Spec.ClusterIP, "port", port.Port, "proto", sp.Protocol, "node", p.node,
		"total", len(sp.UsableEndpoints())}
	add := func(kind trace.Kind, fields ...any) {
		p.rec.Add(trace.Step{Phase: trace.PhaseReady, Actor: p.c.Actor, Kind: kind, Verbose: !p.loud,
			Object: "services/" + k, Fields: trace.F(append(slices.Clone(base), fields...)...)})
	}
	// The cluster IP: where KUBE-SERVICES sends it on this node.
	if target := jumpFor(rs.NAT.Rules, kubeproxy.ChainServices, "-d", svc.Spec.ClusterIP); target != "" {
		eps := cat.Cluster
		kind := trace.Kind("kubeproxy.sync")
		if sp.InternalPolicyLocal {
			eps, kind = cat.Local, "kubeproxy.local"
		}
		add(kind, "chain", target, "endpoints", len(eps), "targets", targetsOf(eps))
	} else if c := commentFor(rs.Filter.Rules, kubeproxy.ChainServices, "DROP"); c != "" {
		add("kubeproxy.nolocal", "chain", sp.SVLChain(), "comment", c)
	}
	if sp.NodePort == 0 {
		return
	}
	// The node port: KUBE-NODEPORTS → KUBE-EXT → KUBE-SVC or KUBE-SVL.
	ext := []any{"nodeport", sp.NodePort, "ext", sp.EXTChain(), "svc", sp.SVCChain(), "svl", sp.SVLChain()}
	switch {
	case !sp.ExternalPolicyLocal:
		add("kubeproxy.nodeport", append(ext, "endpoints", len(cat.Cluster), "targets", targetsOf(cat.Cluster))...)
	case len(cat.Local) > 0:
		add("kubeproxy.nodeportlocal", append(ext, "endpoints", len(cat.Local), "targets", targetsOf(cat.Local))...)
	default:
		add("kubeproxy.nodeportdrop", append(ext, "comment", commentFor(rs.Filter.Rules, kubeproxy.ChainExternalServices, "DROP"))...)
	}
	if sp.HealthCheckNodePort != 0 {
		// pkg/proxy/healthcheck/service_health.go: 200 with local
		// endpoints, 503 without.
		code := 200
		if len(cat.Local) == 0 {
			code = 503
		}
		add("kubeproxy.healthcheck", "hc", sp.HealthCheckNodePort, "code", code, "local", len(cat.Local), "comment", name+" health check node port")
	}
}

func protoOf(p corev1.Protocol) string {
	if p == "" {
		return string(corev1.ProtocolTCP)
	}
	return string(p)
}

// jumpFor is the target of the first rule of chain that matches flag val.
func jumpFor(rules []kubeproxy.Rule, chain, flag, val string) string {
	for _, r := range rules {
		if r.Chain != chain {
			continue
		}
		if i := slices.Index(r.Args, flag); i >= 0 && i+1 < len(r.Args) && r.Args[i+1] == val {
			if j := slices.Index(r.Args, "-j"); j >= 0 && j+1 < len(r.Args) {
				return r.Args[j+1]
			}
		}
	}
	return ""
}

// commentFor is the comment of the first rule of chain jumping to target.
func commentFor(rules []kubeproxy.Rule, chain, target string) string {
	for _, r := range rules {
		if r.Chain != chain {
			continue
		}
		if j := slices.Index(r.Args, "-j"); j >= 0 && j+1 < len(r.Args) && r.Args[j+1] == target {
			if i := slices.Index(r.Args, "--comment"); i >= 0 && i+1 < len(r.Args) {
				return strings.Trim(r.Args[i+1], `"`)
			}
		}
	}
	return ""
}

func targetsOf(eps []kubeproxy.Endpoint) string {
	if len(eps) == 0 {
		return "-"
	}
	if len(eps) > 10 {
		return "(" + strconv.Itoa(len(eps)) + " endpoints)"
	}
	out := make([]string, len(eps))
	for i, ep := range eps {
		out[i] = ep.String()
	}
	return strings.Join(out, ", ")
}
