package apiserver

import corev1 "k8s.io/api/core/v1"

// defaultTolerations is the DefaultTolerationSeconds plugin
// (plugin/pkg/admission/defaulttolerationseconds): a NoExecute toleration
// of not-ready and unreachable for 300 s unless the pod has one. It returns
// the keys it added.
//
// A pod without tolerations, nearly every pod of a Deployment, gets
// sharedTolerations itself rather than a copy: stored objects are
// immutable (informer.DetectMutations panics in tests on one changed in
// place), nothing writes a stored pod's tolerations in place (a PATCH
// applies to a copy), and the slice's capacity is its length, so an append
// to it copies (144 bytes per pod).
func defaultTolerations(pod *corev1.Pod) []string {
	if len(pod.Spec.Tolerations) == 0 {
		pod.Spec.Tolerations = sharedTolerations[:len(sharedTolerations):len(sharedTolerations)]
		return defaultTolerationKeys
	}
	var added []string
	for _, key := range defaultTolerationKeys {
		if hasToleration(pod, key) {
			continue
		}
		pod.Spec.Tolerations = append(pod.Spec.Tolerations, corev1.Toleration{Key: key, Operator: corev1.TolerationOpExists,
			Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr(defaultTolerationSeconds)})
		added = append(added, key)
	}
	return added
}

// defaultTolerationKeys are the taints DefaultTolerationSeconds tolerates,
// in the order it adds them.
var defaultTolerationKeys = []string{"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"}

// sharedTolerations are DefaultTolerationSeconds' two tolerations, shared
// read-only by every pod that had none (see defaultTolerations).
var sharedTolerations = func() []corev1.Toleration {
	out := make([]corev1.Toleration, len(defaultTolerationKeys))
	for i, key := range defaultTolerationKeys {
		out[i] = corev1.Toleration{Key: key, Operator: corev1.TolerationOpExists,
			Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr(defaultTolerationSeconds)}
	}
	return out
}()
