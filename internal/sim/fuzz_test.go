package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/render"
	"github.com/k8sexplain/k8sexplain/internal/trace/explain"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// scene is one generated input: a Deployment and a Service built from a few
// knobs, encoded as JSON (valid YAML), plus the worker nodes.
type scene struct {
	replicas             int
	surge, unavailable   any // int or string, as intstr
	cpu, memory, image   string
	port, targetPort     int
	clusterIP            string
	podCIDR              string // "" for the default nodes
	workers              int
	bare, service, probe bool
}

func (s scene) manifest() []byte {
	container := map[string]any{"name": "app", "image": s.image,
		"resources": map[string]any{"requests": map[string]any{"cpu": s.cpu, "memory": s.memory}}}
	if s.probe {
		container["readinessProbe"] = map[string]any{"httpGet": map[string]any{"path": "/", "port": s.targetPort}, "periodSeconds": 5}
	}
	tmpl := map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
		"spec": map[string]any{"containers": []any{container}}}
	items := []any{map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "web"},
		"spec": map[string]any{"replicas": s.replicas, "selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
			"strategy": map[string]any{"type": "RollingUpdate", "rollingUpdate": map[string]any{"maxSurge": s.surge, "maxUnavailable": s.unavailable}},
			"template": tmpl}}}
	if s.service {
		spec := map[string]any{"selector": map[string]any{"app": "web"}, "ports": []any{map[string]any{"port": s.port, "targetPort": s.targetPort}}}
		if s.clusterIP != "" {
			spec["clusterIP"] = s.clusterIP
		}
		items = append(items, map[string]any{"apiVersion": "v1", "kind": "Service", "metadata": map[string]any{"name": "web"}, "spec": spec})
	}
	if s.bare {
		items = append(items, map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": "bare", "labels": map[string]any{"app": "web"}},
			"spec": map[string]any{"containers": []any{container}}})
	}
	data, _ := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": items})
	return data
}

func (s scene) nodes() []*corev1.Node {
	if s.podCIDR == "" {
		return nil
	}
	var out []*corev1.Node
	for i := 0; i < s.workers; i++ {
		n := DefaultNodes(1, false)[0]
		n.Name = fmt.Sprintf("n%d", i)
		n.Spec.PodCIDR, n.Spec.PodCIDRs = s.podCIDR, []string{s.podCIDR}
		n.Status.Allocatable[corev1.ResourceCPU] = resource.MustParse("4")
		out = append(out, n)
	}
	return out
}

// simulate runs the scene through the whole simulator: apply, then (for a
// Deployment that settles) a rolling update. It returns the JSON trace, or
// nil when the input is refused before simulating (invalid, or past the
// bounds), which is a clean outcome too.
func simulate(t testing.TB, s scene, seed int64) []byte {
	objs, err := manifest.Parse("scene.json", s.manifest())
	if err != nil {
		return nil
	}
	c, err := NewCluster(Config{Seed: seed, Workers: s.workers, Nodes: s.nodes(), StepLimit: 2000})
	if err != nil {
		return nil
	}
	if err := c.CheckScale(objs, true); err != nil {
		return nil
	}
	c.Apply(objs, []string{"scene.json"})
	var out bytes.Buffer
	tr := c.Run("k8sexplain trace apply scene.json")
	if err := render.Render(&out, explain.Doc(tr, explain.Options{Lang: "en"}), render.Options{Format: render.JSON, Lang: "en"}); err != nil {
		t.Fatalf("render: %v", err)
	}
	if dep := c.Deployment("default", "web"); dep != nil && tr.Failed == "" && tr.Summary.AllReady {
		if err := c.SetImage(dep, "app", s.image+"-v2"); err == nil {
			c.RunFor(2 * time.Minute)
			d := explain.Doc(c.Story("rollout", "rollout"), explain.Options{Lang: "ru"})
			if err := render.Render(&out, d, render.Options{Format: render.Text, Lang: "ru"}); err != nil {
				t.Fatalf("render rollout: %v", err)
			}
		}
	}
	return out.Bytes()
}

// FuzzSimulate runs the simulator on fuzzed objects that pass validation,
// so that crashes past the validator are found (an IPv6 podCIDR used to
// panic in the kubelet). Seeds are in testdata/fuzz/FuzzSimulate.
func FuzzSimulate(f *testing.F) {
	f.Add(uint8(3), "25%", "1", "250m", "128Mi", uint16(80), uint16(8080), "", "", uint8(3), false)
	f.Add(uint8(2), "1", "0", "100m", "64Mi", uint16(443), uint16(8443), "10.96.0.10", "10.244.7.0/24", uint8(2), true)
	f.Add(uint8(4), "abc", "25%", "-1", "1Gi", uint16(53), uint16(53), "None", "fd00:10:244:1::/64", uint8(1), true)
	f.Add(uint8(1), "100%", "0", "4", "8Gi", uint16(80), uint16(80), "fd00::1", "10.244.1.0/30", uint8(1), false)
	f.Fuzz(func(t *testing.T, replicas uint8, surge, unavailable, cpu, memory string, port, targetPort uint16, clusterIP, podCIDR string, workers uint8, bare bool) {
		s := scene{replicas: int(replicas % 40), surge: surge, unavailable: unavailable, cpu: cpu, memory: memory,
			image: "nginx:1.27", port: int(port), targetPort: int(targetPort), clusterIP: clusterIP, podCIDR: podCIDR,
			workers: int(workers%6) + 1, bare: bare, service: true, probe: bare}
		simulate(t, s, 1)
	})
}

// TestSimulatorProperty runs random valid manifests within the bounds
// through the whole simulator: no panic, the same bytes for the same seed,
// and memory that stays bounded.
func TestSimulatorProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 17))
	pick := func(vals ...string) string { return vals[rng.IntN(len(vals))] }
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	n := 24
	if testing.Short() {
		n = 8
	}
	start := time.Now()
	for i := 0; i < n; i++ {
		s := scene{
			replicas: rng.IntN(25), surge: pick("25%", "1", "0", "50%", "100%"), unavailable: pick("25%", "1", "0", "10%"),
			cpu: pick("10m", "250m", "1", "3500m"), memory: pick("16Mi", "128Mi", "2Gi"), image: pick("nginx:1.27", "redis:7"),
			port: 80, targetPort: 8080 + rng.IntN(10), workers: 1 + rng.IntN(5),
			bare: rng.IntN(3) == 0, service: rng.IntN(4) != 0, probe: rng.IntN(2) == 0,
		}
		if rng.IntN(3) == 0 {
			s.podCIDR = fmt.Sprintf("10.%d.%d.0/24", 100+rng.IntN(100), rng.IntN(256))
		}
		if s.surge == "0" && s.unavailable == "0" {
			s.unavailable = "1"
		}
		seed := rng.Int64N(1000)
		a, b := simulate(t, s, seed), simulate(t, s, seed)
		if a == nil {
			t.Fatalf("scene %d %+v was refused", i, s)
		}
		if !bytes.Equal(a, b) {
			t.Fatalf("scene %d %+v: two runs with seed %d differ", i, s, seed)
		}
	}
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grown := int64(after.HeapAlloc) - int64(before.HeapAlloc); grown > 64<<20 {
		t.Errorf("heap grew by %d MB over %d runs: something is kept", grown>>20, n)
	}
	t.Logf("%d scenes in %v, peak heap %d MB", n, time.Since(start).Round(time.Millisecond), after.HeapSys>>20)
}
