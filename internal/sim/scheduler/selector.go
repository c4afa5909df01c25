package scheduler

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// DefaultSpreadSelector returns the selector the system default topology
// spreading uses for pod, as upstream's helper.DefaultSelector
// (framework/plugins/helper/spread.go): the merged selectors of the
// Services in the pod's namespace that select it, ANDed with the selector of
// the pod's controlling ReplicaSet, StatefulSet or ReplicationController
// (controllerSelector, nil when it has none). An empty result means the
// defaults do not apply.
func DefaultSpreadSelector(pod *corev1.Pod, services []*corev1.Service, controllerSelector *metav1.LabelSelector) labels.Selector {
	set := labels.Set{}
	podLabels := labels.Set(pod.Labels)
	for _, svc := range services {
		if svc.Namespace != pod.Namespace || svc.Spec.Selector == nil {
			continue
		}
		if labels.SelectorFromSet(svc.Spec.Selector).Matches(podLabels) {
			set = labels.Merge(set, svc.Spec.Selector)
		}
	}
	sel := set.AsSelector()
	if controllerSelector == nil {
		return sel
	}
	other, err := metav1.LabelSelectorAsSelector(controllerSelector)
	if err != nil {
		return sel
	}
	if reqs, ok := other.Requirements(); ok {
		sel = sel.Add(reqs...)
	}
	return sel
}
