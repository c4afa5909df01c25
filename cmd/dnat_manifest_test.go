package cmd

import (
	"regexp"
	"strings"
	"testing"
)

func TestDNATFromManifest(t *testing.T) {
	inRoot(t)
	out := runGolden(t, "dnat/manifest-app.txt", "dnat", "-f", "examples/app.yaml")
	// The Service's ClusterIP and chain are the ones the simulated apply
	// allocated and its kube-proxy wrote: the two commands agree.
	trace, _, _ := run(t, "", "trace", "apply", "examples/app.yaml")
	for _, want := range []string{"KUBE-SVC-CDGGSHYLG3RE2FKL", "10.105.13.105"} {
		if !strings.Contains(out, want) || !strings.Contains(trace, want) {
			t.Errorf("dnat -f and trace apply should both show %s", want)
		}
	}
	runGolden(t, "dnat/manifest-app.ru.md", "--lang", "ru", "--format", "markdown", "dnat", "-f", "examples/app.yaml")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"dnat", "-f", "examples/unschedulable.yaml"}, "no Service in the manifest"},
		{[]string{"dnat", "-f", "examples/app.yaml", "--service", "default/api"}, "--service default/api is not in the manifest (it has default/web)"},
		{[]string{"dnat", "-f", "examples/app.yaml", "--endpoints", "10.0.0.1:80"}, "--endpoints cannot be combined with -f"},
		{[]string{"dnat", "-f", "examples/app.yaml", "--port", "443"}, "--port 443: Service default/web has no such port"},
		{[]string{"dnat", "-f", "examples/missing.yaml"}, "no such file"},
	} {
		_, errOut, code := run(t, "", tc.args...)
		if code != 1 || !strings.Contains(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 1 and one line with %q", tc.args, code, errOut, tc.want)
		}
	}
}

// dnat -f models NodePort, LoadBalancer and the traffic policies from the
// manifest, honours --cluster-cidr and refuses the shapes it does not model.
func TestDNATManifestTypes(t *testing.T) {
	inRoot(t)
	out := runGolden(t, "dnat/manifest-nodeport-local.txt", "dnat", "-f", "cmd/testdata/dnat/nodeport-local.yaml")
	// The walk's client pod is on the node whose rules are shown: its
	// address is in the pod network of that node, the /24 of the node's own
	// endpoint (the one KUBE-SVL keeps).
	m := regexp.MustCompile(`A pod \(([0-9.]+)\) on (node-[a-z]) opens`).FindStringSubmatch(out)
	local := regexp.MustCompile(`-A KUBE-SVL-\S+ .*-> ([0-9.]+):\d+"`).FindStringSubmatch(out)
	if m == nil || local == nil || !strings.Contains(out, "rules of node "+m[2]) {
		t.Fatalf("want the client line, the KUBE-SVL endpoint and the rules' node in:\n%s", out)
	}
	if net := func(ip string) string { return ip[:strings.LastIndex(ip, ".")] }; net(m[1]) != net(local[1]) {
		t.Errorf("client pod %s on %s is not in that node's pod network (its endpoint is %s)", m[1], m[2], local[1])
	}
	for _, want := range []string{
		`-A KUBE-NODEPORTS -m comment --comment default/web:80-8080 -m tcp -p tcp --dport 31080 -j KUBE-EXT-`,
		`-j KUBE-SVL-`,
		"externalTrafficPolicy Local",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("dnat -f nodeport-local.yaml lacks %q", want)
		}
	}
	out = runGolden(t, "dnat/manifest-loadbalancer-pending.txt", "dnat", "-f", "cmd/testdata/dnat/loadbalancer-pending.yaml", "--cluster-cidr", "10.0.0.0/8")
	for _, want := range []string{"EXTERNAL-IP <pending>", "! -s 10.0.0.0/8 -j KUBE-MARK-MASQ", "KUBE-SVL-"} {
		if !strings.Contains(out, want) {
			t.Errorf("dnat -f loadbalancer-pending.yaml lacks %q", want)
		}
	}
	// The node port is the simulated API server's, from the dynamic band
	// of the default range, not one k8sexplain picked beside it.
	if m := regexp.MustCompile(`nodePort (\d+)`).FindStringSubmatch(out); m == nil || m[1] < "30086" || m[1] > "32767" || len(m[1]) != 5 || strings.Contains(out, "chosen by k8sexplain") {
		t.Errorf("dnat -f loadbalancer-pending.yaml: want a nodePort the API server allocated (30086-32767), got %v", m)
	}
	if strings.Contains(out, "KUBE-FW-") || strings.Contains(out, "10.244.0.0/16") {
		t.Error("a pending load balancer has no firewall chain, and --cluster-cidr must replace the default")
	}
	// A port name is a DNS-1123 label: longer than an IANA service name is fine.
	if out, errOut, code := run(t, "", "dnat", "-f", "cmd/testdata/dnat/long-port-name.yaml"); code != 0 || !strings.Contains(out, "default/web:this-port-name-is-longer-than-fifteen") {
		t.Errorf("a 37-character port name: exit %d, %s", code, errOut)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"dnat", "-f", "cmd/testdata/dnat/topology.yaml"}, `spec.trafficDistribution "PreferClose" is not modelled`},
		{[]string{"dnat", "-f", "cmd/testdata/dnat/digit-name.yaml"}, `metadata.name: Invalid value: "1web": a DNS-1035 label`},
		{[]string{"dnat", "-f", "cmd/testdata/dnat/nodeport-local.yaml", "--type", "ClusterIP"}, "--type cannot be combined with -f"},
		{[]string{"dnat", "-f", "cmd/testdata/dnat/nodeport-local.yaml", "--mode", "ipvs"}, "--mode ipvs models ClusterIP Services"},
		{[]string{"dnat", "-f", "cmd/testdata/dnat/nodeport-local.yaml", "--cluster-cidr", "fd00::/64"}, "is not of the family"},
	} {
		_, errOut, code := run(t, "", tc.args...)
		if code != 1 || !strings.Contains(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 1 and one line with %q", tc.args, code, errOut, tc.want)
		}
	}
}
