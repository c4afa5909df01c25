package controller

// The HPA's replica calculator for a Resource metric with an Utilization
// target (pkg/controller/podautoscaler/replica_calculator.go
// GetResourceReplicas, groupPods, calculatePodRequests; metrics/utilization.go
// GetResourceUtilizationRatio; v1.37). Pure: the pods, their metrics and the
// clock come in, the proposal goes out with every number the trace shows.

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	corev1 "k8s.io/api/core/v1"
)

// HPA timing and tolerance defaults of kube-controller-manager v1.37
// (cmd/kube-controller-manager/app/options/hpacontroller.go):
// --horizontal-pod-autoscaler-sync-period 15s, -tolerance 0.1,
// -cpu-initialization-period 5m, -initial-readiness-delay 30s,
// -downscale-stabilization 5m.
const (
	HPASyncPeriod              = 15 * time.Second
	HPATolerance               = 0.1
	HPACPUInitializationPeriod = 5 * time.Minute
	HPAInitialReadinessDelay   = 30 * time.Second
	HPADownscaleStabilization  = 5 * time.Minute
)

// PodMetric is one pod's CPU usage as the resource metrics API reports it:
// millicores averaged over Window, measured at Timestamp (virtual time).
type PodMetric struct {
	Value     int64
	Timestamp time.Duration
	Window    time.Duration
}

// ReplicaProposal is GetResourceReplicas' answer and how it got there.
type ReplicaProposal struct {
	Replicas int32
	// Utilization is the average over the pods counted, percent of
	// request (integer, as upstream); Ratio is Utilization / target.
	Utilization int32
	Ratio       float64
	// Ready pods had a usable metric; Unready pods were not Ready (or
	// too young, see groupPods); Missing pods had no metric; Ignored pods
	// were being deleted or had failed.
	Ready, Unready, Missing, Ignored int
	// Rebalanced is set when unready or missing pods were filled in
	// (0 % on a scale-up, 100 % of request on a scale-down) and the ratio
	// computed again: NewRatio over Counted pods.
	Rebalanced bool
	NewRatio   float64
	Counted    int
	// WithinTolerance: |1 − ratio| ≤ 0.1, the replicas stay.
	WithinTolerance bool
	// Reversed: filling in unready or missing pods turned the direction
	// round (or would have moved the count the other way), the replicas
	// stay.
	Reversed bool
}

// errNoPods and errNoMetrics are upstream's messages
// (replica_calculator.go GetResourceReplicas).
var (
	errNoPods    = errors.New("no pods returned by selector while calculating replica count")
	errNoMetrics = errors.New("did not receive metrics for targeted pods (pods might be unready)")
)

// ResourceReplicas is GetResourceReplicas for cpu: currentReplicas the
// scale's spec.replicas, target the averageUtilization, now the clock.
func ResourceReplicas(current int32, target int32, pods []*corev1.Pod, metrics map[string]PodMetric, now time.Duration) (ReplicaProposal, error) {
	var p ReplicaProposal
	if len(pods) == 0 {
		return p, errNoPods
	}
	ready, unready, missing, ignored := groupPods(pods, metrics, now)
	p.Ready, p.Unready, p.Missing, p.Ignored = ready, len(unready), len(missing), len(ignored)
	requests, err := podRequests(pods)
	if err != nil {
		return p, err
	}
	counted := withoutPods(metrics, unready, ignored)
	if len(counted) == 0 {
		return p, errNoMetrics
	}
	ratio, util, ok := utilizationRatio(counted, requests, target)
	if !ok {
		return p, errors.New("no metrics returned matched known pods")
	}
	p.Utilization, p.Ratio = util, ratio
	rebalanceUnready := len(unready) > 0 && ratio > 1.0
	if !rebalanceUnready && len(missing) == 0 {
		if math.Abs(1.0-ratio) <= HPATolerance {
			p.Replicas, p.WithinTolerance = current, true
			return p, nil
		}
		p.Replicas = int32(math.Ceil(ratio * float64(ready)))
		return p, nil
	}
	fillIn(counted, requests, ratio, target, missing, unready, rebalanceUnready)
	p.rebalanced(current, ratio, counted, requests, target)
	return p, nil
}

// podRequests is calculatePodRequests for cpu: every container must ask
// for it (upstream's "missing request for cpu in container …").
func podRequests(pods []*corev1.Pod) (map[string]int64, error) {
	requests := make(map[string]int64, len(pods))
	for _, pod := range pods {
		for _, c := range pod.Spec.Containers {
			if _, ok := c.Resources.Requests[corev1.ResourceCPU]; !ok {
				return nil, fmt.Errorf("missing request for cpu in container %s of Pod %s", c.Name, pod.Name)
			}
		}
		requests[pod.Name] = cpuRequest(pod)
	}
	return requests, nil
}

// withoutPods is the metrics' values less the unready and ignored pods
// (removeMetricsForPods, called twice upstream).
func withoutPods(metrics map[string]PodMetric, unready, ignored map[string]bool) map[string]int64 {
	counted := map[string]int64{}
	for name, m := range metrics {
		if !unready[name] && !ignored[name] {
			counted[name] = m.Value
		}
	}
	return counted
}

// fillIn gives the missing pods (and, on a scale-up, the unready ones) the
// usage GetResourceReplicas assumes for them before the ratio is computed
// again.
func fillIn(counted, requests map[string]int64, ratio float64, target int32, missing, unready map[string]bool, rebalanceUnready bool) {
	if len(missing) > 0 {
		switch {
		case ratio < 1.0:
			// On a scale-down a missing pod counts as using 100 % of its
			// request, or the target when that is higher.
			fallback := int64(max(100, target))
			for name := range missing {
				counted[name] = requests[name] * fallback / 100
			}
		case ratio > 1.0:
			for name := range missing {
				counted[name] = 0
			}
		}
	}
	if rebalanceUnready {
		for name := range unready {
			counted[name] = 0
		}
	}
}

// rebalanced is the end of GetResourceReplicas once pods were filled in:
// the new ratio over every counted pod, kept only when it stays outside
// the tolerance and points the same way as the first.
func (p *ReplicaProposal) rebalanced(current int32, ratio float64, counted, requests map[string]int64, target int32) {
	p.Rebalanced = true
	newRatio, _, _ := utilizationRatio(counted, requests, target)
	p.NewRatio, p.Counted = newRatio, len(counted)
	if math.Abs(1.0-newRatio) <= HPATolerance {
		p.Replicas, p.WithinTolerance = current, true
		return
	}
	if (ratio < 1.0 && newRatio > 1.0) || (ratio > 1.0 && newRatio < 1.0) {
		// The filled-in pods would turn the direction round.
		p.Replicas, p.Reversed = current, true
		return
	}
	n := int32(math.Ceil(newRatio * float64(len(counted))))
	if (newRatio < 1.0 && n > current) || (newRatio > 1.0 && n < current) {
		n, p.Reversed = current, true
	}
	p.Replicas = n
}

// groupPods sorts the pods as upstream's groupPods does for cpu: deleted or
// failed pods are ignored; Pending ones are unready; a pod without a metric
// is missing; a pod within the cpu initialization period (5 min since its
// start) is unready while it is not Ready or its metric's window began
// before it became Ready; after that period only a pod that has never
// been Ready (Ready=False and its last transition within 30 s of its
// start) is unready.
func groupPods(pods []*corev1.Pod, metrics map[string]PodMetric, now time.Duration) (ready int, unready, missing, ignored map[string]bool) {
	unready, missing, ignored = map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, pod := range pods {
		if pod.DeletionTimestamp != nil || pod.Status.Phase == corev1.PodFailed {
			ignored[pod.Name] = true
			continue
		}
		if pod.Status.Phase == corev1.PodPending {
			unready[pod.Name] = true
			continue
		}
		m, found := metrics[pod.Name]
		if !found {
			missing[pod.Name] = true
			continue
		}
		var cond *corev1.PodCondition
		for i := range pod.Status.Conditions {
			if pod.Status.Conditions[i].Type == corev1.PodReady {
				cond = &pod.Status.Conditions[i]
			}
		}
		isUnready := false
		if cond == nil || pod.Status.StartTime == nil {
			isUnready = true
		} else {
			start := virtual(pod.Status.StartTime.Time)
			changed := virtual(cond.LastTransitionTime.Time)
			if start+HPACPUInitializationPeriod > now {
				isUnready = cond.Status == corev1.ConditionFalse || m.Timestamp < changed+m.Window
			} else {
				isUnready = cond.Status == corev1.ConditionFalse && start+HPAInitialReadinessDelay > changed
			}
		}
		if isUnready {
			unready[pod.Name] = true
			continue
		}
		ready++
	}
	return ready, unready, missing, ignored
}

// utilizationRatio is GetResourceUtilizationRatio: the summed usage over
// the summed requests of the pods that have both, as an integer percent,
// and its ratio to the target.
func utilizationRatio(usage, requests map[string]int64, target int32) (float64, int32, bool) {
	var used, requested int64
	for name, v := range usage {
		req, ok := requests[name]
		if !ok {
			continue
		}
		used += v
		requested += req
	}
	if requested == 0 {
		return 0, 0, false
	}
	util := int32(used * 100 / requested)
	return float64(util) / float64(target), util, true
}

// cpuRequest is the pod's summed container cpu requests in millicores
// (calculatePodRequests; init containers do not count).
func cpuRequest(pod *corev1.Pod) int64 {
	var sum int64
	for _, c := range pod.Spec.Containers {
		if q, ok := c.Resources.Requests[corev1.ResourceCPU]; ok {
			sum += q.MilliValue()
		}
	}
	return sum
}

// virtual is the virtual time of an API timestamp.
func virtual(t time.Time) time.Duration { return t.Sub(apiserver.Epoch) }
