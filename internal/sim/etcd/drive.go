package etcd

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"go.etcd.io/raft/v3"
	pb "go.etcd.io/raft/v3/raftpb"
)

// endRound records the result of the open election round.
func (c *cluster) endRound(won bool) {
	r := c.round
	if r == nil {
		return
	}
	c.round = nil
	c.add(Event{Kind: KindRound, Peer: r.cand, Term: r.term, PreVote: r.pre, Votes: r.votes,
		Nodes: c.cfg.Nodes, Needed: c.quorum(), Won: won})
}

// closeRound ends a round still open when the network went quiet: the
// candidate did not get a majority. (A repeated PreVote campaign leaves
// SoftState unchanged, so rounds are tracked from our own Campaign calls.)
func (c *cluster) closeRound() {
	if c.round != nil {
		c.endRound(false)
	}
}

// campaign declares id's election timer expired: every other live member of
// its group forgets its leader (as its own timer would have made it do),
// and id campaigns. Explicit, because the library's timers are random.
func (c *cluster) campaign(id uint64) {
	cand := c.member(id)
	// Its timer fires ElectionTick ticks after it last restarted: the
	// shortest draw of etcd's randomized 10–19 (raft.go
	// resetRandomizedElectionTimeout), so the printed time and the stated
	// range agree.
	if at := cand.reset + ElectionTick; at > c.tick {
		c.run(at - c.tick)
	}
	for _, m := range c.members {
		if !m.down && m.group == cand.group && m.id != id && m.role != raft.StateLeader {
			_ = m.rn.ForgetLeader()
			c.drain(m)
		}
	}
	st := cand.rn.BasicStatus()
	r := &round{cand: id, term: st.Term + 1, pre: c.cfg.PreVote, votes: 1}
	c.round = r
	c.add(Event{Kind: KindCampaign, Node: id, Term: r.term, PreVote: r.pre})
	cand.reset = c.tick
	_ = cand.rn.Campaign()
	c.drain(cand)
	c.settle()
}

// apply applies one committed entry to a member's state machine.
func (c *cluster) apply(m *member, e pb.Entry) {
	m.applied = e.Index
	switch e.Type {
	case pb.EntryConfChange:
		var cc pb.ConfChange
		if cc.Unmarshal(e.Data) == nil {
			m.rn.ApplyConfChange(cc)
		}
		return
	case pb.EntryConfChangeV2:
		var cc pb.ConfChangeV2
		if cc.Unmarshal(e.Data) == nil {
			m.rn.ApplyConfChange(cc)
		}
		return
	}
	if len(e.Data) == 0 {
		return // the new leader's empty entry
	}
	if c.applyHook != nil {
		c.applyHook(m, e.Data)
		return
	}
	w := c.writeOf(e.Data)
	if w == nil || w.Committed {
		return
	}
	w.Committed, w.Index = true, e.Index
	w.CommittedInPhase = c.phase == w.Phase
	w.Late = !w.CommittedInPhase
	c.add(Event{Kind: KindCommit, Node: m.id, Index: e.Index, Term: e.Term, Write: w, Late: w.Late})
}

func (c *cluster) writeOf(data []byte) *Write {
	id, _, ok := strings.Cut(string(data), " ")
	if !ok {
		return nil
	}
	n, err := strconv.Atoi(id)
	if err != nil || n < 1 || n > len(c.writes) {
		return nil
	}
	return c.writes[n-1]
}

// propose is a client (the kube-apiserver) writing key through member id.
func (c *cluster) propose(id uint64, verb, key string) *Write {
	w := &Write{ID: len(c.writes) + 1, Key: key, Verb: verb, Node: id, Phase: c.phase}
	c.writes = append(c.writes, w)
	m := c.member(id)
	err := m.rn.Propose([]byte(fmt.Sprintf("%d %s %s", w.ID, verb, key)))
	if errors.Is(err, raft.ErrProposalDropped) {
		c.add(Event{Kind: KindRefused, Node: id, Write: w, Reason: ReasonNoLeader})
		return w
	}
	// Everything before was drained, so a leader has just appended the
	// entry right after its persisted log. Record it before draining: a
	// single member commits it within that drain.
	last, _ := m.st.LastIndex()
	w.Index = last + 1
	c.add(Event{Kind: KindPropose, Node: id, Index: w.Index, Term: m.rn.BasicStatus().Term, Write: w})
	c.drain(m)
	c.settle()
	if !w.Committed {
		c.add(Event{Kind: KindPending, Node: id, Write: w, Votes: c.acks(m, w.Index),
			Nodes: c.cfg.Nodes, Needed: c.quorum()})
	}
	return w
}

// acks counts the members holding index, as the leader's progress shows it.
func (c *cluster) acks(leader *member, index uint64) int {
	if leader.role != raft.StateLeader {
		return 1
	}
	n := 0
	for _, pr := range leader.rn.Status().Progress {
		if pr.Match >= index {
			n++
		}
	}
	return n
}

// run advances virtual time by n ticks. Leaders tick for real (heartbeats,
// CheckQuorum); everyone else ages with TickQuiesced so that no randomized
// election timer can fire.
func (c *cluster) run(n int) {
	for i := 0; i < n; i++ {
		c.tick++
		for _, m := range c.members {
			if m.down {
				continue
			}
			if m.role == raft.StateLeader {
				m.rn.Tick()
			} else {
				m.rn.TickQuiesced()
			}
			c.drain(m)
		}
		c.settle()
	}
}

// leaderOf returns the live leader of a group with the highest term, or nil.
func (c *cluster) leaderOf(group int) *member {
	var best *member
	for _, m := range c.members {
		if !m.down && m.group == group && m.role == raft.StateLeader {
			if best == nil || m.rn.BasicStatus().Term > best.rn.BasicStatus().Term {
				best = m
			}
		}
	}
	return best
}

// states snapshots every member.
func (c *cluster) states() []MemberState {
	out := make([]MemberState, 0, len(c.members))
	for _, m := range c.members {
		ms := MemberState{ID: m.id, Role: "down"}
		if !m.down {
			st := m.rn.BasicStatus()
			ms.Role, ms.Term, ms.Lead, ms.Commit = roleName(m.role), st.Term, st.Lead, st.Commit
			if c.partitioned {
				ms.Group = m.group + 1
			}
		} else {
			hs, _, _ := m.st.InitialState()
			ms.Term, ms.Commit = hs.Term, hs.Commit
		}
		ms.LastIndex, _ = m.st.LastIndex()
		out = append(out, ms)
	}
	return out
}

func roleName(s raft.StateType) string {
	switch s {
	case raft.StateLeader:
		return "leader"
	case raft.StateCandidate:
		return "candidate"
	case raft.StatePreCandidate:
		return "pre-candidate"
	}
	return "follower"
}
