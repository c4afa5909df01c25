package explain

import (
	"fmt"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/k8sexplain/k8sexplain/internal/sim/dns"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy"
)

func ipvsSection(d *report.Doc, c cat, in Input, data *Data) {
	sp := in.Port
	v := kubeproxy.BuildIPVS(in.Config, []kubeproxy.ServicePort{sp})
	d.H(1, c.F("ipvs.h"))
	d.P(c.F("ipvs.addr.p", sp.ClusterIP))
	d.C("", "$ ip addr show kube-ipvs0\n"+v.IPAddr)
	d.P(c.F("ipvs.adm.p"))
	data.Rules = v.Ipvsadm
	d.C("", "$ ipvsadm -Ln\n"+v.Ipvsadm)
	d.P(c.F("ipvs.set.p"))
	d.C("", "$ ipset list KUBE-CLUSTER-IP\n"+v.IPSet+"\n$ iptables-save -t nat | grep -- '-A KUBE-SERVICES'\n"+v.Rules)
	eps := sp.UsableEndpoints()
	d.H(1, c.F("ipvs.walk.h"))
	if len(eps) == 0 {
		d.P(c.F("ipvs.none"))
	} else {
		first := eps[0].String()
		d.L(c.F("ipvs.w1", sp.ClusterIP), c.F("ipvs.w2", first), c.F("ipvs.w3"))
		if sp.SessionAffinityClientIP {
			d.P(c.F("ipvs.persist", sp.Timeout()))
		}
		d.Sequence = modeSequence(c, in, first, "IPVS rr")
	}
	d.H(2, c.F("cost.h"))
	d.P(c.F("ipvs.cost"))
	if in.Connections > 0 {
		i := 0
		spread(d, c, in, data, eps, func() string {
			ep := eps[i%len(eps)].String()
			if sp.SessionAffinityClientIP {
				ep = eps[0].String()
			}
			i++
			return ep
		})
	}
}

func nftSection(d *report.Doc, c cat, in Input, data *Data) {
	sp := in.Port
	v := kubeproxy.BuildNFT(in.Config, []kubeproxy.ServicePort{sp})
	d.H(1, c.F("nft.h"))
	d.P(c.F("nft.p"))
	data.Rules = v.Text
	d.C("", v.Text)
	d.P(c.F("nft.base.p"))
	d.C("", v.Base)
	cat := sp.Categorize(in.Config.NodeName)
	eps, chain := cat.Cluster, sp.NFTServiceChain()
	if sp.InternalPolicyLocal {
		eps, chain = cat.Local, sp.NFTLocalChain()
	}
	d.H(1, c.F("nft.walk.h", in.Seed))
	switch {
	case !cat.HasAny:
		d.P(c.F("nft.none"))
	case len(eps) == 0:
		d.P(c.F("nft.nolocal", in.Config.NodeName))
	default:
		rng := newRNG(in.Seed)
		pick := func() int { return rng.IntN(len(eps)) }
		i := pick()
		items := []string{c.F("nft.w1", sp.ClusterIP, sp.Proto(), sp.Port, chain)}
		switch {
		case sp.SessionAffinityClientIP:
			items = append(items, c.F("nft.w2affinity", len(eps), i, sp.NFTEndpointChain(eps[i])))
		case len(eps) == 1:
			items = append(items, c.F("nft.w2one", eps[0].String()))
		default:
			items = append(items, c.F("nft.w2", len(eps), i, eps[i].String()))
		}
		items = append(items, c.F("nft.w3"))
		d.L(items...)
		d.Sequence = modeSequence(c, in, eps[i].String(), fmt.Sprintf("numgen random mod %d = %d", len(eps), i))
		defer func() {
			if in.Connections > 0 {
				first := -1
				spread(d, c, in, data, eps, func() string {
					j := pick()
					if sp.SessionAffinityClientIP {
						if first < 0 {
							first = j
						}
						j = first
					}
					return eps[j].String()
				})
			}
		}()
	}
	d.H(2, c.F("cost.h"))
	d.P(c.F("nft.cost"))
}

func scaleSection(d *report.Doc, c cat, in Input, data *Data) {
	e := in.EndpointsPerService
	sizes := []int{10, 100, 1000, 5000, 10000}
	rows := []int{}
	added := false
	for _, s := range sizes {
		if !added && in.Services <= s {
			if in.Services != s {
				rows = append(rows, in.Services)
			}
			added = true
		}
		rows = append(rows, s)
	}
	if !added {
		rows = append(rows, in.Services)
	}
	// The row asked for is generated and built in full; the others come
	// from the same generator's per-Service growth.
	req := kubeproxy.Measure(in.Services, e)
	d.P(c.F("scale.p", e))
	t := &report.Table{Header: []string{c.F("scale.services"), c.F("scale.endpoints"), c.F("scale.natrules"), c.F("scale.scan"),
		c.F("scale.ipvs"), c.F("scale.nft"), c.F("scale.nftpkt")}, Right: []bool{true, true, true, true, true, true, true}}
	var scale func(int) kubeproxy.ScaleRow // the two small builds, made once
	for _, s := range rows {
		r := req
		if s != in.Services {
			if scale == nil {
				scale = kubeproxy.Scaler(e)
			}
			r = scale(s)
		}
		t.Rows = append(t.Rows, []string{num(s), num(s * e), num(r.IPTablesNATRules), num(r.IPTablesWorstScan),
			fmt.Sprintf("%s / %s", num(r.IPVSVirtual), num(r.IPVSReal)), num(r.NFTRules), num(r.NFTPerPacket)})
		t.Highlight = append(t.Highlight, s == in.Services)
		data.Scale = append(data.Scale, DataScale{Services: s, EndpointsPerService: e, IPTablesNATRules: r.IPTablesNATRules,
			IPTablesWorstScan: r.IPTablesWorstScan, IPVSVirtual: r.IPVSVirtual, IPVSReal: r.IPVSReal, NFTRules: r.NFTRules,
			NFTPerPacket: r.NFTPerPacket, LargeCluster: r.LargeCluster})
	}
	d.T(t)
	d.P(c.F("scale.measured", num(in.Services), num(kubeproxy.MaxScaleServices), num(kubeproxy.MaxScaleEndpoints)))
	r := req
	d.L(c.F("scale.iptables", num(r.IPTablesNATRules), num(r.IPTablesWorstScan)),
		c.F("scale.ipvsline", num(r.IPVSVirtual), num(r.IPVSReal), r.IPVSIPTablesRules),
		c.F("scale.nftline", num(r.NFTElements), num(r.NFTRules)))
	if r.LargeCluster {
		d.Styled("warn", c.F("large.p", in.Services*e, kubeproxy.LargeClusterThreshold))
	}
	d.H(2, c.F("sources.h"))
	d.L(c.F("src.ipvs2018"), c.F("src.nft2025"), c.F("src.eks"), c.F("src.partial"))
}

// num formats an integer with thin grouping (12,345).
func num(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func noProxySection(d *report.Doc, c cat, in Input, data *Data) {
	sp := in.Port
	svc := dns.Service{Namespace: sp.Namespace, Name: sp.Name, ClusterIP: sp.ClusterIP, ExternalName: sp.ExternalName,
		PublishNotReadyAddresses: sp.PublishNotReadyAddresses}
	for _, ep := range sp.Endpoints {
		svc.Endpoints = append(svc.Endpoints, dns.Endpoint{IP: ep.IP, Hostname: ep.Hostname, Ready: ep.Ready})
	}
	a := dns.Lookup(svc, "cluster.local", dns.DefaultTTL)
	if sp.ExternalName != "" {
		d.H(1, c.F("extname.h"))
		d.P(c.F("extname.p", sp.ExternalName))
	} else {
		d.H(1, c.F("headless.h"))
		d.P(c.F("headless.p"))
	}
	d.H(2, c.F("dns.h", a.Query))
	var b strings.Builder
	if a.NXDomain {
		b.WriteString(c.F("dns.nx") + "\n")
	}
	for _, r := range append(a.Records, a.Hostnames...) {
		data.DNS = append(data.DNS, r.String())
		b.WriteString(r.String() + "\n")
	}
	d.C("", b.String())
	if sp.ExternalName == "" {
		d.P(c.F("dns.headless.p", dns.DefaultTTL))
	} else {
		d.P(c.F("dns.extname.p", dns.DefaultTTL))
	}
}
