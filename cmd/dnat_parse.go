package cmd

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
)

// parsePort reads [name:]port[/protocol] into a Service port. The name is
// checked by the API server's rule for spec.ports[].name (package
// manifest): a DNS-1123 label (digits allowed, up to 63 characters:
// `kubectl create service clusterip nginx --tcp=80:80` names its port
// "80-80"); only container port names are IANA service names.
func parsePort(s string) (corev1.ServicePort, error) {
	sp := corev1.ServicePort{Protocol: corev1.ProtocolTCP}
	bad := func(why string) error {
		return exitcode.Inputf("invalid --port %q: %s (want [name:]port[/protocol], e.g. http:80/TCP)", s, why)
	}
	rest := s
	if name, p, ok := strings.Cut(rest, ":"); ok {
		sp.Name, rest = name, p
	}
	if p, proto, ok := strings.Cut(rest, "/"); ok {
		switch strings.ToUpper(proto) {
		case "TCP", "UDP", "SCTP":
			sp.Protocol = corev1.Protocol(strings.ToUpper(proto))
		default:
			return sp, bad("protocol must be TCP, UDP or SCTP")
		}
		rest = p
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < 1 || n > 65535 {
		return sp, bad("the port must be a number from 1 to 65535")
	}
	sp.Port = int32(n)
	return sp, nil
}

func parseIP(s, flag string) (netip.Addr, error) {
	a, err := netip.ParseAddr(s)
	if err != nil || a.Zone() != "" {
		return a, exitcode.Inputf("invalid %s %q: not an IPv4 or IPv6 address", flag, s)
	}
	return a.Unmap(), nil
}

func ipFamily(a netip.Addr) string {
	if a.Is4() {
		return "IPv4"
	}
	return "IPv6"
}

// parseEndpoint reads ip, ip:port, [ipv6] or [ipv6]:port, each optionally
// followed by @node. The address must be one an EndpointSlice accepts
// (core/validation ValidateEndpointIP: not unspecified, loopback or
// link-local). where says where s came from in an error: "" for
// --endpoints, "FILE:LINE" for a line of --endpoints-file.
func parseEndpoint(s string, defPort int, where string) (kubeproxy.Endpoint, error) {
	bad := func(format string, a ...any) error {
		why := fmt.Sprintf(format, a...)
		if where != "" {
			return exitcode.Inputf("%s: invalid endpoint %q: %s", where, s, why)
		}
		return exitcode.Inputf("invalid endpoint %q in --endpoints: %s", s, why)
	}
	addr, node, _ := strings.Cut(s, "@")
	if node != "" {
		for _, m := range validation.IsDNS1123Subdomain(node) {
			return kubeproxy.Endpoint{}, bad("node name: %s", m)
		}
	}
	host, port := addr, strconv.Itoa(defPort)
	if ap, err := netip.ParseAddrPort(addr); err == nil {
		host, port = ap.Addr().String(), strconv.Itoa(int(ap.Port()))
	} else if strings.HasPrefix(addr, "[") && strings.HasSuffix(addr, "]") {
		host = addr[1 : len(addr)-1]
	}
	a, err := netip.ParseAddr(host)
	if err != nil || a.Zone() != "" {
		return kubeproxy.Endpoint{}, bad("want ip:port (IPv6 as [ip]:port), optionally @node")
	}
	a = a.Unmap()
	for _, m := range endpointIPErrors(a) {
		return kubeproxy.Endpoint{}, bad("endpoints[0].addresses[0]: Invalid value: %q: %s", a.String(), m)
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 1 || n > 65535 {
		return kubeproxy.Endpoint{}, bad("port must be 1 to 65535")
	}
	return kubeproxy.Endpoint{IP: a.String(), Port: int32(n), Ready: true, Serving: true, NodeName: node}, nil
}

// endpointIPErrors are ValidateEndpointIP's messages for a.
func endpointIPErrors(a netip.Addr) []string {
	var out []string
	if a.IsUnspecified() {
		out = append(out, fmt.Sprintf("may not be unspecified (%v)", a))
	}
	if a.IsLoopback() {
		out = append(out, "may not be in the loopback range (127.0.0.0/8, ::1/128)")
	}
	if a.IsLinkLocalUnicast() {
		out = append(out, "may not be in the link-local range (169.254.0.0/16, fe80::/10)")
	}
	if a.IsLinkLocalMulticast() {
		out = append(out, "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)")
	}
	return out
}
