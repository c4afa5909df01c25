package manifest

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/api/validation/path"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	metavalidation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Validate returns what the API server's validation would reject in obj
// (call it after Default, as the API server validates defaulted objects),
// or nil. The error is an *apierrors.StatusError with code 422 and reason
// Invalid, whose message is the API server's own:
//
//	Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0
//
// It covers what the simulator depends on, not every upstream rule.
// Custom resources are not validated: only their CRD's schema could.
func Validate(obj runtime.Object) error {
	if obj == nil {
		return nil
	}
	if _, ok := obj.(*unstructured.Unstructured); ok {
		return nil
	}
	errs := validateObject(obj)
	if len(errs) == 0 {
		return nil
	}
	name := ""
	if m, err := meta.Accessor(obj); err == nil {
		name = m.GetName()
	}
	return apierrors.NewInvalid(groupKindOf(obj), name, errs)
}

var (
	metaPath = field.NewPath("metadata")
	specPath = field.NewPath("spec")
)

func validateObject(obj runtime.Object) field.ErrorList {
	switch o := obj.(type) {
	case *appsv1.Deployment:
		return append(objectMeta(o, &o.ObjectMeta), validateDeploymentSpec(&o.Spec)...)
	case *appsv1.ReplicaSet:
		errs := objectMeta(o, &o.ObjectMeta)
		errs = append(errs, nonNegative(o.Spec.Replicas, specPath.Child("replicas"))...)
		errs = append(errs, selectorAndTemplate(o.Spec.Selector, &o.Spec.Template, "replicaset", specPath)...)
		return errs
	case *appsv1.StatefulSet:
		errs := objectMeta(o, &o.ObjectMeta)
		errs = append(errs, nonNegative(o.Spec.Replicas, specPath.Child("replicas"))...)
		errs = append(errs, selectorAndTemplate(o.Spec.Selector, &o.Spec.Template, "statefulset", specPath)...)
		return errs
	case *appsv1.DaemonSet:
		errs := objectMeta(o, &o.ObjectMeta)
		errs = append(errs, selectorAndTemplate(o.Spec.Selector, &o.Spec.Template, "daemonset", specPath)...)
		return errs
	case *batchv1.Job:
		errs := objectMeta(o, &o.ObjectMeta)
		tPath := specPath.Child("template", "spec")
		errs = append(errs, validatePodSpec(&o.Spec.Template.Spec, tPath)...)
		// batch/validation: a Job's pods must not restart forever; a
		// template that left restartPolicy out was defaulted to Always.
		if o.Spec.Template.Spec.RestartPolicy == corev1.RestartPolicyAlways {
			errs = append(errs, field.Required(tPath.Child("restartPolicy"),
				fmt.Sprintf("valid values: %q, %q", corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever)))
		}
		return errs
	case *corev1.Pod:
		return append(objectMeta(o, &o.ObjectMeta), validatePodSpec(&o.Spec, specPath)...)
	case *corev1.Service:
		return append(objectMeta(o, &o.ObjectMeta), validateServiceSpec(&o.Spec)...)
	}
	if a, ok := obj.(metav1.ObjectMetaAccessor); ok {
		if om, ok := a.GetObjectMeta().(*metav1.ObjectMeta); ok {
			return objectMeta(obj, om)
		}
	}
	return nil
}

// nameRules are the name checks of the kinds whose rule is known here
// (core/validation ValidateServiceName, ValidateNamespaceName,
// ValidateConfigMapName, ...; rbac/validation ValidateRBACName). Other
// kinds get the loosest rule the API server applies to any name, the
// path segment one, so that no valid name is ever rejected.
var nameRules = map[string]apivalidation.ValidateNameFunc{
	"Service":   apivalidation.NameIsDNS1035Label,
	"Namespace": apivalidation.NameIsDNSLabel,

	"Pod": apivalidation.NameIsDNSSubdomain, "ConfigMap": apivalidation.NameIsDNSSubdomain,
	"Secret": apivalidation.NameIsDNSSubdomain, "ServiceAccount": apivalidation.NameIsDNSSubdomain,
	"PersistentVolumeClaim": apivalidation.NameIsDNSSubdomain, "Node": apivalidation.NameIsDNSSubdomain,
	"ReplicationController": apivalidation.NameIsDNSSubdomain,
	"Deployment.apps":       apivalidation.NameIsDNSSubdomain, "ReplicaSet.apps": apivalidation.NameIsDNSSubdomain,
	"DaemonSet.apps": apivalidation.NameIsDNSSubdomain, "StatefulSet.apps": apivalidation.NameIsDNSSubdomain,

	"Role.rbac.authorization.k8s.io":               path.ValidatePathSegmentName,
	"ClusterRole.rbac.authorization.k8s.io":        path.ValidatePathSegmentName,
	"RoleBinding.rbac.authorization.k8s.io":        path.ValidatePathSegmentName,
	"ClusterRoleBinding.rbac.authorization.k8s.io": path.ValidatePathSegmentName,
}

// objectMeta validates metadata with the name rule of the kind.
func objectMeta(obj runtime.Object, m *metav1.ObjectMeta) field.ErrorList {
	gk := groupKindOf(obj)
	nameFn, ok := nameRules[gk.String()]
	if !ok {
		nameFn = path.ValidatePathSegmentName
	}
	if m.Name == "" && m.GenerateName != "" {
		// The API server generates the name before it validates; any
		// suffix it appends is valid, so validate with a stand-in one.
		withName := *m
		withName.Name = m.GenerateName + "x7k2q"
		m = &withName
	}
	namespaced, _ := Namespaced(gk)
	return apivalidation.ValidateObjectMeta(m, namespaced, nameFn, metaPath)
}

func nonNegative(v *int32, path *field.Path) field.ErrorList {
	if v == nil {
		return nil
	}
	return apivalidation.ValidateNonnegativeField(int64(*v), path)
}

// validateDeploymentSpec mirrors apps/validation ValidateDeploymentSpec:
// replicas, selector, template (labels must match the selector, restart
// policy Always), strategy, history limit, progress deadline.
func validateDeploymentSpec(s *appsv1.DeploymentSpec) field.ErrorList {
	errs := nonNegative(s.Replicas, specPath.Child("replicas"))
	errs = append(errs, selectorAndTemplate(s.Selector, &s.Template, "deployment", specPath)...)
	errs = append(errs, validateStrategy(&s.Strategy, specPath.Child("strategy"))...)
	errs = append(errs, nonNegative(s.RevisionHistoryLimit, specPath.Child("revisionHistoryLimit"))...)
	if s.ProgressDeadlineSeconds != nil {
		p := specPath.Child("progressDeadlineSeconds")
		errs = append(errs, apivalidation.ValidateNonnegativeField(int64(*s.ProgressDeadlineSeconds), p)...)
		if *s.ProgressDeadlineSeconds <= s.MinReadySeconds {
			errs = append(errs, field.Invalid(p, *s.ProgressDeadlineSeconds, "must be greater than minReadySeconds"))
		}
	}
	return errs
}

// selectorAndTemplate checks a workload's selector and pod template the
// way apps/validation does for Deployments, ReplicaSets, StatefulSets and
// DaemonSets (ValidatePodTemplateSpecForReplicaSet and friends).
func selectorAndTemplate(sel *metav1.LabelSelector, t *corev1.PodTemplateSpec, kind string, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	selPath := path.Child("selector")
	if sel == nil {
		errs = append(errs, field.Required(selPath, ""))
	} else {
		errs = append(errs, metavalidation.ValidateLabelSelector(sel, metavalidation.LabelSelectorValidationOptions{}, selPath)...)
		if len(sel.MatchLabels)+len(sel.MatchExpressions) == 0 {
			errs = append(errs, field.Invalid(selPath, sel, "empty selector is invalid for "+kind))
		}
	}
	tPath := path.Child("template")
	selector, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		return append(errs, field.Invalid(selPath, sel, "invalid label selector"))
	}
	// A nil selector converts to "matches nothing", so a missing selector
	// also reports the template labels, as the API server does.
	if !selector.Empty() && !selector.Matches(labels.Set(t.Labels)) {
		errs = append(errs, field.Invalid(tPath.Child("metadata", "labels"), t.Labels, "`selector` does not match template `labels`"))
	}
	errs = append(errs, metavalidation.ValidateLabels(t.Labels, tPath.Child("metadata", "labels"))...)
	errs = append(errs, validatePodSpec(&t.Spec, tPath.Child("spec"))...)
	if t.Spec.RestartPolicy != corev1.RestartPolicyAlways {
		errs = append(errs, field.NotSupported(tPath.Child("spec", "restartPolicy"), t.Spec.RestartPolicy, []corev1.RestartPolicy{corev1.RestartPolicyAlways}))
	}
	return errs
}

// validateStrategy mirrors apps/validation ValidateDeploymentStrategy and
// ValidateRollingUpdateDeployment for the cases a manifest can hit.
func validateStrategy(s *appsv1.DeploymentStrategy, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch s.Type {
	case appsv1.RecreateDeploymentStrategyType:
		if s.RollingUpdate != nil {
			errs = append(errs, field.Forbidden(path.Child("rollingUpdate"), "may not be specified when strategy `type` is 'Recreate'"))
		}
	case appsv1.RollingUpdateDeploymentStrategyType:
		ru := s.RollingUpdate
		if ru == nil || ru.MaxSurge == nil || ru.MaxUnavailable == nil {
			break
		}
		ruPath := path.Child("rollingUpdate")
		if isZero(*ru.MaxSurge) && isZero(*ru.MaxUnavailable) {
			errs = append(errs, field.Invalid(ruPath.Child("maxUnavailable"), ru.MaxUnavailable, "may not be 0 when `maxSurge` is 0"))
		}
	default:
		errs = append(errs, field.NotSupported(path.Child("type"), s.Type,
			[]appsv1.DeploymentStrategyType{appsv1.RecreateDeploymentStrategyType, appsv1.RollingUpdateDeploymentStrategyType}))
	}
	return errs
}

func isZero(v intstr.IntOrString) bool {
	if v.Type == intstr.Int {
		return v.IntVal == 0
	}
	return v.StrVal == "0%" || v.StrVal == "0"
}
