package manifest

import (
	"fmt"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Default applies, in place, the defaults the API server sets on create
// for the fields the simulator reads, and returns what it filled as
// "path=value" entries in a stable order (the order defaulting visits the
// fields), for the trace's "admission defaulted: ..." line. Objects of
// other kinds only get their namespace.
func Default(obj runtime.Object) []string {
	d := &defaulter{}
	// A pod's resource maps may be shared with its template (controller
	// copyTemplate); a template's belong to the request body.
	_, isPod := obj.(*corev1.Pod)
	d.template = !isPod
	d.namespace(obj)
	switch o := obj.(type) {
	case *appsv1.Deployment:
		d.deployment(o)
	case *appsv1.ReplicaSet:
		// apps/v1 defaults.go SetDefaults_ReplicaSet.
		d.int32p(&o.Spec.Replicas, 1, "spec.replicas")
		d.podSpec(&o.Spec.Template.Spec, "spec.template.spec")
	case *appsv1.StatefulSet:
		d.statefulSet(o)
	case *appsv1.DaemonSet:
		d.daemonSet(o)
	case *autoscalingv2.HorizontalPodAutoscaler:
		d.hpa(o)
	case *corev1.ReplicationController:
		// core/v1 types.go: replicas is +default=1.
		d.int32p(&o.Spec.Replicas, 1, "spec.replicas")
		if o.Spec.Template != nil {
			d.podSpec(&o.Spec.Template.Spec, "spec.template.spec")
		}
	case *batchv1.Job:
		d.job(o)
	case *batchv1.CronJob:
		d.cronJob(o)
	case *corev1.PodTemplate:
		d.podSpec(&o.Template.Spec, "template.spec")
	case *corev1.Pod:
		d.pod(o)
	case *corev1.Service:
		d.service(o)
	case *corev1.Secret:
		// core/v1 defaults.go SetDefaults_Secret.
		d.str((*string)(&o.Type), string(corev1.SecretTypeOpaque), "type")
	case *corev1.Namespace:
		d.namespaceObject(o)
	case *corev1.PersistentVolumeClaim:
		d.claim(o, "")
	case *corev1.PersistentVolume:
		d.persistentVolume(o)
	}
	return d.filled
}

// Defaulted returns what Default would fill in obj, without changing it.
func Defaulted(obj runtime.Object) []string {
	if obj == nil {
		return nil
	}
	return Default(obj.DeepCopyObject())
}

// defaulter sets fields that are unset and records each one it sets.
type defaulter struct {
	filled   []string
	template bool // a pod template's spec, not a Pod's (canonicalQuantities)
}

func (d *defaulter) note(path, value string) {
	d.filled = append(d.filled, path+"="+value)
}

func (d *defaulter) str(f *string, v, path string) {
	if *f == "" {
		*f = v
		d.note(path, v)
	}
}

func (d *defaulter) int32p(f **int32, v int32, path string) {
	if *f == nil {
		*f = &v
		d.note(path, strconv.Itoa(int(v)))
	}
}

func (d *defaulter) int64p(f **int64, v int64, path string) {
	if *f == nil {
		*f = &v
		d.note(path, strconv.FormatInt(v, 10))
	}
}

func (d *defaulter) boolp(f **bool, v bool, path string) {
	if *f == nil {
		*f = &v
		d.note(path, strconv.FormatBool(v))
	}
}

func (d *defaulter) int32v(f *int32, v int32, path string) {
	if *f == 0 {
		*f = v
		d.note(path, strconv.Itoa(int(v)))
	}
}

func (d *defaulter) intOrString(f **intstr.IntOrString, v intstr.IntOrString, path string) {
	if *f == nil {
		*f = &v
		d.note(path, v.String())
	}
}

// namespace sets metadata.namespace to "default" for namespaced kinds, as
// kubectl does from its context before it sends the request, and clears
// it on cluster-scoped ones.
func (d *defaulter) namespace(obj runtime.Object) {
	if obj == nil {
		return
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return
	}
	namespaced, known := Namespaced(groupKindOf(obj))
	switch {
	case !known:
	case namespaced && m.GetNamespace() == "":
		m.SetNamespace(corev1.NamespaceDefault)
		d.note("metadata.namespace", corev1.NamespaceDefault)
	case !namespaced && m.GetNamespace() != "":
		// The API server drops a namespace written on a cluster-scoped
		// object (apiserver registry/rest EnsureObjectNamespaceMatchesRequestNamespace).
		m.SetNamespace("")
	}
}

// deployment follows apps/v1 defaults.go SetDefaults_Deployment.
func (d *defaulter) deployment(o *appsv1.Deployment) {
	d.int32p(&o.Spec.Replicas, 1, "spec.replicas")
	s := &o.Spec.Strategy
	d.str((*string)(&s.Type), string(appsv1.RollingUpdateDeploymentStrategyType), "spec.strategy.type")
	if s.Type == appsv1.RollingUpdateDeploymentStrategyType {
		if s.RollingUpdate == nil {
			s.RollingUpdate = &appsv1.RollingUpdateDeployment{}
		}
		d.intOrString(&s.RollingUpdate.MaxUnavailable, intstr.FromString("25%"), "spec.strategy.rollingUpdate.maxUnavailable")
		d.intOrString(&s.RollingUpdate.MaxSurge, intstr.FromString("25%"), "spec.strategy.rollingUpdate.maxSurge")
	}
	d.int32p(&o.Spec.RevisionHistoryLimit, 10, "spec.revisionHistoryLimit")
	d.int32p(&o.Spec.ProgressDeadlineSeconds, 600, "spec.progressDeadlineSeconds")
	d.podSpec(&o.Spec.Template.Spec, "spec.template.spec")
}

// statefulSet follows apps/v1 defaults.go SetDefaults_StatefulSet.
func (d *defaulter) statefulSet(o *appsv1.StatefulSet) {
	d.str((*string)(&o.Spec.PodManagementPolicy), string(appsv1.OrderedReadyPodManagement), "spec.podManagementPolicy")
	u := &o.Spec.UpdateStrategy
	if u.Type == "" {
		d.str((*string)(&u.Type), string(appsv1.RollingUpdateStatefulSetStrategyType), "spec.updateStrategy.type")
		if u.RollingUpdate == nil {
			u.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{}
		}
	}
	if u.Type == appsv1.RollingUpdateStatefulSetStrategyType && u.RollingUpdate != nil {
		d.int32p(&u.RollingUpdate.Partition, 0, "spec.updateStrategy.rollingUpdate.partition")
		// MaxUnavailableStatefulSet is beta and on by default in v1.37
		// (pkg/features/kube_features.go)
		d.intOrString(&u.RollingUpdate.MaxUnavailable, intstr.FromInt32(1), "spec.updateStrategy.rollingUpdate.maxUnavailable")
	}
	if o.Spec.PersistentVolumeClaimRetentionPolicy == nil {
		o.Spec.PersistentVolumeClaimRetentionPolicy = &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{}
	}
	rp := o.Spec.PersistentVolumeClaimRetentionPolicy
	d.str((*string)(&rp.WhenDeleted), string(appsv1.RetainPersistentVolumeClaimRetentionPolicyType), "spec.persistentVolumeClaimRetentionPolicy.whenDeleted")
	d.str((*string)(&rp.WhenScaled), string(appsv1.RetainPersistentVolumeClaimRetentionPolicyType), "spec.persistentVolumeClaimRetentionPolicy.whenScaled")
	d.int32p(&o.Spec.Replicas, 1, "spec.replicas")
	d.int32p(&o.Spec.RevisionHistoryLimit, 10, "spec.revisionHistoryLimit")
	d.podSpec(&o.Spec.Template.Spec, "spec.template.spec")
	for i := range o.Spec.VolumeClaimTemplates {
		d.claim(&o.Spec.VolumeClaimTemplates[i], fmt.Sprintf("spec.volumeClaimTemplates[%d].", i))
	}
}

// daemonSet follows apps/v1 defaults.go SetDefaults_DaemonSet.
func (d *defaulter) daemonSet(o *appsv1.DaemonSet) {
	u := &o.Spec.UpdateStrategy
	d.str((*string)(&u.Type), string(appsv1.RollingUpdateDaemonSetStrategyType), "spec.updateStrategy.type")
	if u.Type == appsv1.RollingUpdateDaemonSetStrategyType {
		if u.RollingUpdate == nil {
			u.RollingUpdate = &appsv1.RollingUpdateDaemonSet{}
		}
		d.intOrString(&u.RollingUpdate.MaxUnavailable, intstr.FromInt32(1), "spec.updateStrategy.rollingUpdate.maxUnavailable")
		d.intOrString(&u.RollingUpdate.MaxSurge, intstr.FromInt32(0), "spec.updateStrategy.rollingUpdate.maxSurge")
	}
	d.int32p(&o.Spec.RevisionHistoryLimit, 10, "spec.revisionHistoryLimit")
	d.podSpec(&o.Spec.Template.Spec, "spec.template.spec")
}

// job follows batch/v1 defaults.go SetDefaults_Job.
func (d *defaulter) job(o *batchv1.Job) {
	if o.Spec.Completions == nil && o.Spec.Parallelism == nil {
		d.int32p(&o.Spec.Completions, 1, "spec.completions")
	}
	d.int32p(&o.Spec.Parallelism, 1, "spec.parallelism")
	d.int32p(&o.Spec.BackoffLimit, 6, "spec.backoffLimit")
	if l := o.Spec.Template.Labels; l != nil && len(o.Labels) == 0 {
		o.Labels = l
		d.note("metadata.labels", "spec.template.metadata.labels")
	}
	if o.Spec.CompletionMode == nil {
		m := batchv1.NonIndexedCompletion
		o.Spec.CompletionMode = &m
		d.note("spec.completionMode", string(m))
	}
	d.boolp(&o.Spec.Suspend, false, "spec.suspend")
	d.podSpec(&o.Spec.Template.Spec, "spec.template.spec")
}

// cronJob follows batch/v1 defaults.go SetDefaults_CronJob; the job
// template gets the pod spec defaults (SetDefaults_Job runs on Jobs only).
func (d *defaulter) cronJob(o *batchv1.CronJob) {
	d.str((*string)(&o.Spec.ConcurrencyPolicy), string(batchv1.AllowConcurrent), "spec.concurrencyPolicy")
	d.boolp(&o.Spec.Suspend, false, "spec.suspend")
	d.int32p(&o.Spec.SuccessfulJobsHistoryLimit, 3, "spec.successfulJobsHistoryLimit")
	d.int32p(&o.Spec.FailedJobsHistoryLimit, 1, "spec.failedJobsHistoryLimit")
	d.podSpec(&o.Spec.JobTemplate.Spec.Template.Spec, "spec.jobTemplate.spec.template.spec")
}

// namespaceObject follows core/v1 defaults.go SetDefaults_Namespace (the
// kubernetes.io/metadata.name label, always the name; not on a nameless
// generateName request) and SetDefaults_NamespaceStatus (phase Active).
func (d *defaulter) namespaceObject(o *corev1.Namespace) {
	if o.Name != "" && o.Labels[corev1.LabelMetadataName] != o.Name {
		if o.Labels == nil {
			o.Labels = map[string]string{}
		}
		o.Labels[corev1.LabelMetadataName] = o.Name
		d.note("metadata.labels."+corev1.LabelMetadataName, o.Name)
	}
	d.str((*string)(&o.Status.Phase), string(corev1.NamespaceActive), "status.phase")
}
