package cmd

import (
	"net/netip"
	"regexp"
	"strconv"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy/explain"
	"github.com/spf13/cobra"
)

func init() { register(newCmdDNAT) }

// dnatOptions are the dnat flags as given.
type dnatOptions struct {
	service, port, clusterIP, endpoints, clusterCIDR string
	affinity, externalName, form, mode               string
	targetPort, connections, services, perService    int
	files                                            []string
}

func newCmdDNAT(f *Factory) *cobra.Command {
	o := &dnatOptions{}
	cmd := &cobra.Command{
		Use:   "dnat",
		Short: "Show the iptables rules kube-proxy writes for a ClusterIP Service and a packet's walk through them",
		Long: `dnat answers "no interface has the Service's IP — where does the ClusterIP live?" with the
rules a node really has: the iptables-restore input kube-proxy writes for the Service (or, with
--form save, what iptables-save prints back), a client pod's SYN walking through them with the
seeded random draws of the statistic match, the conntrack entry that un-NATs the reply, and
the IPVS and nftables alternatives.

Without flags it explains a built-in example Service (default/web, 3 endpoints).`,
		Example: `  k8sexplain dnat
  k8sexplain dnat -f examples/app.yaml
  k8sexplain dnat --service ns1/svc1 --port p80:80/TCP --cluster-ip 172.30.0.41 \
      --endpoints 10.180.0.1:80 --cluster-cidr 10.0.0.0/8
  k8sexplain dnat --form save
  k8sexplain dnat --session-affinity ClientIP --connections 1000
  k8sexplain dnat --mode nftables --connections 10000
  k8sexplain dnat --services 5000 --endpoints-per-service 10`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			g, err := f.Globals()
			if err != nil {
				return err
			}
			in, err := o.input(cmd)
			if err != nil {
				return err
			}
			if len(o.files) > 0 {
				if err := fromManifest(f, cmd, o, o.files, &in); err != nil {
					return err
				}
			}
			in.Lang, in.Seed = g.Lang, g.Seed
			return f.Render(explain.Build(in))
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVarP(&o.files, "filename", "f", nil, "take the Service and its endpoints from a simulated apply of this manifest (repeatable; file, directory or -)")
	fl.StringVar(&o.service, "service", "default/web", "the Service as namespace/name")
	fl.StringVar(&o.port, "port", "http:80/TCP", "the service port as [name:]port[/protocol] (protocol TCP, UDP or SCTP; default TCP)")
	fl.IntVar(&o.targetPort, "target-port", 0, "the endpoints' port when --endpoints gives none (default: the example's 8080, else the service port)")
	fl.StringVar(&o.clusterIP, "cluster-ip", "10.96.47.112", "the Service's cluster IP (IPv4 or IPv6), or None for a headless Service")
	fl.StringVar(&o.endpoints, "endpoints", "", "comma-separated ready endpoints ip[:port] (IPv6 as [ip]:port); an empty value means none")
	fl.StringVar(&o.clusterCIDR, "cluster-cidr", "10.244.0.0/16", "the pod network; empty for no local-traffic detector (no masquerade rule)")
	fl.StringVar(&o.affinity, "session-affinity", "None", "sessionAffinity: None or ClientIP")
	fl.StringVar(&o.externalName, "external-name", "", "make it an ExternalName Service pointing to this DNS name")
	fl.StringVar(&o.form, "form", "restore", "iptables rules as kube-proxy writes them (restore) or as iptables-save prints them (save)")
	fl.StringVar(&o.mode, "mode", "iptables", "kube-proxy mode: iptables, ipvs or nftables")
	fl.IntVar(&o.connections, "connections", 0, "also send this many new connections and chart where they go")
	fl.IntVar(&o.services, "services", 0, "show how rules and per-packet work grow with this many Services, in every mode")
	fl.IntVar(&o.perService, "endpoints-per-service", 0, "endpoints per Service for --services (default: the endpoints of the Service shown)")
	_ = cmd.RegisterFlagCompletionFunc("form", fixedCompletion("restore", "save"))
	_ = cmd.RegisterFlagCompletionFunc("mode", fixedCompletion("iptables", "ipvs", "nftables"))
	_ = cmd.RegisterFlagCompletionFunc("session-affinity", fixedCompletion("None", "ClientIP"))
	return cmd
}

// The built-in example: Service default/web, port http 80/TCP → 8080.
var exampleEndpoints = []string{"10.244.1.2", "10.244.2.2", "10.244.3.2"}

const exampleTargetPort = 8080

var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// input validates the flags and builds the explain input.
func (o *dnatOptions) input(cmd *cobra.Command) (explain.Input, error) {
	changed := cmd.Flags().Changed
	in := explain.Input{Form: o.form, Mode: o.mode, Connections: o.connections}
	if o.form != "restore" && o.form != "save" {
		return in, exitcode.Inputf("invalid --form %q: want restore or save", o.form)
	}
	if o.mode != "iptables" && o.mode != "ipvs" && o.mode != "nftables" {
		return in, exitcode.Inputf("invalid --mode %q: want iptables, ipvs or nftables", o.mode)
	}
	if changed("form") && o.mode != "iptables" {
		return in, exitcode.Inputf("--form applies to --mode iptables only")
	}
	if o.connections < 0 || o.connections > 1_000_000 {
		return in, exitcode.Inputf("invalid --connections %d: want 0 to 1000000", o.connections)
	}
	sp := kubeproxy.ServicePort{ExternalName: strings.TrimSuffix(o.externalName, ".")}
	ns, name, ok := strings.Cut(o.service, "/")
	if !ok || !dnsLabel.MatchString(ns) || !dnsLabel.MatchString(name) || len(ns) > 63 || len(name) > 63 {
		return in, exitcode.Inputf("invalid --service %q: want namespace/name in lowercase DNS labels, e.g. default/web", o.service)
	}
	sp.Namespace, sp.Name = ns, name
	if err := parsePort(o.port, &sp); err != nil {
		return in, err
	}
	switch strings.ToLower(o.affinity) {
	case "clientip":
		sp.SessionAffinityClientIP = true
	case "none":
	default:
		return in, exitcode.Inputf("invalid --session-affinity %q: want None or ClientIP", o.affinity)
	}
	target := int(sp.Port)
	example := !changed("endpoints")
	if example {
		target = exampleTargetPort
	}
	if changed("target-port") {
		if o.targetPort < 1 || o.targetPort > 65535 {
			return in, exitcode.Inputf("invalid --target-port %d: want 1 to 65535", o.targetPort)
		}
		target = o.targetPort
	}
	sp.TargetPort = int32(target)
	var family string
	if o.clusterIP == "None" {
		sp.ClusterIP = "None"
	} else if sp.ExternalName == "" {
		a, err := parseIP(o.clusterIP, "--cluster-ip")
		if err != nil {
			return in, err
		}
		sp.ClusterIP, family = a.String(), ipFamily(a)
	} else {
		sp.ClusterIP = ""
	}
	list := exampleEndpoints
	if sp.ExternalName != "" {
		list = nil // an ExternalName Service has no endpoints
	} else if !example {
		list = nil
		if strings.TrimSpace(o.endpoints) != "" {
			list = strings.Split(o.endpoints, ",")
		}
	}
	for _, s := range list {
		ep, err := parseEndpoint(strings.TrimSpace(s), target)
		if err != nil {
			return in, err
		}
		if family != "" && ipFamily(netip.MustParseAddr(ep.IP)) != family {
			if example {
				return in, exitcode.Inputf("the example endpoints are IPv4 but --cluster-ip %s is %s: give --endpoints of the same family", sp.ClusterIP, family)
			}
			return in, exitcode.Inputf("endpoint %q is %s but the cluster IP %s is %s: kube-proxy ignores endpoints of the other family", s, ipFamily(netip.MustParseAddr(ep.IP)), sp.ClusterIP, family)
		}
		sp.Endpoints = append(sp.Endpoints, ep)
	}
	if o.clusterCIDR != "" {
		p, err := netip.ParsePrefix(o.clusterCIDR)
		if err != nil {
			return in, exitcode.Inputf("invalid --cluster-cidr %q: want a CIDR such as 10.244.0.0/16", o.clusterCIDR)
		}
		switch {
		case family == "" || ipFamily(p.Addr()) == family:
			in.Config.ClusterCIDR = o.clusterCIDR
		case changed("cluster-cidr"):
			return in, exitcode.Inputf("--cluster-cidr %s is %s but the cluster IP %s is %s", o.clusterCIDR, ipFamily(p.Addr()), sp.ClusterIP, family)
		}
	}
	if changed("endpoints-per-service") && !changed("services") {
		return in, exitcode.Inputf("--endpoints-per-service needs --services")
	}
	if changed("services") {
		if o.services < 1 || o.services > 1_000_000 {
			return in, exitcode.Inputf("invalid --services %d: want 1 to 1000000", o.services)
		}
		in.Services, in.EndpointsPerService = o.services, len(sp.UsableEndpoints())
		if changed("endpoints-per-service") {
			if o.perService < 0 || o.perService > 10_000 {
				return in, exitcode.Inputf("invalid --endpoints-per-service %d: want 0 to 10000", o.perService)
			}
			in.EndpointsPerService = o.perService
		}
	}
	in.Example = example && !changed("service") && !changed("port") && !changed("cluster-ip") && !changed("target-port") && !changed("external-name")
	in.Port = sp
	return in, nil
}

// parsePort reads [name:]port[/protocol].
func parsePort(s string, sp *kubeproxy.ServicePort) error {
	bad := func(why string) error {
		return exitcode.Inputf("invalid --port %q: %s (want [name:]port[/protocol], e.g. http:80/TCP)", s, why)
	}
	rest := s
	if name, p, ok := strings.Cut(rest, ":"); ok {
		if len(name) > 15 || !dnsLabel.MatchString(name) || !strings.ContainsAny(name, "abcdefghijklmnopqrstuvwxyz") {
			return bad("the name must be a lowercase IANA service name of at most 15 characters")
		}
		sp.PortName, rest = name, p
	}
	sp.Protocol = "TCP"
	if p, proto, ok := strings.Cut(rest, "/"); ok {
		switch strings.ToUpper(proto) {
		case "TCP", "UDP", "SCTP":
			sp.Protocol = strings.ToUpper(proto)
		default:
			return bad("protocol must be TCP, UDP or SCTP")
		}
		rest = p
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < 1 || n > 65535 {
		return bad("the port must be a number from 1 to 65535")
	}
	sp.Port = int32(n)
	return nil
}

func parseIP(s, flag string) (netip.Addr, error) {
	a, err := netip.ParseAddr(s)
	if err != nil || a.Zone() != "" {
		return a, exitcode.Inputf("invalid %s %q: not an IPv4 or IPv6 address", flag, s)
	}
	return a.Unmap(), nil
}

func ipFamily(a netip.Addr) string {
	if a.Is4() {
		return "IPv4"
	}
	return "IPv6"
}

// parseEndpoint reads ip, ip:port, [ipv6] or [ipv6]:port.
func parseEndpoint(s string, defPort int) (kubeproxy.Endpoint, error) {
	host, port := s, strconv.Itoa(defPort)
	if ap, err := netip.ParseAddrPort(s); err == nil {
		host, port = ap.Addr().String(), strconv.Itoa(int(ap.Port()))
	} else if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		host = s[1 : len(s)-1]
	}
	a, err := netip.ParseAddr(host)
	if err != nil || a.Zone() != "" {
		return kubeproxy.Endpoint{}, exitcode.Inputf("invalid endpoint %q in --endpoints: want ip:port (IPv6 as [ip]:port)", s)
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 1 || n > 65535 {
		return kubeproxy.Endpoint{}, exitcode.Inputf("invalid endpoint %q in --endpoints: port must be 1 to 65535", s)
	}
	return kubeproxy.Endpoint{IP: a.Unmap().String(), Port: int32(n), Ready: true, Serving: true}, nil
}
