package sim

import (
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
)

// The state log's kube-proxy rows: every simulated node ends with the
// rules the dnat code builds from the stored Service and EndpointSlices
// (the same KUBE-SVC chain, the same endpoints in the same order), and
// before any endpoint was ready the port was a REJECT.
func TestStateLogKubeProxyRows(t *testing.T) {
	c := exampleCluster(t, "app.yaml", Config{Seed: 1, Workers: 3, RecordState: true})
	tr := c.Run("test")
	rows := map[string][]string{}
	var rejected bool
	for _, ch := range tr.State.Changes {
		if ch.Kind != proxyRulesKind {
			continue
		}
		if ch.Deleted {
			delete(rows, ch.Name)
			continue
		}
		rows[ch.Name] = ch.Cols
		if ch.Cols[1] == "default/web:http" && ch.Cols[2] == "REJECT" {
			rejected = true
		}
	}
	if !rejected {
		t.Error("default/web:http was never a REJECT before its endpoints were ready")
	}
	var svc *corev1.Service
	for _, o := range c.api.List("services") {
		if s := o.(*corev1.Service); s.Namespace == "default" && s.Name == "web" {
			svc = s
		}
	}
	if svc == nil {
		t.Fatal("no Service default/web")
	}
	var sls []*discoveryv1.EndpointSlice
	for _, o := range c.api.List("endpointslices") {
		if sl := o.(*discoveryv1.EndpointSlice); sl.Namespace == "default" && sl.Labels[discoveryv1.LabelServiceName] == "web" {
			sls = append(sls, sl)
		}
	}
	sps := kubeproxy.FromAPI(svc, sls)
	if len(sps) != 1 {
		t.Fatalf("%d service ports", len(sps))
	}
	want := sps[0]
	for _, node := range []string{"node-a", "node-b", "node-c"} {
		row := rows[node+" default/web:http"]
		if row == nil {
			t.Errorf("%s: no row for default/web:http", node)
			continue
		}
		eps := want.UsableEndpoints()
		if row[0] != node || row[2] != want.SVCChain() || !strings.HasPrefix(row[3], "3 KUBE-SEP: "+eps[0].String()+" p=0.3333333333, "+eps[1].String()+" p=0.5000000000, "+eps[2].String()) {
			t.Errorf("%s: row %q, want chain %s and endpoints %v", node, row, want.SVCChain(), eps)
		}
	}
}
