package scheduler

import (
	"slices"
	"strconv"

	corev1 "k8s.io/api/core/v1"
)

// tolerates reports whether toleration t tolerates taint
// (corev1 Toleration.ToleratesTaint): an empty effect matches every effect,
// an empty key every key (validation allows that only with Exists); Exists
// matches any value, Equal (the default) needs the values equal.
func tolerates(t *corev1.Toleration, taint *corev1.Taint) bool {
	if t.Effect != "" && t.Effect != taint.Effect {
		return false
	}
	if t.Key != "" && t.Key != taint.Key {
		return false
	}
	switch t.Operator {
	case "", corev1.TolerationOpEqual:
		return t.Value == taint.Value
	case corev1.TolerationOpExists:
		return true
	}
	return false
}

// ToleratedBy reports whether any of tols tolerates taint.
func ToleratedBy(tols []corev1.Toleration, taint *corev1.Taint) bool { return toleratedBy(tols, taint) }

func toleratedBy(tols []corev1.Toleration, taint *corev1.Taint) bool {
	for i := range tols {
		if tolerates(&tols[i], taint) {
			return true
		}
	}
	return false
}

// nodeMatcher is a pod's compiled nodeSelector plus required node affinity
// (component-helpers/scheduling/corev1/nodeaffinity RequiredNodeAffinity).
type nodeMatcher struct {
	selector map[string]string
	terms    []corev1.NodeSelectorTerm // ORed; nil means no required affinity
	hasTerms bool
}

func requiredNodeAffinity(pod *corev1.Pod) nodeMatcher {
	m := nodeMatcher{selector: pod.Spec.NodeSelector}
	if a := pod.Spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		m.terms = a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
		m.hasTerms = true
	}
	return m
}

// empty reports whether the pod constrains nodes at all.
func (m *nodeMatcher) empty() bool { return len(m.selector) == 0 && !m.hasTerms }

func (m *nodeMatcher) match(node *corev1.Node) bool {
	for k, v := range m.selector {
		if got, ok := node.Labels[k]; !ok || got != v {
			return false
		}
	}
	if !m.hasTerms {
		return true
	}
	for i := range m.terms {
		if termMatches(&m.terms[i], node) {
			return true
		}
	}
	return false
}

// termMatches ANDs a term's expressions and fields; a term with neither
// matches no node (nodeaffinity.nodeSelectorTerms).
func termMatches(t *corev1.NodeSelectorTerm, node *corev1.Node) bool {
	if len(t.MatchExpressions) == 0 && len(t.MatchFields) == 0 {
		return false
	}
	for i := range t.MatchExpressions {
		e := &t.MatchExpressions[i]
		v, ok := node.Labels[e.Key]
		if !requirementMatches(e.Operator, e.Values, v, ok) {
			return false
		}
	}
	for i := range t.MatchFields {
		e := &t.MatchFields[i]
		// metadata.name is the only field selector upstream supports.
		if e.Key != "metadata.name" || !requirementMatches(e.Operator, e.Values, node.Name, true) {
			return false
		}
	}
	return true
}

// requirementMatches applies one operator the way labels.Requirement does:
// NotIn and DoesNotExist match a missing key; Gt and Lt compare integers.
func requirementMatches(op corev1.NodeSelectorOperator, values []string, v string, ok bool) bool {
	switch op {
	case corev1.NodeSelectorOpIn:
		return ok && slices.Contains(values, v)
	case corev1.NodeSelectorOpNotIn:
		return !ok || !slices.Contains(values, v)
	case corev1.NodeSelectorOpExists:
		return ok
	case corev1.NodeSelectorOpDoesNotExist:
		return !ok
	case corev1.NodeSelectorOpGt, corev1.NodeSelectorOpLt:
		if !ok || len(values) != 1 {
			return false
		}
		have, err1 := strconv.ParseInt(v, 10, 64)
		want, err2 := strconv.ParseInt(values[0], 10, 64)
		if err1 != nil || err2 != nil {
			return false
		}
		if op == corev1.NodeSelectorOpGt {
			return have > want
		}
		return have < want
	}
	return false
}
