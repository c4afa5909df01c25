package story

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim"
	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/controller"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// LoadCurve is the CPU demand of an autoscale story over time: Percent[i]
// holds from i × Every after the story starts, the last one to the end.
// A percentage is of the starting replicas' summed CPU requests: 150 %
// on 3 pods requesting 250m is 1125m, whatever the replica count becomes.
type LoadCurve struct {
	Percent []int
	Every   time.Duration
}

// ParseLoadCurve reads "20%,90%,150%,40%" (the % optional).
func ParseLoadCurve(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		n, err := strconv.Atoi(strings.TrimSuffix(f, "%"))
		if err != nil || n < 0 || n > 10000 {
			return nil, fmt.Errorf("load %q: want a percentage from 0%% to 10000%%, e.g. 150%%", f)
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("empty load curve")
	}
	return out, nil
}

// At is the percentage in force d after the story began.
func (l LoadCurve) At(d time.Duration) int {
	i := 0
	if l.Every > 0 && d > 0 {
		i = int(d / l.Every)
	}
	return l.Percent[min(i, len(l.Percent)-1)]
}

// Horizon is how long an autoscale story runs: through the curve, and
// after its last change long enough for the scale-down stabilization
// window (5 min) to pass and the scaled pods to settle.
func (l LoadCurve) Horizon() time.Duration {
	last := time.Duration(len(l.Percent)-1) * l.Every
	return last + max(l.Every, controller.HPADownscaleStabilization+90*time.Second)
}

// NewHPA is the HorizontalPodAutoscaler `kubectl autoscale deployment
// NAME --min=MIN --max=MAX --cpu=TARGET%` creates (autoscaling/v2, a cpu
// Utilization target; k8s.io/kubectl pkg/cmd/autoscale).
func NewHPA(dep *appsv1.Deployment, minR, maxR, target int32) *autoscalingv2.HorizontalPodAutoscaler {
	h := &autoscalingv2.HorizontalPodAutoscaler{}
	h.APIVersion, h.Kind = "autoscaling/v2", "HorizontalPodAutoscaler"
	h.Name, h.Namespace = dep.Name, dep.Namespace
	h.Spec.ScaleTargetRef = autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: dep.Name}
	h.Spec.MinReplicas = &minR
	h.Spec.MaxReplicas = maxR
	h.Spec.Metrics = []autoscalingv2.MetricSpec{{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{
		Name: corev1.ResourceCPU, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: &target}}}}
	return h
}

// ApplyLoad puts the load curve on the Deployment's pods (through
// metrics-server, Config.Autoscaling) and records each change of load.
func (c *Scene) ApplyLoad(dep *appsv1.Deployment, curve LoadCurve) error {
	sel, err := metav1.LabelSelectorAsSelector(dep.Spec.Selector)
	if err != nil {
		return err
	}
	replicas := int64(1)
	if dep.Spec.Replicas != nil {
		replicas = int64(*dep.Spec.Replicas)
	}
	var per int64
	for _, ctr := range dep.Spec.Template.Spec.Containers {
		if q, ok := ctr.Resources.Requests[corev1.ResourceCPU]; ok {
			per += q.MilliValue()
		}
	}
	base := replicas * per
	start := c.Now()
	c.curve, c.curveBase = curve, base
	c.SetCPULoad(sim.CPULoad{Namespace: dep.Namespace, Selector: sel, Demand: func(now time.Duration) int64 {
		return int64(curve.At(now-start)) * base / 100
	}})
	obj := apiserver.ObjectRef(dep)
	for i, pct := range curve.Percent {
		at := time.Duration(i) * curve.Every
		if i > 0 && pct == curve.Percent[i-1] {
			continue
		}
		step := trace.Step{Phase: trace.PhaseReady, Actor: "clients", Kind: "story.load", Object: obj,
			Fields: trace.F("percent", pct, "demand", fmt.Sprintf("%dm", int64(pct)*base/100), "replicas", replicas, "request", fmt.Sprintf("%dm", per))}
		if i == 0 {
			c.Recorder().Add(step)
			continue
		}
		c.Engine().Background(at, func() { c.Recorder().Add(step) })
	}
	return nil
}

// AutoscaleTable is the HPA's syncs since the story began: the load, the
// replicas, the utilization metrics-server reported, the proposal and
// what the stabilization window and the policies made of it.
func (c *Scene) AutoscaleTable(ns, name string) trace.KeyedTable {
	t := trace.KeyedTable{Title: "hpa.title", Durations: []bool{true}, Decimals: []bool{5: true},
		Header: []string{"hpa.at", "hpa.load", "hpa.replicas", "hpa.ready", "hpa.util", "hpa.ratio", "hpa.proposed", "hpa.stabilized", "hpa.desired", "hpa.note"}}
	start := c.StoryStart()
	for _, r := range c.HPAHistory(ns, name) {
		if r.At < start {
			continue
		}
		at := (r.At - start).Truncate(time.Second)
		load := fmt.Sprintf("%d%%", c.curve.At(r.At-start))
		if r.Err != "" {
			t.Rows = append(t.Rows, []string{at.String(), load, fmt.Sprint(r.Current), "", "", "", "", "", fmt.Sprint(r.Current), "hpa.note.failed"})
			continue
		}
		if r.Target == 0 {
			t.Rows = append(t.Rows, []string{at.String(), load, fmt.Sprint(r.Current), "", "", "", "", "", fmt.Sprint(r.Desired), r.Reason})
			continue
		}
		p, n := r.Proposal, r.Norm
		note := ""
		switch {
		case n.Limited:
			note = n.LimitReason
		case n.StableReason != "ReadyForNewScale":
			note = n.StableReason
		case p.WithinTolerance:
			note = "hpa.note.tolerance"
		case p.Reversed:
			note = "hpa.note.reversed"
		}
		ready := fmt.Sprint(p.Ready)
		if p.Unready+p.Missing > 0 {
			ready = fmt.Sprintf("%d (+%d)", p.Ready, p.Unready+p.Missing)
		}
		t.Rows = append(t.Rows, []string{at.String(), load, fmt.Sprint(r.Current), ready, fmt.Sprintf("%d%%", p.Utilization),
			strconv.FormatFloat(p.Ratio, 'f', 2, 64), fmt.Sprint(p.Replicas), fmt.Sprint(n.Stabilized), fmt.Sprint(r.Desired), note})
	}
	return t
}
