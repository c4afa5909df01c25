package explain

import (
	"fmt"
	"math"
	"math/rand/v2"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/l10n"
	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy"
)

// ExternalClient is the address of the client outside the cluster in the
// NodePort and load-balancer walks (TEST-NET-2, RFC 5737).
const ExternalClient = "198.51.100.7"

func iptablesSection(d *report.Doc, c cat, in Input, data *Data) {
	sp := in.Port
	rs := kubeproxy.BuildIPTables(in.Config, []kubeproxy.ServicePort{sp})
	cat := sp.Categorize(in.Config.NodeName)
	rules := 0 // the block of the rules, to highlight the walk in HTML
	if in.Form == "save" {
		d.H(1, c.F("save.h"))
		d.P(c.F("save.p"))
		data.Rules = rs.Save()
		rules = len(d.Blocks)
		d.C("", data.Rules)
		d.Styled("note", c.F("save.note"))
	} else {
		d.H(1, c.F("restore.h"))
		d.P(c.F("restore.p"))
		data.Rules = rs.Restore()
		rules = len(d.Blocks)
		d.C("", data.Rules)
		d.Styled("note", c.F("restore.note", rs.Mark))
		d.P(c.F("jumps.p"))
		d.C("", rs.BuiltinRules("nat"))
	}
	if rs.LargeCluster {
		d.Styled("warn", c.F("large.p", rs.TotalEndpoints, kubeproxy.LargeClusterThreshold))
	}
	d.H(1, c.F("read.h"))
	chain, eps := sp.SVCChain(), cat.Cluster
	if sp.InternalPolicyLocal {
		chain, eps = sp.SVLChain(), cat.Local
	}
	var items []string
	switch {
	case !cat.HasAny:
		items = append(items, c.F("read.reject", sp.NameString()), c.F("read.nonat"))
	case len(eps) == 0:
		items = append(items, c.F("read.svl.none", in.Config.NodeName, sp.NameString()))
	default:
		items = append(items, c.F("read.capture", sp.ClusterIP, sp.Port, chain))
		if sp.InternalPolicyLocal {
			items = append(items, c.F("read.svl", chain, in.Config.NodeName, len(eps), len(sp.UsableEndpoints())))
		}
		switch {
		case in.Config.MasqueradeAll:
			items = append(items, c.F("read.masqall"))
		case in.Config.ClusterCIDR != "":
			items = append(items, c.F("read.masq", in.Config.ClusterCIDR))
		default:
			items = append(items, c.F("read.nomasq"))
		}
		if sp.SessionAffinityClientIP {
			items = append(items, c.F("read.affinity", dur(in.Lang, sp.Timeout())))
		}
		items = append(items, c.F("read.statistic", len(eps)), c.F("read.sep"))
	}
	items = append(items, externalReading(c, in, cat)...)
	items = append(items, c.F("read.fixed"))
	if !in.Config.NoNFAcct {
		items = append(items, c.F("read.nfacct", kubeproxy.NFAcctInvalidDropped))
	} else {
		items = append(items, c.F("read.nonfacct"))
	}
	items = append(items, c.F("read.names"))
	d.L(items...)
	if len(eps) > 0 {
		probabilityTable(d, c, sp, chain, eps, data)
	}
	if w := walkSection(d, c, in, rs, data); w != nil {
		d.Blocks[rules].Code.Mark = walkedLines(data.Rules, w)
	}
	if sp.ExternallyAccessible() {
		externalWalks(d, c, in, rs, data)
	}
}

// externalReading explains the NodePort, load-balancer and Local-policy
// chains of an externally accessible Service.
func externalReading(c cat, in Input, cat kubeproxy.Categorized) []string {
	sp := in.Port
	if !sp.ExternallyAccessible() {
		return nil
	}
	var items []string
	if !cat.HasAny {
		return []string{c.F("read.ext.reject")}
	}
	if sp.NodePort != 0 {
		np := c.F("read.nodeport", sp.NodePort, sp.EXTChain())
		// proxier.go (v1.37) writes the localhost copy for IPv4 only, and
		// only when its nfacct counter exists.
		switch {
		case sp.IPv6():
		case in.Config.NoNFAcct:
			np += " " + c.F("read.np.nolo")
		default:
			np += " " + c.F("read.np.lo", kubeproxy.NFAcctLocalhostNodePorts)
		}
		items = append(items, np)
	}
	if len(sp.LoadBalancerIPs) > 0 {
		target := sp.EXTChain()
		if len(sp.SourceRanges) > 0 {
			target = sp.FWChain()
		}
		items = append(items, c.F("read.lbip", strings.Join(sp.LoadBalancerIPs, ", "), target))
	}
	if len(sp.SourceRanges) > 0 && len(sp.LoadBalancerIPs) > 0 {
		items = append(items, c.F("read.fw", sp.FWChain(), strings.Join(sp.SourceRanges, ", "), sp.EXTChain()))
	}
	if !sp.ExternalPolicyLocal {
		items = append(items, c.F("read.ext.cluster", sp.EXTChain(), sp.SVCChain()))
	} else {
		items = append(items, c.F("read.ext.local", sp.EXTChain(), sp.SVCChain(), sp.SVLChain()))
		if len(cat.Local) == 0 {
			items = append(items, c.F("read.ext.nolocal", in.Config.NodeName))
		}
	}
	if sp.HealthCheckNodePort != 0 {
		items = append(items, c.F("read.hc", sp.HealthCheckNodePort, len(cat.Local)))
	}
	return items
}

// dur writes a number of seconds as a duration in the report's language.
func dur(lang string, seconds int) string {
	return l10n.Duration(lang, time.Duration(seconds)*time.Second)
}

func probabilityTable(d *report.Doc, c cat, sp kubeproxy.ServicePort, chain string, eps []kubeproxy.Endpoint, data *Data) {
	data.ServiceChain = chain
	n := len(eps)
	d.H(2, c.F("prob.h", n))
	t := &report.Table{Header: []string{c.F("col.endpoint"), c.F("col.chain"), c.F("col.prob"), c.F("col.kernel"), c.F("col.reach"), c.F("col.share")},
		Right: []bool{false, false, true, true, true, true}}
	data.Endpoints = data.Endpoints[:0]
	for i, ep := range eps {
		p, k := "—", "—"
		if i < n-1 {
			p = kubeproxy.Probability(n - i)
			k = kubeproxy.SavedProbability(p)
		}
		de := DataEndpoint{Endpoint: ep.String(), Chain: sp.SEPChain(ep)}
		if i < n-1 {
			de.Probability, de.Stored = p, k
		}
		data.Endpoints = append(data.Endpoints, de)
		reach := fmt.Sprintf("%d/%d", n-i, n)
		t.Rows = append(t.Rows, []string{ep.String(), sp.SEPChain(ep), p, k, reach, fmt.Sprintf("1/%d", n)})
	}
	d.T(t)
	d.P(c.F("prob.p", n))
}

// steps renders a walk rule by rule.
func steps(c cat, w kubeproxy.Walk) string {
	var b strings.Builder
	for _, st := range w.Steps {
		mark := "✗"
		if st.Matched {
			mark = "✓"
		}
		line := fmt.Sprintf("%s %s %s #%d: %s", mark, st.Table, st.Chain, st.Index, strings.Join(st.Rule.Args, " "))
		if st.Roll != nil {
			op := "≥"
			if st.Roll.Draw < st.Roll.Threshold {
				op = "<"
			}
			lang := c.t.Lang()
			line += fmt.Sprintf("   [%s %s %s %s]", c.F("walk.roll"), fixed(lang, float64(st.Roll.Draw)/(1<<31), 4), op, fixed(lang, float64(st.Roll.Threshold)/(1<<31), 4))
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

func dataWalk(w kubeproxy.Walk, dest string) *DataWalk {
	dw := &DataWalk{Client: w.Before.Src, SourcePort: w.Before.SPort, Endpoint: w.Endpoint, Chain: w.SEP, Verdict: w.Verdict,
		Masquerade: w.Masquerade, RulesTried: len(w.Steps), Hairpin: w.Hairpin, Destination: dest}
	for _, st := range w.Steps {
		if st.Roll != nil {
			dw.Draws = append(dw.Draws, float64(st.Roll.Draw)/(1<<31))
		}
	}
	return dw
}

// walkItems are the walk told in five points: the masquerade mark, the
// service chain, the random pick among n endpoints, the DNAT (or the
// hairpin), the masquerade or not.
func walkItems(c cat, in Input, w *kubeproxy.Walk, client, chain string, n int) []string {
	s1 := c.F("walk.s1") + " "
	switch {
	case in.Config.MasqueradeAll:
		s1 += c.F("walk.s1all")
	case in.Config.ClusterCIDR != "":
		s1 += c.F("walk.s1cidr", client)
	default:
		s1 += c.F("walk.s1none")
	}
	items := []string{s1, c.F("walk.s2", chain)}
	if n > 1 {
		items = append(items, c.F("walk.s3"))
	}
	if w.Hairpin {
		items = append(items, c.F("walk.s4hairpin", w.SEP, w.Endpoint))
	} else {
		items = append(items, c.F("walk.s4", w.SEP, w.Endpoint))
	}
	if w.Masquerade {
		return append(items, c.F("walk.s5masq", w.After.Src))
	}
	return append(items, c.F("walk.s5"))
}

// walkSection sends one connection through the rules, then K more if
// asked, and returns the first connection's walk.
func walkSection(d *report.Doc, c cat, in Input, rs kubeproxy.Ruleset, data *Data) *kubeproxy.Walk {
	sp := in.Port
	rng := newRNG(in.Seed)
	aff := kubeproxy.Affinity{}
	client := in.Client
	if client == "" {
		client = ClientIP(in.Config, sp.IPv6())
	}
	proto := sp.Proto()
	sport := ephemeralPort(rng)
	pkt := kubeproxy.Packet{Src: client, Dst: sp.ClusterIP, SPort: sport, DPort: int(sp.Port), Proto: proto}
	w := rs.WalkNew(pkt, rng, aff)
	data.Walk = dataWalk(w, hostPort(sp.ClusterIP, int(sp.Port)))
	d.H(1, c.F("walk.h."+proto, in.Seed))
	d.P(c.F("walk.intro."+proto, client, in.Config.NodeName, sport, hostPort(sp.ClusterIP, int(sp.Port))))
	walked := &report.Code{Text: steps(c, w)}
	for i, st := range w.Steps {
		if st.Matched {
			walked.Mark = append(walked.Mark, i)
		}
	}
	d.Blocks = append(d.Blocks, report.Block{Code: walked})
	if g := chainGraph(sp, &w); g != nil {
		d.Fig(&report.Figure{Graph: g, Lead: true, Title: c.F("graph.caption", hostPort(sp.ClusterIP, int(sp.Port)))})
	}
	switch w.Verdict {
	case "REJECT":
		d.L(c.F("walk.reject1", sp.ClusterIP), c.F("walk.reject2"))
		d.Sequence = rejectSequence(c, in, client, sport, "REJECT")
		return &w
	case "DROP":
		d.L(c.F("walk.drop1", sp.ClusterIP), c.F("walk.drop2", sp.NameString(), in.Config.NodeName))
		d.Sequence = rejectSequence(c, in, client, sport, "DROP")
		return &w
	}
	chain, eps := sp.SVCChain(), sp.UsableEndpoints()
	if sp.InternalPolicyLocal {
		chain, eps = sp.SVLChain(), sp.Categorize(in.Config.NodeName).Local
	}
	d.L(walkItems(c, in, &w, client, chain, len(eps))...)
	d.H(2, c.F("ct.h"))
	d.P(c.F("ct.p." + proto))
	d.C("", conntrackLine(sp, w, rng))
	d.L(c.F("ct.reply", w.Endpoint, hostPort(sp.ClusterIP, int(sp.Port))), c.F("ct.later."+proto), c.F("ct.nofiction", sp.ClusterIP))
	if proto == "udp" {
		d.P(c.F("ct.udp.stale", sp.ClusterIP, strings.Split(w.Endpoint, ":")[0]))
	}
	d.Sequence = walkSequence(c, in, w, chain)
	if in.Connections > 0 {
		// The K connections are sampled from the exact distribution of
		// the statistic rules (one draw and a binary search each), not
		// walked rule by rule: O(K·log N) instead of O(K·N). With ClientIP
		// affinity every connection comes from the same client, so it
		// sticks to the first connection's endpoint.
		sample := rs.Sampler(chain)
		spread(d, c, in, data, eps, func() string {
			if sp.SessionAffinityClientIP {
				return w.Endpoint
			}
			return sample(rng)
		})
	}
	return &w
}

// externalWalks sends a connection from outside the cluster to the node's
// NodePort and to each load-balancer IP.
func externalWalks(d *report.Doc, c cat, in Input, rs kubeproxy.Ruleset, data *Data) {
	sp := in.Port
	type target struct {
		ip   string
		port int
		kind string
	}
	var targets []target
	if sp.NodePort != 0 && in.Config.NodeIP != "" {
		targets = append(targets, target{in.Config.NodeIP, int(sp.NodePort), "nodeport"})
	}
	for _, ip := range sp.LoadBalancerIPs {
		targets = append(targets, target{ip, int(sp.Port), "lb"})
	}
	if len(targets) == 0 || sp.IPv6() {
		return
	}
	rng := rand.New(rand.NewPCG(uint64(in.Seed), 0x65787465726e616c))
	d.H(1, c.F("ext.h", in.Config.NodeName))
	d.P(c.F("ext.p", ExternalClient))
	for _, tg := range targets {
		dest := hostPort(tg.ip, tg.port)
		w := rs.WalkNew(kubeproxy.Packet{Src: ExternalClient, Dst: tg.ip, SPort: ephemeralPort(rng), DPort: tg.port, Proto: sp.Proto()}, rng, nil)
		data.ExternalWalks = append(data.ExternalWalks, dataWalk(w, dest))
		d.H(2, c.F("ext."+tg.kind+".h", dest))
		d.C("", steps(c, w))
		switch {
		case w.Verdict == "DROP":
			d.P(c.F("ext.drop", strings.Join(w.Hooks, ", ")))
		case w.Verdict == "REJECT":
			d.P(c.F("ext.reject"))
		case w.Masquerade:
			d.P(c.F("ext.masq", w.Endpoint, w.After.Src))
		default:
			d.P(c.F("ext.keep", w.Endpoint, ExternalClient))
		}
	}
}

// conntrackLine is the entry as "conntrack -L" shows it right after the
// first packet: TCP in SYN_SENT (120 s), UDP unreplied (30 s), SCTP in
// COOKIE_WAIT (3 s), the kernel's default timeouts. A masqueraded entry
// has the node's address and a --random-fully port in its reply tuple.
func conntrackLine(sp kubeproxy.ServicePort, w kubeproxy.Walk, rng *rand.Rand) string {
	b, a := w.Before, w.After
	replyDst, replyPort := b.Src, b.SPort
	if w.Masquerade {
		replyDst = a.Src
		if replyDst == b.Src {
			replyDst = "<node IP>"
		}
		replyPort = 1024 + rng.IntN(65535-1024+1)
	}
	state := map[string]string{"tcp": "120 SYN_SENT ", "udp": "30 ", "sctp": "3 COOKIE_WAIT "}[sp.Proto()]
	return fmt.Sprintf("%-8s %d %ssrc=%s dst=%s sport=%d dport=%d [UNREPLIED] src=%s dst=%s sport=%d dport=%d mark=0 use=1\n",
		sp.Proto(), protoNumber(sp.Proto()), state, b.Src, b.Dst, b.SPort, b.DPort, a.Dst, replyDst, a.DPort, replyPort)
}

func protoNumber(p string) int {
	switch p {
	case "udp":
		return 17
	case "sctp":
		return 132
	}
	return 6
}

// spread runs K more new connections and charts where they went.
func spread(d *report.Doc, c cat, in Input, data *Data, eps []kubeproxy.Endpoint, next func() string) {
	if len(eps) == 0 {
		return
	}
	counts := map[string]int{}
	for i := 0; i < in.Connections; i++ {
		counts[next()]++
	}
	k, n := in.Connections, len(eps)
	d.H(1, c.F("spread.h", k))
	expected := 100.0 / float64(n)
	bars := &report.Bars{}
	worst := 0.0
	lang := in.Lang
	for _, ep := range eps {
		got := 100 * float64(counts[ep.String()]) / float64(k)
		worst = math.Max(worst, math.Abs(got-expected))
		data.Connections = append(data.Connections, DataCount{Endpoint: ep.String(), Count: counts[ep.String()], Percent: got})
		sign := "+"
		if got-expected < 0 {
			sign = "−"
		}
		bars.Rows = append(bars.Rows, report.Bar{Label: ep.String(), Value: float64(counts[ep.String()]),
			Note: c.F("spread.note", fixed(lang, got, 1), fixed(lang, expected, 1), sign+fixed(lang, math.Abs(got-expected), 1))})
	}
	d.B(bars)
	sigma := 100 * math.Sqrt(float64(n-1)/float64(n*n)/float64(k))
	switch {
	case in.Port.SessionAffinityClientIP:
		d.P(c.F("spread.affinity"))
	case in.Mode == "ipvs":
		d.P(c.F("spread.rr"))
	default:
		prec := 2
		if sigma < 0.05 {
			prec = 4
		}
		d.P(c.F("spread.p", fixed(lang, worst, prec), fixed(lang, sigma, prec)))
	}
}

// fixed writes f with exactly prec decimals and the language's decimal
// mark (l10n.Decimal would drop trailing zeros: "33.0" → "33").
func fixed(lang string, f float64, prec int) string { return l10n.Fixed(lang, f, prec) }

func hostPort(ip string, port int) string { return net.JoinHostPort(ip, strconv.Itoa(port)) }
