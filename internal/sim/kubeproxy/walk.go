package kubeproxy

import (
	"math/rand/v2"
	"net"
	"net/netip"
	"sort"
	"strconv"
	"strings"
)

// Packet is the first packet of a connection (a TCP SYN) as netfilter sees
// it at the hooks: addresses, ports, the skb mark and the conntrack state.
type Packet struct {
	Src, Dst     string
	SPort, DPort int
	Proto        string // lowercase
	Mark         uint32
}

// Step is one rule the kernel evaluated.
type Step struct {
	Table, Chain string
	// Index is the rule's 1-based position in its chain.
	Index   int
	Rule    Rule
	Matched bool
	// Roll is set when the rule has a statistic match that was evaluated.
	Roll *Roll
}

// Roll is one statistic-match decision: the kernel draws a 31-bit random
// number and matches when it is below the stored probability.
type Roll struct {
	Draw, Threshold uint32
}

// Walk is the journey of one new connection through the hooks of the node
// the client pod runs on: nat PREROUTING, filter FORWARD, nat POSTROUTING.
type Walk struct {
	Before, After Packet
	Steps         []Step
	// SEP is the endpoint chain taken and Endpoint its ip:port ("" if none).
	SEP, Endpoint string
	// Verdict is ACCEPT, REJECT or DROP.
	Verdict string
	// Masquerade reports that POSTROUTING rewrote the source (SNAT).
	Masquerade bool
	// Affinity reports that a "recent --rcheck" rule chose the endpoint.
	Affinity bool
	// Hairpin reports that the endpoint chosen is the client itself.
	Hairpin bool
	// Hooks are the netfilter hooks the packet went through, in order
	// ("nat PREROUTING", "filter INPUT", …).
	Hooks []string
}

// Affinity is the kernel's xt_recent state: list name → source IPs seen.
// Timestamps are not modelled (all connections happen within the timeout).
type Affinity map[string]map[string]bool

type walker struct {
	chains   map[string]map[string][]Rule // table → chain → rules
	rng      *rand.Rand
	aff      Affinity
	p        Packet
	w        *Walk
	verdict  string
	natDone  bool
	ipv6     bool
	newState bool
	local    map[string]bool
}

// WalkNew sends one new connection's first packet through the ruleset. rng
// stands in for the kernel's prandom (the same seed gives the same walk);
// aff carries session-affinity state between connections (may be nil).
func (rs Ruleset) WalkNew(p Packet, rng *rand.Rand, aff Affinity) Walk {
	w := &Walk{Before: p}
	k := &walker{chains: map[string]map[string][]Rule{}, rng: rng, aff: aff, p: p, w: w, ipv6: rs.IPv6, newState: true,
		local: map[string]bool{"127.0.0.1": true, "::1": true}}
	if rs.Config.NodeIP != "" {
		k.local[rs.Config.NodeIP] = true
	}
	for _, t := range []Table{rs.Filter, rs.NAT} {
		k.chains[t.Name] = map[string][]Rule{}
		for _, r := range t.Rules {
			k.chains[t.Name][r.Chain] = append(k.chains[t.Name][r.Chain], r)
		}
	}
	for _, j := range rs.Jumps {
		k.chains[j.Table][j.Chain] = append(k.chains[j.Table][j.Chain], j.Rule)
	}
	// The packet enters the host (from a pod's veth or the node's NIC):
	// nat PREROUTING, then routing: to a local address it goes up through
	// filter INPUT, otherwise it is forwarded through filter FORWARD and
	// leaves via nat POSTROUTING.
	hooks := [][2]string{{"nat", "PREROUTING"}}
	for i := 0; i < len(hooks); i++ {
		hook := hooks[i]
		w.Hooks = append(w.Hooks, hook[0]+" "+hook[1])
		k.verdict = ""
		k.run(hook[0], hook[1])
		if k.verdict == "REJECT" || k.verdict == "DROP" {
			w.Verdict = k.verdict
			w.After = k.p
			return *w
		}
		if i == 0 {
			if k.local[k.p.Dst] {
				hooks = append(hooks, [2]string{"filter", "INPUT"})
			} else {
				hooks = append(hooks, [2]string{"filter", "FORWARD"}, [2]string{"nat", "POSTROUTING"})
			}
		}
	}
	w.Verdict = "ACCEPT"
	if w.Masquerade && rs.Config.NodeIP != "" {
		// MASQUERADE takes the outgoing interface's address: the node's
		// InternalIP (with a bridge CNI a pod on the same node would see
		// the bridge's address instead).
		k.p.Src = rs.Config.NodeIP
	}
	w.After = k.p
	w.Hairpin = w.Endpoint != "" && k.p.Dst == p.Src
	return *w
}

// run evaluates a chain; it returns true when a terminating target ended
// the traversal of the table.
func (k *walker) run(table, chain string) bool {
	for i, r := range k.chains[table][chain] {
		st := Step{Table: table, Chain: chain, Index: i + 1, Rule: r}
		ok, target, topts := k.match(r, &st)
		st.Matched = ok
		k.w.Steps = append(k.w.Steps, st)
		if !ok {
			continue
		}
		switch target {
		case "RETURN":
			return false
		case "ACCEPT", "DROP", "REJECT":
			k.verdict = target
			return true
		case "DNAT":
			dest := topts["--to-destination"]
			host, port, _ := net.SplitHostPort(dest)
			k.p.Dst = host
			k.p.DPort, _ = strconv.Atoi(port)
			k.w.SEP, k.w.Endpoint = chain, dest
			return true
		case "MASQUERADE":
			k.w.Masquerade = true
			return true
		case "":
			// A rule without a target (KUBE-FW's last, comment-only rule).
		case "MARK":
			if v, ok := topts["--or-mark"]; ok {
				k.p.Mark |= parseHex(v)
			}
			if v, ok := topts["--xor-mark"]; ok {
				k.p.Mark ^= parseHex(v)
			}
		default:
			if strings.HasPrefix(target, "KUBE-SEP-") && st.Rule.hasRecentCheck() {
				k.w.Affinity = true
			}
			if k.run(table, target) {
				return true
			}
		}
	}
	return false
}

func (r Rule) hasRecentCheck() bool {
	for _, a := range r.Args {
		if a == "--rcheck" {
			return true
		}
	}
	return false
}

func parseHex(s string) uint32 {
	n, _ := strconv.ParseUint(strings.TrimPrefix(s, "0x"), 16, 32)
	return uint32(n)
}

// match evaluates a rule the way the kernel does: the IP header fields
// (-s, -d, -p) first, then the -m matches in order, stopping at the first
// that fails (so a statistic match only draws when everything before it
// matched). It returns the target and its options.
func (k *walker) match(r Rule, st *Step) (bool, string, map[string]string) {
	type cond struct {
		neg       bool
		flag, val string
		module    string
	}
	var base, mods []cond
	var target string
	topts := map[string]string{}
	module := ""
	a := r.Args
	for i := 0; i < len(a); i++ {
		neg := false
		if a[i] == "!" {
			neg, i = true, i+1
		}
		switch f := a[i]; {
		case f == "-s" || f == "-d" || f == "-p":
			base = append(base, cond{neg, f, a[i+1], ""})
			i++
		case f == "-m":
			module = a[i+1]
			i++
		case f == "-j":
			target = a[i+1]
			for j := i + 2; j < len(a); j++ {
				v := ""
				if j+1 < len(a) && !strings.HasPrefix(a[j+1], "--") {
					v = a[j+1]
				}
				topts[a[j]] = v
			}
			i = len(a)
		case strings.HasPrefix(f, "--"):
			v := ""
			if i+1 < len(a) && !strings.HasPrefix(a[i+1], "-") {
				v = a[i+1]
				i++
			}
			mods = append(mods, cond{neg, f, v, module})
		}
	}
	for _, c := range base {
		if k.test(c.flag, c.val, c.module, r, st) == c.neg {
			return false, target, topts
		}
	}
	for _, c := range mods {
		if k.test(c.flag, c.val, c.module, r, st) == c.neg {
			return false, target, topts
		}
	}
	return true, target, topts
}

func (k *walker) test(flag, val, module string, r Rule, st *Step) bool {
	switch flag {
	case "-s":
		return inPrefix(k.p.Src, val)
	case "-d":
		return inPrefix(k.p.Dst, val)
	case "-p":
		return k.p.Proto == val
	case "--dport":
		return strconv.Itoa(k.p.DPort) == val
	case "--probability":
		roll := &Roll{Draw: k.rng.Uint32() & 0x7FFFFFFF, Threshold: KernelProbability(val)}
		st.Roll = roll
		return roll.Draw < roll.Threshold
	case "--mark":
		parts := strings.Split(val, "/")
		v, m := parseHex(parts[0]), uint32(0xFFFFFFFF)
		if len(parts) == 2 {
			m = parseHex(parts[1])
		}
		return k.p.Mark&m == v
	case "--ctstate":
		for _, s := range strings.Split(val, ",") {
			if s == "NEW" && k.newState {
				return true
			}
		}
		return false
	case "--dst-type":
		return val == "LOCAL" && k.local[k.p.Dst]
	case "--src-type":
		return val == "LOCAL" && k.local[k.p.Src]
	case "--rcheck":
		name := recentName(r)
		return k.aff != nil && k.aff[name][k.p.Src]
	case "--set":
		if k.aff != nil {
			name := recentName(r)
			if k.aff[name] == nil {
				k.aff[name] = map[string]bool{}
			}
			k.aff[name][k.p.Src] = true
		}
		return true
	}
	return true // --comment, --mode, --seconds, --reap, --name: no effect
}

func recentName(r Rule) string {
	for i, a := range r.Args {
		if a == "--name" && i+1 < len(r.Args) {
			return r.Args[i+1]
		}
	}
	return ""
}

func inPrefix(ip, v string) bool {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return false
	}
	if p, err := netip.ParsePrefix(v); err == nil {
		return p.Masked().Contains(a)
	}
	b, err := netip.ParseAddr(v)
	return err == nil && a == b
}

// Sampler returns a function that picks the endpoint of one new
// connection entering chain (a KUBE-SVC or KUBE-SVL chain) with exactly
// the probabilities the kernel's statistic matches give: rule i is reached
// with probability Π(1−t_j) over the earlier rules and matches with t_i =
// stored/2^31. The distribution is computed once (O(endpoints)); each
// connection then costs one draw and a binary search (O(log endpoints)),
// instead of walking the rules with up to one draw per rule.
func (rs Ruleset) Sampler(chain string) func(*rand.Rand) string {
	var eps []string
	var cum []float64
	reach, total := 1.0, 0.0
	sepDest := map[string]string{}
	for _, r := range rs.NAT.Rules {
		if strings.HasPrefix(r.Chain, "KUBE-SEP-") {
			for i, a := range r.Args {
				if a == "--to-destination" && i+1 < len(r.Args) {
					sepDest[r.Chain] = r.Args[i+1]
				}
			}
		}
	}
	for _, r := range rs.NAT.Rules {
		if r.Chain != chain || r.hasRecentCheck() || len(r.Args) < 2 || r.Args[len(r.Args)-2] != "-j" {
			continue
		}
		target := r.Args[len(r.Args)-1]
		if !strings.HasPrefix(target, "KUBE-SEP-") {
			continue
		}
		t := 1.0
		for i, a := range r.Args {
			if a == "--probability" && i+1 < len(r.Args) {
				t = float64(KernelProbability(r.Args[i+1])) / (1 << 31)
			}
		}
		total += reach * t
		reach *= 1 - t
		eps = append(eps, sepDest[target])
		cum = append(cum, total)
	}
	return func(rng *rand.Rand) string {
		if len(eps) == 0 {
			return ""
		}
		i := sort.SearchFloat64s(cum, rng.Float64()*total)
		if i >= len(eps) {
			i = len(eps) - 1
		}
		return eps[i]
	}
}
