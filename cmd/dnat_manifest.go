package cmd

import (
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/sim"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy/explain"
	"github.com/spf13/cobra"
)

// fromManifest fills in.Port from a simulated apply of the user's
// manifests: the Service (--service picks one when there are several) and
// the EndpointSlices the simulated controller wrote for its pods, so
// unready pods are not endpoints — exactly what kube-proxy would see.
func fromManifest(f *Factory, cmd *cobra.Command, o *dnatOptions, files []string, in *explain.Input) error {
	for _, fl := range []string{"cluster-ip", "endpoints", "target-port", "external-name", "session-affinity"} {
		if cmd.Flags().Changed(fl) {
			return exitcode.Inputf("--%s cannot be combined with -f: the Service comes from the manifest", fl)
		}
	}
	g, err := f.Globals()
	if err != nil {
		return err
	}
	objs, err := manifest.Load(files, f.IO.In)
	if err != nil {
		return exitcode.AsInput(err)
	}
	cl, err := sim.NewCluster(sim.Config{Seed: g.Seed, Workers: 3, StepLimit: 1})
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
	case cmd.Flags().Changed("service"):
		want := o.service
		if !strings.Contains(want, "/") {
			want = "default/" + want
		}
		for i, n := range names {
			if n == want {
				pick = i
			}
		}
		if pick < 0 {
			return exitcode.Inputf("--service %s is not in the manifest (it has %s)", o.service, strings.Join(names, ", "))
		}
	case len(svcs) == 1:
		pick = 0
	default:
		return exitcode.Inputf("the manifest has %d Services (%s): pick one with --service", len(svcs), strings.Join(names, ", "))
	}
	ports := kubeproxy.FromAPI(svcs[pick].Service, svcs[pick].Slices)
	if len(ports) == 0 {
		return exitcode.Inputf("Service %s has no ports", names[pick])
	}
	in.Port = ports[0]
	if cmd.Flags().Changed("port") {
		var want kubeproxy.ServicePort
		if err := parsePort(o.port, &want); err != nil {
			return err
		}
		found := false
		for _, p := range ports {
			if p.Port == want.Port && p.Protocol == want.Protocol {
				in.Port, found = p, true
			}
		}
		if !found {
			return exitcode.Inputf("--port %s: Service %s has no such port", o.port, names[pick])
		}
	}
	in.Config.ClusterCIDR = "10.244.0.0/16"
	in.Example = false
	in.Source = strings.Join(files, ", ")
	return nil
}
