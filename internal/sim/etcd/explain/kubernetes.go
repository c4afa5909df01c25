package explain

import (
	"fmt"

	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/k8sexplain/k8sexplain/internal/sim/etcd"
)

// kubernetesSection says what the Kubernetes cluster could and could not do
// during the fault (etcd FAQ and failure guide: no quorum means no writes
// and no linearizable reads).
func kubernetesSection(d *report.Doc, c Catalogue, s *etcd.Story) {
	d.H(1, c.T("k8s.title"))
	switch {
	case s.Fault.Kind == etcd.FaultNone:
		d.P(c.T("k8s.single"))
	case s.FaultQuorum:
		d.Styled("ok", c.T("k8s.ok", s.Quorum, s.Nodes, count(c, s.Nodes, "n.member.gen")))
		margin := c.T("k8s.ok.none")
		if left := majoritySide(s) - s.Quorum; left > 0 {
			margin = c.T("k8s.ok.margin", left)
		}
		first := c.T("k8s.ok.1")
		if s.Fault.Kind == etcd.FaultCrash {
			first = c.T("k8s.ok.1crash")
		}
		d.L(first, c.T("k8s.ok.2"), margin)
		return
	default:
		d.Styled("bad", c.T("k8s.lost", s.Quorum, s.Nodes, count(c, s.Nodes, "n.member.gen")))
	}
	reads, readonly := c.T("k8s.lost.reads"), c.T("k8s.readonly")
	if s.Fault.Kind == etcd.FaultNone {
		// Losing the only member leaves no one to answer even a
		// serializable read (etcd api_guarantees: reads are served by a member).
		reads, readonly = c.T("k8s.lost.reads.none"), c.T("k8s.readonly.none")
	}
	d.L(c.T("k8s.lost.writes"), reads, c.T("k8s.lost.pods"),
		c.T("k8s.lost.frozen"), c.T("k8s.lost.after"))
	d.Styled("note", readonly)
}

// lessons lists what this particular story showed.
func lessons(d *report.Doc, c Catalogue, s *etcd.Story) {
	var items []string
	stale, deposed := false, false
	phase := etcd.PhaseElect
	for _, e := range s.Events {
		if e.Kind == etcd.KindPhase {
			phase = e.Phase
		}
		switch {
		case e.Kind == etcd.KindCommit && e.Late:
			items = append(items, c.T("lesson.late", e.Index))
		case e.Kind == etcd.KindLost:
			items = append(items, c.T("lesson.lost"))
		case e.Kind == etcd.KindStepDown && (e.Reason == etcd.ReasonHigherTerm || e.Reason == etcd.ReasonVoteTerm) && phase == etcd.PhaseHeal && !s.PreVote:
			deposed = true
		case e.Kind == etcd.KindState:
			stale = stale || staleLeader(e.States, s.Quorum)
		}
	}
	switch {
	case s.Fault.Kind == etcd.FaultNone:
	case s.FaultQuorum && s.Fault.Kind == etcd.FaultCrash:
		items = append(items, c.T("lesson.survive", s.Nodes-s.Fault.Crash, s.Nodes, s.Quorum, count(c, s.Nodes, "n.member.gen")))
	case s.FaultQuorum:
		items = append(items, c.T("lesson.majority"))
	default:
		items = append(items, c.T("lesson.noquorum", s.Quorum, s.Nodes, count(c, s.Nodes, "n.member.gen")))
	}
	if stale {
		items = append(items, c.T("lesson.nocq"))
	}
	if deposed {
		items = append(items, c.T("lesson.nopv"))
	}
	if s.Nodes == 2 {
		items = append(items, c.T("lesson.two"))
	} else if s.Nodes%2 == 0 {
		items = append(items, c.T("lesson.even", s.Nodes, s.Nodes-1, etcd.Tolerance(s.Nodes)))
	}
	if len(items) > 0 {
		d.H(1, c.T("lesson.title"))
		d.L(items...)
	}
}

// majoritySide counts the live members on the side that kept a leader at
// the end of the fault.
func majoritySide(s *etcd.Story) int {
	best := 0
	for _, e := range s.Events {
		if e.Kind != etcd.KindState {
			continue
		}
		size, lead := map[int]int{}, map[int]bool{}
		for _, m := range e.States {
			if m.Role != "down" {
				size[m.Group]++
			}
			lead[m.Group] = lead[m.Group] || m.Role == "leader"
		}
		for g, n := range size {
			if lead[g] && n >= s.Quorum {
				best = max(best, n)
			}
		}
		break // the first snapshot is the end of the fault
	}
	return best
}

// staleLeader reports a leader whose side holds no majority (possible only
// without CheckQuorum).
func staleLeader(states []etcd.MemberState, quorum int) bool {
	size := map[int]int{}
	for _, m := range states {
		size[m.Group]++
	}
	for _, m := range states {
		if m.Role == "leader" && size[m.Group] < quorum {
			return true
		}
	}
	return false
}

// quorumSequence draws the story's elections, writes and faults.
func quorumSequence(c Catalogue, s *etcd.Story) *report.Sequence {
	seq := &report.Sequence{Participants: []report.Participant{{ID: "api", Label: "kube-apiserver"}}}
	for i := 1; i <= s.Nodes; i++ {
		seq.Participants = append(seq.Participants, report.Participant{ID: fmt.Sprintf("etcd%d", i), Label: member(uint64(i))})
	}
	id := func(n uint64) string { return fmt.Sprintf("etcd%d", n) }
	add := func(m report.Message) { seq.Messages = append(seq.Messages, m) }
	note := func(n uint64, text string) { add(report.Message{From: id(n), Text: text, Note: true}) }
	for _, e := range s.Events {
		kind := c.T("word.vote")
		if e.PreVote {
			kind = c.T("word.prevote")
		}
		switch e.Kind {
		case etcd.KindPhase:
			add(report.Message{Section: true, Text: phaseTitle(c, e.Phase, s)})
		case etcd.KindCampaign, etcd.KindRound, etcd.KindLeader, etcd.KindStepDown, etcd.KindCatchUp, etcd.KindLost:
			n := e.Node
			if e.Kind == etcd.KindRound {
				n = e.Peer
			}
			if e.Kind == etcd.KindLost {
				n = e.Write.Node
			}
			note(n, eventLine(c, e, s))
		case etcd.KindVote:
			switch e.Reason {
			case "":
				add(report.Message{From: id(e.Node), To: id(e.Peer), Reply: true, Text: c.T("seq.yes", kind, e.Term)})
			case etcd.ReasonPartition, etcd.ReasonCrashed:
				add(report.Message{From: id(e.Peer), To: id(e.Node), Text: c.T("seq.dropped", kind, e.Term, c.T("dropped."+e.Reason))})
			case etcd.ReasonLease:
				note(e.Node, eventLine(c, e, s))
			default:
				add(report.Message{From: id(e.Node), To: id(e.Peer), Reply: true, Text: c.T("seq.no", kind, e.Term, c.T("reason."+e.Reason))})
			}
		case etcd.KindPropose:
			add(report.Message{From: "api", To: id(e.Node), Text: c.T("verb."+e.Write.Verb) + " " + e.Write.Key})
		case etcd.KindCommit:
			if e.Late {
				note(e.Node, eventLine(c, e, s))
			} else {
				add(report.Message{From: id(e.Node), To: "api", Reply: true, Text: c.T("seq.ok", e.Index)})
			}
		case etcd.KindPending:
			note(e.Node, eventLine(c, e, s))
			add(report.Message{From: id(e.Node), To: "api", Reply: true, Text: c.T("seq.timeout")})
		case etcd.KindRefused:
			add(report.Message{From: "api", To: id(e.Node), Text: c.T("verb."+e.Write.Verb) + " " + e.Write.Key})
			add(report.Message{From: id(e.Node), To: "api", Reply: true, Text: c.T("seq.noleader")})
		case etcd.KindCrash, etcd.KindPartition, etcd.KindHeal:
			add(report.Message{Section: true, Text: eventLine(c, e, s)})
		}
	}
	return seq
}

// quorumJSON is the documented --format json structure: the size table and
// the story (Raft messages only with -v).
type quorumJSON struct {
	Sizes []quorumSize `json:"sizes"`
	Story etcd.Story   `json:"story"`
}

type quorumSize struct {
	Members   int `json:"members"`
	Majority  int `json:"majority"`
	Tolerance int `json:"tolerance"`
}

func quorumData(s *etcd.Story, verbose bool) quorumJSON {
	out := quorumJSON{Story: *s}
	for n := 1; n <= max(7, s.Nodes); n++ {
		out.Sizes = append(out.Sizes, quorumSize{n, etcd.Quorum(n), etcd.Tolerance(n)})
	}
	if !verbose {
		out.Story.Events = nil
		for _, e := range s.Events {
			if e.Kind != etcd.KindMessage {
				out.Story.Events = append(out.Story.Events, e)
			}
		}
	}
	return out
}
