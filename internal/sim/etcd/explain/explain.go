// Package explain turns an etcd quorum story (package etcd) into the report
// the quorum command prints: the quorum table, the story phase by phase, what
// the Kubernetes cluster can and cannot do, the lessons, a sequence diagram
// and the --format json data. The etcd package computes; only this package
// builds documents.
package explain

import (
	"fmt"
	"sort"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/l10n"
	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/k8sexplain/k8sexplain/internal/sim/etcd"
)

// Build turns a story into the report: quorum table, the story phase by
// phase, what Kubernetes sees, and the lessons. verbose (-v) adds every Raft
// message.
func Build(s *etcd.Story, lang string, verbose bool) *report.Doc {
	c := For(lang)
	d := &report.Doc{Title: c.T("title", s.Nodes)}
	quorumTable(d, c, s.Nodes)

	d.H(1, c.T("story.title"))
	d.P(c.T("settings", onOff(c, s.CheckQuorum), onOff(c, s.PreVote)))
	if !s.CheckQuorum {
		d.Styled("warn", c.T("settings.nocq"))
	}
	if !s.PreVote {
		d.Styled("warn", c.T("settings.nopv"))
	}
	var lines []string
	flush := func() {
		if len(lines) > 0 {
			d.L(lines...)
			lines = nil
		}
	}
	for _, e := range s.Events {
		switch e.Kind {
		case etcd.KindPhase:
			flush()
			d.H(2, phaseTitle(c, e.Phase, s))
		case etcd.KindState:
			flush()
			d.T(stateTable(c, e.States))
			d.Fig(sidesFigure(c, e.States))
		case etcd.KindMessage:
			if verbose {
				lines = append(lines, c.T("at", fmt.Sprintf("%4s", l10n.Fixed(c.Lang(), seconds(e.Tick), 1)))+"  "+msgLine(c, e.Msg))
			}
		default:
			lines = append(lines, c.T("at", fmt.Sprintf("%4s", l10n.Fixed(c.Lang(), seconds(e.Tick), 1)))+"  "+eventLine(c, e, s))
		}
	}
	flush()
	kubernetesSection(d, c, s)
	lessons(d, c, s)
	d.Sequence = quorumSequence(c, s)
	d.Data = quorumData(s, verbose)
	return d
}

// sidesFigure draws, for --format html, which members can talk to which:
// one dashed box per side of the network, the leader filled, members that
// are down crossed out in a box of their own.
func sidesFigure(c Catalogue, states []etcd.MemberState) *report.Figure {
	row := report.SidesRow{}
	groups := map[int][]report.Member{}
	var order []int
	for _, m := range states {
		mm := report.Member{Name: member(m.ID) + " · " + c.T("role."+m.Role), Role: m.Role}
		// Group 0 is "not partitioned" for a live member and "down" only
		// when its role says so (etcd.MemberState).
		if m.Role == "down" {
			row.Down = append(row.Down, mm)
			continue
		}
		if _, ok := groups[m.Group]; !ok {
			order = append(order, m.Group)
		}
		groups[m.Group] = append(groups[m.Group], mm)
	}
	sort.Ints(order)
	for _, g := range order {
		row.Groups = append(row.Groups, groups[g])
	}
	return &report.Figure{Sides: &report.Sides{Rows: []report.SidesRow{row}}}
}

func phaseTitle(c Catalogue, p etcd.Phase, s *etcd.Story) string {
	if p == etcd.PhaseFault {
		return c.T("phase.fault", faultText(c, s))
	}
	return c.T("phase." + string(p))
}

func seconds(tick int) float64 { return float64(tick*etcd.TickMillis) / 1000 }

func onOff(c Catalogue, b bool) string {
	if b {
		return c.T("on")
	}
	return c.T("off")
}

// count writes n and the noun of key in the form n takes (the catalogue's
// plural placeholder, CLDR rules).
func count(c Catalogue, n int, key string) string { return c.T(key, n) }

// plural is the word of key alone in the form n takes, for a verb that
// agrees with a count.
func plural(c Catalogue, n int, key string) string { return c.T(key, n) }

func member(id uint64) string { return fmt.Sprintf("etcd-%d", id) }

func members(ids []uint64) string {
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = member(id)
	}
	return strings.Join(names, ", ")
}

// groupsText prints a partition as "{etcd-1} | {etcd-2, etcd-3}".
func groupsText(sizes []int) string {
	var parts []string
	id := uint64(1)
	for _, n := range sizes {
		var ids []uint64
		for i := 0; i < n; i++ {
			ids = append(ids, id)
			id++
		}
		parts = append(parts, "{"+members(ids)+"}")
	}
	return strings.Join(parts, " | ")
}

// quorumTable is the size table with the requested size highlighted.
func quorumTable(d *report.Doc, c Catalogue, n int) {
	d.H(1, c.T("table.title"))
	t := &report.Table{
		Header: []string{c.T("table.members"), c.T("table.majority"), c.T("table.tolerance"), c.T("table.note")},
		Right:  []bool{true, true, true, false},
	}
	top := 7
	for size := 1; size <= max(top, n); size++ {
		if size > top && size != n {
			continue
		}
		t.Rows = append(t.Rows, []string{fmt.Sprint(size), fmt.Sprint(etcd.Quorum(size)),
			fmt.Sprint(etcd.Tolerance(size)), c.T(fmt.Sprintf("size.%d", size))})
		t.Highlight = append(t.Highlight, size == n)
	}
	d.T(t)
	if etcd.Tolerance(n) == 0 {
		d.P(c.T("table.sum0", n, etcd.Quorum(n)))
	} else {
		d.P(c.T("table.sum", n, etcd.Quorum(n), etcd.Tolerance(n)))
	}
	d.Styled("note", c.T("table.guide"))
}

func faultText(c Catalogue, s *etcd.Story) string {
	f := s.Fault
	switch {
	case f.Kind == etcd.FaultNone:
		return c.T("fault.none")
	case f.Kind == etcd.FaultCrash && f.Crash == 0:
		return c.T("fault.crash0")
	case f.Kind == etcd.FaultCrash:
		ids := []uint64{1}
		for i := 1; i < f.Crash; i++ {
			ids = append(ids, uint64(s.Nodes-i+1))
		}
		return c.T("fault.crash", count(c, f.Crash, "n.member"), plural(c, f.Crash, "v.crash"), members(ids))
	case f.Isolate != "":
		return c.T("fault.isolate."+f.Isolate, groupsText(f.Groups))
	case f.Default && len(f.Groups) == 2 && f.Groups[0] == f.Groups[1]:
		return c.T("fault.default.even", groupsText(f.Groups)) // 1+1, 2+2: no smaller side
	case f.Default:
		return c.T("fault.default", groupsText(f.Groups))
	}
	return c.T("fault.partition", groupsText(f.Groups))
}

// stateTable shows every member at a point of the story; the Side column
// only while the network is partitioned.
func stateTable(c Catalogue, states []etcd.MemberState) *report.Table {
	split := false
	for _, m := range states {
		split = split || m.Group > 0
	}
	t := &report.Table{Header: []string{c.T("state.member")}, Right: []bool{false}}
	if split {
		t.Header, t.Right = append(t.Header, c.T("state.side")), append(t.Right, true)
	}
	t.Header = append(t.Header, c.T("state.role"), c.T("state.term"), c.T("state.commit"), c.T("state.last"))
	t.Right = append(t.Right, false, true, true, true)
	for _, m := range states {
		row := []string{member(m.ID)}
		if split {
			side := fmt.Sprint(m.Group)
			if m.Role == "down" {
				side = "-"
			}
			row = append(row, side)
		}
		row = append(row, c.T("role."+m.Role), fmt.Sprint(m.Term), fmt.Sprint(m.Commit), fmt.Sprint(m.LastIndex))
		t.Rows = append(t.Rows, row)
		t.Highlight = append(t.Highlight, m.Role == "leader")
	}
	return t
}

// eventLine is the one-line text of a meaningful event.
func eventLine(c Catalogue, e etcd.Event, s *etcd.Story) string {
	switch e.Kind {
	case etcd.KindBoot:
		if e.Nodes == 1 {
			return c.T("boot.1")
		}
		return c.T("boot", e.Nodes, count(c, e.Nodes, "n.member"), plural(c, e.Nodes, "v.start"))
	case etcd.KindCampaign:
		switch {
		case e.PreVote:
			return c.T("campaign.pre", member(e.Node), e.Term)
		case s.PreVote:
			return c.T("campaign.after", member(e.Node), e.Term)
		}
		return c.T("campaign", member(e.Node), e.Term)
	case etcd.KindVote:
		kind := c.T("word.vote")
		if e.PreVote {
			kind = c.T("word.prevote")
		}
		if e.Granted {
			return c.T("vote.yes", member(e.Node), member(e.Peer), kind, e.Term)
		}
		return c.T("vote.no."+e.Reason, member(e.Node), member(e.Peer), kind, e.Term)
	case etcd.KindRound:
		key := "round."
		if e.PreVote {
			key += "pre."
		}
		if e.Won {
			key += "won"
		} else {
			key += "lost"
		}
		return c.T(key, member(e.Peer), e.Votes, e.Nodes, e.Needed, e.Term, count(c, e.Nodes, "n.vote.gen"))
	case etcd.KindLeader:
		return c.T("leader", member(e.Node), e.Term)
	case etcd.KindStepDown:
		return c.T("stepdown."+e.Reason, member(e.Node), e.Term, member(e.Peer))
	case etcd.KindPropose:
		return c.T("propose", member(e.Node), c.T("verb."+e.Write.Verb), e.Write.Key, e.Index, e.Term)
	case etcd.KindCommit:
		if e.Late {
			return c.T("commit.late", e.Index, c.T("verb."+e.Write.Verb), e.Write.Key, member(e.Node))
		}
		return c.T("commit", e.Index, member(e.Node))
	case etcd.KindPending:
		return c.T("pending", e.Write.Index, e.Votes, e.Nodes, e.Needed, count(c, e.Nodes, "n.member.gen"))
	case etcd.KindRefused:
		return c.T("refused", member(e.Node), c.T("verb."+e.Write.Verb), e.Write.Key)
	case etcd.KindLost:
		return c.T("lost", c.T("verb."+e.Write.Verb), e.Write.Key, e.Write.Index, member(e.Write.Node))
	case etcd.KindCrash:
		return c.T("crash", members(e.Members), plural(c, len(e.Members), "v.crash"))
	case etcd.KindPartition:
		return c.T("partition", groupsText(s.Fault.Groups))
	case etcd.KindHeal:
		if len(e.Members) > 0 {
			return c.T("heal.restart", members(e.Members), plural(c, len(e.Members), "v.restart"))
		}
		return c.T("heal")
	case etcd.KindCatchUp:
		return c.T("catchup", member(e.Node), e.Index)
	}
	return string(e.Kind)
}

// msgLine is one Raft message for -v.
func msgLine(c Catalogue, m *etcd.Message) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  %s %s→%s term=%d", m.Type, member(m.From), member(m.To), m.Term)
	if m.Index > 0 || m.LogTerm > 0 {
		fmt.Fprintf(&b, " index=%d logTerm=%d", m.Index, m.LogTerm)
	}
	if m.Commit > 0 {
		fmt.Fprintf(&b, " commit=%d", m.Commit)
	}
	if m.Entries > 0 {
		fmt.Fprintf(&b, " entries=%d", m.Entries)
	}
	if m.Reject {
		b.WriteString(" reject")
	}
	if m.Dropped != "" {
		b.WriteString("  ✗ " + c.T("dropped."+m.Dropped))
	}
	return b.String()
}
