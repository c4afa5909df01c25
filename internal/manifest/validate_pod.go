package manifest

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validatePodSpec mirrors the parts of core/validation ValidatePodSpec the
// simulator depends on: containers (names, images, ports, pull policy,
// requests within limits) and the restart policy.
func validatePodSpec(s *corev1.PodSpec, path *field.Path) field.ErrorList {
	names := sets.New[string]()
	errs := validateContainers(s.InitContainers, path.Child("initContainers"), names, false)
	errs = append(errs, validateContainers(s.Containers, path.Child("containers"), names, true)...)
	switch s.RestartPolicy {
	case corev1.RestartPolicyAlways, corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever:
	case "":
		errs = append(errs, field.Required(path.Child("restartPolicy"), ""))
	default:
		errs = append(errs, field.NotSupported(path.Child("restartPolicy"), s.RestartPolicy,
			[]corev1.RestartPolicy{corev1.RestartPolicyAlways, corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever}))
	}
	return errs
}

// validateContainers follows core/validation validateContainers and
// validateContainerCommon: at least one regular container, each with a
// DNS-1123 label name unique in the pod, an image, valid ports.
func validateContainers(cs []corev1.Container, path *field.Path, names sets.Set[string], required bool) field.ErrorList {
	var errs field.ErrorList
	if required && len(cs) == 0 {
		errs = append(errs, field.Required(path, ""))
	}
	// A field's path is built only where there is something to check in
	// it or an error to report: the API server validates every pod it
	// admits, and seven paths per valid container were 0.2 M allocations
	// at 30,000 pods. The errors, and their order, are the same.
	for i := range cs {
		c := &cs[i]
		p := path.Index(i)
		if c.Name == "" {
			errs = append(errs, field.Required(p.Child("name"), ""))
		} else {
			for _, msg := range validation.IsDNS1123Label(c.Name) {
				errs = append(errs, field.Invalid(p.Child("name"), c.Name, msg))
			}
		}
		if c.Image == "" {
			errs = append(errs, field.Required(p.Child("image"), ""))
		}
		if names.Has(c.Name) {
			errs = append(errs, field.Duplicate(p.Child("name"), c.Name))
		} else {
			names.Insert(c.Name)
		}
		if len(c.Ports) > 0 {
			errs = append(errs, validatePorts(c.Ports, p.Child("ports"))...)
		}
		if !pullPolicyOK(c.ImagePullPolicy) {
			errs = append(errs, validatePullPolicy(c.ImagePullPolicy, p.Child("imagePullPolicy"))...)
		}
		if !validResources.seen(&c.Resources) {
			errs = append(errs, validateRequests(&c.Resources, p.Child("resources"))...)
		}
		for _, pr := range []struct {
			probe *corev1.Probe
			name  string
		}{{c.LivenessProbe, "livenessProbe"}, {c.ReadinessProbe, "readinessProbe"}, {c.StartupProbe, "startupProbe"}} {
			if pr.probe != nil {
				errs = append(errs, validateProbe(pr.probe, p.Child(pr.name))...)
			}
		}
	}
	return errs
}

// validateProbe follows core/validation validateProbe (v1.37): every
// count and duration >= 0, a probe-level grace period > 0.
func validateProbe(pr *corev1.Probe, path *field.Path) field.ErrorList {
	if pr == nil {
		return nil
	}
	var errs field.ErrorList
	for _, f := range []struct {
		v    int32
		name string
	}{{pr.InitialDelaySeconds, "initialDelaySeconds"}, {pr.TimeoutSeconds, "timeoutSeconds"}, {pr.PeriodSeconds, "periodSeconds"},
		{pr.SuccessThreshold, "successThreshold"}, {pr.FailureThreshold, "failureThreshold"}} {
		errs = append(errs, apivalidation.ValidateNonnegativeField(int64(f.v), path.Child(f.name))...)
	}
	if g := pr.TerminationGracePeriodSeconds; g != nil && *g <= 0 {
		errs = append(errs, field.Invalid(path.Child("terminationGracePeriodSeconds"), *g, "must be greater than 0"))
	}
	return errs
}

// validatePorts follows core/validation validateContainerPorts.
func validatePorts(ports []corev1.ContainerPort, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	names := sets.New[string]()
	for i, port := range ports {
		p := path.Index(i)
		if port.Name != "" {
			if msgs := validation.IsValidPortName(port.Name); len(msgs) > 0 {
				for _, msg := range msgs {
					errs = append(errs, field.Invalid(p.Child("name"), port.Name, msg))
				}
			} else if names.Has(port.Name) {
				errs = append(errs, field.Duplicate(p.Child("name"), port.Name))
			} else {
				names.Insert(port.Name)
			}
		}
		if port.ContainerPort == 0 {
			errs = append(errs, field.Required(p.Child("containerPort"), ""))
		} else {
			for _, msg := range validation.IsValidPortNum(int(port.ContainerPort)) {
				errs = append(errs, field.Invalid(p.Child("containerPort"), port.ContainerPort, msg))
			}
		}
		if port.HostPort != 0 {
			for _, msg := range validation.IsValidPortNum(int(port.HostPort)) {
				errs = append(errs, field.Invalid(p.Child("hostPort"), port.HostPort, msg))
			}
		}
		errs = append(errs, validateProtocol(port.Protocol, p.Child("protocol"))...)
	}
	return errs
}

// supportedProtocols is sorted, as upstream lists sets.List() values.
var supportedProtocols = []corev1.Protocol{corev1.ProtocolSCTP, corev1.ProtocolTCP, corev1.ProtocolUDP}

func validateProtocol(p corev1.Protocol, path *field.Path) field.ErrorList {
	switch p {
	case corev1.ProtocolTCP, corev1.ProtocolUDP, corev1.ProtocolSCTP:
		return nil
	case "":
		return field.ErrorList{field.Required(path, "")}
	}
	return field.ErrorList{field.NotSupported(path, p, supportedProtocols)}
}

// validatePullPolicy follows core/validation validatePullPolicy.
func validatePullPolicy(p corev1.PullPolicy, path *field.Path) field.ErrorList {
	switch {
	case pullPolicyOK(p):
		return nil
	case p == "":
		return field.ErrorList{field.Required(path, "")}
	}
	return field.ErrorList{field.NotSupported(path, p, []corev1.PullPolicy{corev1.PullAlways, corev1.PullIfNotPresent, corev1.PullNever})}
}

// pullPolicyOK reports whether p is one of the three policies.
func pullPolicyOK(p corev1.PullPolicy) bool {
	return p == corev1.PullAlways || p == corev1.PullIfNotPresent || p == corev1.PullNever
}

// validateRequests follows core/validation validateResourceRequirements
// for what the scheduler's numbers depend on: no quantity is negative
// (ValidateNonnegativeQuantity), integer resources such as pods are whole
// (ValidateResourceQuantityValue), no request exceeds its limit, and a
// resource that cannot be overcommitted has a limit equal to its request.
// Limits first, then requests, each in name order (upstream walks maps).
// Resources equal to ones that passed are not checked again (the caller
// asks validResources first).
func validateRequests(r *corev1.ResourceRequirements, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	defer func() {
		if len(errs) == 0 {
			validResources.remember(r)
		}
	}()
	for _, k := range slices.Sorted(maps.Keys(r.Limits)) {
		errs = append(errs, quantityValue(k, r.Limits[k], path.Child("limits").Key(string(k)))...)
	}
	for _, k := range slices.Sorted(maps.Keys(r.Requests)) {
		req := r.Requests[k]
		p := path.Child("requests").Key(string(k))
		errs = append(errs, quantityValue(k, req, p)...)
		// Upstream reports these on the requests path itself, without the
		// resource's key (field.Invalid(reqPath, …)).
		lim, ok := r.Limits[k]
		switch {
		case ok && req.Cmp(lim) != 0 && !overcommitAllowed(k):
			errs = append(errs, field.Invalid(path.Child("requests"), req.String(),
				fmt.Sprintf("must be equal to %s limit of %s", k, lim.String())))
		case ok && req.Cmp(lim) > 0:
			errs = append(errs, field.Invalid(path.Child("requests"), req.String(),
				fmt.Sprintf("must be less than or equal to %s limit of %s", k, lim.String())))
		case !ok && !overcommitAllowed(k):
			errs = append(errs, field.Required(path.Child("limits"), "Limit must be set for non overcommitable resources"))
		}
	}
	return errs
}

// overcommitAllowed is core/helper IsOvercommitAllowed: only native
// resources (no domain, or a kubernetes.io/ one) other than hugepages may
// have a request below their limit; extended resources (example.com/gpu)
// and hugepages are granted whole, so request and limit must be equal.
func overcommitAllowed(name corev1.ResourceName) bool {
	s := string(name)
	native := !strings.Contains(s, "/") || strings.Contains(s, "kubernetes.io/")
	return native && !strings.HasPrefix(s, corev1.ResourceHugePagesPrefix)
}

// quantityValue is core/validation ValidateResourceQuantityValue: not
// negative ("must be greater than or equal to 0"), and whole for the
// integer resources (pods, and extended resources such as nvidia.com/gpu).
func quantityValue(name corev1.ResourceName, q resource.Quantity, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if q.Cmp(resource.Quantity{}) < 0 {
		errs = append(errs, field.Invalid(path, q.String(), apivalidation.IsNegativeErrorMsg))
	}
	if integerResource(name) && q.MilliValue()%1000 != 0 {
		errs = append(errs, field.Invalid(path, q, "must be an integer"))
	}
	return errs
}

// integerResource is core/helper IsIntegerResourceName for the names a
// container can request: pods and extended resources (a domain outside
// kubernetes.io, not requests.*).
func integerResource(name corev1.ResourceName) bool {
	if name == corev1.ResourcePods {
		return true
	}
	s := string(name)
	return strings.Contains(s, "/") && !strings.Contains(s, "kubernetes.io/") && !strings.HasPrefix(s, "requests.")
}
