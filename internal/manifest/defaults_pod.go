package manifest

import (
	"maps"
	"sort"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// pod follows core/v1 defaults.go SetDefaults_Pod (Pods only, not
// templates) and then the pod spec defaults.
func (d *defaulter) pod(o *corev1.Pod) {
	// Requests default to limits when a container sets only limits: this is
	// what the scheduler then sees. Keys in name order for a stable trace.
	for i := range o.Spec.Containers {
		d.requestsFromLimits(&o.Spec.Containers[i].Resources, "spec.containers["+strconv.Itoa(i)+"].resources.requests")
	}
	for i := range o.Spec.InitContainers {
		d.requestsFromLimits(&o.Spec.InitContainers[i].Resources, "spec.initContainers["+strconv.Itoa(i)+"].resources.requests")
	}
	if o.Spec.EnableServiceLinks == nil {
		v := corev1.DefaultEnableServiceLinks
		o.Spec.EnableServiceLinks = &v
		d.note("spec.enableServiceLinks", strconv.FormatBool(v))
	}
	d.podSpec(&o.Spec, "spec")
}

func (d *defaulter) requestsFromLimits(r *corev1.ResourceRequirements, path string) {
	if r.Limits == nil {
		return
	}
	names := make([]string, 0, len(r.Limits))
	for k := range r.Limits {
		names = append(names, string(k))
	}
	sort.Strings(names)
	copied := false
	for _, k := range names {
		name := corev1.ResourceName(k)
		if _, ok := r.Requests[name]; ok {
			continue
		}
		if !copied {
			// The map may be shared with the pod's template (controller
			// copyTemplate): a copy before the first write.
			r.Requests = OwnResourceList(r.Requests)
			copied = true
		}
		q := r.Limits[name]
		r.Requests[name] = q.DeepCopy()
		d.note(path+"."+k, q.String())
	}
}

// OwnResourceList returns a copy of l to write to (an empty list for nil):
// a pod's resource maps may be shared with its template and its siblings
// (controller copyTemplate), so whoever adds to one copies it first.
func OwnResourceList(l corev1.ResourceList) corev1.ResourceList {
	if l == nil {
		return corev1.ResourceList{}
	}
	return maps.Clone(l)
}

// podSpec follows core/v1 defaults.go SetDefaults_PodSpec, then the
// container, port and probe defaults (SetDefaults_Container,
// SetDefaults_Probe, SetDefaults_HTTPGetAction, and ContainerPort.protocol
// +default=TCP in k8s.io/api core/v1 types.go).
func (d *defaulter) podSpec(s *corev1.PodSpec, path string) {
	if d.template {
		canonicalQuantities(s)
	}
	// serviceAccount is the deprecated alias of serviceAccountName: the two
	// are kept in sync, serviceAccountName winning (SetDefaults_PodSpec).
	if s.ServiceAccountName == "" && s.DeprecatedServiceAccount != "" {
		s.ServiceAccountName = s.DeprecatedServiceAccount
		d.note(path+".serviceAccountName", s.ServiceAccountName)
	}
	if s.DeprecatedServiceAccount != s.ServiceAccountName {
		s.DeprecatedServiceAccount = s.ServiceAccountName
		d.note(path+".serviceAccount", s.ServiceAccountName)
	}
	d.str((*string)(&s.DNSPolicy), string(corev1.DNSClusterFirst), path+".dnsPolicy")
	d.str((*string)(&s.RestartPolicy), string(corev1.RestartPolicyAlways), path+".restartPolicy")
	if s.SecurityContext == nil {
		s.SecurityContext = &corev1.PodSecurityContext{}
		d.note(path+".securityContext", "{}")
	}
	d.int64p(&s.TerminationGracePeriodSeconds, corev1.DefaultTerminationGracePeriodSeconds, path+".terminationGracePeriodSeconds")
	d.str(&s.SchedulerName, corev1.DefaultSchedulerName, path+".schedulerName")
	for i := range s.Volumes {
		d.volume(&s.Volumes[i], path+".volumes["+strconv.Itoa(i)+"]")
	}
	for i := range s.InitContainers {
		d.container(&s.InitContainers[i], path+".initContainers["+strconv.Itoa(i)+"]")
	}
	for i := range s.Containers {
		d.container(&s.Containers[i], path+".containers["+strconv.Itoa(i)+"]")
	}
}

func (d *defaulter) container(c *corev1.Container, path string) {
	if c.ImagePullPolicy == "" {
		c.ImagePullPolicy = PullPolicyFor(c.Image)
		d.note(path+".imagePullPolicy", string(c.ImagePullPolicy))
	}
	d.str(&c.TerminationMessagePath, corev1.TerminationMessagePathDefault, path+".terminationMessagePath")
	d.str((*string)(&c.TerminationMessagePolicy), string(corev1.TerminationMessageReadFile), path+".terminationMessagePolicy")
	for j := range c.Ports {
		d.str((*string)(&c.Ports[j].Protocol), string(corev1.ProtocolTCP), path+".ports["+strconv.Itoa(j)+"].protocol")
	}
	for j := range c.Env {
		if vf := c.Env[j].ValueFrom; vf != nil {
			d.fieldRef(vf.FieldRef, path+".env["+strconv.Itoa(j)+"].valueFrom.fieldRef")
		}
	}
	d.probe(c.StartupProbe, path+".startupProbe")
	d.probe(c.LivenessProbe, path+".livenessProbe")
	d.probe(c.ReadinessProbe, path+".readinessProbe")
	// hooks' httpGet too (zz_generated.defaults.go: SetDefaults_HTTPGetAction
	// on lifecycle.postStart/preStop; the oracle's hash of prestop.yaml)
	if l := c.Lifecycle; l != nil {
		d.httpGet(l.PostStart, path+".lifecycle.postStart")
		d.httpGet(l.PreStop, path+".lifecycle.preStop")
	}
}

func (d *defaulter) httpGet(h *corev1.LifecycleHandler, path string) {
	if h == nil || h.HTTPGet == nil {
		return
	}
	d.str(&h.HTTPGet.Path, "/", path+".httpGet.path")
	d.str((*string)(&h.HTTPGet.Scheme), string(corev1.URISchemeHTTP), path+".httpGet.scheme")
}

func (d *defaulter) probe(p *corev1.Probe, path string) {
	if p == nil {
		return
	}
	d.int32v(&p.TimeoutSeconds, 1, path+".timeoutSeconds")
	d.int32v(&p.PeriodSeconds, 10, path+".periodSeconds")
	d.int32v(&p.SuccessThreshold, 1, path+".successThreshold")
	d.int32v(&p.FailureThreshold, 3, path+".failureThreshold")
	if h := p.HTTPGet; h != nil {
		d.str(&h.Path, "/", path+".httpGet.path")
		d.str((*string)(&h.Scheme), string(corev1.URISchemeHTTP), path+".httpGet.scheme")
	}
	if g := p.GRPC; g != nil && g.Service == nil {
		// GRPCAction.service is +default="" (core/v1 types.go)
		g.Service = new(string)
		d.note(path+".grpc.service", `""`)
	}
}

// volume follows SetDefaults_Volume and the volume sources' defaults
// (core/v1 defaults.go): no source means emptyDir, file modes 0644 (420),
// hostPath type "", token projections one hour, fieldRef apiVersion v1.
func (d *defaulter) volume(v *corev1.Volume, path string) {
	vs := &v.VolumeSource
	// Size is 0 only when every source is nil (protobuf encodes a set pointer)
	if vs.Size() == 0 {
		vs.EmptyDir = &corev1.EmptyDirVolumeSource{}
		d.note(path+".emptyDir", "{}")
	}
	mode := func(m **int32, p string) { d.int32p(m, 0o644, p) }
	if vs.Secret != nil {
		mode(&vs.Secret.DefaultMode, path+".secret.defaultMode")
	}
	if vs.ConfigMap != nil {
		mode(&vs.ConfigMap.DefaultMode, path+".configMap.defaultMode")
	}
	if vs.DownwardAPI != nil {
		mode(&vs.DownwardAPI.DefaultMode, path+".downwardAPI.defaultMode")
		for i := range vs.DownwardAPI.Items {
			d.fieldRef(vs.DownwardAPI.Items[i].FieldRef, path+".downwardAPI.items["+strconv.Itoa(i)+"].fieldRef")
		}
	}
	if vs.Projected != nil {
		mode(&vs.Projected.DefaultMode, path+".projected.defaultMode")
		for i, src := range vs.Projected.Sources {
			sp := path + ".projected.sources[" + strconv.Itoa(i) + "]"
			if t := src.ServiceAccountToken; t != nil {
				d.int64p(&t.ExpirationSeconds, 3600, sp+".serviceAccountToken.expirationSeconds")
			}
			if da := src.DownwardAPI; da != nil {
				for j := range da.Items {
					d.fieldRef(da.Items[j].FieldRef, sp+".downwardAPI.items["+strconv.Itoa(j)+"].fieldRef")
				}
			}
		}
	}
	if h := vs.HostPath; h != nil && h.Type == nil {
		t := corev1.HostPathUnset
		h.Type = &t
		d.note(path+".hostPath.type", `""`)
	}
}

// fieldRef follows SetDefaults_ObjectFieldSelector: apiVersion v1.
func (d *defaulter) fieldRef(f *corev1.ObjectFieldSelector, path string) {
	if f != nil {
		d.str(&f.APIVersion, "v1", path+".apiVersion")
	}
}

// PullPolicyFor is the default imagePullPolicy for image: Always when the
// tag is "latest" (an image without tag or digest means :latest),
// IfNotPresent otherwise (core/v1 defaults.go SetDefaults_Container with
// pkg/util/parsers.ParseImageName).
func PullPolicyFor(image string) corev1.PullPolicy {
	ref := image
	digest := false
	if i := strings.Index(ref, "@"); i >= 0 {
		ref, digest = ref[:i], true
	}
	tag := ""
	if i := strings.LastIndex(ref, ":"); i > strings.LastIndex(ref, "/") {
		tag = ref[i+1:]
	}
	if tag == "latest" || (tag == "" && !digest) {
		return corev1.PullAlways
	}
	return corev1.PullIfNotPresent
}

// service follows core/v1 defaults.go SetDefaults_Service; the IP family
// fields are set by the service REST storage (pkg/registry/core/service/
// storage/alloc.go) for a single-stack IPv4 cluster like the simulated one.
func (d *defaulter) service(o *corev1.Service) {
	s := &o.Spec
	d.str((*string)(&s.SessionAffinity), string(corev1.ServiceAffinityNone), "spec.sessionAffinity")
	d.str((*string)(&s.Type), string(corev1.ServiceTypeClusterIP), "spec.type")
	for i := range s.Ports {
		p := &s.Ports[i]
		path := "spec.ports[" + strconv.Itoa(i) + "]"
		d.str((*string)(&p.Protocol), string(corev1.ProtocolTCP), path+".protocol")
		if p.TargetPort == intstr.FromInt32(0) || p.TargetPort == intstr.FromString("") {
			p.TargetPort = intstr.FromInt32(p.Port)
			d.note(path+".targetPort", strconv.Itoa(int(p.Port)))
		}
	}
	external := s.Type == corev1.ServiceTypeNodePort || s.Type == corev1.ServiceTypeLoadBalancer
	if external {
		d.str((*string)(&s.ExternalTrafficPolicy), string(corev1.ServiceExternalTrafficPolicyCluster), "spec.externalTrafficPolicy")
	}
	if s.InternalTrafficPolicy == nil && (external || s.Type == corev1.ServiceTypeClusterIP) {
		v := corev1.ServiceInternalTrafficPolicyCluster
		s.InternalTrafficPolicy = &v
		d.note("spec.internalTrafficPolicy", string(v))
	}
	if s.Type == corev1.ServiceTypeLoadBalancer && s.AllocateLoadBalancerNodePorts == nil {
		v := true
		s.AllocateLoadBalancerNodePorts = &v
		d.note("spec.allocateLoadBalancerNodePorts", "true")
	}
	// ipFamilyPolicy and ipFamilies are not defaults of the type: the
	// Service registry sets them when it allocates the ClusterIP, after
	// admission (core/v1 defaults.go leaves them to the registry).
}

// canonicalQuantities keeps, in each container quantity of a template, the
// canonical string Quantity.String computes and caches in the quantity
// (apimachinery resource/quantity.go String: q.s). ParseQuantity keeps the
// text only for some canonical forms ("10m" yes, "16Mi" no), and the
// protobuf Size of a quantity held by value in a map (a ResourceList)
// works on a copy, so without it every Size of every pod sharing the
// template's maps (the API server's bytes count of each watch event)
// formatted the quantity again. The value is the same and JSON shows the
// same text (MarshalJSON writes q.s when set, else the same canonical
// form); Semantic equality compares quantities by value. Only a
// template's maps are written: they belong to the request body, while a
// pod's may be shared with its template.
func canonicalQuantities(s *corev1.PodSpec) {
	for _, cs := range [][]corev1.Container{s.InitContainers, s.Containers} {
		for i := range cs {
			canonicalList(cs[i].Resources.Requests)
			canonicalList(cs[i].Resources.Limits)
		}
	}
}

func canonicalList(l corev1.ResourceList) {
	for name, q := range l {
		_ = q.String() // caches the text in q
		l[name] = q
	}
}
