package sim

import (
	"strconv"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/sim/simtest"
	"github.com/k8sexplain/k8sexplain/internal/trace"
)

const policyDeployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx:1.27, ports: [{name: http, containerPort: 8080}]}]
`

// lastPerNode is each kube-proxy's last step about the Service, of the
// given kinds.
func lastPerNode(tr *trace.Trace, svc string, kinds ...trace.Kind) map[string]trace.Step {
	out := map[string]trace.Step{}
	for _, k := range kinds {
		for _, s := range simtest.StepsOf(tr, k) {
			if s.Get("service") == svc {
				if prev, ok := out[s.Get("node")]; !ok || prev.At <= s.At {
					out[s.Get("node")] = s
				}
			}
		}
	}
	return out
}

// internalTrafficPolicy: Local: each node's kube-proxy sends the cluster IP
// to KUBE-SVL with its own endpoints only, and a node without one drops
// ("has no local endpoints"), as upstream's syncProxyRules does; never the
// KUBE-SVC of every endpoint.
func TestKubeProxyInternalTrafficPolicyLocal(t *testing.T) {
	c := appliedCluster(t, Config{Seed: 1, Workers: 3}, "itp.yaml", policyDeployment+`---
apiVersion: v1
kind: Service
metadata: {name: web-internal}
spec:
  internalTrafficPolicy: Local
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: http}]
`)
	tr := c.Run("t")
	for _, s := range simtest.StepsOf(tr, "kubeproxy.sync") {
		if s.Get("service") == "default/web-internal" {
			t.Fatalf("%s: KUBE-SVC to every endpoint under internalTrafficPolicy Local: %v", s.Get("node"), s.Fields)
		}
	}
	last := lastPerNode(tr, "default/web-internal", "kubeproxy.local", "kubeproxy.nolocal")
	if len(last) != 4 {
		t.Fatalf("kube-proxy steps of %d nodes, want 4 (control plane and 3 workers): %v", len(last), last)
	}
	local, drop := map[string]bool{}, 0
	for node, s := range last {
		switch s.Kind {
		case "kubeproxy.local":
			if !strings.HasPrefix(s.Get("chain"), "KUBE-SVL-") || s.Get("endpoints") != "1" {
				t.Fatalf("%s: %v, want KUBE-SVL with the node's one endpoint", node, s.Fields)
			}
			local[s.Get("targets")] = true
		case "kubeproxy.nolocal":
			drop++
			if got, want := s.Get("comment"), "default/web-internal:http has no local endpoints"; got != want {
				t.Fatalf("%s: comment %q, want %q", node, got, want)
			}
		default:
			t.Fatalf("%s: last step %s", node, s.Kind)
		}
	}
	if len(local) != 2 || drop != 2 {
		t.Fatalf("%d nodes with distinct local endpoints, %d dropping; want 2 and 2 (2 pods on 3 workers, and the control plane)", len(local), drop)
	}
}

// A LoadBalancer Service with externalTrafficPolicy: Local gets a node port
// and a health-check node port from the Service registry (dynamic ones
// above the static band), and each node's kube-proxy traces KUBE-NODEPORTS
// → KUBE-EXT → KUBE-SVL, or the drop, and the health check's answer.
func TestNodePortExternalTrafficPolicyLocal(t *testing.T) {
	c := appliedCluster(t, Config{Seed: 1, Workers: 3}, "lb.yaml", policyDeployment+`---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  type: LoadBalancer
  externalTrafficPolicy: Local
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: http}]
`)
	tr := c.Run("t")
	np := simtest.StepsOf(tr, "apiserver.nodeport")
	hc := simtest.StepsOf(tr, "apiserver.healthchecknodeport")
	if len(np) != 1 || len(hc) != 1 {
		t.Fatalf("%d nodeport and %d healthchecknodeport steps, want 1 each", len(np), len(hc))
	}
	_, port, _ := strings.Cut(np[0].Get("ports"), "→")
	for _, p := range []string{port, hc[0].Get("hc")} {
		if n, err := strconv.Atoi(p); err != nil || n < 30086 || n > 32767 {
			t.Fatalf("node port %q: want one of 30086-32767 (dynamic, above the static band)", p)
		}
	}
	last := lastPerNode(tr, "default/web", "kubeproxy.nodeport", "kubeproxy.nodeportlocal", "kubeproxy.nodeportdrop")
	health := lastPerNode(tr, "default/web", "kubeproxy.healthcheck")
	kept, dropped := 0, 0
	for node, s := range last {
		if s.Get("nodeport") != port {
			t.Fatalf("%s: node port %s, want %s", node, s.Get("nodeport"), port)
		}
		switch s.Kind {
		case "kubeproxy.nodeportlocal":
			kept++
			if !strings.HasPrefix(s.Get("svl"), "KUBE-SVL-") || !strings.HasPrefix(s.Get("ext"), "KUBE-EXT-") || s.Get("endpoints") != "1" {
				t.Fatalf("%s: %v", node, s.Fields)
			}
			h := health[node]
			if h.Get("code") != "200" {
				t.Fatalf("%s: health check %v, want 200", node, health[node].Fields)
			}
		case "kubeproxy.nodeportdrop":
			dropped++
			h := health[node]
			if h.Get("code") != "503" || h.Get("hc") != hc[0].Get("hc") {
				t.Fatalf("%s: health check %v, want 503 on %s", node, health[node].Fields, hc[0].Get("hc"))
			}
		default:
			t.Fatalf("%s: %s under externalTrafficPolicy Local", node, s.Kind)
		}
	}
	if kept != 2 || dropped != 2 {
		t.Fatalf("%d nodes keep the node port local, %d drop it; want 2 and 2", kept, dropped)
	}
}

// A NodePort Service with externalTrafficPolicy Cluster: the node port
// masquerades to KUBE-SVC on every node, no health-check node port; a
// user-given nodePort is kept, and a taken one refused with the registry's
// message.
func TestNodePortGivenAndTaken(t *testing.T) {
	c := appliedCluster(t, Config{Seed: 1, Workers: 3}, "np.yaml", policyDeployment+`---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  type: NodePort
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: http, nodePort: 30080}]
---
apiVersion: v1
kind: Service
metadata: {name: web-dup}
spec:
  type: NodePort
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: http, nodePort: 30080}]
`)
	tr := c.Run("t")
	if want := `Service "web-dup" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated`; !strings.Contains(tr.Failed, want) {
		t.Fatalf("failed: %q, want %q", tr.Failed, want)
	}
	if len(simtest.StepsOf(tr, "apiserver.healthchecknodeport")) != 0 {
		t.Fatal("a NodePort Service got a health-check node port (only a LoadBalancer with externalTrafficPolicy Local does)")
	}
	last := lastPerNode(tr, "default/web", "kubeproxy.nodeport", "kubeproxy.nodeportlocal", "kubeproxy.nodeportdrop")
	if len(last) != 4 {
		t.Fatalf("node port steps on %d nodes, want 4", len(last))
	}
	for node, s := range last {
		if s.Kind != "kubeproxy.nodeport" || s.Get("nodeport") != "30080" || s.Get("endpoints") != "2" {
			t.Fatalf("%s: %s %v, want KUBE-EXT → KUBE-SVC with both endpoints on node port 30080", node, s.Kind, s.Fields)
		}
	}
}
