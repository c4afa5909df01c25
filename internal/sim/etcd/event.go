package etcd

// Kind names what an Event records.
type Kind string

// Event kinds, in roughly the order a story meets them.
const (
	KindPhase     Kind = "phase"     // Phase starts
	KindBoot      Kind = "boot"      // Nodes members start as followers, term Term
	KindCampaign  Kind = "campaign"  // Node's election timer fired: it campaigns (PreVote tells which round)
	KindVote      Kind = "vote"      // Node answered Peer's (pre)vote request: Granted, else Reason
	KindRound     Kind = "round"     // Peer's (pre)vote round ended: Votes of Nodes, Needed, Won
	KindLeader    Kind = "leader"    // Node became leader in Term
	KindStepDown  Kind = "step-down" // leader Node became a follower: Reason
	KindPropose   Kind = "propose"   // client sent Write to Node; the leader appended it at Index
	KindCommit    Kind = "commit"    // Write committed at Index (Late: its client had timed out)
	KindPending   Kind = "pending"   // Write not committed: on Votes of Nodes members, Needed
	KindRefused   Kind = "refused"   // Node refused Write: Reason (no-leader)
	KindLost      Kind = "lost"      // Write never committed; its entry was overwritten on heal
	KindCrash     Kind = "crash"     // Members crashed
	KindPartition Kind = "partition" // the network split into Groups
	KindHeal      Kind = "heal"      // the network healed; crashed Members restarted
	KindCatchUp   Kind = "catch-up"  // Node caught up to Index
	KindState     Kind = "state"     // a snapshot of every member (States)
	KindMessage   Kind = "message"   // one Raft message (Msg); shown only in verbose output
)

// Phase names a part of the story.
type Phase string

// The phases of a story.
const (
	PhaseElect Phase = "elect"
	PhaseWrite Phase = "write"
	PhaseFault Phase = "fault"
	PhaseHeal  Phase = "heal"
)

// Reasons for refusals, step-downs and dropped messages.
const (
	ReasonLogBehind    = "log-behind"    // the candidate's log is less up to date than the voter's
	ReasonAlreadyVoted = "already-voted" // the voter voted for someone else in this term
	ReasonStaleTerm    = "stale-term"    // the request carries a term lower than the voter's
	ReasonLease        = "lease"         // CheckQuorum: the voter heard from a leader within an election timeout and ignores the request
	ReasonPartition    = "partition"     // the message crossed the partition and was dropped
	ReasonCrashed      = "crashed"       // the sender or receiver is down
	ReasonCheckQuorum  = "check-quorum"  // a leader that did not hear from a majority for an election timeout steps down
	ReasonHigherTerm   = "higher-term"   // a member answered the leader with a higher term (raft.go Step: MsgAppResp to a stale heartbeat, sent when CheckQuorum or PreVote is on)
	ReasonNewLeader    = "new-leader"    // a heartbeat or append from the leader of a higher term arrived
	ReasonVoteTerm     = "vote-term"     // a vote request with a higher term arrived (no lease ignored it)
	ReasonNoLeader     = "no-leader"     // raft.ErrProposalDropped: the member knows no leader
)

// Event is one step of a story. Only the fields its Kind names are set.
type Event struct {
	Tick    int           `json:"tick"` // virtual time, 1 tick = 100 ms
	Kind    Kind          `json:"kind"`
	Phase   Phase         `json:"phase,omitempty"`
	Node    uint64        `json:"node,omitempty"`
	Peer    uint64        `json:"peer,omitempty"`
	Term    uint64        `json:"term,omitempty"`
	Index   uint64        `json:"index,omitempty"`
	PreVote bool          `json:"preVote,omitempty"`
	Granted bool          `json:"granted,omitempty"`
	Won     bool          `json:"won,omitempty"`
	Late    bool          `json:"late,omitempty"`
	Votes   int           `json:"votes,omitempty"`
	Needed  int           `json:"needed,omitempty"`
	Nodes   int           `json:"nodes,omitempty"`
	Reason  string        `json:"reason,omitempty"`
	Write   *Write        `json:"write,omitempty"`
	Members []uint64      `json:"members,omitempty"`
	Groups  [][]uint64    `json:"groups,omitempty"`
	States  []MemberState `json:"states,omitempty"`
	Msg     *Message      `json:"msg,omitempty"`
}

// Write is a client write: a Kubernetes object key the API server stores.
type Write struct {
	ID    int    `json:"id"`
	Key   string `json:"key"`
	Verb  string `json:"verb"` // create, update
	Node  uint64 `json:"node"` // member the client sent it to
	Index uint64 `json:"index,omitempty"`
	// Committed is the final outcome; Late marks a commit after the client
	// had already seen its request time out.
	Committed bool `json:"committed"`
	Late      bool `json:"late,omitempty"`
	// Phase is when the client sent it.
	Phase Phase `json:"phase"`
	// CommittedInPhase is true when it committed before the phase ended
	// (the client got its answer).
	CommittedInPhase bool `json:"committedInPhase"`
}

// MemberState is one member seen from outside.
type MemberState struct {
	ID        uint64 `json:"id"`
	Role      string `json:"role"` // leader, follower, candidate, pre-candidate, down
	Term      uint64 `json:"term"`
	Lead      uint64 `json:"lead,omitempty"`
	Commit    uint64 `json:"commit"`
	LastIndex uint64 `json:"lastIndex"`
	Group     int    `json:"group"` // 1-based partition group; 0 when down
}

// Message is one Raft message as the network saw it.
type Message struct {
	Type    string `json:"type"` // MsgApp, MsgVote, ... as raftpb names them
	From    uint64 `json:"from"`
	To      uint64 `json:"to"`
	Term    uint64 `json:"term"`
	LogTerm uint64 `json:"logTerm,omitempty"`
	Index   uint64 `json:"index,omitempty"`
	Commit  uint64 `json:"commit,omitempty"`
	Entries int    `json:"entries,omitempty"`
	Reject  bool   `json:"reject,omitempty"`
	Dropped string `json:"dropped,omitempty"` // ReasonPartition or ReasonCrashed
}
