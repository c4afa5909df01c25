package explain

import (
	"strings"
	"testing"

	_ "github.com/k8sexplain/k8sexplain/internal/golden" // defines -update for go test ./... -update
	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy"
)

// Both catalogues have the same keys with the same placeholders.
func TestCataloguesHaveTheSameKeys(t *testing.T) {
	for _, err := range Catalog.Check() {
		t.Error(err)
	}
}

// Every path through Build works in both languages (a missing key panics)
// and leaves no unformatted verb behind.
func TestBuildAllPaths(t *testing.T) {
	ep := func(ip string) kubeproxy.Endpoint { return kubeproxy.Endpoint{IP: ip, Port: 8080, Ready: true} }
	base := kubeproxy.ServicePort{Namespace: "default", Name: "web", PortName: "http", Protocol: "TCP", ClusterIP: "10.96.47.112", Port: 80,
		Endpoints: []kubeproxy.Endpoint{ep("10.244.1.2"), ep("10.244.2.2")}}
	aff := base
	aff.SessionAffinityClientIP = true
	none := base
	none.Endpoints = nil
	headless := base
	headless.ClusterIP = "None"
	ext := base
	ext.ExternalName, ext.ClusterIP, ext.Endpoints = "db.example.com", "", nil
	np := base
	np.Type, np.NodePort = "NodePort", 30080
	npLocal := np
	npLocal.ExternalPolicyLocal = true
	lb := npLocal
	lb.Type, lb.HealthCheckNodePort, lb.LoadBalancerIPs, lb.SourceRanges = "LoadBalancer", 32000, []string{"203.0.113.10"}, []string{"203.0.113.0/25"}
	itp := base
	itp.InternalPolicyLocal = true
	udp := base
	udp.Protocol = "UDP"
	sctp := base
	sctp.Protocol = "SCTP"
	for i := range base.Endpoints {
		base.Endpoints[i].NodeName = "node-a"
	}
	cfg := kubeproxy.Config{ClusterCIDR: "10.244.0.0/16", NodeName: "node-a", NodeIP: "192.168.0.11"}
	var inputs []Input
	for _, sp := range []kubeproxy.ServicePort{base, aff, none, headless, ext, np, npLocal, lb, itp, udp, sctp} {
		for _, mode := range []string{"iptables", "ipvs", "nftables"} {
			inputs = append(inputs, Input{Port: sp, Config: cfg, Mode: mode, Form: "restore", Connections: 50})
		}
		inputs = append(inputs, Input{Port: sp, Config: kubeproxy.Config{MasqueradeAll: true}, Mode: "iptables", Form: "save", Connections: 5})
	}
	inputs = append(inputs, Input{Port: base, Config: cfg, Services: 3000, EndpointsPerService: 1},
		Input{Port: base, Config: cfg, Services: 7, EndpointsPerService: 0})
	for _, lang := range []string{"en", "ru"} {
		for _, in := range inputs {
			in.Lang, in.Seed = lang, 3
			d := Build(in)
			for _, b := range d.Blocks {
				for _, s := range []string{textOf(b.Para), headingOf(b.Heading)} {
					if strings.Contains(s, "%!") {
						t.Errorf("%s %s/%s: bad format in %q", lang, in.Port.NameString(), in.Mode, s)
					}
				}
			}
		}
	}
}

func TestClientIP(t *testing.T) {
	for cidr, want := range map[string]string{"10.244.0.0/16": "10.244.1.5", "10.0.0.0/8": "10.0.1.5", "192.168.7.0/24": "192.168.7.5", "fd00:10:244::/56": "fd00:10:244::5", "": "10.244.1.5"} {
		if got := ClientIP(kubeproxy.Config{ClusterCIDR: cidr}, false); got != want {
			t.Errorf("ClientIP(%s) = %s, want %s", cidr, got, want)
		}
	}
}

func textOf(p *report.Para) string {
	if p == nil {
		return ""
	}
	return p.Text
}

func headingOf(h *report.Heading) string {
	if h == nil {
		return ""
	}
	return h.Text
}

// The reading of a NodePort's rules mentions the localhost copy exactly when
// the rules have it: proxier.go (v1.37) writes `-d 127.0.0.0/8` for IPv4
// only, and only with its nfacct counter.
func TestNodePortReadingFollowsTheLocalhostRule(t *testing.T) {
	np := kubeproxy.ServicePort{Namespace: "default", Name: "web", PortName: "http", Protocol: "TCP", ClusterIP: "10.96.47.112", Port: 80,
		Type: "NodePort", NodePort: 30080, Endpoints: []kubeproxy.Endpoint{{IP: "10.244.1.2", Port: 8080, Ready: true}}}
	for _, nfacct := range []bool{true, false} {
		cfg := kubeproxy.Config{ClusterCIDR: "10.244.0.0/16", NodeName: "node-a", NodeIP: "192.168.0.11", NoNFAcct: !nfacct}
		rules := kubeproxy.BuildIPTables(cfg, []kubeproxy.ServicePort{np}).Restore()
		hasRule := strings.Contains(rules, "-d 127.0.0.0/8 --dport 30080")
		var text strings.Builder
		for _, b := range Build(Input{Port: np, Config: cfg, Mode: "iptables", Form: "restore", Lang: "en"}).Blocks {
			if b.List != nil {
				text.WriteString(strings.Join(b.List.Items, "\n"))
			}
		}
		claims := strings.Contains(text.String(), "Its first copy, `-d 127.0.0.0/8`, serves localhost NodePorts")
		if hasRule != nfacct || claims != hasRule {
			t.Errorf("nfacct %v: localhost rule written %v, text claims it %v", nfacct, hasRule, claims)
		}
	}
}
