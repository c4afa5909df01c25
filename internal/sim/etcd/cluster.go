package etcd

import (
	"errors"
	"io"
	"log"

	"go.etcd.io/raft/v3"
	pb "go.etcd.io/raft/v3/raftpb"
)

// etcd's settings: server/etcdserver/bootstrap.go (v3.6) uses a 100 ms
// heartbeat, ElectionTick = 1000 ms / 100 ms = 10, CheckQuorum always on.
const (
	HeartbeatTick = 1
	ElectionTick  = 10
	TickMillis    = 100
)

// discard is the Raft logger: the library's default one prints timestamps,
// which would make output differ between runs.
var discard = &raft.DefaultLogger{Logger: log.New(io.Discard, "", 0)}

// member is one etcd server: a RawNode over its own storage.
type member struct {
	id      uint64
	rn      *raft.RawNode
	st      *raft.MemoryStorage
	down    bool
	group   int // partition group, 0 = not partitioned
	role    raft.StateType
	applied uint64
	// leaderTerm is the term in which it last became leader.
	leaderTerm uint64
	// reset is the tick its election timer last restarted: it heard from
	// a leader, campaigned or changed role (raft.go reset, tickElection).
	reset int
}

// round is an election round we started and are counting.
type round struct {
	cand  uint64
	term  uint64
	pre   bool
	votes int
}

// cluster is the network and its members, driven from one goroutine.
type cluster struct {
	cfg     Config
	members []*member
	queue   []pb.Message
	tick    int
	phase   Phase
	events  []Event
	writes  []*Write
	round   *round
	// req is the vote request being stepped; answered is set when its
	// voter replied (an unanswered one was ignored under the lease).
	req      *pb.Message
	answered bool
	// partitioned is true while the network is split.
	partitioned bool
	// stepping is the message being delivered, so that a role change
	// can name its cause.
	stepping *pb.Message
	// applyHook, when set, applies committed entries' data to a state
	// machine of the caller's (the space story's MVCC stores).
	applyHook func(m *member, data []byte)
}

// Config is how the members run.
type Config struct {
	Nodes       int
	CheckQuorum bool
	PreVote     bool
}

func newCluster(cfg Config) (*cluster, error) {
	if cfg.Nodes < 1 {
		return nil, errors.New("a cluster needs at least one member")
	}
	c := &cluster{cfg: cfg}
	voters := make([]uint64, cfg.Nodes)
	for i := range voters {
		voters[i] = uint64(i + 1) // ID 0 is raft.None
	}
	for _, id := range voters {
		// Every member starts from the same snapshot at index 1 with the
		// voters in its ConfState (raft bootstrap.go does the same for
		// new clusters); an empty ConfState would make Campaign a no-op.
		st := raft.NewMemoryStorage()
		snap := pb.Snapshot{Metadata: pb.SnapshotMetadata{Index: 1, Term: 1, ConfState: pb.ConfState{Voters: voters}}}
		if err := st.ApplySnapshot(snap); err != nil {
			return nil, err
		}
		m := &member{id: id, st: st, applied: 1}
		if err := c.start(m); err != nil {
			return nil, err
		}
		c.members = append(c.members, m)
	}
	return c, nil
}

// start (re)creates the member's RawNode on its storage: a restart after a
// crash keeps the persisted log and HardState and resumes at Applied.
func (c *cluster) start(m *member) error {
	rn, err := raft.NewRawNode(&raft.Config{
		ID:              m.id,
		ElectionTick:    ElectionTick,
		HeartbeatTick:   HeartbeatTick,
		Storage:         m.st,
		Applied:         m.applied,
		MaxSizePerMsg:   1 << 20,
		MaxInflightMsgs: 256,
		CheckQuorum:     c.cfg.CheckQuorum,
		PreVote:         c.cfg.PreVote,
		Logger:          discard,
	})
	if err != nil {
		return err
	}
	m.rn, m.role, m.down = rn, raft.StateFollower, false
	return nil
}

func (c *cluster) add(e Event) {
	e.Tick = c.tick
	if e.Write != nil {
		w := *e.Write // the write as it stands at this event
		e.Write = &w
	}
	c.events = append(c.events, e)
}

func (c *cluster) member(id uint64) *member { return c.members[id-1] }

func (c *cluster) quorum() int { return c.cfg.Nodes/2 + 1 }

// drain runs the Ready loop of one member until it has nothing to do:
// persist, send, apply, Advance (raft doc.go, "Usage").
func (c *cluster) drain(m *member) {
	for !m.down && m.rn.HasReady() {
		rd := m.rn.Ready()
		if rd.SoftState != nil && rd.SoftState.RaftState != m.role {
			c.roleChanged(m, m.role, rd.SoftState.RaftState)
			m.role = rd.SoftState.RaftState
		}
		// Persist before anything leaves the member: a vote or an append
		// acknowledgement must survive a crash.
		if !raft.IsEmptyHardState(rd.HardState) {
			_ = m.st.SetHardState(rd.HardState)
		}
		if !raft.IsEmptySnap(rd.Snapshot) {
			_ = m.st.ApplySnapshot(rd.Snapshot)
		}
		_ = m.st.Append(rd.Entries)
		for _, msg := range rd.Messages {
			c.send(m, msg)
		}
		for _, e := range rd.CommittedEntries {
			c.apply(m, e)
		}
		m.rn.Advance(rd)
	}
}

// send puts a message on the network, or drops it across a partition or
// to a crashed member.
func (c *cluster) send(from *member, msg pb.Message) {
	to := c.member(msg.To)
	dropped := ""
	switch {
	case to.down || from.down:
		dropped = ReasonCrashed
	case to.group != from.group:
		dropped = ReasonPartition
	}
	c.add(Event{Kind: KindMessage, Msg: &Message{
		Type: msg.Type.String(), From: msg.From, To: msg.To, Term: msg.Term, LogTerm: msg.LogTerm,
		Index: msg.Index, Commit: msg.Commit, Entries: len(msg.Entries), Reject: msg.Reject, Dropped: dropped,
	}})
	switch msg.Type {
	case pb.MsgVote, pb.MsgPreVote:
		if dropped != "" {
			c.add(Event{Kind: KindVote, Node: msg.To, Peer: msg.From, Term: msg.Term,
				PreVote: msg.Type == pb.MsgPreVote, Reason: dropped})
		}
	case pb.MsgVoteResp, pb.MsgPreVoteResp:
		c.answered = true
		c.voteAnswer(from, msg)
	}
	if dropped == "" {
		c.queue = append(c.queue, msg)
	}
}

// voteAnswer records a voter's answer and counts it in the open round.
func (c *cluster) voteAnswer(voter *member, msg pb.Message) {
	pre := msg.Type == pb.MsgPreVoteResp
	e := Event{Kind: KindVote, Node: voter.id, Peer: msg.To, Term: msg.Term, PreVote: pre, Granted: !msg.Reject}
	if msg.Reject {
		e.Reason = c.refusal(voter)
	}
	c.add(e)
	if r := c.round; r != nil && r.cand == msg.To && r.pre == pre && !msg.Reject {
		r.votes++
	}
}

// refusal tells why a voter rejected a (pre)vote, from the same facts the
// library checks in raft.go Step (term, log up-to-dateness, existing vote).
func (c *cluster) refusal(voter *member) string {
	if c.req == nil {
		return ReasonAlreadyVoted
	}
	if hs, _, _ := voter.st.InitialState(); c.req.Term < hs.Term {
		return ReasonStaleTerm
	}
	last, _ := voter.st.LastIndex()
	lastTerm, _ := voter.st.Term(last)
	if lastTerm > c.req.LogTerm || (lastTerm == c.req.LogTerm && last > c.req.Index) {
		return ReasonLogBehind
	}
	return ReasonAlreadyVoted
}

// settle delivers queued messages one at a time, in FIFO order, until the
// network is quiet.
func (c *cluster) settle() {
	for len(c.queue) > 0 {
		msg := c.queue[0]
		c.queue = c.queue[1:]
		to, from := c.member(msg.To), c.member(msg.From)
		if to.down || to.group != from.group {
			continue // the fault happened while it was in flight
		}
		isReq := msg.Type == pb.MsgVote || msg.Type == pb.MsgPreVote
		if isReq {
			c.req, c.answered = &msg, false
		}
		c.stepping = &msg
		_ = to.rn.Step(msg)
		c.drain(to)
		c.stepping = nil
		if fromLeader(msg.Type) && to.rn.BasicStatus().Lead == msg.From {
			to.reset = c.tick // a follower restarts its timer on every heartbeat
		}
		if isReq && !c.answered {
			// raft.go Step: inLease, the request is ignored without an answer.
			c.add(Event{Kind: KindVote, Node: to.id, Peer: msg.From, Term: msg.Term,
				PreVote: msg.Type == pb.MsgPreVote, Reason: ReasonLease})
		}
		c.req = nil
	}
	c.closeRound()
}

// roleChanged turns role transitions into events and moves the open round.
func (c *cluster) roleChanged(m *member, from, to raft.StateType) {
	st := m.rn.BasicStatus()
	r := c.round
	if r != nil && r.cand == m.id {
		switch {
		case to == raft.StateCandidate && r.pre:
			c.endRound(true)
			c.round = &round{cand: m.id, term: st.Term, votes: 1}
			c.add(Event{Kind: KindCampaign, Node: m.id, Term: st.Term})
		case to == raft.StateLeader:
			c.endRound(true)
		case to == raft.StateFollower:
			c.endRound(false)
		}
	}
	switch {
	case to == raft.StateLeader:
		m.leaderTerm = st.Term
		c.add(Event{Kind: KindLeader, Node: m.id, Term: st.Term})
	case from == raft.StateLeader:
		reason, peer := ReasonCheckQuorum, uint64(0)
		if st.Term > m.leaderTerm {
			reason = ReasonHigherTerm
			if msg := c.stepping; msg != nil {
				peer = msg.From
				switch {
				case fromLeader(msg.Type):
					reason = ReasonNewLeader
				case msg.Type == pb.MsgVote:
					reason = ReasonVoteTerm
				}
			}
		}
		c.add(Event{Kind: KindStepDown, Node: m.id, Peer: peer, Term: st.Term, Reason: reason})
	}
	m.reset = c.tick // becomeFollower, becomeCandidate: raft.go reset
}

// fromLeader reports the messages only a leader sends (raft.go stepFollower
// takes their sender as its leader).
func fromLeader(t pb.MessageType) bool {
	return t == pb.MsgApp || t == pb.MsgHeartbeat || t == pb.MsgSnap
}
