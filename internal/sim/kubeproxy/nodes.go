package kubeproxy

import (
	"net/netip"
	"strconv"
	"strings"
)

// Where k8sexplain puts nodes and clients when a Service comes without
// them: the names and addresses the dnat command shows.

// NodeName is the simulator's node naming (package sim): node-a, node-b, …
func NodeName(i int) string { return "node-" + string(rune('a'+i%26)) }

// NodeIP is the InternalIP k8sexplain gives node-a, node-b, …:
// 192.168.0.11, .12, … (outside any cluster CIDR).
func NodeIP(name string) string {
	if len(name) == 6 && strings.HasPrefix(name, "node-") && name[5] >= 'a' && name[5] <= 'z' {
		return "192.168.0." + strconv.Itoa(11+int(name[5]-'a'))
	}
	return "192.168.0.10"
}

// ClientOnNode is the walk's client pod on node: an address of the node's
// pod network (the /24 its endpoints come from, as node-ipam cut it) that no
// endpoint uses, so the walk starts where the rules are. "" when no endpoint
// tells the node's pod network.
func ClientOnNode(eps []Endpoint, node string) string {
	used := map[netip.Addr]bool{}
	var base netip.Prefix
	for _, ep := range eps {
		a, err := netip.ParseAddr(ep.IP)
		if err != nil || !a.Is4() {
			continue
		}
		used[a] = true
		if ep.NodeName == node && !base.IsValid() {
			base, _ = a.Prefix(24)
		}
	}
	if !base.IsValid() {
		return ""
	}
	b := base.Addr().As4()
	for host := 5; host < 255; host++ {
		b[3] = byte(host)
		if a := netip.AddrFrom4(b); !used[a] {
			return a.String()
		}
	}
	return ""
}
