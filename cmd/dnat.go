package cmd

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy/explain"
	"github.com/spf13/cobra"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation"
)

// DNATOptions are the inputs of `dnat`: the flags as given.
type DNATOptions struct {
	Common
	Service, Port, ClusterIP, Endpoints, ClusterCIDR string
	SessionAffinity, ExternalName, Form, Mode        string
	TargetPort, Connections, Services                int
	EndpointsPerService                              int
	Files                                            []string

	Type, ExternalTrafficPolicy, InternalTrafficPolicy string
	LoadBalancerIP, Node, Client                       string
	SourceRanges                                       []string
	NodePort, HealthCheckNodePort                      int
	SessionAffinityTimeout                             int
	NFAcct                                             bool
	// Changed names the flags given: many defaults depend on whether a
	// flag was given at all (the built-in example, -f).
	Changed map[string]bool
}

func NewCmdDNAT(f *Factory, runF func(*DNATOptions) error) *cobra.Command {
	o := &DNATOptions{}
	cmd := &cobra.Command{
		Use:   "dnat",
		Short: "Show the rules kube-proxy writes for a Service (ClusterIP, NodePort, LoadBalancer) and a packet's walk through them",
		Long: `dnat answers "no interface has the Service's IP — where does the ClusterIP live?" with the
rules a node really has: the iptables-restore input kube-proxy writes for the Service (or, with
--form save, what iptables-save prints back), a client pod's SYN walking through them with the
seeded random draws of the statistic match, the conntrack entry that un-NATs the reply, and
the IPVS and nftables alternatives. NodePort and LoadBalancer Services (with loadBalancerSourceRanges),
the Local traffic policies, session affinity, UDP and SCTP are modelled as kube-proxy v1.37 writes them;
--node picks whose rules they are, and outside clients are walked to the NodePort and load-balancer IP.

Without flags it explains a built-in example Service (default/web, 3 endpoints).`,
		Example: `  k8sexplain dnat
  k8sexplain dnat -f examples/app.yaml
  k8sexplain dnat --service ns1/svc1 --port p80:80/TCP --cluster-ip 172.30.0.41 \
      --endpoints 10.180.0.1:80 --cluster-cidr 10.0.0.0/8
  k8sexplain dnat --form save
  k8sexplain dnat --session-affinity ClientIP --connections 1000
  k8sexplain dnat --mode nftables --connections 10000
  k8sexplain dnat --services 5000 --endpoints-per-service 10
  k8sexplain dnat --type NodePort --external-traffic-policy Local --node node-b
  k8sexplain dnat --type LoadBalancer --load-balancer-source-ranges 203.0.113.0/25 --mode nftables
  k8sexplain dnat --internal-traffic-policy Local --node node-d
  k8sexplain dnat --port dns:53/UDP --endpoints 10.244.1.3:53,10.244.2.4:53
  k8sexplain dnat --endpoints 10.244.1.2:8080 --client 10.244.1.2     # hairpin`,
		Args: noArgs,
		RunE: runE(f, o, runF, dnatRun, func(cmd *cobra.Command, _ []string) { o.Changed = changedFlags(cmd) }),
	}
	fl := cmd.Flags()
	fl.StringArrayVarP(&o.Files, "filename", "f", nil, "take the Service and its endpoints from a simulated apply of this manifest (repeatable; file, directory or -)")
	fl.StringVar(&o.Service, "service", "default/web", "the Service as namespace/name")
	fl.StringVar(&o.Port, "port", "http:80/TCP", "the service port as [name:]port[/protocol] (protocol TCP, UDP or SCTP; default TCP)")
	fl.IntVar(&o.TargetPort, "target-port", 0, "the endpoints' port when --endpoints gives none (default: the example's 8080, else the service port)")
	fl.StringVar(&o.ClusterIP, "cluster-ip", "10.96.47.112", "the Service's cluster IP (IPv4 or IPv6), or None for a headless Service")
	fl.StringVar(&o.Endpoints, "endpoints", "", "comma-separated ready endpoints ip[:port] (IPv6 as [ip]:port); an empty value means none")
	fl.StringVar(&o.ClusterCIDR, "cluster-cidr", "10.244.0.0/16", "the pod network; empty for no local-traffic detector (no masquerade rule)")
	fl.StringVar(&o.SessionAffinity, "session-affinity", "None", "sessionAffinity: None or ClientIP")
	fl.StringVar(&o.ExternalName, "external-name", "", "make it an ExternalName Service pointing to this DNS name")
	fl.StringVar(&o.Form, "form", "restore", "iptables rules as kube-proxy writes them (restore) or as iptables-save prints them (save)")
	fl.StringVar(&o.Mode, "mode", "iptables", "kube-proxy mode: iptables, ipvs or nftables")
	fl.IntVar(&o.Connections, "connections", 0, "also send this many new connections and chart where they go")
	fl.IntVar(&o.Services, "services", 0, "show how rules and per-packet work grow with this many Services, in every mode")
	fl.IntVar(&o.EndpointsPerService, "endpoints-per-service", 0, "endpoints per Service for --services (default: the endpoints of the Service shown)")
	fl.StringVar(&o.Type, "type", "ClusterIP", "spec.type: ClusterIP, NodePort or LoadBalancer (ExternalName: --external-name)")
	fl.IntVar(&o.NodePort, "node-port", 0, "the port's nodePort for NodePort and LoadBalancer (default 30080)")
	fl.StringVar(&o.ExternalTrafficPolicy, "external-traffic-policy", "Cluster", "spec.externalTrafficPolicy: Cluster or Local (NodePort and LoadBalancer)")
	fl.StringVar(&o.InternalTrafficPolicy, "internal-traffic-policy", "Cluster", "spec.internalTrafficPolicy: Cluster or Local")
	fl.IntVar(&o.HealthCheckNodePort, "health-check-node-port", 0, "spec.healthCheckNodePort of a LoadBalancer with --external-traffic-policy Local (default 32000)")
	fl.StringVar(&o.LoadBalancerIP, "load-balancer-ip", "", "the ingress IP in status.loadBalancer (default 203.0.113.10 for --type LoadBalancer; \"none\": still pending)")
	fl.StringSliceVar(&o.SourceRanges, "load-balancer-source-ranges", nil, "spec.loadBalancerSourceRanges, comma-separated CIDRs")
	fl.IntVar(&o.SessionAffinityTimeout, "session-affinity-timeout", 0, "sessionAffinityConfig.clientIP.timeoutSeconds (default 10800)")
	fl.StringVar(&o.Node, "node", "", "the node whose rules are shown (default: the node of the first endpoint); endpoints name theirs as ip:port@node")
	fl.StringVar(&o.Client, "client", "", "the client pod's IP for the walk, on --node (default: .1.5 of the cluster CIDR); an endpoint's IP shows the hairpin case")
	fl.BoolVar(&o.NFAcct, "nfacct", true, "the kernel has nfnetlink_acct and xt_nfacct, so kube-proxy adds its -m nfacct counters")
	_ = cmd.RegisterFlagCompletionFunc("form", fixedCompletion("restore", "save"))
	_ = cmd.RegisterFlagCompletionFunc("mode", fixedCompletion("iptables", "ipvs", "nftables"))
	_ = cmd.RegisterFlagCompletionFunc("session-affinity", fixedCompletion("None", "ClientIP"))
	_ = cmd.RegisterFlagCompletionFunc("type", fixedCompletion("ClusterIP", "NodePort", "LoadBalancer"))
	_ = cmd.RegisterFlagCompletionFunc("external-traffic-policy", fixedCompletion("Cluster", "Local"))
	_ = cmd.RegisterFlagCompletionFunc("internal-traffic-policy", fixedCompletion("Cluster", "Local"))
	return cmd
}

func dnatRun(o *DNATOptions) error {
	in, err := o.input()
	if err != nil {
		return err
	}
	if len(o.Files) > 0 {
		if err := fromManifest(o, &in); err != nil {
			return err
		}
	}
	in.Lang, in.Seed = o.Settings.Lang, o.Settings.Seed
	if p := in.Port; in.Mode == "ipvs" && in.Services == 0 && (p.ExternallyAccessible() || p.InternalPolicyLocal) {
		return exitcode.Inputf("--mode ipvs models ClusterIP Services with the Cluster policy only: NodePort, LoadBalancer and Local traffic policies are modelled in --mode iptables and nftables")
	}
	return o.render(explain.Build(in))
}

// The built-in example: Service default/web, port http 80/TCP → 8080.
var exampleEndpoints = []string{"10.244.1.2", "10.244.2.2", "10.244.3.2"}

const exampleTargetPort = 8080

// Defaults for the external Service types (the API server would allocate
// the ports from 30000-32767; the simulator's does not, so these are
// fixed and say so in --help).
const (
	defaultNodePort   = 30080
	defaultHCNodePort = 32000
	defaultLBIP       = "203.0.113.10"
)

// input validates the flags and builds the explain input.
func (o *DNATOptions) input() (explain.Input, error) {
	in := explain.Input{Form: o.Form, Mode: o.Mode, Connections: o.Connections}
	if o.Form != "restore" && o.Form != "save" {
		return in, exitcode.Inputf("invalid --form %q: want restore or save", o.Form)
	}
	if o.Mode != "iptables" && o.Mode != "ipvs" && o.Mode != "nftables" {
		return in, exitcode.Inputf("invalid --mode %q: want iptables, ipvs or nftables", o.Mode)
	}
	if o.Changed["form"] && o.Mode != "iptables" {
		return in, exitcode.Inputf("--form applies to --mode iptables only")
	}
	if o.Connections < 0 || o.Connections > 1_000_000 {
		return in, exitcode.Inputf("invalid --connections %d: want 0 to 1000000", o.Connections)
	}
	sp := kubeproxy.ServicePort{ExternalName: strings.TrimSuffix(o.ExternalName, ".")}
	ns, name, ok := strings.Cut(o.Service, "/")
	if !ok {
		return in, exitcode.Inputf("invalid --service %q: want namespace/name, e.g. default/web", o.Service)
	}
	// The API server's rules: a namespace is a DNS-1123 label, a Service
	// name a DNS-1035 label (it must start with a letter: it becomes a
	// DNS name and an environment variable).
	for _, m := range validation.IsDNS1123Label(ns) {
		return in, exitcode.Inputf("invalid --service %q: metadata.namespace: Invalid value: %q: %s", o.Service, ns, m)
	}
	for _, m := range apivalidation.NameIsDNS1035Label(name, false) {
		return in, exitcode.Inputf("invalid --service %q: metadata.name: Invalid value: %q: %s", o.Service, name, m)
	}
	sp.Namespace, sp.Name = ns, name
	if err := parsePort(o.Port, &sp); err != nil {
		return in, err
	}
	switch strings.ToLower(o.SessionAffinity) {
	case "clientip":
		sp.SessionAffinityClientIP = true
	case "none":
	default:
		return in, exitcode.Inputf("invalid --session-affinity %q: want None or ClientIP", o.SessionAffinity)
	}
	if o.Changed["session-affinity-timeout"] {
		// core/validation validateClientIPAffinityConfig.
		if !sp.SessionAffinityClientIP {
			return in, exitcode.Inputf("--session-affinity-timeout needs --session-affinity ClientIP")
		}
		if o.SessionAffinityTimeout <= 0 || o.SessionAffinityTimeout > 86400 {
			return in, exitcode.Inputf("invalid --session-affinity-timeout %d: spec.sessionAffinityConfig.clientIP.timeoutSeconds: must be greater than 0 and less than 86400", o.SessionAffinityTimeout)
		}
		sp.AffinityTimeout = o.SessionAffinityTimeout
	}
	if err := o.serviceType(&sp); err != nil {
		return in, err
	}
	target := int(sp.Port)
	example := !o.Changed["endpoints"]
	if example {
		target = exampleTargetPort
	}
	if o.Changed["target-port"] {
		if o.TargetPort < 1 || o.TargetPort > 65535 {
			return in, exitcode.Inputf("invalid --target-port %d: want 1 to 65535", o.TargetPort)
		}
		target = o.TargetPort
	}
	sp.TargetPort = int32(target)
	var family string
	if o.ClusterIP == "None" {
		sp.ClusterIP = "None"
		if sp.Type != "" && sp.Type != "ClusterIP" {
			return in, exitcode.Inputf("--cluster-ip None with --type %s: spec.clusterIP: Invalid value: \"None\": may not be set to 'None' for %s services", sp.Type, sp.Type)
		}
	} else if sp.ExternalName == "" {
		a, err := parseIP(o.ClusterIP, "--cluster-ip")
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
		if strings.TrimSpace(o.Endpoints) != "" {
			list = strings.Split(o.Endpoints, ",")
		}
	}
	for i, s := range list {
		ep, err := parseEndpoint(strings.TrimSpace(s), target)
		if err != nil {
			return in, err
		}
		if ep.NodeName == "" {
			ep.NodeName = kubeproxy.NodeName(i)
		}
		if family != "" && ipFamily(netip.MustParseAddr(ep.IP)) != family {
			if example {
				return in, exitcode.Inputf("the example endpoints are IPv4 but --cluster-ip %s is %s: give --endpoints of the same family", sp.ClusterIP, family)
			}
			return in, exitcode.Inputf("endpoint %q is %s but the cluster IP %s is %s: kube-proxy ignores endpoints of the other family", s, ipFamily(netip.MustParseAddr(ep.IP)), sp.ClusterIP, family)
		}
		sp.Endpoints = append(sp.Endpoints, ep)
	}
	for _, ip := range append(append([]string(nil), sp.LoadBalancerIPs...), sp.ExternalIPs...) {
		if family != "" && ipFamily(netip.MustParseAddr(ip)) != family {
			return in, exitcode.Inputf("--load-balancer-ip %s is not %s like the cluster IP %s", ip, family, sp.ClusterIP)
		}
	}
	if o.ClusterCIDR != "" {
		p, err := netip.ParsePrefix(o.ClusterCIDR)
		if err != nil {
			return in, exitcode.Inputf("invalid --cluster-cidr %q: want a CIDR such as 10.244.0.0/16", o.ClusterCIDR)
		}
		switch {
		case family == "" || ipFamily(p.Addr()) == family:
			in.Config.ClusterCIDR = p.Masked().String()
		case len(o.Files) > 0:
			// -f: the Service's family is checked against the manifest.
			in.Config.ClusterCIDR = p.Masked().String()
		case o.Changed["cluster-cidr"]:
			return in, exitcode.Inputf("--cluster-cidr %s is %s but the cluster IP %s is %s", o.ClusterCIDR, ipFamily(p.Addr()), sp.ClusterIP, family)
		}
	}
	if err := o.nodeAndClient(sp, &in); err != nil {
		return in, err
	}
	if o.Changed["endpoints-per-service"] && !o.Changed["services"] {
		return in, exitcode.Inputf("--endpoints-per-service needs --services")
	}
	if o.Changed["services"] {
		if o.Services < 1 {
			return in, exitcode.Inputf("invalid --services %d: want at least 1", o.Services)
		}
		in.Services, in.EndpointsPerService = o.Services, len(sp.UsableEndpoints())
		if o.Changed["endpoints-per-service"] {
			if o.EndpointsPerService < 0 {
				return in, exitcode.Inputf("invalid --endpoints-per-service %d: want 0 or more", o.EndpointsPerService)
			}
			in.EndpointsPerService = o.EndpointsPerService
		}
		if err := kubeproxy.CheckScale(in.Services, in.EndpointsPerService); err != nil {
			return in, exitcode.Inputf("--services %d --endpoints-per-service %d: %v", in.Services, in.EndpointsPerService, err)
		}
	}
	in.Example = example && !o.Changed["service"] && !o.Changed["port"] && !o.Changed["cluster-ip"] && !o.Changed["target-port"] && !o.Changed["external-name"] && !o.Changed["type"]
	in.Port = sp
	return in, nil
}

// serviceType reads --type and the flags that only external types take.
func (o *DNATOptions) serviceType(sp *kubeproxy.ServicePort) error {
	switch o.Type {
	case "ClusterIP", "NodePort", "LoadBalancer":
	case "ExternalName":
		return exitcode.Inputf("invalid --type ExternalName: give --external-name instead")
	default:
		return exitcode.Inputf("invalid --type %q: want ClusterIP, NodePort or LoadBalancer", o.Type)
	}
	if sp.ExternalName != "" && o.Changed["type"] {
		return exitcode.Inputf("--type cannot be combined with --external-name: that is an ExternalName Service")
	}
	sp.Type = o.Type
	external := o.Type != "ClusterIP"
	policy := func(flag, v string) (bool, error) {
		switch v {
		case "Cluster":
			return false, nil
		case "Local":
			return true, nil
		}
		return false, exitcode.Inputf("invalid --%s %q: want Cluster or Local", flag, v)
	}
	var err error
	if sp.InternalPolicyLocal, err = policy("internal-traffic-policy", o.InternalTrafficPolicy); err != nil {
		return err
	}
	if sp.ExternalPolicyLocal, err = policy("external-traffic-policy", o.ExternalTrafficPolicy); err != nil {
		return err
	}
	// core/validation: externalTrafficPolicy "may only be set for externally-accessible services".
	if o.Changed["external-traffic-policy"] && !external {
		return exitcode.Inputf("--external-traffic-policy needs --type NodePort or LoadBalancer: spec.externalTrafficPolicy: Invalid value: %q: may only be set for externally-accessible services", o.ExternalTrafficPolicy)
	}
	port := func(flag string, v, def int) (int32, error) {
		if !o.Changed[flag] {
			return int32(def), nil
		}
		if !external {
			return 0, exitcode.Inputf("--%s needs --type NodePort or LoadBalancer", flag)
		}
		// The default --service-node-port-range.
		if v < 30000 || v > 32767 {
			return 0, exitcode.Inputf("invalid --%s %d: provided port is not in the valid range. The range of valid ports is 30000-32767", flag, v)
		}
		return int32(v), nil
	}
	if sp.NodePort, err = port("node-port", o.NodePort, defaultNodePort); err != nil {
		return err
	}
	if !external {
		sp.NodePort = 0
	}
	lbLocal := o.Type == "LoadBalancer" && sp.ExternalPolicyLocal
	if o.Changed["health-check-node-port"] && !lbLocal {
		return exitcode.Inputf("--health-check-node-port needs --type LoadBalancer and --external-traffic-policy Local: spec.healthCheckNodePort may only be set when type is 'LoadBalancer' and externalTrafficPolicy is 'Local'")
	}
	if lbLocal {
		if sp.HealthCheckNodePort, err = port("health-check-node-port", o.HealthCheckNodePort, defaultHCNodePort); err != nil {
			return err
		}
		if sp.HealthCheckNodePort == sp.NodePort {
			return exitcode.Inputf("--health-check-node-port %d is the --node-port: spec.healthCheckNodePort: Duplicate value", sp.HealthCheckNodePort)
		}
	}
	for _, f := range []string{"load-balancer-ip", "load-balancer-source-ranges"} {
		if o.Changed[f] && o.Type != "LoadBalancer" {
			return exitcode.Inputf("--%s needs --type LoadBalancer", f)
		}
	}
	if o.Type == "LoadBalancer" {
		ip := o.LoadBalancerIP
		if !o.Changed["load-balancer-ip"] {
			ip = defaultLBIP
		}
		if ip != "none" {
			a, err := parseIP(ip, "--load-balancer-ip")
			if err != nil {
				return err
			}
			sp.LoadBalancerIPs = []string{a.String()}
		}
		for _, r := range o.SourceRanges {
			p, err := netip.ParsePrefix(strings.TrimSpace(r))
			if err != nil {
				return exitcode.Inputf("invalid --load-balancer-source-ranges %q: spec.loadBalancerSourceRanges: Invalid value: %q: must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)", r, r)
			}
			sp.SourceRanges = append(sp.SourceRanges, p.Masked().String())
		}
	}
	return nil
}

// nodeAndClient reads --node, --client and --nfacct into the config.
func (o *DNATOptions) nodeAndClient(sp kubeproxy.ServicePort, in *explain.Input) error {
	node := o.Node
	if node == "" {
		node = "node-a"
		if len(sp.Endpoints) > 0 {
			node = sp.Endpoints[0].NodeName
		}
	} else {
		for _, m := range validation.IsDNS1123Subdomain(node) {
			return exitcode.Inputf("invalid --node %q: %s", node, m)
		}
	}
	in.Config.NodeName, in.Config.NodeIP = node, kubeproxy.NodeIP(node)
	in.Config.NoNFAcct = !o.NFAcct
	if o.Client != "" {
		a, err := parseIP(o.Client, "--client")
		if err != nil {
			return err
		}
		if sp.ClusterIP != "" && sp.ClusterIP != "None" && ipFamily(a) != ipFamily(netip.MustParseAddr(sp.ClusterIP)) {
			return exitcode.Inputf("--client %s is not of the cluster IP's family", o.Client)
		}
		in.Client = a.String()
	}
	return nil
}

// parsePort reads [name:]port[/protocol]. The name follows the rule the
// API server applies to spec.ports[].name: a DNS-1123 label (digits
// allowed, up to 63 characters: `kubectl create service clusterip nginx
// --tcp=80:80` names its port "80-80"); only container port names are
// IANA service names.
func parsePort(s string, sp *kubeproxy.ServicePort) error {
	bad := func(why string) error {
		return exitcode.Inputf("invalid --port %q: %s (want [name:]port[/protocol], e.g. http:80/TCP)", s, why)
	}
	rest := s
	if name, p, ok := strings.Cut(rest, ":"); ok {
		for _, m := range validation.IsDNS1123Label(name) {
			return exitcode.Inputf("invalid --port %q: spec.ports[0].name: Invalid value: %q: %s", s, name, m)
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

// parseEndpoint reads ip, ip:port, [ipv6] or [ipv6]:port, each optionally
// followed by @node. The address must be one an EndpointSlice accepts
// (core/validation ValidateEndpointIP: not unspecified, loopback or
// link-local).
func parseEndpoint(s string, defPort int) (kubeproxy.Endpoint, error) {
	addr, node, _ := strings.Cut(s, "@")
	if node != "" {
		for _, m := range validation.IsDNS1123Subdomain(node) {
			return kubeproxy.Endpoint{}, exitcode.Inputf("invalid endpoint %q in --endpoints: node name: %s", s, m)
		}
	}
	host, port := addr, strconv.Itoa(defPort)
	if ap, err := netip.ParseAddrPort(addr); err == nil {
		host, port = ap.Addr().String(), strconv.Itoa(int(ap.Port()))
	} else if strings.HasPrefix(addr, "[") && strings.HasSuffix(addr, "]") {
		host = addr[1 : len(addr)-1]
	}
	a, err := netip.ParseAddr(host)
	if err != nil || a.Zone() != "" {
		return kubeproxy.Endpoint{}, exitcode.Inputf("invalid endpoint %q in --endpoints: want ip:port (IPv6 as [ip]:port), optionally @node", s)
	}
	a = a.Unmap()
	for _, m := range endpointIPErrors(a) {
		return kubeproxy.Endpoint{}, exitcode.Inputf("invalid endpoint %q in --endpoints: endpoints[0].addresses[0]: Invalid value: %q: %s", s, a.String(), m)
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 1 || n > 65535 {
		return kubeproxy.Endpoint{}, exitcode.Inputf("invalid endpoint %q in --endpoints: port must be 1 to 65535", s)
	}
	return kubeproxy.Endpoint{IP: a.String(), Port: int32(n), Ready: true, Serving: true, NodeName: node}, nil
}

// endpointIPErrors are ValidateEndpointIP's messages for a.
func endpointIPErrors(a netip.Addr) []string {
	var out []string
	if a.IsUnspecified() {
		out = append(out, fmt.Sprintf("may not be unspecified (%v)", a))
	}
	if a.IsLoopback() {
		out = append(out, "may not be in the loopback range (127.0.0.0/8, ::1/128)")
	}
	if a.IsLinkLocalUnicast() {
		out = append(out, "may not be in the link-local range (169.254.0.0/16, fe80::/10)")
	}
	if a.IsLinkLocalMulticast() {
		out = append(out, "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)")
	}
	return out
}
