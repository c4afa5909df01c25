package explain

import (
	"fmt"
	"math"
	"net"
	"strconv"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy"
)

func iptablesSection(d *report.Doc, c cat, in Input, data *Data) {
	sp := in.Port
	rs := kubeproxy.BuildIPTables(in.Config, []kubeproxy.ServicePort{sp})
	eps := sp.UsableEndpoints()
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
	if len(eps) == 0 {
		d.L(c.F("read.reject", sp.NameString()), c.F("read.nonat"), c.F("read.fixed"))
	} else {
		items := []string{c.F("read.capture", sp.ClusterIP, sp.Port, sp.SVCChain())}
		switch {
		case in.Config.MasqueradeAll:
			items = append(items, c.F("read.masqall"))
		case in.Config.ClusterCIDR != "":
			items = append(items, c.F("read.masq", in.Config.ClusterCIDR))
		default:
			items = append(items, c.F("read.nomasq"))
		}
		if sp.SessionAffinityClientIP {
			items = append(items, c.F("read.affinity", sp.Timeout()))
		}
		items = append(items, c.F("read.statistic", len(eps)), c.F("read.sep"), c.F("read.fixed"), c.F("read.names"))
		d.L(items...)
		probabilityTable(d, c, sp, eps, data)
	}
	if w := walkSection(d, c, in, rs, data); w != nil {
		d.Blocks[rules].Code.Mark = walkedLines(data.Rules, w)
	}
}

func probabilityTable(d *report.Doc, c cat, sp kubeproxy.ServicePort, eps []kubeproxy.Endpoint, data *Data) {
	data.ServiceChain = sp.SVCChain()
	n := len(eps)
	d.H(2, c.F("prob.h", n))
	t := &report.Table{Header: []string{c.F("col.endpoint"), c.F("col.chain"), c.F("col.prob"), c.F("col.kernel"), c.F("col.reach"), c.F("col.share")},
		Right: []bool{false, false, true, true, true, true}}
	for i, ep := range eps {
		p, k := "—", "—"
		if i < n-1 {
			p = kubeproxy.Probability(n - i)
			k = kubeproxy.SavedProbability(p)
		}
		data.Endpoints[i] = DataEndpoint{Endpoint: ep.String(), Chain: sp.SEPChain(ep)}
		if i < n-1 {
			data.Endpoints[i].Probability, data.Endpoints[i].Stored = p, k
		}
		reach := fmt.Sprintf("%d/%d", n-i, n)
		t.Rows = append(t.Rows, []string{ep.String(), sp.SEPChain(ep), p, k, reach, fmt.Sprintf("1/%d", n)})
	}
	d.T(t)
	d.P(c.F("prob.p", n))
}

// walkSection sends one connection through the rules, then K more if
// asked, and returns the first connection's walk.
func walkSection(d *report.Doc, c cat, in Input, rs kubeproxy.Ruleset, data *Data) *kubeproxy.Walk {
	sp := in.Port
	rng := newRNG(in.Seed)
	aff := kubeproxy.Affinity{}
	client := ClientIP(in.Config, sp.IPv6())
	sport := ephemeralPort(rng)
	pkt := kubeproxy.Packet{Src: client, Dst: sp.ClusterIP, SPort: sport, DPort: int(sp.Port), Proto: sp.Proto()}
	w := rs.WalkNew(pkt, rng, aff)
	dw := &DataWalk{Client: client, SourcePort: sport, Endpoint: w.Endpoint, Chain: w.SEP, Verdict: w.Verdict,
		Masquerade: w.Masquerade, RulesTried: len(w.Steps)}
	for _, st := range w.Steps {
		if st.Roll != nil {
			dw.Draws = append(dw.Draws, float64(st.Roll.Draw)/(1<<31))
		}
	}
	data.Walk = dw
	d.H(1, c.F("walk.h", in.Seed))
	d.P(c.F("walk.intro", client, sport, hostPort(sp.ClusterIP, int(sp.Port))))
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
			line += fmt.Sprintf("   [%s %.4f %s %.4f]", c.F("walk.roll"), float64(st.Roll.Draw)/(1<<31), op, float64(st.Roll.Threshold)/(1<<31))
		}
		b.WriteString(line + "\n")
	}
	walked := &report.Code{Text: b.String()}
	for i, st := range w.Steps {
		if st.Matched {
			walked.Mark = append(walked.Mark, i)
		}
	}
	d.Blocks = append(d.Blocks, report.Block{Code: walked})
	if g := chainGraph(sp, &w); g != nil {
		d.Fig(&report.Figure{Graph: g, Title: c.F("graph.caption", hostPort(sp.ClusterIP, int(sp.Port)))})
	}
	if w.Verdict == "REJECT" {
		d.L(c.F("walk.reject1", sp.ClusterIP), c.F("walk.reject2"))
		d.Sequence = rejectSequence(c, in, client, sport)
		return &w
	}
	s1 := c.F("walk.s1") + " "
	switch {
	case in.Config.MasqueradeAll:
		s1 += c.F("walk.s1all")
	case in.Config.ClusterCIDR != "":
		s1 += c.F("walk.s1cidr", client)
	default:
		s1 += c.F("walk.s1none")
	}
	steps := []string{s1, c.F("walk.s2", sp.SVCChain())}
	if len(sp.UsableEndpoints()) > 1 {
		steps = append(steps, c.F("walk.s3"))
	}
	steps = append(steps, c.F("walk.s4", w.SEP, w.Endpoint))
	if w.Masquerade {
		steps = append(steps, c.F("walk.s5masq"))
	} else {
		steps = append(steps, c.F("walk.s5"))
	}
	d.L(steps...)
	d.H(2, c.F("ct.h"))
	d.P(c.F("ct.p"))
	d.C("", conntrackLine(sp, w))
	d.L(c.F("ct.reply", w.Endpoint, hostPort(sp.ClusterIP, int(sp.Port))), c.F("ct.later"), c.F("ct.nofiction", sp.ClusterIP))
	d.Sequence = walkSequence(c, in, w)
	if in.Connections > 0 {
		spread(d, c, in, data, func() string {
			p := pkt
			p.SPort = ephemeralPort(rng)
			return rs.WalkNew(p, rng, aff).Endpoint
		})
	}
	return &w
}

// conntrackLine is the entry as "conntrack -L" shows it right after the SYN.
func conntrackLine(sp kubeproxy.ServicePort, w kubeproxy.Walk) string {
	b, a := w.Before, w.After
	src := b.Src
	if w.Masquerade {
		src = "<node IP>"
	}
	return fmt.Sprintf("%-8s %d 120 SYN_SENT src=%s dst=%s sport=%d dport=%d [UNREPLIED] src=%s dst=%s sport=%d dport=%d mark=0 use=1\n",
		sp.Proto(), protoNumber(sp.Proto()), b.Src, b.Dst, b.SPort, b.DPort, a.Dst, src, a.DPort, b.SPort)
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
func spread(d *report.Doc, c cat, in Input, data *Data, next func() string) {
	eps := in.Port.UsableEndpoints()
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
	for _, ep := range eps {
		got := 100 * float64(counts[ep.String()]) / float64(k)
		worst = math.Max(worst, math.Abs(got-expected))
		data.Connections = append(data.Connections, DataCount{Endpoint: ep.String(), Count: counts[ep.String()], Percent: got})
		bars.Rows = append(bars.Rows, report.Bar{Label: ep.String(), Value: float64(counts[ep.String()]),
			Note: c.F("spread.note", got, expected, got-expected)})
	}
	d.B(bars)
	sigma := 100 * math.Sqrt(float64(n-1)/float64(n*n)/float64(k))
	switch {
	case in.Port.SessionAffinityClientIP:
		d.P(c.F("spread.affinity"))
	case in.Mode == "ipvs":
		d.P(c.F("spread.rr"))
	default:
		d.P(c.F("spread.p", worst, sigma))
	}
}

func hostPort(ip string, port int) string { return net.JoinHostPort(ip, strconv.Itoa(port)) }
