package manifest

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateServiceSpec mirrors the parts of core/validation ValidateService
// a manifest can get wrong: ports required unless headless or
// ExternalName, each port valid and named when there are several, the
// type, and the cluster IP.
func validateServiceSpec(s *corev1.ServiceSpec) field.ErrorList {
	var errs field.ErrorList
	headless := s.ClusterIP == corev1.ClusterIPNone
	if len(s.Ports) == 0 && !headless && s.Type != corev1.ServiceTypeExternalName {
		errs = append(errs, field.Required(specPath.Child("ports"), ""))
	}
	switch s.Type {
	case corev1.ServiceTypeClusterIP, corev1.ServiceTypeNodePort, corev1.ServiceTypeLoadBalancer, corev1.ServiceTypeExternalName:
	case "":
		errs = append(errs, field.Required(specPath.Child("type"), ""))
	default:
		errs = append(errs, field.NotSupported(specPath.Child("type"), s.Type, []corev1.ServiceType{
			corev1.ServiceTypeClusterIP, corev1.ServiceTypeExternalName, corev1.ServiceTypeLoadBalancer, corev1.ServiceTypeNodePort}))
	}
	names := sets.New[string]()
	for i := range s.Ports {
		errs = append(errs, validateServicePort(&s.Ports[i], len(s.Ports) > 1, names, specPath.Child("ports").Index(i))...)
	}
	errs = append(errs, validateServiceExternalTraffic(s)...)
	if headless && (s.Type == corev1.ServiceTypeNodePort || s.Type == corev1.ServiceTypeLoadBalancer) {
		// ValidateService: a node port or load balancer needs a cluster
		// IP (the error names clusterIPs, as below).
		errs = append(errs, field.Invalid(specPath.Child("clusterIPs").Index(0), s.ClusterIP,
			fmt.Sprintf("may not be set to 'None' for %s services", s.Type)))
	}
	if c := s.SessionAffinityConfig; s.SessionAffinity == corev1.ServiceAffinityClientIP && c != nil && c.ClientIP != nil && c.ClientIP.TimeoutSeconds != nil {
		// validateClientIPAffinityConfig: 0 < timeoutSeconds <= 86400
		// (core.MaxClientIPServiceAffinitySeconds). Its Required halves
		// are left out: the defaulter does not fill the 10800 s default.
		if t := *c.ClientIP.TimeoutSeconds; t <= 0 || t > maxClientIPAffinitySeconds {
			errs = append(errs, field.Invalid(specPath.Child("sessionAffinityConfig", "clientIP", "timeoutSeconds"), t,
				fmt.Sprintf("must be greater than 0 and less than %d", maxClientIPAffinitySeconds)))
		}
	}
	if s.ClusterIP != "" && !headless {
		// The registry copies clusterIP into clusterIPs[0] before
		// validation, so the error names clusterIPs (core/validation
		// validateServiceClusterIPsRelatedFields).
		errs = append(errs, validation.IsValidIPForLegacyField(specPath.Child("clusterIPs").Index(0), s.ClusterIP, true, nil)...)
	}
	return errs
}

// validateServiceExternalTraffic follows core/validation
// validateServiceExternalTrafficPolicy (v1.37) for the fields a client
// sets: the external policy belongs to an externally accessible Service
// (NodePort, LoadBalancer, or one with externalIPs), the health-check node
// port to a LoadBalancer with the Local policy. Their "Required" halves
// are left out: the defaulter and the registry's allocator fill them.
func validateServiceExternalTraffic(s *corev1.ServiceSpec) field.ErrorList {
	var errs field.ErrorList
	external := s.Type == corev1.ServiceTypeNodePort || s.Type == corev1.ServiceTypeLoadBalancer || len(s.ExternalIPs) > 0
	if !external && s.ExternalTrafficPolicy != "" {
		errs = append(errs, field.Invalid(specPath.Child("externalTrafficPolicy"), s.ExternalTrafficPolicy,
			"may only be set for externally-accessible services"))
	}
	needsHealthCheck := s.Type == corev1.ServiceTypeLoadBalancer && s.ExternalTrafficPolicy == corev1.ServiceExternalTrafficPolicyLocal
	if !needsHealthCheck && s.HealthCheckNodePort != 0 {
		errs = append(errs, field.Invalid(specPath.Child("healthCheckNodePort"), s.HealthCheckNodePort,
			"may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"))
	}
	return errs
}

// validateServicePort follows core/validation validateServicePort.
func validateServicePort(sp *corev1.ServicePort, requireName bool, names sets.Set[string], path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if requireName && sp.Name == "" {
		errs = append(errs, field.Required(path.Child("name"), ""))
	} else if sp.Name != "" {
		for _, msg := range validation.IsDNS1123Label(sp.Name) {
			errs = append(errs, field.Invalid(path.Child("name"), sp.Name, msg))
		}
		if names.Has(sp.Name) {
			errs = append(errs, field.Duplicate(path.Child("name"), sp.Name))
		} else {
			names.Insert(sp.Name)
		}
	}
	for _, msg := range validation.IsValidPortNum(int(sp.Port)) {
		errs = append(errs, field.Invalid(path.Child("port"), sp.Port, msg))
	}
	errs = append(errs, validateProtocol(sp.Protocol, path.Child("protocol"))...)
	tp := path.Child("targetPort")
	if sp.TargetPort.Type == intstr.Int {
		for _, msg := range validation.IsValidPortNum(sp.TargetPort.IntValue()) {
			errs = append(errs, field.Invalid(tp, sp.TargetPort.IntValue(), msg))
		}
	} else {
		for _, msg := range validation.IsValidPortName(sp.TargetPort.StrVal) {
			errs = append(errs, field.Invalid(tp, sp.TargetPort.StrVal, msg))
		}
	}
	if sp.NodePort != 0 {
		for _, msg := range validation.IsValidPortNum(int(sp.NodePort)) {
			errs = append(errs, field.Invalid(path.Child("nodePort"), sp.NodePort, msg))
		}
	}
	return errs
}

// maxClientIPAffinitySeconds is core.MaxClientIPServiceAffinitySeconds
// (pkg/apis/core/types.go: a day), which k8s.io/api does not export.
const maxClientIPAffinitySeconds = 86400
