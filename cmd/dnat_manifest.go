package cmd

import (
	"net/netip"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/sim"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy/explain"
	corev1 "k8s.io/api/core/v1"
)

// fromManifest fills in.Port from a simulated apply of the user's
// manifests: the Service (--service picks one when there are several) and
// the EndpointSlices the simulated controller wrote for its pods, so
// unready pods are not endpoints — exactly what kube-proxy would see.
func fromManifest(o *DNATOptions, in *explain.Input) error {
	files := o.Files
	for _, fl := range []string{"cluster-ip", "endpoints", "target-port", "external-name", "session-affinity", "session-affinity-timeout",
		"type", "node-port", "external-traffic-policy", "internal-traffic-policy", "health-check-node-port", "load-balancer-ip", "load-balancer-source-ranges"} {
		if o.Changed[fl] {
			return exitcode.Inputf("--%s cannot be combined with -f: the Service comes from the manifest", fl)
		}
	}
	objs, err := manifest.Load(files, o.IO.In)
	if err != nil {
		return exitcode.AsInput(err)
	}
	cl, err := sim.NewCluster(sim.Config{Seed: o.Settings.Seed, Workers: 3, StepLimit: 1})
	if err != nil {
		return exitcode.AsInput(err)
	}
	if err := cl.CheckScale(objs, false); err != nil {
		return exitcode.AsInput(err)
	}
	cl.Apply(objs, files)
	if tr := cl.Run("dnat"); tr.Failed != "" {
		return exitcode.Inputf("%s", tr.Failed)
	}
	svcs := cl.Services()
	if len(svcs) == 0 {
		return exitcode.Inputf("%s: no Service in the manifest", strings.Join(files, ", "))
	}
	var names []string
	for _, s := range svcs {
		names = append(names, s.Service.Namespace+"/"+s.Service.Name)
	}
	pick := -1
	switch {
	case o.Changed["service"]:
		want := o.Service
		if !strings.Contains(want, "/") {
			want = "default/" + want
		}
		for i, n := range names {
			if n == want {
				pick = i
			}
		}
		if pick < 0 {
			return exitcode.Inputf("--service %s is not in the manifest (it has %s)", o.Service, strings.Join(names, ", "))
		}
	case len(svcs) == 1:
		pick = 0
	default:
		return exitcode.Inputf("the manifest has %d Services (%s): pick one with --service", len(svcs), strings.Join(names, ", "))
	}
	svc := svcs[pick].Service
	// Shapes kube-proxy handles that k8sexplain does not model: say so
	// rather than print rules that would be wrong.
	if svc.Spec.TrafficDistribution != nil {
		return exitcode.Inputf("Service %s: spec.trafficDistribution %q is not modelled (kube-proxy would keep only the endpoints its zone hints give this node)", names[pick], *svc.Spec.TrafficDistribution)
	}
	if v := svc.Annotations["service.kubernetes.io/topology-mode"]; v != "" {
		return exitcode.Inputf("Service %s: the topology-mode annotation %q is not modelled (kube-proxy would keep only the endpoints its zone hints give this node)", names[pick], v)
	}
	ports := kubeproxy.FromAPI(svc, svcs[pick].Slices)
	if len(ports) == 0 {
		return exitcode.Inputf("Service %s has no ports", names[pick])
	}
	in.Port = ports[0]
	if o.Changed["port"] {
		want, err := parsePort(o.Port)
		if err != nil {
			return err
		}
		// The port's name follows the API server's rule, as with flags.
		check := &corev1.Service{Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{want}}}
		check.Namespace, check.Name = svc.Namespace, svc.Name
		if err := o.validateService(check); err != nil {
			return err
		}
		found := false
		for _, p := range ports {
			if p.Port == want.Port && p.Protocol == string(want.Protocol) {
				in.Port, found = p, true
			}
		}
		if !found {
			return exitcode.Inputf("--port %s: Service %s has no such port", o.Port, names[pick])
		}
	}
	// --cluster-cidr is honoured (input validated it); by default the
	// simulated cluster's pod network.
	if !o.Changed["cluster-cidr"] {
		in.Config.ClusterCIDR = "10.244.0.0/16"
	}
	if p := in.Port; p.ClusterIP != "" && p.ClusterIP != "None" && in.Config.ClusterCIDR != "" &&
		strings.Contains(p.ClusterIP, ":") != strings.Contains(in.Config.ClusterCIDR, ":") {
		return exitcode.Inputf("--cluster-cidr %s is not of the family of Service %s's cluster IP %s", in.Config.ClusterCIDR, names[pick], p.ClusterIP)
	}
	// Node ports (and a health-check node port) come from the simulated
	// API server's Service registry, as upstream's do
	// (pkg/registry/core/service/storage/alloc.go).
	in.PendingLB = in.Port.Type == "LoadBalancer" && len(in.Port.LoadBalancerIPs) == 0
	if !o.Changed["node"] {
		in.Config.NodeName = "node-a"
		if eps := in.Port.UsableEndpoints(); len(eps) > 0 && eps[0].NodeName != "" {
			in.Config.NodeName = eps[0].NodeName
		}
		in.Config.NodeIP = kubeproxy.NodeIP(in.Config.NodeName)
	}
	if in.Client == "" {
		// Only inside the pod network kube-proxy was told (--cluster-cidr);
		// else the walk keeps its default client from that network.
		client := kubeproxy.ClientOnNode(in.Port.Endpoints, in.Config.NodeName)
		if p, err := netip.ParsePrefix(in.Config.ClusterCIDR); client != "" && err == nil && p.Contains(netip.MustParseAddr(client)) {
			in.Client = client
		}
	}
	in.Example = false
	in.Source = strings.Join(files, ", ")
	return nil
}
