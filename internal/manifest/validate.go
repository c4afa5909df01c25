package manifest

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/clip"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/validate/content"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	metavalidation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"
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
// Of custom resources only the name is validated: only their CRD's schema
// could check the rest.
func Validate(obj runtime.Object) error {
	if obj == nil {
		return nil
	}
	var errs field.ErrorList
	if u, ok := obj.(*unstructured.Unstructured); ok {
		// Only the CRD's schema could validate the rest; the name rule is
		// apiextensions-apiserver's (customresource/validator.go): a DNS
		// subdomain, so at most 253 characters.
		name := u.GetName()
		if name == "" && u.GetGenerateName() != "" {
			name = u.GetGenerateName() + "x7k2q"
		}
		if name != "" {
			for _, msg := range apivalidation.NameIsDNSSubdomain(name, false) {
				errs = append(errs, field.Invalid(metaPath.Child("name"), name, msg))
			}
		}
	} else {
		errs = validateObject(obj)
	}
	if len(errs) == 0 {
		return nil
	}
	name := ""
	if m, err := meta.Accessor(obj); err == nil {
		name = m.GetName()
	}
	// The message quotes the user's values: long ones shortened, with
	// their length, so a 7 MiB name does not make a 14 MB error line.
	for _, e := range errs {
		if v, ok := e.BadValue.(string); ok {
			e.BadValue = clip.Value(v)
		}
	}
	return apierrors.NewInvalid(groupKindOf(obj), clip.Value(name), errs)
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
	case *corev1.Node:
		// core/validation ValidateNode (v1.37): every capacity and
		// allocatable quantity is >= 0, an integer where it must be.
		errs := objectMeta(o, &o.ObjectMeta)
		errs = append(errs, resourceQuantities(o.Status.Capacity, field.NewPath("status", "capacity"), false)...)
		errs = append(errs, resourceQuantities(o.Status.Allocatable, field.NewPath("status", "allocatable"), false)...)
		return errs
	case *corev1.ResourceQuota:
		// core/validation ValidateResourceQuotaSpec: spec.hard[name].
		return append(objectMeta(o, &o.ObjectMeta), resourceQuantities(o.Spec.Hard, specPath.Child("hard"), true)...)
	case *corev1.LimitRange:
		return append(objectMeta(o, &o.ObjectMeta), validateLimitRange(&o.Spec)...)
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

	"Role.rbac.authorization.k8s.io":               pathSegmentName,
	"ClusterRole.rbac.authorization.k8s.io":        pathSegmentName,
	"RoleBinding.rbac.authorization.k8s.io":        pathSegmentName,
	"ClusterRoleBinding.rbac.authorization.k8s.io": pathSegmentName,
}

// pathSegmentName is the name rule of RBAC objects and of any kind with no
// stricter one: the name must be safe as one segment of a URL path (not "."
// or "..", no "/" or "%"). apimachinery deprecated path.ValidatePathSegmentName
// for "a locally defined function" over its content checks; this is that
// function, with the same messages.
func pathSegmentName(name string, prefix bool) []string {
	if prefix {
		return content.IsPathSegmentPrefix(name)
	}
	return content.IsPathSegmentName(name)
}

// objectMeta validates metadata with the name rule of the kind.
func objectMeta(obj runtime.Object, m *metav1.ObjectMeta) field.ErrorList {
	gk := groupKindOf(obj)
	nameFn, ok := nameRules[gk.String()]
	if !ok {
		nameFn = pathSegmentName
	}
	if m.Name == "" && m.GenerateName != "" {
		// The API server generates the name before it validates; any
		// suffix it appends is valid, so validate with a stand-in one.
		withName := *m
		withName.Name = m.GenerateName + "x7k2q"
		m = &withName
	}
	namespaced, _ := Namespaced(gk)
	if validMeta.seen(namespaced, m) && namesValid(m, nameFn) {
		return nil
	}
	errs := apivalidation.ValidateObjectMeta(m, namespaced, nameFn, metaPath)
	if len(errs) == 0 {
		validMeta.remember(namespaced, m)
	}
	return errs
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
		if ru == nil {
			break
		}
		// apps/validation ValidateRollingUpdateDeployment: each value an
		// integer ≥ 0 or a percentage, not both 0, maxUnavailable ≤ 100%.
		ruPath := path.Child("rollingUpdate")
		errs = append(errs, intOrPercent(ru.MaxUnavailable, ruPath.Child("maxUnavailable"))...)
		errs = append(errs, intOrPercent(ru.MaxSurge, ruPath.Child("maxSurge"))...)
		if ru.MaxSurge != nil && ru.MaxUnavailable != nil && intOrPercentValue(*ru.MaxUnavailable) == 0 && intOrPercentValue(*ru.MaxSurge) == 0 {
			errs = append(errs, field.Invalid(ruPath.Child("maxUnavailable"), ru.MaxUnavailable, "may not be 0 when `maxSurge` is 0"))
		}
		if ru.MaxUnavailable != nil {
			if v, ok := percentValue(*ru.MaxUnavailable); ok && v > 100 {
				errs = append(errs, field.Invalid(ruPath.Child("maxUnavailable"), ru.MaxUnavailable, "must not be greater than 100%"))
			}
		}
	default:
		errs = append(errs, field.NotSupported(path.Child("type"), s.Type,
			[]appsv1.DeploymentStrategyType{appsv1.RecreateDeploymentStrategyType, appsv1.RollingUpdateDeploymentStrategyType}))
	}
	return errs
}

// intOrPercent follows apps/validation ValidatePositiveIntOrPercent: a
// string must be a percentage ("25%"), an integer must not be negative.
func intOrPercent(v *intstr.IntOrString, path *field.Path) field.ErrorList {
	if v == nil {
		return nil
	}
	var errs field.ErrorList
	switch v.Type {
	case intstr.String:
		for _, msg := range validation.IsValidPercent(v.StrVal) {
			errs = append(errs, field.Invalid(path, v, msg))
		}
	case intstr.Int:
		errs = append(errs, apivalidation.ValidateNonnegativeField(int64(v.IntValue()), path)...)
	default:
		errs = append(errs, field.Invalid(path, v, "must be an integer or percentage (e.g '5%%')"))
	}
	return errs
}

// percentValue is apps/validation getPercentValue: the number of a valid
// percentage string.
func percentValue(v intstr.IntOrString) (int, bool) {
	if v.Type != intstr.String || len(validation.IsValidPercent(v.StrVal)) != 0 {
		return 0, false
	}
	n, _ := strconv.Atoi(strings.TrimSuffix(v.StrVal, "%"))
	return n, true
}

// intOrPercentValue is apps/validation getIntOrPercentValue.
func intOrPercentValue(v intstr.IntOrString) int {
	if n, ok := percentValue(v); ok {
		return n
	}
	return v.IntValue()
}

// resourceQuantities is core/validation ValidateResourceQuantityValue for
// each entry (v1.37): "must be greater than or equal to 0", and a whole
// number for the integer resources (pods, counts). keyed: the quota's
// path spec.hard[pods]; else the Node's status.capacity.pods.
func resourceQuantities(rl corev1.ResourceList, path *field.Path, keyed bool) field.ErrorList {
	var errs field.ErrorList
	for _, name := range sortedResourceNames(rl) {
		q := rl[name]
		p := path.Child(string(name))
		if keyed {
			p = path.Key(string(name))
		}
		if q.Sign() < 0 {
			errs = append(errs, field.Invalid(p, q.String(), apivalidation.IsNegativeErrorMsg))
		}
		if integerResource(name) && q.MilliValue()%1000 != 0 {
			errs = append(errs, field.Invalid(p, q, "must be an integer"))
		}
	}
	return errs
}

func sortedResourceNames(rl corev1.ResourceList) []corev1.ResourceName {
	names := make([]corev1.ResourceName, 0, len(rl))
	for n := range rl {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return names[i] < names[j] })
	return names
}

// validateLimitRange is the part of core/validation ValidateLimitRange
// (v1.37) the simulator's LimitRanger depends on: quantities >= 0 and no
// min above its max.
func validateLimitRange(s *corev1.LimitRangeSpec) field.ErrorList {
	var errs field.ErrorList
	for i := range s.Limits {
		l := &s.Limits[i]
		p := specPath.Child("limits").Index(i)
		for _, part := range []struct {
			name string
			rl   corev1.ResourceList
		}{{"max", l.Max}, {"min", l.Min}, {"default", l.Default}, {"defaultRequest", l.DefaultRequest}} {
			errs = append(errs, resourceQuantities(part.rl, p.Child(part.name), true)...)
		}
		for _, name := range sortedResourceNames(l.Min) {
			minQ := l.Min[name]
			if maxQ, ok := l.Max[name]; ok && minQ.Cmp(maxQ) > 0 {
				errs = append(errs, field.Invalid(p.Child("min").Key(string(name)), minQ,
					fmt.Sprintf("min value %s is greater than max value %s", minQ.String(), maxQ.String())))
			}
		}
	}
	return errs
}
