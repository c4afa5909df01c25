package cmd

import (
	"strings"
	"testing"
)

// svc1 is upstream's TestOverallIPTablesRules service.
var svc1 = []string{"dnat", "--service", "ns1/svc1", "--port", "p80:80/TCP", "--cluster-ip", "172.30.0.41", "--cluster-cidr", "10.0.0.0/8"}

func TestDNATGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"default.txt", []string{"dnat"}},
		{"one-endpoint.txt", append(svc1, "--endpoints", "10.180.0.1:80")},
		{"two-endpoints.txt", append(svc1, "--endpoints", "10.180.0.2:80,10.180.0.1:80")},
		{"three-endpoints.txt", append(svc1, "--endpoints", "10.180.0.9:80,10.180.0.10:80,10.180.0.1:80")},
		{"no-endpoints.txt", append(svc1, "--endpoints", "")},
		{"affinity.txt", []string{"dnat", "--session-affinity", "ClientIP", "--connections", "300"}},
		{"save.txt", []string{"dnat", "--form", "save"}},
		{"ipvs.txt", []string{"dnat", "--mode", "ipvs", "--connections", "300"}},
		{"nftables.txt", []string{"dnat", "--mode", "nftables", "--connections", "300"}},
		{"connections.txt", []string{"dnat", "--connections", "10000", "--seed", "7"}},
		{"scale.txt", []string{"dnat", "--services", "2000", "--endpoints-per-service", "10"}},
		{"headless.txt", []string{"dnat", "--cluster-ip", "None"}},
		{"externalname.txt", []string{"dnat", "--external-name", "db.example.com"}},
		{"ipv6.txt", []string{"dnat", "--cluster-ip", "fd00:10:96::1f", "--endpoints", "[fd00:10:244:1::2]:8080,fd00:10:244:2::2", "--target-port", "8080", "--cluster-cidr", "fd00:10:244::/56"}},
		{"ru.txt", []string{"dnat", "--lang", "ru", "--connections", "1000"}},
		{"default.md", []string{"dnat", "--format", "markdown", "--connections", "100"}},
		{"default.mmd", []string{"dnat", "--format", "mermaid"}},
		{"default.json", []string{"dnat", "--format", "json", "--connections", "30"}},
		{"headless.json", []string{"dnat", "--format", "json", "--cluster-ip", "None"}},
		// Issue 11: Service types, traffic policies, protocols, hairpin.
		{"nodeport.txt", []string{"dnat", "--type", "NodePort"}},
		{"nodeport-local.txt", []string{"dnat", "--type", "NodePort", "--external-traffic-policy", "Local", "--node", "node-b"}},
		{"nodeport-local-nolocal.txt", []string{"dnat", "--type", "NodePort", "--external-traffic-policy", "Local", "--node", "node-d", "--form", "save"}},
		{"loadbalancer.txt", []string{"dnat", "--type", "LoadBalancer", "--external-traffic-policy", "Local", "--load-balancer-source-ranges", "203.0.113.0/25,192.168.0.0/24", "--session-affinity", "ClientIP", "--session-affinity-timeout", "600"}},
		{"internal-local.txt", []string{"dnat", "--internal-traffic-policy", "Local", "--node", "node-c", "--connections", "100"}},
		{"internal-local-none.txt", []string{"dnat", "--internal-traffic-policy", "Local", "--node", "node-d"}},
		{"udp.txt", []string{"dnat", "--service", "kube-system/kube-dns", "--port", "dns:53/UDP", "--cluster-ip", "10.96.0.10", "--endpoints", "10.244.1.3:53,10.244.2.4:53"}},
		{"sctp.txt", []string{"dnat", "--port", "sig:3868/SCTP", "--endpoints", "10.244.1.2:3868"}},
		{"hairpin.txt", []string{"dnat", "--endpoints", "10.244.1.2:8080", "--client", "10.244.1.2"}},
		{"no-nfacct.txt", []string{"dnat", "--nfacct=false", "--form", "save", "--type", "NodePort"}},
		{"nftables-loadbalancer.txt", []string{"dnat", "--mode", "nftables", "--type", "LoadBalancer", "--external-traffic-policy", "Local", "--load-balancer-source-ranges", "203.0.113.0/25", "--node", "node-b"}},
		{"nftables-affinity.txt", []string{"dnat", "--mode", "nftables", "--session-affinity", "ClientIP"}},
		{"ru-local.txt", []string{"dnat", "--lang", "ru", "--type", "NodePort", "--external-traffic-policy", "Local", "--node", "node-b", "--connections", "200"}},
		{"port-name-digits.txt", []string{"dnat", "--service", "default/nginx", "--port", "80-80:80", "--endpoints", "10.244.1.9:80"}},
	} {
		t.Run(tc.name, func(t *testing.T) { runGolden(t, "dnat/"+tc.name, tc.args...) })
	}
}

func TestDNATSameSeedSameBytes(t *testing.T) {
	a, _, _ := run(t, "", "dnat", "--seed", "42", "--connections", "500")
	b, _, _ := run(t, "", "dnat", "--seed", "42", "--connections", "500")
	c, _, _ := run(t, "", "dnat", "--seed", "43", "--connections", "500")
	if a != b || a == c {
		t.Fatal("the seed does not decide the output alone")
	}
}

func TestDNATBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--endpoints", "10.0.0.1:80,nope"}, `invalid endpoint "nope"`},
		{[]string{"--endpoints", "10.0.0.1:0"}, "port must be 1 to 65535"},
		{[]string{"--endpoints", "10.0.0.300:80"}, `invalid endpoint "10.0.0.300:80"`},
		{[]string{"--endpoints", "fd00::1:80"}, "is IPv6 but the cluster IP"},
		{[]string{"--cluster-ip", "fd00::a"}, "the example endpoints are IPv4"},
		{[]string{"--cluster-ip", "fd00::a", "--endpoints", "[fd00::1]:80", "--cluster-cidr", "10.0.0.0/8"}, "--cluster-cidr 10.0.0.0/8 is IPv4"},
		{[]string{"--port", "http:abc"}, `invalid --port "http:abc"`},
		{[]string{"--port", "80/ICMP"}, "protocol must be TCP, UDP or SCTP"},
		{[]string{"--port", "HTTP:80"}, `spec.ports[0].name: Invalid value: "HTTP": a lowercase RFC 1123 label`},
		{[]string{"--port", "-80:80"}, `spec.ports[0].name: Invalid value: "-80"`},
		{[]string{"--port", strings.Repeat("a", 64) + ":80"}, "must be no more than 63 characters"},
		{[]string{"--service", "default/1web"}, `metadata.name: Invalid value: "1web": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character`},
		{[]string{"--service", "Default/web"}, `metadata.namespace: Invalid value: "Default"`},
		{[]string{"--endpoints", "127.0.0.1:80"}, "may not be in the loopback range (127.0.0.0/8, ::1/128)"},
		{[]string{"--endpoints", "169.254.1.1:80"}, "may not be in the link-local range (169.254.0.0/16, fe80::/10)"},
		{[]string{"--cluster-ip", "fd00::a", "--endpoints", "[fe80::1]:80", "--cluster-cidr", "fd00::/64"}, "may not be in the link-local range"},
		{[]string{"--endpoints", "0.0.0.0:80"}, "may not be unspecified (0.0.0.0)"},
		{[]string{"--type", "Bogus"}, `invalid --type "Bogus"`},
		{[]string{"--type", "ExternalName"}, "give --external-name instead"},
		{[]string{"--node-port", "30001"}, "--node-port needs --type NodePort or LoadBalancer"},
		{[]string{"--type", "NodePort", "--node-port", "80"}, "provided port is not in the valid range. The range of valid ports is 30000-32767"},
		{[]string{"--external-traffic-policy", "Local"}, "may only be set for externally-accessible services"},
		{[]string{"--type", "NodePort", "--external-traffic-policy", "local"}, `invalid --external-traffic-policy "local"`},
		{[]string{"--internal-traffic-policy", "Node"}, `invalid --internal-traffic-policy "Node"`},
		{[]string{"--type", "NodePort", "--health-check-node-port", "31000"}, "--health-check-node-port needs --type LoadBalancer and --external-traffic-policy Local: spec.healthCheckNodePort: Invalid value: 31000: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"},
		{[]string{"--type", "LoadBalancer", "--health-check-node-port", "31000"}, "spec.healthCheckNodePort: Invalid value: 31000: may only be set when"},
		{[]string{"--external-traffic-policy", "Cluster"}, `spec.externalTrafficPolicy: Invalid value: "Cluster": may only be set for externally-accessible services`},
		{[]string{"-f", "examples/app.yaml", "--port", "HTTP:80"}, `invalid --port "HTTP:80": spec.ports[0].name: Invalid value: "HTTP"`},
		{[]string{"--type", "NodePort", "--load-balancer-ip", "1.2.3.4"}, "--load-balancer-ip needs --type LoadBalancer"},
		{[]string{"--type", "LoadBalancer", "--load-balancer-source-ranges", "1.2.3.4"}, "must be a valid CIDR value"},
		{[]string{"--session-affinity-timeout", "60"}, "needs --session-affinity ClientIP"},
		{[]string{"--session-affinity", "ClientIP", "--session-affinity-timeout", "86401"}, "must be greater than 0 and less than 86400"},
		{[]string{"--session-affinity", "ClientIP", "--session-affinity-timeout", "0"}, `invalid --session-affinity-timeout 0: spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 0: must be greater than 0`},
		{[]string{"--session-affinity", "ClientIP", "--session-affinity-timeout", "4294967396"}, "must be greater than 0 and less than 86400"},
		{[]string{"--cluster-ip", "None", "--type", "LoadBalancer"}, `invalid --cluster-ip "None": spec.clusterIPs[0]: Invalid value: "None": may not be set to 'None' for LoadBalancer services`},
		{[]string{"--type", "NodePort", "--mode", "ipvs"}, "--mode ipvs models ClusterIP Services with the Cluster policy only"},
		{[]string{"--cluster-ip", "None", "--type", "NodePort"}, "may not be set to 'None' for NodePort services"},
		{[]string{"--node", "Node_A"}, `invalid --node "Node_A"`},
		{[]string{"--client", "10.0.0"}, `invalid --client "10.0.0"`},
		{[]string{"--services", "10001"}, "more than the 10000 a cluster supports"},
		{[]string{"--services", "10000", "--endpoints-per-service", "16"}, "more than the 150000 Pods a cluster supports"},
		{[]string{"--cluster-ip", "10.96.0"}, `invalid --cluster-ip "10.96.0": not an IPv4 or IPv6 address`},
		{[]string{"--cluster-cidr", "10.244.0.0"}, `invalid --cluster-cidr`},
		{[]string{"--service", "web"}, `invalid --service "web"`},
		{[]string{"--session-affinity", "Cookie"}, `invalid --session-affinity`},
		{[]string{"--mode", "userspace"}, `invalid --mode "userspace"`},
		{[]string{"--form", "json"}, `invalid --form "json"`},
		{[]string{"--mode", "ipvs", "--form", "save"}, "--form applies to --mode iptables only"},
		{[]string{"--connections", "-1"}, "invalid --connections"},
		{[]string{"--endpoints-per-service", "3"}, "needs --services"},
		{[]string{"--services", "0"}, "invalid --services"},
	} {
		_, errOut, code := run(t, "", append([]string{"dnat"}, tc.args...)...)
		if code != 1 || !strings.Contains(errOut, tc.msg) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q (want exit 1 and one line with %q)", tc.args, code, errOut, tc.msg)
		}
	}
}

// The explicit svc1 example reproduces upstream's expected lines.
func TestDNATUpstreamLines(t *testing.T) {
	out, _, code := run(t, "", append(svc1, "--endpoints", "10.180.0.1:80")...)
	if code != 0 {
		t.Fatal(code)
	}
	for _, want := range []string{
		`-A KUBE-SVC-XPGD46QRK7WJZT7O -m comment --comment "ns1/svc1:p80 -> 10.180.0.1:80" -j KUBE-SEP-SXIVWICOYRO3J4NJ`,
		`-A KUBE-SEP-SXIVWICOYRO3J4NJ -m comment --comment ns1/svc1:p80 -m tcp -p tcp -j DNAT --to-destination 10.180.0.1:80`,
	} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("missing %s", want)
		}
	}
}
