package apiserver

import (
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// mutate runs the mutating admission plugins that change what the
// simulator models and returns what each did, in plugin order, and
// whether any did something (every pod passes Priority). What they did
// only feeds the apiserver.mutating step: once the recorder keeps no more
// steps, the descriptions are not built (the step is still offered to the
// recorder, which counts it as dropped, as before).
func (s *Server) mutate(obj runtime.Object) (did []any, mutated bool, st *Status) {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		did = s.mutateStorage(obj)
		return did, len(did) > 0, nil
	}
	describe := s.rec.Keeping()
	if set := s.limitRanger(pod); set != "" && describe {
		did = append(did, trace.P("admission.limitranger", strings.ReplaceAll(strings.TrimPrefix(set, "LimitRanger plugin set: "), "; ", " and ")))
	}
	// ServiceAccount (plugin/pkg/admission/serviceaccount) leaves a mirror
	// pod's spec alone: a kubelet whose mirror differs from its static pod
	// would delete it (Admit: "Don't modify the spec of mirror pods").
	if _, mirror := pod.Annotations[corev1.MirrorPodAnnotationKey]; !mirror {
		if sa := s.serviceAccount(pod, describe); describe {
			did = append(did, sa)
		}
	}
	name := pod.Name
	if name == "" {
		name = pod.GenerateName // names are generated after mutating admission
	}
	prio, st := s.priority(pod, name, describe)
	if st != nil {
		return nil, false, st
	}
	if describe {
		did = append(did, prio)
	}
	// DefaultTolerationSeconds (admission_tolerations.go).
	if added := defaultTolerations(pod); len(added) > 0 && describe {
		did = append(did, trace.P("admission.tolerations", strings.Join(added, ", "), defaultTolerationSeconds))
	}
	return did, true, nil
}

// serviceAccount is the ServiceAccount plugin's Admit for a pod: the
// default service account and its projected token volume; what it did,
// when describe.
func (s *Server) serviceAccount(pod *corev1.Pod, describe bool) any {
	if pod.Spec.ServiceAccountName == "" {
		pod.Spec.ServiceAccountName = "default"
	}
	// The deprecated alias follows the name, as every stored pod shows:
	// SetDefaults_PodSpec keeps the two in sync (pkg/apis/core/v1/defaults.go;
	// historically the v1 conversion did), and the name this plugin sets
	// reaches the alias when the stored object is decoded.
	pod.Spec.DeprecatedServiceAccount = pod.Spec.ServiceAccountName
	if pod.Spec.AutomountServiceAccountToken == nil || *pod.Spec.AutomountServiceAccountToken {
		vol := s.kubeAPIAccessName()
		pod.Spec.Volumes = append(pod.Spec.Volumes, corev1.Volume{Name: vol, VolumeSource: corev1.VolumeSource{Projected: kubeAPIAccess}})
		// init containers first, then the others (mountServiceAccountToken)
		for _, cs := range [][]corev1.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
			for i := range cs {
				cs[i].VolumeMounts = append(cs[i].VolumeMounts, corev1.VolumeMount{
					Name: vol, ReadOnly: true, MountPath: "/var/run/secrets/kubernetes.io/serviceaccount"})
			}
		}
		if !describe {
			return nil
		}
		return trace.P("admission.serviceaccount", pod.Spec.ServiceAccountName, vol)
	}
	if !describe {
		return nil
	}
	return "ServiceAccount: serviceAccountName=" + pod.Spec.ServiceAccountName
}
