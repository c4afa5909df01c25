package controller

// The HPA's v2 behavior: the stabilization windows over recent
// recommendations, then the scaling policies' rate limits and min/max
// (pkg/controller/podautoscaler/horizontal.go
// normalizeDesiredReplicasWithBehaviors, stabilizeRecommendationWithBehaviors,
// convertDesiredReplicasWithBehaviorRate,
// calculateScaleUpLimitWithScalingRules, calculateScaleDownLimitWithBehaviors,
// getReplicasChangePerPeriod, storeScaleEvent; v1.37).

import (
	"math"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
)

type recommendation struct {
	replicas int32
	at       time.Duration
}

type scaleEvent struct {
	change int32
	at     time.Duration
}

// hpaMemory is what the controller keeps per HPA between syncs, in memory
// as upstream does (a restart of kube-controller-manager forgets it).
type hpaMemory struct {
	recommendations []recommendation
	up, down        []scaleEvent
}

// Normalized is the behavior's verdict on a proposal.
type Normalized struct {
	// Stabilized is the recommendation after the windows; StableReason
	// is ScaleUpStabilized, ScaleDownStabilized or ReadyForNewScale,
	// StableMessage upstream's AbleToScale message.
	Stabilized    int32
	StableReason  string
	StableMessage string
	// Desired is the replica count after the policies and min/max;
	// LimitReason/LimitMessage are the ScalingLimited condition's.
	Desired      int32
	Limited      bool
	LimitReason  string
	LimitMessage string
	// UpLimit and DownLimit are the policies' bounds when they applied.
	UpLimit, DownLimit int32
	// Window is the stabilization window used for the direction taken.
	Window time.Duration
}

func windowOf(r *autoscalingv2.HPAScalingRules, dflt time.Duration) time.Duration {
	if r == nil || r.StabilizationWindowSeconds == nil {
		return dflt
	}
	return time.Duration(*r.StabilizationWindowSeconds) * time.Second
}

// normalize is normalizeDesiredReplicasWithBehaviors.
func (m *hpaMemory) normalize(b *autoscalingv2.HorizontalPodAutoscalerBehavior, minR, maxR, current, proposed int32, now time.Duration) Normalized {
	upWin := windowOf(b.ScaleUp, 0)
	downWin := windowOf(b.ScaleDown, HPADownscaleStabilization)
	var n Normalized
	// stabilizeRecommendationWithBehaviors: the lowest recommendation of
	// the scale-up window bounds from below, the highest of the scale-down
	// window from above; the current count in between is kept.
	upRec, downRec := proposed, proposed
	kept := m.recommendations[:0]
	for _, r := range m.recommendations {
		if r.at > now-upWin {
			upRec = min(upRec, r.replicas)
		}
		if r.at > now-downWin {
			downRec = max(downRec, r.replicas)
		}
		if r.at > now-max(upWin, downWin) {
			kept = append(kept, r)
		}
	}
	m.recommendations = append(kept, recommendation{proposed, now})
	rec := current
	if rec < upRec {
		rec = upRec
	}
	if rec > downRec {
		rec = downRec
	}
	n.Stabilized = rec
	if proposed >= current {
		n.StableReason, n.Window = "ScaleUpStabilized", upWin
		n.StableMessage = "recent recommendations were lower than current one, applying the lowest recent recommendation"
	} else {
		n.StableReason, n.Window = "ScaleDownStabilized", downWin
		n.StableMessage = "recent recommendations were higher than current one, applying the highest recent recommendation"
	}
	if rec == proposed {
		n.StableReason, n.StableMessage = "ReadyForNewScale", "recommended size matches current size"
	}
	n.Desired, n.LimitReason, n.LimitMessage = m.rateLimit(b, minR, maxR, current, rec, now, &n)
	n.Limited = n.Desired != rec
	return n
}

// rateLimit is convertDesiredReplicasWithBehaviorRate.
func (m *hpaMemory) rateLimit(b *autoscalingv2.HorizontalPodAutoscalerBehavior, minR, maxR, current, desired int32, now time.Duration, n *Normalized) (int32, string, string) {
	switch {
	case desired > current:
		limit := max(scaleUpLimit(current, m.up, m.down, b.ScaleUp, now), current)
		n.UpLimit = limit
		allowed, reason, msg := maxR, "TooManyReplicas", "the desired replica count is more than the maximum replica count"
		if allowed > limit {
			allowed, reason, msg = limit, "ScaleUpLimit", "the desired replica count is increasing faster than the maximum scale rate"
		}
		if desired > allowed {
			return allowed, reason, msg
		}
	case desired < current:
		limit := min(scaleDownLimit(current, m.up, m.down, b.ScaleDown, now), current)
		n.DownLimit = limit
		allowed, reason, msg := minR, "TooFewReplicas", "the desired replica count is less than the minimum replica count"
		if allowed < limit {
			allowed, reason, msg = limit, "ScaleDownLimit", "the desired replica count is decreasing faster than the maximum scale rate"
		}
		if desired < allowed {
			return allowed, reason, msg
		}
	}
	return desired, "DesiredWithinRange", "the desired count is within the acceptable range"
}

// changeInPeriod is getReplicasChangePerPeriod: the replicas added (or
// removed) by scale events within the last period.
func changeInPeriod(period int32, events []scaleEvent, now time.Duration) int32 {
	cutoff := now - time.Duration(period)*time.Second
	var n int32
	for _, e := range events {
		if e.at > cutoff {
			n += e.change
		}
	}
	return n
}

// scaleUpLimit is calculateScaleUpLimitWithScalingRules: per policy, the
// replicas at the start of its period plus its allowance (a percentage
// rounded up); selectPolicy Max takes the largest, Min the smallest,
// Disabled forbids scaling up.
func scaleUpLimit(current int32, up, down []scaleEvent, r *autoscalingv2.HPAScalingRules, now time.Duration) int32 {
	if r.SelectPolicy != nil && *r.SelectPolicy == autoscalingv2.DisabledPolicySelect {
		return current
	}
	minimum := r.SelectPolicy != nil && *r.SelectPolicy == autoscalingv2.MinChangePolicySelect
	result := int32(math.MinInt32)
	if minimum {
		result = math.MaxInt32
	}
	for _, p := range r.Policies {
		start := current - changeInPeriod(p.PeriodSeconds, up, now) + changeInPeriod(p.PeriodSeconds, down, now)
		var proposed int32
		switch p.Type {
		case autoscalingv2.PodsScalingPolicy:
			proposed = start + p.Value
		case autoscalingv2.PercentScalingPolicy:
			proposed = int32(math.Ceil(float64(start) * (1 + float64(p.Value)/100)))
		}
		if minimum {
			result = min(result, proposed)
		} else {
			result = max(result, proposed)
		}
	}
	return result
}

// scaleDownLimit is calculateScaleDownLimitWithBehaviors: a percentage is
// rounded down (truncated); Max, the largest change, takes the smallest
// count.
func scaleDownLimit(current int32, up, down []scaleEvent, r *autoscalingv2.HPAScalingRules, now time.Duration) int32 {
	if r.SelectPolicy != nil && *r.SelectPolicy == autoscalingv2.DisabledPolicySelect {
		return current
	}
	minimum := r.SelectPolicy != nil && *r.SelectPolicy == autoscalingv2.MinChangePolicySelect
	result := int32(math.MaxInt32)
	if minimum {
		result = math.MinInt32
	}
	for _, p := range r.Policies {
		start := current - changeInPeriod(p.PeriodSeconds, up, now) + changeInPeriod(p.PeriodSeconds, down, now)
		var proposed int32
		switch p.Type {
		case autoscalingv2.PodsScalingPolicy:
			proposed = start - p.Value
		case autoscalingv2.PercentScalingPolicy:
			proposed = int32(float64(start) * (1 - float64(p.Value)/100))
		}
		if minimum {
			result = max(result, proposed)
		} else {
			result = min(result, proposed)
		}
	}
	return result
}

// store is storeScaleEvent: a rescale is remembered for the policies'
// periods (events older than the longest period are dropped, as
// markScaleEventsOutdated lets them be reused).
func (m *hpaMemory) store(b *autoscalingv2.HorizontalPodAutoscalerBehavior, from, to int32, now time.Duration) {
	longest := func(r *autoscalingv2.HPAScalingRules) time.Duration {
		var l int32
		for _, p := range r.Policies {
			l = max(l, p.PeriodSeconds)
		}
		return time.Duration(l) * time.Second
	}
	prune := func(evs []scaleEvent, keep time.Duration) []scaleEvent {
		out := evs[:0]
		for _, e := range evs {
			if e.at > now-keep {
				out = append(out, e)
			}
		}
		return out
	}
	if to > from {
		m.up = append(prune(m.up, longest(b.ScaleUp)), scaleEvent{to - from, now})
	} else {
		m.down = append(prune(m.down, longest(b.ScaleDown)), scaleEvent{from - to, now})
	}
}
