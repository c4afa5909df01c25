package explain

import (
	"fmt"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/k8sexplain/k8sexplain/internal/sim/dns"
	"github.com/k8sexplain/k8sexplain/internal/sim/grpclb"
)

// dnsAnswer is what cluster DNS returns for the headless Service at the
// start of the run, as dig prints the answer section.
func dnsAnswer(r *grpclb.Result) string {
	a := dns.Lookup(grpclb.Headless(r.Pods, 0), "cluster.local", dns.DefaultTTL)
	var b strings.Builder
	for _, rec := range a.Records {
		b.WriteString(rec.String() + "\n")
	}
	return b.String()
}

// fixes shows the manifests and code, with grpc-go's real names.
func fixes(d *report.Doc, c cat, r *grpclb.Result) {
	d.H(1, c.F("fix.h"))
	d.P(c.F("fix.svc"))
	d.C("yaml", fmt.Sprintf(`apiVersion: v1
kind: Service
metadata:
  name: %s-headless
  namespace: %s
spec:
  clusterIP: None          # headless: DNS returns every ready pod's IP
  selector:
    app: %s
  ports:
  - name: grpc
    port: %d
    targetPort: %d
`, grpclb.ServiceName, grpclb.Namespace, grpclb.ServiceName, grpclb.Port, grpclb.Port))
	d.P(c.F("fix.client"))
	d.C("go", fmt.Sprintf(`conn, err := grpc.NewClient(
	"dns:///%s-headless.%s.svc.cluster.local:%d",
	grpc.WithTransportCredentials(insecure.NewCredentials()),
	grpc.WithDefaultServiceConfig(`+"`"+`{"loadBalancingConfig":[{"round_robin":{}}]}`+"`"+`),
)`, grpclb.ServiceName, grpclb.Namespace, grpclb.Port))
	d.P(c.F("fix.server"))
	d.C("go", `srv := grpc.NewServer(
	grpc.KeepaliveParams(keepalive.ServerParameters{
		MaxConnectionAge:      30 * time.Second, // GOAWAY after 30 s ±10 %
		MaxConnectionAgeGrace: 10 * time.Second, // then force-close
	}),
	grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: 10 * time.Second}),
)`)
	d.L(c.F("fix.warm"), c.F("fix.resolve", grpclb.MinResolutionInterval), c.F("fix.proxy"), c.F("fix.legacy"))
	if r.Live == nil {
		d.Styled("note", c.F("fix.live"))
	}
}
