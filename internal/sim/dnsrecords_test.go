package sim

import (
	"os"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/golden"
	"github.com/k8sexplain/k8sexplain/internal/sim/simtest"
)

// A StatefulSet's pods get CoreDNS names <pod>.<serviceName>.<ns>.svc
// through the headless Service, each with its pod's IP once it is ready;
// pods without a hostname are named by their dashed IP.
func TestHeadlessPerPodRecords(t *testing.T) {
	src, err := os.ReadFile(golden.Root() + "/examples/statefulset.yaml")
	if err != nil {
		t.Fatal(err)
	}
	objs := simtest.Parse(t, string(src)+`---
apiVersion: v1
kind: Service
metadata: {name: plain}
spec:
  clusterIP: None
  selector: {app: plain}
  ports: [{port: 80}]
---
apiVersion: v1
kind: Pod
metadata: {name: lone, labels: {app: plain}}
spec:
  containers: [{name: c, image: registry.k8s.io/nginx-slim:0.27}]
`)
	c, err := NewCluster(Config{Seed: 1, Workers: 3, StatefulSets: true, Volumes: true})
	if err != nil {
		t.Fatal(err)
	}
	c.Apply(objs, []string{"t.yaml"})
	tr := c.Run("t")
	got := map[string]string{}
	for _, s := range tr.Steps {
		if s.Kind == "dns.host" {
			got[s.Get("fqdn")] = s.Get("rr")
		}
	}
	for _, p := range c.Pods() {
		name := p.Name + ".nginx.default.svc.cluster.local."
		if p.Name == "lone" {
			name = strings.ReplaceAll(p.Status.PodIP, ".", "-") + ".plain.default.svc.cluster.local."
		}
		if got[name] != "A "+p.Status.PodIP {
			t.Errorf("%s: record %q, want A %s (records: %v)", name, got[name], p.Status.PodIP, got)
		}
	}
	if len(got) != 4 {
		t.Errorf("%d records, want 4: %v", len(got), got)
	}
}
