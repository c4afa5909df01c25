// Package explain turns kubeproxy's rules, walks and views into the report
// the dnat command prints, in English or Russian. All prose lives in the
// catalogues (catalogue_en.go, catalogue_ru.go); the rule generator in the
// parent package never formats text for people.
package explain

import (
	"github.com/k8sexplain/k8sexplain/internal/l10n"
	"math/rand/v2"
	"net/netip"

	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy"
)

// Input is everything one dnat run explains.
type Input struct {
	Port   kubeproxy.ServicePort
	Config kubeproxy.Config
	Lang   string // en or ru
	Seed   int64
	Form   string // restore or save
	Mode   string // iptables, ipvs or nftables
	// Connections > 0 adds the spread of that many new connections.
	Connections int
	// Services > 0 prints the growth table instead of one Service's rules.
	Services, EndpointsPerService int
	// Example marks the built-in example Service.
	Example bool
	// Client is the client pod's IP for the walk ("" for the default).
	Client string
	// PendingLB: a LoadBalancer with no ingress IP yet (no cloud
	// controller).
	PendingLB bool
	// Source names the manifests the Service came from (dnat -f), after a
	// simulated apply; "" when it came from flags.
	Source string
}

// cat is this report's catalogue in one language.
type cat struct{ t l10n.Texts }

// Catalog holds both languages (for the completeness test).
var Catalog = l10n.LazyCatalog(func() (map[string]string, map[string]string) { return en(), ru() })

func catalogue(lang string) cat { return cat{Catalog.In(lang)} }

// F fills the text of key ({1}, {2}, … in argument order).
func (c cat) F(key string, args ...any) string { return c.t.T(key, args...) }

// Build makes the report.
func Build(in Input) *report.Doc {
	c := catalogue(in.Lang)
	sp := in.Port
	d := &report.Doc{Title: c.F("title", sp.NameString())}
	data := &Data{Service: sp.NameString(), ClusterIP: sp.ClusterIP, Port: sp.Port, Protocol: sp.Protocol,
		Mode: in.Mode, Proxied: sp.Proxied(), Endpoints: []DataEndpoint{}, NodePort: sp.NodePort}
	if sp.Type != "ClusterIP" {
		data.Type = sp.Type
	}
	if sp.Proxied() {
		data.Node = in.Config.NodeName
	}
	if in.Mode == "iptables" || in.Mode == "" {
		data.Form = in.Form
	}
	for _, ep := range sp.UsableEndpoints() {
		data.Endpoints = append(data.Endpoints, DataEndpoint{Endpoint: ep.String()})
	}
	d.Data = data
	if in.Services > 0 {
		d.Title = c.F("scale.title")
		scaleSection(d, c, in, data)
		return d
	}
	d.Styled("note", inputNote(c, in))
	switch {
	case sp.ExternalName != "" || sp.Headless():
		noProxySection(d, c, in, data)
		return d
	}
	d.H(1, c.F("fiction.h", sp.ClusterIP))
	d.P(c.F("fiction.p", sp.ClusterIP, sp.Port, sp.Proto()))
	switch in.Mode {
	case "ipvs":
		ipvsSection(d, c, in, data)
	case "nftables":
		nftSection(d, c, in, data)
	default:
		iptablesSection(d, c, in, data)
	}
	return d
}

func inputNote(c cat, in Input) string {
	sp := in.Port
	cidr := in.Config.ClusterCIDR
	if cidr == "" {
		cidr = c.F("input.nocidr")
	}
	vip := sp.ClusterIP
	if vip == "" {
		vip = "—"
	}
	desc := c.F("input.desc", sp.NameString(), vip, sp.Port, sp.Protocol, len(sp.UsableEndpoints()), len(sp.Endpoints), cidr)
	if sp.Type == "NodePort" || sp.Type == "LoadBalancer" {
		etp := "Cluster"
		if sp.ExternalPolicyLocal {
			etp = "Local"
		}
		desc += ", " + c.F("input.type", sp.Type, sp.NodePort, etp)
	}
	if sp.InternalPolicyLocal {
		desc += ", " + c.F("input.itp")
	}
	if in.Config.NodeName != "" && sp.Proxied() {
		desc += ", " + c.F("input.node", in.Config.NodeName, in.Config.NodeIP)
	}
	if in.PendingLB {
		desc += " " + c.F("input.pending")
	}
	if in.Example {
		return c.F("input.example", desc)
	}
	if in.Source != "" {
		return c.F("input.manifest", in.Source, desc)
	}
	return c.F("input.flags", desc)
}

// ClientIP is the address of the client pod the walk starts from: a pod
// address inside the cluster CIDR (x.y.1.5 for a /16), or a default one.
func ClientIP(cfg kubeproxy.Config, ipv6 bool) string {
	if p, err := netip.ParsePrefix(cfg.ClusterCIDR); err == nil {
		a := p.Masked().Addr()
		b := a.AsSlice()
		if a.Is4() && p.Bits() <= 23 {
			b[2]++
			b[3] += 5
		} else {
			b[len(b)-1] += 5
		}
		if r, ok := netip.AddrFromSlice(b); ok && p.Contains(r) {
			return r.String()
		}
	}
	if ipv6 {
		return "fd00:10:244:1::5"
	}
	return "10.244.1.5"
}

func newRNG(seed int64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), 0x6b38736578706c61))
}

// ephemeralPort draws a source port from Linux's default
// ip_local_port_range, 32768-60999.
func ephemeralPort(rng *rand.Rand) int { return 32768 + rng.IntN(60999-32768+1) }
