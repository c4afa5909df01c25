package cmd

import (
	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy/explain"
	"github.com/spf13/cobra"
)

// DNATOptions are the inputs of `dnat`: the flags as given.
type DNATOptions struct {
	Common
	Service, Port, ClusterIP, Endpoints, ClusterCIDR string
	EndpointsFile                                    string
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

// dnatShort is the summary root --help lists.
const dnatShort = "Show the rules kube-proxy writes for a Service (ClusterIP, NodePort, LoadBalancer) and a packet's walk through them"

// NewCmdDNAT is `dnat`; runF, when not nil, gets the options instead of dnatRun.
func NewCmdDNAT(f *Factory, runF func(*DNATOptions) error) *cobra.Command {
	o := &DNATOptions{}
	cmd := &cobra.Command{
		Use:   "dnat",
		Short: dnatShort,
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
  k8sexplain dnat --endpoints-file examples/endpoints.txt --mode nftables
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
	fl.StringVar(&o.EndpointsFile, "endpoints-file", "", "read the ready endpoints from this file (- for stdin): one ip[:port][@node] a line as in --endpoints, blank lines and # comments skipped; for more than a command line holds (up to 150,000)")
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
	return o.render(versioned("k8sexplain.dnat/v1", explain.Build(in)))
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
