package cmd

import (
	"regexp"
	"strings"
	"testing"
)

// trace apply's kube-proxy and `dnat -f` build a node's rules with the same
// code: for each node of examples/nodeport-local.yaml, the trace says the
// node drops the internalTrafficPolicy Local Service exactly when dnat's
// rules for that node hold the "has no local endpoints" DROP, and both name
// the same node port.
func TestTraceKubeProxyAgreesWithDNAT(t *testing.T) {
	inRoot(t)
	trace, errOut, code := run(t, "", "-v", "trace", "apply", "examples/nodeport-local.yaml")
	if code != 0 {
		t.Fatalf("trace apply: exit %d, %s", code, errOut)
	}
	// web-internal's cluster IP, from the first line naming the Service
	ip := regexp.MustCompile(`default/web-internal has no ready endpoints — .* for (\d+\.\d+\.\d+\.\d+):`).FindStringSubmatch(trace)
	if ip == nil {
		t.Fatalf("no line gives web-internal's cluster IP:\n%s", trace)
	}
	about := regexp.MustCompile(`kube-proxy on (\S+): .*(web-internal|` + regexp.QuoteMeta(ip[1]) + `:)`)
	last := map[string]string{} // node → its last kube-proxy line about web-internal
	for _, l := range strings.Split(trace, "\n") {
		if m := about.FindStringSubmatch(l); m != nil {
			last[m[1]] = l
		}
	}
	np := regexp.MustCompile(`KUBE-NODEPORTS sends node port (\d+)/`).FindStringSubmatch(trace)
	if len(last) != 4 || np == nil {
		t.Fatalf("want the Service's lines on 4 nodes and a node port in the trace, got %d nodes, %v", len(last), np)
	}
	for _, node := range []string{"control-plane", "node-a", "node-b", "node-c"} {
		rules, errOut, code := run(t, "", "dnat", "-f", "examples/nodeport-local.yaml", "--service", "default/web-internal", "--node", node)
		if code != 0 {
			t.Fatalf("dnat --node %s: exit %d, %s", node, code, errOut)
		}
		dnatDrops := strings.Contains(rules, `"default/web-internal:http has no local endpoints" -m tcp -p tcp -d`)
		traceDrops := strings.Contains(last[node], "has no local endpoints")
		if dnatDrops != traceDrops {
			t.Errorf("%s: dnat drops %v, trace drops %v (%s)", node, dnatDrops, traceDrops, last[node])
		}
	}
	rules, _, _ := run(t, "", "dnat", "-f", "examples/nodeport-local.yaml", "--service", "default/web")
	if !strings.Contains(rules, "nodePort "+np[1]+",") {
		t.Errorf("dnat's nodePort differs from the trace's %s", np[1])
	}
}
