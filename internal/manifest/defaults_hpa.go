package manifest

import (
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
)

// HPA behavior defaults, pkg/apis/autoscaling/v2/defaults.go (v1.37):
// scale-up without a stabilization window, Max of 100 % or 4 pods per
// 15 s; scale-down Max of 100 % per 15 s with the window left nil (the
// controller then uses --horizontal-pod-autoscaler-downscale-stabilization,
// 300 s: horizontal.go maybeInitScaleDownStabilizationWindow).
const (
	DefaultHPACPUUtilization = 80
	hpaScaleUpPods           = 4
	hpaScalePercent          = 100
	hpaPolicyPeriodSeconds   = 15
)

// hpa follows autoscaling/v2 defaults.go SetDefaults_HorizontalPodAutoscaler
// and SetDefaults_HorizontalPodAutoscalerBehavior.
func (d *defaulter) hpa(o *autoscalingv2.HorizontalPodAutoscaler) {
	d.int32p(&o.Spec.MinReplicas, 1, "spec.minReplicas")
	if len(o.Spec.Metrics) == 0 {
		u := int32(DefaultHPACPUUtilization)
		o.Spec.Metrics = []autoscalingv2.MetricSpec{{Type: autoscalingv2.ResourceMetricSourceType,
			Resource: &autoscalingv2.ResourceMetricSource{Name: corev1.ResourceCPU,
				Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: &u}}}}
		d.note("spec.metrics", "cpu averageUtilization 80")
	}
	if o.Spec.Behavior == nil {
		o.Spec.Behavior = &autoscalingv2.HorizontalPodAutoscalerBehavior{}
	}
	b := o.Spec.Behavior
	maxPolicy := autoscalingv2.MaxChangePolicySelect
	if b.ScaleUp == nil {
		zero := int32(0)
		b.ScaleUp = &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: &zero}
		d.note("spec.behavior.scaleUp.stabilizationWindowSeconds", "0")
	}
	if b.ScaleUp.SelectPolicy == nil {
		b.ScaleUp.SelectPolicy = &maxPolicy
		d.note("spec.behavior.scaleUp.selectPolicy", string(maxPolicy))
	}
	if len(b.ScaleUp.Policies) == 0 {
		b.ScaleUp.Policies = []autoscalingv2.HPAScalingPolicy{
			{Type: autoscalingv2.PodsScalingPolicy, Value: hpaScaleUpPods, PeriodSeconds: hpaPolicyPeriodSeconds},
			{Type: autoscalingv2.PercentScalingPolicy, Value: hpaScalePercent, PeriodSeconds: hpaPolicyPeriodSeconds},
		}
		d.note("spec.behavior.scaleUp.policies", "Pods 4/15s, Percent 100/15s")
	}
	if b.ScaleDown == nil {
		b.ScaleDown = &autoscalingv2.HPAScalingRules{}
	}
	if b.ScaleDown.SelectPolicy == nil {
		b.ScaleDown.SelectPolicy = &maxPolicy
		d.note("spec.behavior.scaleDown.selectPolicy", string(maxPolicy))
	}
	if len(b.ScaleDown.Policies) == 0 {
		b.ScaleDown.Policies = []autoscalingv2.HPAScalingPolicy{
			{Type: autoscalingv2.PercentScalingPolicy, Value: hpaScalePercent, PeriodSeconds: hpaPolicyPeriodSeconds},
		}
		d.note("spec.behavior.scaleDown.policies", "Percent 100/15s")
	}
}
