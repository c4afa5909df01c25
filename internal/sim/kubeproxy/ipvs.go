package kubeproxy

import (
	"fmt"
	"net"
	"strconv"
	"strings"
)

// IPVSView is what a node in IPVS mode shows for the proxied ports: the
// VIPs bound to the kube-ipvs0 dummy interface, the virtual servers with
// their real servers, the KUBE-CLUSTER-IP ipset members and the fixed
// iptables rules that match the set instead of one rule per Service
// (pkg/proxy/ipvs/proxier.go).
type IPVSView struct {
	IPAddr, Ipvsadm, IPSet, Rules string
	// VirtualServers and RealServers count IPVS objects; IPTablesRules is
	// the fixed number of set-matching rules in KUBE-SERVICES shown here.
	VirtualServers, RealServers, IPTablesRules int
}

// BuildIPVS renders the IPVS state for the ports (scheduler rr; ClientIP
// affinity becomes "persistent TIMEOUT").
func BuildIPVS(cfg Config, ports []ServicePort) IPVSView {
	var v IPVSView
	var addr, adm, set strings.Builder
	eps := 0
	for _, sp := range ports {
		eps += len(sp.Endpoints)
	}
	addr.Grow(100 * len(ports))
	adm.Grow(50*len(ports) + 80*eps)
	set.Grow(40 * len(ports))
	adm.WriteString("IP Virtual Server version 1.2.1 (size=4096)\n")
	adm.WriteString("Prot LocalAddress:Port Scheduler Flags\n")
	adm.WriteString("  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn\n")
	// The columns after the address, as "%-7s %-6d %-10d %-10d" of Masq,
	// 1, 0, 0 print them, trailing spaces trimmed.
	realColumns := strings.TrimRight(fmt.Sprintf(" %-7s %-6d %-10d %-10d", "Masq", 1, 0, 0), " ") + "\n"
	fam, bits := "inet", "32"
	seen := map[string]bool{}
	var members []string
	for _, sp := range ports {
		if !sp.Proxied() {
			continue
		}
		if sp.IPv6() {
			fam, bits = "inet6", "128"
		}
		if !seen[sp.ClusterIP] {
			seen[sp.ClusterIP] = true
			fmt.Fprintf(&addr, "    %s %s/%s scope global kube-ipvs0\n       valid_lft forever preferred_lft forever\n", fam, sp.ClusterIP, bits)
		}
		vip := net.JoinHostPort(sp.ClusterIP, strconv.Itoa(int(sp.Port)))
		line := fmt.Sprintf("%s  %s rr", strings.ToUpper(sp.Proto()), vip)
		if sp.SessionAffinityClientIP {
			line += fmt.Sprintf(" persistent %d", sp.Timeout())
		}
		adm.WriteString(line + "\n")
		v.VirtualServers++
		for _, ep := range sp.UsableEndpoints() {
			// "  -> %-28s" then the fixed columns.
			hp := ep.String()
			adm.WriteString("  -> ")
			adm.WriteString(hp)
			for i := len(hp); i < 28; i++ {
				adm.WriteByte(' ')
			}
			adm.WriteString(realColumns)
			v.RealServers++
		}
		members = append(members, fmt.Sprintf("%s,%s:%d", sp.ClusterIP, sp.Proto(), sp.Port))
	}
	v.IPAddr = "7: kube-ipvs0: <BROADCAST,NOARP> mtu 1500 qdisc noop state DOWN group default\n" +
		"    link/ether 4a:3c:9e:1f:70:2d brd ff:ff:ff:ff:ff:ff\n" + addr.String()
	v.Ipvsadm = adm.String()
	family := "inet"
	if fam == "inet6" {
		family = "inet6"
	}
	fmt.Fprintf(&set, "Name: KUBE-CLUSTER-IP\nType: hash:ip,port\nHeader: family %s hashsize 1024 maxelem 65536\nMembers:\n", family)
	for _, m := range members {
		set.WriteString(m + "\n")
	}
	v.IPSet = set.String()
	var rules []string
	if cfg.ClusterCIDR != "" {
		rules = append(rules, fmt.Sprintf(`-A KUBE-SERVICES ! -s %s -m comment --comment "Kubernetes service cluster ip + port for masquerade purpose" -m set --match-set KUBE-CLUSTER-IP dst,dst -j KUBE-MARK-MASQ`, cfg.ClusterCIDR))
	}
	rules = append(rules,
		"-A KUBE-SERVICES -m addrtype --dst-type LOCAL -j KUBE-NODE-PORT",
		"-A KUBE-SERVICES -m set --match-set KUBE-CLUSTER-IP dst,dst -j ACCEPT")
	v.IPTablesRules = len(rules)
	v.Rules = strings.Join(rules, "\n") + "\n"
	return v
}
