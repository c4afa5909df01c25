package controller

// The horizontal-pod-autoscaler controller of kube-controller-manager
// (pkg/controller/podautoscaler/horizontal.go, v1.37): every HPA is synced
// every --horizontal-pod-autoscaler-sync-period (15 s) — its queue re-adds
// each key at that fixed interval after every sync and on every change of
// the HPA (enqueueHPA: AddRateLimited) —, and a sync is reconcileAutoscaler:
// GET the target's scale subresource, list the pods its selector names,
// ask the resource metrics API for their CPU, compute the replicas
// (hpa_replicas.go), stabilize and rate-limit them (hpa_behavior.go), PUT
// the scale when the count changes, and write the status and conditions.
//
// Modelled: Resource metrics with an Utilization target (cpu or memory is
// read the same way; only cpu's readiness rules apply). Left out: Pods,
// Object, External and ContainerResource metrics, AverageValue targets,
// the per-HPA tolerance field (HPAConfigurableTolerance, beta) and the
// controller's own restarts.

import (
	"fmt"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/sim/informer"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// ResourceMetrics is the resource metrics API (metrics.k8s.io, served by
// metrics-server behind kube-apiserver's aggregation layer) as the HPA's
// metrics client reads it: the CPU of the pods a selector names.
type ResourceMetrics interface {
	// PodCPU lists PodMetrics in ns matching sel (GET
	// /apis/metrics.k8s.io/v1beta1/namespaces/ns/pods?labelSelector=…),
	// blocking p until the answer comes.
	PodCPU(p *engine.Proc, ns string, sel labels.Selector) map[string]PodMetric
}

// HPASync is one sync of one HPA, for the story's table.
type HPASync struct {
	At               time.Duration
	Current, Desired int32
	Target           int32
	Proposal         ReplicaProposal
	Norm             Normalized
	Err              string
	Reason           string // the rescale reason, "" when none
	Rescaled         bool
}

// HPA is the horizontal-pod-autoscaler controller.
type HPA struct {
	c         *apiserver.Client
	eng       *engine.Engine
	rec       *trace.Recorder
	hpas      *informer.Informer[*autoscalingv2.HorizontalPodAutoscaler]
	pods      *informer.Informer[*corev1.Pod]
	queue     *workQueue
	memory    map[string]*hpaMemory
	informers *informer.Factory
	// Metrics is the resource metrics API the controller reads.
	Metrics ResourceMetrics
	// History is every HPA's syncs, by namespace/name.
	History map[string][]HPASync
}

// NewHPA builds the controller on its client; Start opens its watches.
func NewHPA(f *informer.Factory, c *apiserver.Client, eng *engine.Engine, rec *trace.Recorder, m ResourceMetrics) *HPA {
	f, own := informer.Or(f, c)
	h := &HPA{c: c, eng: eng, rec: rec, informers: own, Metrics: m,
		hpas:   informer.For[*autoscalingv2.HorizontalPodAutoscaler](f, "horizontalpodautoscalers"),
		pods:   informer.For[*corev1.Pod](f, "pods"),
		memory: map[string]*hpaMemory{}, History: map[string][]HPASync{}}
	h.queue = newWorkQueue(eng, h.sync)
	h.hpas.AddEventHandlerFor(c.Actor, func(ev informer.Event[*autoscalingv2.HorizontalPodAutoscaler]) {
		key := ev.Obj.Namespace + "/" + ev.Obj.Name
		if ev.Deleted() {
			delete(h.memory, key)
			return
		}
		if ev.Old == nil {
			h.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: c.Actor, Kind: "controller.observe",
				Object: apiserver.ObjectRef(ev.Obj), Fields: trace.F("kind", "HorizontalPodAutoscaler", "rev", ev.Rev)})
		}
		// enqueueHPA: AddRateLimited with the fixed sync-period limiter; a
		// key already waiting is not added again.
		h.queue.addAfterQuietly(key, HPASyncPeriod)
	})
	return h
}

// Name is the controller's client name.
func (h *HPA) Name() string { return h.c.Actor }

// Start opens the controller's own watches; on shared informers
// kube-controller-manager opens them.
func (h *HPA) Start() { h.informers.Start() }

// scaleTarget is the resource of a scaleTargetRef kind the simulator scales.
func scaleTarget(kind string) (apiserver.Resource, bool) {
	switch kind {
	case "Deployment":
		return apiserver.ResourceOf(&appsv1.Deployment{}), true
	case "ReplicaSet":
		return apiserver.ResourceOf(&appsv1.ReplicaSet{}), true
	case "StatefulSet":
		return apiserver.ResourceOf(&appsv1.StatefulSet{}), true
	}
	return apiserver.Resource{}, false
}

// sync is reconcileKey → reconcileAutoscaler. Whatever happens, the key
// comes back one sync period later (processNextWorkItem: AddRateLimited).
func (h *HPA) sync(p *engine.Proc, key string) error {
	ns, name, _ := strings.Cut(key, "/")
	cached, ok := h.hpas.Get(ns, name)
	if !ok {
		delete(h.memory, key)
		return nil
	}
	defer h.queue.addAfterQuietly(key, HPASyncPeriod)
	hpa := cached.DeepCopy()
	orig := hpa.Status.DeepCopy()
	mem := h.memory[key]
	if mem == nil {
		mem = &hpaMemory{}
		h.memory[key] = mem
	}
	row := HPASync{At: h.eng.Now()}
	ref := hpa.Spec.ScaleTargetRef
	res, ok := scaleTarget(ref.Kind)
	if !ok {
		h.failed(p, hpa, orig, &row, "FailedGetScale", fmt.Sprintf("no scale subresource for %s %q in the simulator", ref.Kind, ref.Name))
		return nil
	}
	got, st := h.c.In(p).GetScale(res, ns, ref.Name)
	if st != nil {
		h.failed(p, hpa, orig, &row, "FailedGetScale", st.Message)
		return nil
	}
	scale := got.(*autoscalingv1.Scale)
	h.setCondition(hpa, autoscalingv2.AbleToScale, corev1.ConditionTrue, "SucceededGetScale", "the HPA controller was able to get the target's current scale")
	current := scale.Spec.Replicas
	row.Current = current
	desired, metricStatus, err := h.desiredReplicas(p, hpa, scale, mem, &row)
	if err != nil {
		h.failed(p, hpa, orig, &row, "FailedComputeMetricsReplicas", err.Error())
		return nil
	}
	row.Desired = desired
	if desired == current {
		h.finish(p, hpa, orig, row, current, current, metricStatus, false)
		return nil
	}
	h.rescale(p, hpa, orig, res, scale, mem, row, metricStatus)
	return nil
}

// desiredReplicas is reconcileAutoscaler's choice of a count: none while
// the target is scaled to zero, the bound when the current count is out
// of [min, max], otherwise computeReplicasForMetrics followed by
// normalizeDesiredReplicasWithBehaviors (hpa_behavior.go).
func (h *HPA) desiredReplicas(p *engine.Proc, hpa *autoscalingv2.HorizontalPodAutoscaler, scale *autoscalingv1.Scale, mem *hpaMemory, row *HPASync) (int32, []autoscalingv2.MetricStatus, error) {
	current := scale.Spec.Replicas
	minR := int32(1)
	if hpa.Spec.MinReplicas != nil {
		minR = *hpa.Spec.MinReplicas
	}
	switch {
	case current == 0 && minR != 0:
		h.setCondition(hpa, autoscalingv2.ScalingActive, corev1.ConditionFalse, "ScalingDisabled", "scaling is disabled since the replica count of the target is zero")
		return 0, nil, nil
	case current > hpa.Spec.MaxReplicas:
		row.Reason = "Current number of replicas above Spec.MaxReplicas"
		return hpa.Spec.MaxReplicas, nil, nil
	case current < minR:
		row.Reason = "Current number of replicas below Spec.MinReplicas"
		return minR, nil, nil
	}
	proposal, metricName, status, err := h.computeReplicas(p, hpa, scale, row)
	if err != nil {
		return 0, nil, err
	}
	row.Proposal = proposal
	if proposal.Replicas > current {
		row.Reason = metricName + " above target"
	}
	if proposal.Replicas < current {
		row.Reason = "All metrics below target"
	}
	row.Norm = mem.normalize(hpa.Spec.Behavior, minR, hpa.Spec.MaxReplicas, current, proposal.Replicas, h.eng.Now())
	h.setCondition(hpa, autoscalingv2.AbleToScale, corev1.ConditionTrue, row.Norm.StableReason, row.Norm.StableMessage)
	limited := corev1.ConditionFalse
	if row.Norm.Limited {
		limited = corev1.ConditionTrue
	}
	h.setCondition(hpa, autoscalingv2.ScalingLimited, limited, row.Norm.LimitReason, row.Norm.LimitMessage)
	row.Desired = row.Norm.Desired
	h.record(hpa, *row)
	return row.Norm.Desired, status, nil
}

// rescale is reconcileAutoscaler's PUT of the scale subresource when the
// count changes, with its event and AbleToScale condition either way.
func (h *HPA) rescale(p *engine.Proc, hpa *autoscalingv2.HorizontalPodAutoscaler, orig *autoscalingv2.HorizontalPodAutoscalerStatus, res apiserver.Resource, scale *autoscalingv1.Scale, mem *hpaMemory, row HPASync, metricStatus []autoscalingv2.MetricStatus) {
	ref := hpa.Spec.ScaleTargetRef
	current, desired := row.Current, row.Desired
	h.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: h.c.Actor, Kind: "hpa.scale", Object: "horizontalpodautoscalers/" + hpa.Namespace + "/" + hpa.Name,
		Fields: trace.F("path", apiserver.Path(res, hpa.Namespace, ref.Name)+"/scale", "target", strings.ToLower(ref.Kind)+"/"+ref.Name, "from", current, "to", desired, "reason", row.Reason)})
	if _, st := h.c.In(p).UpdateScale(res, hpa.Namespace, ref.Name, scale.ResourceVersion, desired); st != nil {
		h.c.Event(trace.PhaseController, hpa, corev1.EventTypeWarning, "FailedRescale", fmt.Sprintf("New size: %d; reason: %s; error: %v", desired, row.Reason, st.Message))
		h.setCondition(hpa, autoscalingv2.AbleToScale, corev1.ConditionFalse, "FailedUpdateScale", "the HPA controller was unable to update the target scale: "+st.Message)
		row.Err = st.Message
		h.finish(p, hpa, orig, row, current, current, metricStatus, false)
		return
	}
	h.setCondition(hpa, autoscalingv2.AbleToScale, corev1.ConditionTrue, "SucceededRescale", fmt.Sprintf("the HPA controller was able to update the target scale to %d", desired))
	h.c.Event(trace.PhaseController, hpa, corev1.EventTypeNormal, "SuccessfulRescale", fmt.Sprintf("New size: %d; reason: %s", desired, row.Reason))
	mem.store(hpa.Spec.Behavior, current, desired, h.eng.Now())
	row.Rescaled = true
	h.finish(p, hpa, orig, row, current, desired, metricStatus, true)
}

// computeReplicas is computeReplicasForMetrics for the HPA's first metric,
// a Resource metric with an Utilization target.
func (h *HPA) computeReplicas(p *engine.Proc, hpa *autoscalingv2.HorizontalPodAutoscaler, scale *autoscalingv1.Scale, row *HPASync) (ReplicaProposal, string, []autoscalingv2.MetricStatus, error) {
	var spec *autoscalingv2.MetricSpec
	if len(hpa.Spec.Metrics) > 0 {
		spec = &hpa.Spec.Metrics[0]
	}
	if spec == nil || spec.Type != autoscalingv2.ResourceMetricSourceType || spec.Resource == nil ||
		spec.Resource.Target.Type != autoscalingv2.UtilizationMetricType || spec.Resource.Target.AverageUtilization == nil {
		return ReplicaProposal{}, "", nil, fmt.Errorf("invalid metrics (1 invalid out of 1), first error is: the simulator models only Resource metrics with an averageUtilization target")
	}
	resName := spec.Resource.Name
	target := *spec.Resource.Target.AverageUtilization
	row.Target = target
	metricName := fmt.Sprintf("%s resource utilization (percentage of request)", resName)
	sel, err := labels.Parse(scale.Status.Selector)
	if err != nil || scale.Status.Selector == "" {
		// reconcileAutoscaler: "selector is required" / "couldn't convert selector".
		h.setCondition(hpa, autoscalingv2.ScalingActive, corev1.ConditionFalse, "InvalidSelector", "the HPA target's scale is missing a selector")
		return ReplicaProposal{}, "", nil, fmt.Errorf("selector is required")
	}
	var pods []*corev1.Pod
	for _, pod := range h.pods.ByNamespace(hpa.Namespace) {
		if sel.Matches(labels.Set(pod.Labels)) {
			pods = append(pods, pod)
		}
	}
	metrics := h.Metrics.PodCPU(p, hpa.Namespace, sel)
	h.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: h.c.Actor, To: "metrics-server", Kind: "hpa.metrics", Verbose: true,
		Object: "horizontalpodautoscalers/" + hpa.Namespace + "/" + hpa.Name,
		Fields: trace.F("path", "/apis/metrics.k8s.io/v1beta1/namespaces/"+hpa.Namespace+"/pods?labelSelector="+sel.String(), "count", len(metrics), "pods", len(pods))})
	prop, err := ResourceReplicas(scale.Spec.Replicas, target, pods, metrics, h.eng.Now())
	if err != nil {
		// computeStatusForResourceMetric: the event and condition carry
		// "failed to get cpu utilization: …".
		msg := fmt.Sprintf("failed to get %s utilization: %v", resName, err)
		h.c.Event(trace.PhaseController, hpa, corev1.EventTypeWarning, "FailedGetResourceMetric", msg)
		h.setCondition(hpa, autoscalingv2.ScalingActive, corev1.ConditionFalse, "FailedGetResourceMetric", "the HPA was unable to compute the replica count: "+msg)
		return prop, "", nil, fmt.Errorf("invalid metrics (1 invalid out of 1), first error is: failed to get %s resource metric value: %s", resName, msg)
	}
	h.setCondition(hpa, autoscalingv2.ScalingActive, corev1.ConditionTrue, "ValidMetricFound", "the HPA was able to successfully calculate a replica count from "+metricName)
	var sum, n int64
	for _, m := range metrics {
		sum += m.Value
		n++
	}
	avg := int64(0)
	if n > 0 {
		avg = sum / n
	}
	util := prop.Utilization
	status := []autoscalingv2.MetricStatus{{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricStatus{
		Name: resName, Current: autoscalingv2.MetricValueStatus{AverageUtilization: &util, AverageValue: resource.NewMilliQuantity(avg, resource.DecimalSI)}}}}
	return prop, metricName, status, nil
}

// failed ends a sync that could not compute: the Warning event upstream
// records for the step that failed, the status written, the row kept.
func (h *HPA) failed(p *engine.Proc, hpa *autoscalingv2.HorizontalPodAutoscaler, orig *autoscalingv2.HorizontalPodAutoscalerStatus, row *HPASync, reason, msg string) {
	if reason == "FailedGetScale" {
		h.c.Event(trace.PhaseController, hpa, corev1.EventTypeWarning, reason, msg)
		h.setCondition(hpa, autoscalingv2.AbleToScale, corev1.ConditionFalse, reason, "the HPA controller was unable to get the target's current scale: "+msg)
	} else {
		h.c.Event(trace.PhaseController, hpa, corev1.EventTypeWarning, reason, msg)
	}
	row.Err = msg
	h.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: h.c.Actor, Kind: "hpa.failed",
		Object: "horizontalpodautoscalers/" + hpa.Namespace + "/" + hpa.Name, Fields: trace.F("reason", reason, "message", msg)})
	h.finish(p, hpa, orig, *row, row.Current, hpa.Status.DesiredReplicas, hpa.Status.CurrentMetrics, false)
}

// finish records the sync and writes the status when it changed (setStatus,
// updateStatusIfNeeded: PUT …/status only on a difference).
func (h *HPA) finish(p *engine.Proc, hpa *autoscalingv2.HorizontalPodAutoscaler, orig *autoscalingv2.HorizontalPodAutoscalerStatus, row HPASync, current, desired int32, metrics []autoscalingv2.MetricStatus, rescale bool) {
	key := hpa.Namespace + "/" + hpa.Name
	h.History[key] = append(h.History[key], row)
	hpa.Status.CurrentReplicas, hpa.Status.DesiredReplicas = current, desired
	if metrics != nil {
		hpa.Status.CurrentMetrics = metrics
	}
	if rescale {
		t := apiserver.TimeAt(h.eng.Now())
		hpa.Status.LastScaleTime = &t
	}
	if equality.Semantic.DeepEqual(orig, &hpa.Status) {
		return
	}
	h.c.In(p).UpdateStatus(hpa)
}

// record puts the sync's arithmetic into the trace: the computation, then
// what the windows and policies did with it. A sync that changes nothing
// the previous one did not show is a -v step.
func (h *HPA) record(hpa *autoscalingv2.HorizontalPodAutoscaler, row HPASync) {
	key := hpa.Namespace + "/" + hpa.Name
	obj := "horizontalpodautoscalers/" + key
	quiet := false
	if hist := h.History[key]; len(hist) > 0 {
		prev := hist[len(hist)-1]
		quiet = prev.Err == "" && prev.Current == row.Current && prev.Proposal.Replicas == row.Proposal.Replicas &&
			prev.Norm.Desired == row.Norm.Desired && prev.Proposal.Utilization == row.Proposal.Utilization && row.Norm.Desired == row.Current
	}
	pr := row.Proposal
	switch {
	case row.Target == 0:
		// Out of range of min/max: no metrics were read.
		return
	case pr.Rebalanced:
		h.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: h.c.Actor, Kind: "hpa.rebalance", Object: obj, Verbose: quiet,
			Fields: trace.F("current", row.Current, "util", pr.Utilization, "target", row.Target, "ratio", trace.Fixed{V: pr.Ratio, Prec: 2},
				"ready", pr.Ready, "unready", pr.Unready, "missing", pr.Missing, "newratio", trace.Fixed{V: pr.NewRatio, Prec: 2},
				"counted", pr.Counted, "proposed", pr.Replicas)})
	case pr.WithinTolerance:
		h.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: h.c.Actor, Kind: "hpa.tolerance", Object: obj, Verbose: quiet,
			Fields: trace.F("current", row.Current, "util", pr.Utilization, "target", row.Target, "ratio", trace.Fixed{V: pr.Ratio, Prec: 2})})
	default:
		h.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: h.c.Actor, Kind: "hpa.sync", Object: obj, Verbose: quiet,
			Fields: trace.F("current", row.Current, "util", pr.Utilization, "target", row.Target, "ratio", trace.Fixed{V: pr.Ratio, Prec: 2},
				"ready", pr.Ready, "proposed", pr.Replicas)})
	}
	n := row.Norm
	if n.StableReason != "ReadyForNewScale" {
		h.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: h.c.Actor, Kind: "hpa.stabilized", Object: obj, Verbose: quiet,
			Fields: trace.F("reason", n.StableReason, "window", n.Window, "proposed", pr.Replicas, "stabilized", n.Stabilized)})
	}
	if n.Limited {
		h.rec.Add(trace.Step{Phase: trace.PhaseController, Actor: h.c.Actor, Kind: "hpa.limited", Object: obj, Verbose: quiet,
			Fields: trace.F("reason", n.LimitReason, "message", n.LimitMessage, "wanted", n.Stabilized, "desired", n.Desired)})
	}
}

// setCondition is setConditionInList: the transition time moves only when
// the status changes.
func (h *HPA) setCondition(hpa *autoscalingv2.HorizontalPodAutoscaler, typ autoscalingv2.HorizontalPodAutoscalerConditionType, status corev1.ConditionStatus, reason, msg string) {
	conds := hpa.Status.Conditions
	i := 0
	for ; i < len(conds); i++ {
		if conds[i].Type == typ {
			break
		}
	}
	if i == len(conds) {
		hpa.Status.Conditions = append(hpa.Status.Conditions, autoscalingv2.HorizontalPodAutoscalerCondition{Type: typ})
		conds = hpa.Status.Conditions
	}
	c := &conds[i]
	if c.Status != status {
		c.LastTransitionTime = metav1.Time(apiserver.TimeAt(h.eng.Now()))
	}
	c.Status, c.Reason, c.Message = status, reason, msg
}

// HPAHistory is the syncs of the HPA key ("namespace/name").
func (h *HPA) HPAHistory(key string) []HPASync { return h.History[key] }
