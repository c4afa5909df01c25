package sim

// metrics-server, the add-on behind the resource metrics API
// (metrics.k8s.io/v1beta1, aggregated by kube-apiserver) that the HPA
// controller reads. The real one scrapes every kubelet's /metrics/resource
// every --metric-resolution (15 s by default), turns the cumulative CPU
// counters of two scrapes into a rate over their window, and serves the
// latest PodMetrics from memory (kubernetes-sigs/metrics-server
// pkg/scraper, pkg/storage/pod.go: a pod appears only once it has two
// samples). Modelled here: the scrape period, the two-sample rule, the
// window and timestamp. The usage itself comes from the load the story
// sets (CPULoad): the demand is spread evenly over the Ready pods the load
// selects — the Service sends them the traffic — and capped at each pod's
// CPU limit, as CFS throttling caps it; a pod that is not Ready gets none,
// and every other running pod idles at 1m.

import (
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/controller"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/sim/informer"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// MetricResolution is metrics-server's --metric-resolution default.
const MetricResolution = 15 * time.Second

// idleCPU is what a running pod without load uses, in millicores.
const idleCPU = 1

// CPULoad is the CPU demand on the pods a selector names: Demand(t) is
// the total in millicores at virtual time t.
type CPULoad struct {
	Namespace string
	Selector  labels.Selector
	Demand    func(now time.Duration) int64
}

type metricsServer struct {
	c      *apiserver.Client
	eng    *engine.Engine
	rec    *trace.Recorder
	pods   *informer.Informer[*corev1.Pod]
	load   *CPULoad
	seen   map[string]bool // pods in the previous scrape
	latest map[string]controller.PodMetric
}

func newMetricsServer(c *apiserver.Client, eng *engine.Engine, rec *trace.Recorder) *metricsServer {
	return &metricsServer{c: c, eng: eng, rec: rec, pods: informer.New[*corev1.Pod]("pods"),
		seen: map[string]bool{}, latest: map[string]controller.PodMetric{}}
}

func (m *metricsServer) Name() string { return m.c.Actor }

// Start opens the pod watch and the scrape ticker (a background timer: it
// does not keep a run alive).
func (m *metricsServer) Start() {
	m.pods.Run(m.c)
	m.eng.Background(MetricResolution, m.scrape)
}

func ready(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// scrape is one round over the kubelets: every running pod's usage now.
func (m *metricsServer) scrape() {
	defer m.eng.Background(MetricResolution, m.scrape)
	now := m.eng.Now()
	running := map[string]*corev1.Pod{}
	for _, p := range m.pods.List() {
		if p.Status.Phase == corev1.PodRunning && p.DeletionTimestamp == nil {
			running[p.Namespace+"/"+p.Name] = p
		}
	}
	share := int64(0)
	if l := m.load; l != nil {
		n := int64(0)
		for _, p := range running {
			if p.Namespace == l.Namespace && l.Selector.Matches(labels.Set(p.Labels)) && ready(p) {
				n++
			}
		}
		if n > 0 {
			share = l.Demand(now) / n
		}
	}
	latest := map[string]controller.PodMetric{}
	for key, p := range running {
		if !m.seen[key] {
			continue // one sample: no rate yet
		}
		use := int64(idleCPU)
		if l := m.load; l != nil && p.Namespace == l.Namespace && l.Selector.Matches(labels.Set(p.Labels)) {
			use = 0
			if ready(p) {
				use = share
				if lim := cpuLimit(p); lim > 0 {
					use = min(use, lim)
				}
			}
		}
		latest[key] = controller.PodMetric{Value: use, Timestamp: now, Window: MetricResolution}
	}
	m.seen = map[string]bool{}
	for key := range running {
		m.seen[key] = true
	}
	m.latest = latest
	m.rec.Add(trace.Step{Phase: trace.PhaseReady, Actor: m.c.Actor, Kind: "metrics.scrape", Verbose: true,
		Fields: trace.F("pods", len(latest), "running", len(running), "window", MetricResolution)})
}

func cpuLimit(p *corev1.Pod) int64 {
	var sum int64
	for _, c := range p.Spec.Containers {
		q, ok := c.Resources.Limits[corev1.ResourceCPU]
		if !ok {
			return 0
		}
		sum += q.MilliValue()
	}
	return sum
}

// PodCPU serves the HPA's list of PodMetrics: the request goes to
// kube-apiserver, which proxies it to metrics-server (two request
// latencies), and the answer is the latest scrape.
func (m *metricsServer) PodCPU(p *engine.Proc, ns string, sel labels.Selector) map[string]controller.PodMetric {
	p.Sleep(2 * apiserver.RequestLatency)
	out := map[string]controller.PodMetric{}
	for _, pod := range m.pods.ByNamespace(ns) {
		if !sel.Matches(labels.Set(pod.Labels)) {
			continue
		}
		if v, ok := m.latest[ns+"/"+pod.Name]; ok {
			out[pod.Name] = v
		}
	}
	return out
}
