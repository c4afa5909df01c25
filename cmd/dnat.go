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

func init() { register(newCmdDNAT) }

// dnatOptions are the dnat flags as given.
type dnatOptions struct {
	service, port, clusterIP, endpoints, clusterCIDR string
	affinity, externalName, form, mode               string
	targetPort, connections, services, perService    int
	files                                            []string

	svcType, etp, itp, lbIP, node, client string
	sourceRanges                          []string
	nodePort, hcNodePort, affinityTimeout int
	nfacct                                bool
}

func newCmdDNAT(f *Factory) *cobra.Command {
	o := &dnatOptions{}
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
			if p := in.Port; in.Mode == "ipvs" && in.Services == 0 && (p.ExternallyAccessible() || p.InternalPolicyLocal) {
				return exitcode.Inputf("--mode ipvs models ClusterIP Services with the Cluster policy only: NodePort, LoadBalancer and Local traffic policies are modelled in --mode iptables and nftables")
			}
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
	fl.StringVar(&o.svcType, "type", "ClusterIP", "spec.type: ClusterIP, NodePort or LoadBalancer (ExternalName: --external-name)")
	fl.IntVar(&o.nodePort, "node-port", 0, "the port's nodePort for NodePort and LoadBalancer (default 30080)")
	fl.StringVar(&o.etp, "external-traffic-policy", "Cluster", "spec.externalTrafficPolicy: Cluster or Local (NodePort and LoadBalancer)")
	fl.StringVar(&o.itp, "internal-traffic-policy", "Cluster", "spec.internalTrafficPolicy: Cluster or Local")
	fl.IntVar(&o.hcNodePort, "health-check-node-port", 0, "spec.healthCheckNodePort of a LoadBalancer with --external-traffic-policy Local (default 32000)")
	fl.StringVar(&o.lbIP, "load-balancer-ip", "", "the ingress IP in status.loadBalancer (default 203.0.113.10 for --type LoadBalancer; \"none\": still pending)")
	fl.StringSliceVar(&o.sourceRanges, "load-balancer-source-ranges", nil, "spec.loadBalancerSourceRanges, comma-separated CIDRs")
	fl.IntVar(&o.affinityTimeout, "session-affinity-timeout", 0, "sessionAffinityConfig.clientIP.timeoutSeconds (default 10800)")
	fl.StringVar(&o.node, "node", "", "the node whose rules are shown (default: the node of the first endpoint); endpoints name theirs as ip:port@node")
	fl.StringVar(&o.client, "client", "", "the client pod's IP for the walk, on --node (default: .1.5 of the cluster CIDR); an endpoint's IP shows the hairpin case")
	fl.BoolVar(&o.nfacct, "nfacct", true, "the kernel has nfnetlink_acct and xt_nfacct, so kube-proxy adds its -m nfacct counters")
	_ = cmd.RegisterFlagCompletionFunc("form", fixedCompletion("restore", "save"))
	_ = cmd.RegisterFlagCompletionFunc("mode", fixedCompletion("iptables", "ipvs", "nftables"))
	_ = cmd.RegisterFlagCompletionFunc("session-affinity", fixedCompletion("None", "ClientIP"))
	_ = cmd.RegisterFlagCompletionFunc("type", fixedCompletion("ClusterIP", "NodePort", "LoadBalancer"))
	_ = cmd.RegisterFlagCompletionFunc("external-traffic-policy", fixedCompletion("Cluster", "Local"))
	_ = cmd.RegisterFlagCompletionFunc("internal-traffic-policy", fixedCompletion("Cluster", "Local"))
	return cmd
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

// nodeNameOf is the simulator's node naming: node-a, node-b, …
func nodeNameOf(i int) string { return "node-" + string(rune('a'+i%26)) }

// NodeIPOf is the InternalIP k8sexplain gives node-a, node-b, …:
// 192.168.0.11, .12, … (outside any cluster CIDR).
func nodeIPOf(name string) string {
	if len(name) == 6 && strings.HasPrefix(name, "node-") && name[5] >= 'a' && name[5] <= 'z' {
		return "192.168.0." + strconv.Itoa(11+int(name[5]-'a'))
	}
	return "192.168.0.10"
}

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
	if !ok {
		return in, exitcode.Inputf("invalid --service %q: want namespace/name, e.g. default/web", o.service)
	}
	// The API server's rules: a namespace is a DNS-1123 label, a Service
	// name a DNS-1035 label (it must start with a letter: it becomes a
	// DNS name and an environment variable).
	for _, m := range validation.IsDNS1123Label(ns) {
		return in, exitcode.Inputf("invalid --service %q: metadata.namespace: Invalid value: %q: %s", o.service, ns, m)
	}
	for _, m := range apivalidation.NameIsDNS1035Label(name, false) {
		return in, exitcode.Inputf("invalid --service %q: metadata.name: Invalid value: %q: %s", o.service, name, m)
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
	if changed("session-affinity-timeout") {
		// core/validation validateClientIPAffinityConfig.
		if !sp.SessionAffinityClientIP {
			return in, exitcode.Inputf("--session-affinity-timeout needs --session-affinity ClientIP")
		}
		if o.affinityTimeout <= 0 || o.affinityTimeout > 86400 {
			return in, exitcode.Inputf("invalid --session-affinity-timeout %d: spec.sessionAffinityConfig.clientIP.timeoutSeconds: must be greater than 0 and less than 86400", o.affinityTimeout)
		}
		sp.AffinityTimeout = o.affinityTimeout
	}
	if err := o.serviceType(cmd, &sp); err != nil {
		return in, err
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
		if sp.Type != "" && sp.Type != "ClusterIP" {
			return in, exitcode.Inputf("--cluster-ip None with --type %s: spec.clusterIP: Invalid value: \"None\": may not be set to 'None' for %s services", sp.Type, sp.Type)
		}
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
	for i, s := range list {
		ep, err := parseEndpoint(strings.TrimSpace(s), target)
		if err != nil {
			return in, err
		}
		if ep.NodeName == "" {
			ep.NodeName = nodeNameOf(i)
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
	if o.clusterCIDR != "" {
		p, err := netip.ParsePrefix(o.clusterCIDR)
		if err != nil {
			return in, exitcode.Inputf("invalid --cluster-cidr %q: want a CIDR such as 10.244.0.0/16", o.clusterCIDR)
		}
		switch {
		case family == "" || ipFamily(p.Addr()) == family:
			in.Config.ClusterCIDR = p.Masked().String()
		case len(o.files) > 0:
			// -f: the Service's family is checked against the manifest.
			in.Config.ClusterCIDR = p.Masked().String()
		case changed("cluster-cidr"):
			return in, exitcode.Inputf("--cluster-cidr %s is %s but the cluster IP %s is %s", o.clusterCIDR, ipFamily(p.Addr()), sp.ClusterIP, family)
		}
	}
	if err := o.nodeAndClient(cmd, sp, &in); err != nil {
		return in, err
	}
	if changed("endpoints-per-service") && !changed("services") {
		return in, exitcode.Inputf("--endpoints-per-service needs --services")
	}
	if changed("services") {
		if o.services < 1 {
			return in, exitcode.Inputf("invalid --services %d: want at least 1", o.services)
		}
		in.Services, in.EndpointsPerService = o.services, len(sp.UsableEndpoints())
		if changed("endpoints-per-service") {
			if o.perService < 0 {
				return in, exitcode.Inputf("invalid --endpoints-per-service %d: want 0 or more", o.perService)
			}
			in.EndpointsPerService = o.perService
		}
		if err := kubeproxy.CheckScale(in.Services, in.EndpointsPerService); err != nil {
			return in, exitcode.Inputf("--services %d --endpoints-per-service %d: %v", in.Services, in.EndpointsPerService, err)
		}
	}
	in.Example = example && !changed("service") && !changed("port") && !changed("cluster-ip") && !changed("target-port") && !changed("external-name") && !changed("type")
	in.Port = sp
	return in, nil
}

// serviceType reads --type and the flags that only external types take.
func (o *dnatOptions) serviceType(cmd *cobra.Command, sp *kubeproxy.ServicePort) error {
	changed := cmd.Flags().Changed
	switch o.svcType {
	case "ClusterIP", "NodePort", "LoadBalancer":
	case "ExternalName":
		return exitcode.Inputf("invalid --type ExternalName: give --external-name instead")
	default:
		return exitcode.Inputf("invalid --type %q: want ClusterIP, NodePort or LoadBalancer", o.svcType)
	}
	if sp.ExternalName != "" && changed("type") {
		return exitcode.Inputf("--type cannot be combined with --external-name: that is an ExternalName Service")
	}
	sp.Type = o.svcType
	external := o.svcType != "ClusterIP"
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
	if sp.InternalPolicyLocal, err = policy("internal-traffic-policy", o.itp); err != nil {
		return err
	}
	if sp.ExternalPolicyLocal, err = policy("external-traffic-policy", o.etp); err != nil {
		return err
	}
	// core/validation: externalTrafficPolicy "may only be set for externally-accessible services".
	if changed("external-traffic-policy") && !external {
		return exitcode.Inputf("--external-traffic-policy needs --type NodePort or LoadBalancer: spec.externalTrafficPolicy: Invalid value: %q: may only be set for externally-accessible services", o.etp)
	}
	port := func(flag string, v, def int) (int32, error) {
		if !changed(flag) {
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
	if sp.NodePort, err = port("node-port", o.nodePort, defaultNodePort); err != nil {
		return err
	}
	if !external {
		sp.NodePort = 0
	}
	lbLocal := o.svcType == "LoadBalancer" && sp.ExternalPolicyLocal
	if changed("health-check-node-port") && !lbLocal {
		return exitcode.Inputf("--health-check-node-port needs --type LoadBalancer and --external-traffic-policy Local: spec.healthCheckNodePort may only be set when type is 'LoadBalancer' and externalTrafficPolicy is 'Local'")
	}
	if lbLocal {
		if sp.HealthCheckNodePort, err = port("health-check-node-port", o.hcNodePort, defaultHCNodePort); err != nil {
			return err
		}
		if sp.HealthCheckNodePort == sp.NodePort {
			return exitcode.Inputf("--health-check-node-port %d is the --node-port: spec.healthCheckNodePort: Duplicate value", sp.HealthCheckNodePort)
		}
	}
	for _, f := range []string{"load-balancer-ip", "load-balancer-source-ranges"} {
		if changed(f) && o.svcType != "LoadBalancer" {
			return exitcode.Inputf("--%s needs --type LoadBalancer", f)
		}
	}
	if o.svcType == "LoadBalancer" {
		ip := o.lbIP
		if !changed("load-balancer-ip") {
			ip = defaultLBIP
		}
		if ip != "none" {
			a, err := parseIP(ip, "--load-balancer-ip")
			if err != nil {
				return err
			}
			sp.LoadBalancerIPs = []string{a.String()}
		}
		for _, r := range o.sourceRanges {
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
func (o *dnatOptions) nodeAndClient(cmd *cobra.Command, sp kubeproxy.ServicePort, in *explain.Input) error {
	node := o.node
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
	in.Config.NodeName, in.Config.NodeIP = node, nodeIPOf(node)
	in.Config.NoNFAcct = !o.nfacct
	if o.client != "" {
		a, err := parseIP(o.client, "--client")
		if err != nil {
			return err
		}
		if sp.ClusterIP != "" && sp.ClusterIP != "None" && ipFamily(a) != ipFamily(netip.MustParseAddr(sp.ClusterIP)) {
			return exitcode.Inputf("--client %s is not of the cluster IP's family", o.client)
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
