package apiserver

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/trace"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// defaultTolerationSeconds is what the DefaultTolerationSeconds admission
// plugin adds for not-ready and unreachable nodes
// (plugin/pkg/admission/defaulttolerationseconds, 300 s each).
const defaultTolerationSeconds int64 = 300

// kubeAPIAccess is the source of the kube-api-access-xxxxx volume the
// ServiceAccount plugin adds (plugin/pkg/admission/serviceaccount/admission.go
// TokenVolumeSource): the bound token (expiration 3607 s, the
// WarnOnlyBoundTokenExpirationSeconds), the cluster's CA from the
// kube-root-ca.crt ConfigMap, the namespace from the downward API, and
// defaultMode 0644 set explicitly, as defaulting does not run after
// admission. The same for every pod, it is shared by all of them and
// read-only, as every stored object is.
var kubeAPIAccess = &corev1.ProjectedVolumeSource{
	DefaultMode: ptr(corev1.ProjectedVolumeSourceDefaultMode),
	Sources: []corev1.VolumeProjection{
		{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: ptr(int64(3607))}},
		{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"},
			Items: []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
		{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{Path: "namespace",
			FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}}}},
	},
}

func hasToleration(p *corev1.Pod, key string) bool {
	for _, t := range p.Spec.Tolerations {
		if (t.Key == key || (t.Key == "" && t.Operator == corev1.TolerationOpExists)) &&
			(t.Effect == "" || t.Effect == corev1.TaintEffectNoExecute) {
			return true
		}
	}
	return false
}

// kubeAPIAccessName is "kube-api-access-" and five random characters
// (plugin/pkg/admission/serviceaccount: rand.String(5)), built in one
// allocation.
func (s *Server) kubeAPIAccessName() string {
	const prefix = "kube-api-access-"
	var b [len(prefix) + 5]byte
	copy(b[:], prefix)
	for i := len(prefix); i < len(b); i++ {
		b[i] = nameAlphabet[s.eng.Rand().IntN(len(nameAlphabet))]
	}
	return string(b[:])
}

func ptr[T any](v T) *T { return &v }

// validatingPlugins names the validating admission plugins that look at a
// request of this resource in a default kubeadm cluster.
func validatingPlugins(r Resource) string {
	if r.Kind == "Pod" {
		return strings.Join(validatingPodPlugins, ", ")
	}
	return strings.Join(validatingPlugins_, ", ")
}

// ipAllocator hands out Service ClusterIPs from the service CIDR. Upstream
// picks a random free address (pkg/registry/core/service/ipallocator); the
// first address is reserved for the `kubernetes` Service.
type ipAllocator struct {
	base net.IP
	size int
	used map[int]bool
}

func newIPAllocator(cidr string) (*ipAllocator, error) {
	ip, n, err := net.ParseCIDR(cidr)
	if err != nil || ip.To4() == nil {
		return nil, fmt.Errorf("service CIDR %q: want an IPv4 CIDR", cidr)
	}
	ones, bits := n.Mask.Size()
	size := 1<<(bits-ones) - 2
	if size < 2 {
		return nil, fmt.Errorf("service CIDR %q is too small", cidr)
	}
	return &ipAllocator{base: n.IP.To4(), size: size, used: map[int]bool{1: true}}, nil
}

// offset is ip's place in the range (1 to size), if it is inside.
func (a *ipAllocator) offset(ip string) (int, bool) {
	p, err := netip.ParseAddr(ip)
	if err != nil || !p.Is4() {
		return 0, false
	}
	b := p.As4()
	v := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
	base := uint32(a.base[0])<<24 | uint32(a.base[1])<<16 | uint32(a.base[2])<<8 | uint32(a.base[3])
	if v <= base || int64(v)-int64(base) > int64(a.size) {
		return 0, false // the network address and the broadcast are not assignable
	}
	return int(v - base), true
}

// isIPv4: an address that is not one is for validation to refuse
// ("must be a valid IP address").
func isIPv4(ip string) bool {
	p, err := netip.ParseAddr(ip)
	return err == nil && p.Is4()
}

// cidr writes the range as the allocator's message does.
func (a *ipAllocator) cidr() string {
	bits := 32
	for n := a.size + 2; n > 1; n >>= 1 {
		bits--
	}
	return fmt.Sprintf("%s/%d", net.IP(a.base).String(), bits)
}

// singleStackOnly refuses what a single-stack IPv4 cluster cannot give a
// Service (pkg/registry/core/service/storage/alloc.go initIPFamilyFields,
// v1.37): an IPv6 clusterIP or family, or RequireDualStack.
func singleStackOnly(svc *corev1.Service) error {
	var errs field.ErrorList
	if ip := svc.Spec.ClusterIP; ip != "" && ip != corev1.ClusterIPNone {
		if p, err := netip.ParseAddr(ip); err == nil && !p.Is4() {
			ips := svc.Spec.ClusterIPs
			if len(ips) == 0 {
				ips = []string{ip}
			}
			errs = append(errs, field.Invalid(field.NewPath("spec", "clusterIPs").Index(0), ips, "IPv6 is not configured on this cluster"))
		}
	}
	if len(errs) == 0 {
		if p := svc.Spec.IPFamilyPolicy; p != nil && *p == corev1.IPFamilyPolicyRequireDualStack {
			errs = append(errs, field.Invalid(field.NewPath("spec", "ipFamilyPolicy"), *p, "this cluster is not configured for dual-stack services"))
		}
		for i, f := range svc.Spec.IPFamilies {
			if f != corev1.IPv4Protocol {
				errs = append(errs, field.Invalid(field.NewPath("spec", "ipFamilies").Index(i), f, "not configured on this cluster"))
			}
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return apierrors.NewInvalid(schema.GroupKind{Kind: "Service"}, svc.Name, errs)
}

func invalidClusterIP(svc *corev1.Service, msg string) *Status {
	return AsStatus(apierrors.NewInvalid(schema.GroupKind{Kind: "Service"}, svc.Name,
		field.ErrorList{field.Invalid(field.NewPath("spec", "clusterIPs"), []string{svc.Spec.ClusterIP}, msg)}))
}

func (a *ipAllocator) ip(off int) string {
	v := uint32(a.base[0])<<24 | uint32(a.base[1])<<16 | uint32(a.base[2])<<8 | uint32(a.base[3])
	v += uint32(off)
	return net.IPv4(byte(v>>24), byte(v>>16), byte(v>>8), byte(v)).String()
}

// allocateClusterIP is the Service registry's allocation
// (pkg/registry/core/service/storage alloc.go): it sets ipFamilyPolicy
// (SingleStack) and ipFamilies ([IPv4]) of a single-stack cluster, picks a
// free address of the service CIDR unless the user chose one, and — with
// the MultiCIDRServiceAllocator allocator, the default since v1.33 — claims
// it by writing an IPAddress object named after the address, whose
// parentRef is the Service. It returns how to give the address back if the
// create fails later.
func (s *Server) allocateClusterIP(c *Client, svc *corev1.Service, step func(trace.Kind, ...any)) (func(), *Status) {
	if svc.Spec.Type == corev1.ServiceTypeExternalName {
		return nil, nil
	}
	if err := singleStackOnly(svc); err != nil {
		return nil, AsStatus(err)
	}
	if svc.Spec.IPFamilyPolicy == nil {
		p := corev1.IPFamilyPolicySingleStack
		svc.Spec.IPFamilyPolicy = &p
	}
	if len(svc.Spec.IPFamilies) == 0 {
		svc.Spec.IPFamilies = []corev1.IPFamily{corev1.IPv4Protocol}
	}
	if svc.Spec.ClusterIP == corev1.ClusterIPNone {
		// a headless Service stores clusterIPs [None] too (service storage
		// normalizeClusterIPs; the oracle's statefulset recording)
		if len(svc.Spec.ClusterIPs) == 0 {
			svc.Spec.ClusterIPs = []string{corev1.ClusterIPNone}
		}
		step("apiserver.clusterip", "ip", "None", "families", "IPv4", "policy", string(*svc.Spec.IPFamilyPolicy), "key", "-")
		return nil, nil
	}
	a := s.serviceIPs
	off := -1
	if ip := svc.Spec.ClusterIP; ip != "" && isIPv4(ip) {
		// A chosen address must be a free one of the range (alloc.go
		// allocClusterIPs: "failed to allocate IP %v: %v", with
		// ipallocator's ErrNotInRange / ErrAllocated texts).
		if o, ok := a.offset(ip); !ok {
			return nil, invalidClusterIP(svc, fmt.Sprintf("failed to allocate IP %s: provided IP is not in the valid range. The range of valid IPs is %s", ip, a.cidr()))
		} else if a.used[o] || s.data[Key(Resource{Kind: "IPAddress", Plural: "ipaddresses", Group: "networking.k8s.io"}, "", ip)] != nil {
			return nil, invalidClusterIP(svc, fmt.Sprintf("failed to allocate IP %s: provided IP is already allocated", ip))
		} else {
			a.used[o], off = true, o
		}
	}
	if svc.Spec.ClusterIP == "" {
		if len(a.used) >= a.size {
			return nil, &Status{Code: http.StatusInternalServerError, Reason: "InternalError", Message: "failed to allocate a serviceIP: range is full"}
		}
		for off < 0 || a.used[off] {
			off = 1 + s.eng.Rand().IntN(a.size)
		}
		a.used[off] = true
		svc.Spec.ClusterIP = a.ip(off)
	}
	svc.Spec.ClusterIPs = []string{svc.Spec.ClusterIP}
	ipa := &networkingv1.IPAddress{}
	ipa.Name = svc.Spec.ClusterIP
	ipa.Labels = map[string]string{"ipaddress.kubernetes.io/ip-family": "IPv4", "ipaddress.kubernetes.io/managed-by": "ipallocator.k8s.io"}
	ipa.Spec.ParentRef = &networkingv1.ParentReference{Resource: "services", Namespace: svc.Namespace, Name: svc.Name}
	res := ResourceOf(ipa)
	key := Key(res, "", ipa.Name)
	s.stamp(ipa)
	if s.first == 0 {
		s.first = s.rev
	}
	s.put(key, &stored{obj: ipa, res: s.resource(res)})
	step("apiserver.clusterip", "ip", svc.Spec.ClusterIP, "families", "IPv4", "policy", string(*svc.Spec.IPFamilyPolicy), "key", key)
	return func() {
		s.del(key)
		if off >= 0 {
			delete(a.used, off)
		}
	}, nil
}

// releaseService gives back what the Service registry allocated for a
// deleted Service, as its REST delete does (pkg/registry/core/service/
// storage/storage.go afterDelete → alloc.go releaseAllocatedResources,
// v1.37): the ClusterIP — with the MultiCIDRServiceAllocator allocator its
// IPAddress object is deleted — and every nodePort and the
// healthCheckNodePort. Nothing watches IPAddresses here, so no watch
// event; the delete still takes an etcd revision.
func (s *Server) releaseService(svc *corev1.Service) {
	if ip := svc.Spec.ClusterIP; ip != "" && ip != corev1.ClusterIPNone {
		key := Key(ResourceOf(&networkingv1.IPAddress{}), "", ip)
		if st := s.data[key]; st != nil {
			if ref := st.obj.(*networkingv1.IPAddress).Spec.ParentRef; ref != nil && ref.Namespace == svc.Namespace && ref.Name == svc.Name {
				s.del(key)
				s.rev++
			}
		}
		if off, ok := s.serviceIPs.offset(ip); ok {
			delete(s.serviceIPs.used, off)
		}
	}
	for _, p := range svc.Spec.Ports {
		if p.NodePort != 0 {
			delete(s.nodePorts, p.NodePort)
		}
	}
	if p := svc.Spec.HealthCheckNodePort; p != 0 {
		delete(s.nodePorts, p)
	}
}

// The default --service-node-port-range, 30000-32767.
const (
	nodePortBase = 30000
	nodePortSize = 2768
)

// nodePortOffset is the size of the range's static band, which dynamic
// allocation leaves to users first: min(max(16, size/32), 128), 86 ports
// for the default range (pkg/registry/core/service/portallocator
// allocator.go calcOffset, ServiceNodePortStaticSubrange, GA v1.29; read
// at v1.37).
const nodePortOffset = 86

// allocateNodePorts is the Service registry's node-port allocation
// (pkg/registry/core/service/storage/alloc.go allocNodePorts and
// allocHealthCheckNodePort, v1.37): every port of a NodePort or
// LoadBalancer Service gets a nodePort (a user-given one is kept if free),
// and a LoadBalancer with externalTrafficPolicy: Local also gets
// spec.healthCheckNodePort (apiservice.NeedsHealthCheck). A free port is
// drawn at random from the upper band, as the allocator's random scan with
// offset does, from the run's seeded RNG. The returned func frees them.
func (s *Server) allocateNodePorts(svc *corev1.Service, step func(trace.Kind, ...any)) (func(), *Status) {
	// A LoadBalancer with allocateLoadBalancerNodePorts: false gets none
	// (alloc.go shouldAllocateNodePorts); its health-check port it still gets.
	lbNoPorts := svc.Spec.Type == corev1.ServiceTypeLoadBalancer &&
		svc.Spec.AllocateLoadBalancerNodePorts != nil && !*svc.Spec.AllocateLoadBalancerNodePorts
	if svc.Spec.Type != corev1.ServiceTypeNodePort && svc.Spec.Type != corev1.ServiceTypeLoadBalancer {
		return nil, nil
	}
	if s.nodePorts == nil {
		s.nodePorts = map[int32]bool{}
	}
	a := &portClaims{s: s}
	// User-given ports first, so that a random pick never takes one.
	for i := range svc.Spec.Ports {
		if p := svc.Spec.Ports[i].NodePort; p != 0 {
			if msg := a.claim(p); msg != "" {
				a.release()
				return nil, AsStatus(apierrors.NewInvalid(schema.GroupKind{Kind: "Service"}, svc.Name,
					field.ErrorList{field.Invalid(field.NewPath("spec", "ports").Index(i).Child("nodePort"), p, msg)}))
			}
		}
	}
	for i := range svc.Spec.Ports {
		if svc.Spec.Ports[i].NodePort == 0 && !lbNoPorts {
			p, ok := a.next()
			if !ok {
				a.release()
				return nil, AsStatus(apierrors.NewInternalError(fmt.Errorf("failed to allocate a nodePort: range is full")))
			}
			a.take(p)
			svc.Spec.Ports[i].NodePort = p
		}
	}
	var ports []string
	for _, sp := range svc.Spec.Ports {
		if sp.NodePort != 0 {
			ports = append(ports, fmt.Sprintf("%d→%d", sp.Port, sp.NodePort))
		}
	}
	if len(ports) > 0 {
		step("apiserver.nodeport", "ports", strings.Join(ports, ", "), "type", string(svc.Spec.Type))
	}
	if svc.Spec.Type == corev1.ServiceTypeLoadBalancer && svc.Spec.ExternalTrafficPolicy == corev1.ServiceExternalTrafficPolicyLocal {
		if st := a.healthCheckPort(svc); st != nil {
			return nil, st
		}
		step("apiserver.healthchecknodeport", "hc", svc.Spec.HealthCheckNodePort)
	}
	return a.release, nil
}

// portClaims are the node ports one Service's create has taken so far.
type portClaims struct {
	s     *Server
	taken []int32
}

// take marks p allocated to this Service.
func (a *portClaims) take(p int32) {
	a.s.nodePorts[p] = true
	a.taken = append(a.taken, p)
}

// release frees every port taken.
func (a *portClaims) release() {
	for _, p := range a.taken {
		delete(a.s.nodePorts, p)
	}
}

// claim takes a user-given port, or says why it cannot.
func (a *portClaims) claim(p int32) string {
	switch {
	case p < nodePortBase || p >= nodePortBase+nodePortSize:
		return fmt.Sprintf("provided port is not in the valid range. The range of valid ports is %d-%d", nodePortBase, nodePortBase+nodePortSize-1)
	case a.s.nodePorts[p]:
		return "provided port is already allocated" // portallocator.ErrAllocated
	}
	a.take(p)
	return ""
}

// next is a free port: random in the upper band first, then anywhere free.
func (a *portClaims) next() (int32, bool) {
	s := a.s
	if len(s.nodePorts) >= nodePortSize {
		return 0, false
	}
	for range 64 {
		p := int32(nodePortBase + nodePortOffset + s.eng.Rand().IntN(nodePortSize-nodePortOffset))
		if !s.nodePorts[p] {
			return p, true
		}
	}
	for p := int32(nodePortBase + nodePortSize - 1); p >= nodePortBase; p-- {
		if !s.nodePorts[p] {
			return p, true
		}
	}
	return 0, false
}

// healthCheckPort gives a LoadBalancer with externalTrafficPolicy: Local its
// spec.healthCheckNodePort (alloc.go allocHealthCheckNodePort): the given
// one if free, else a drawn one; on failure every port taken is freed.
func (a *portClaims) healthCheckPort(svc *corev1.Service) *Status {
	if p := svc.Spec.HealthCheckNodePort; p != 0 {
		if msg := a.claim(p); msg != "" {
			a.release()
			return AsStatus(apierrors.NewInternalError(fmt.Errorf("failed to allocate requested HealthCheck NodePort %d: %s", p, msg)))
		}
		return nil
	}
	p, ok := a.next()
	if !ok {
		a.release()
		return AsStatus(apierrors.NewInternalError(fmt.Errorf("failed to allocate a HealthCheck NodePort %d: range is full", p)))
	}
	a.take(p)
	svc.Spec.HealthCheckNodePort = p
	return nil
}
