package etcd

import (
	"errors"
	"fmt"
)

// FaultKind names what goes wrong after the first write.
type FaultKind string

// Fault kinds.
const (
	FaultNone      FaultKind = "none"
	FaultCrash     FaultKind = "crash"
	FaultPartition FaultKind = "partition"
)

// Fault is what happens to the cluster. A zero Fault means the default: a
// partition into two halves with the leader on the smaller (or equal) side,
// or nothing for a single member.
type Fault struct {
	Kind FaultKind `json:"kind"`
	// Crash is how many members crash: the leader first, then the
	// highest-numbered followers.
	Crash int `json:"crash,omitempty"`
	// Groups are partition sizes: members are assigned in ID order, so the
	// leader (etcd-1) is in the first group.
	Groups []int `json:"groups,omitempty"`
	// Isolate is "leader" or "follower" when the partition came from
	// --isolate; it only names the fault.
	Isolate string `json:"isolate,omitempty"`
	// Default is true when no fault was asked for.
	Default bool `json:"default,omitempty"`
}

// Scenario is one run.
type Scenario struct {
	Nodes       int
	Fault       Fault
	CheckQuorum bool
	PreVote     bool
}

// Story is what happened, in order.
type Story struct {
	Nodes       int      `json:"nodes"`
	Quorum      int      `json:"quorum"`
	CheckQuorum bool     `json:"checkQuorum"`
	PreVote     bool     `json:"preVote"`
	Fault       Fault    `json:"fault"`
	Writes      []*Write `json:"writes"`
	Events      []Event  `json:"events"`
	// FaultQuorum is true when some side of the fault kept a leader backed by
	// a majority, i.e. a write sent during the fault committed.
	FaultQuorum bool `json:"faultQuorum"`
	// Ticks is the virtual duration of the whole story.
	Ticks int `json:"ticks"`
}

// Keys the story writes: what the kube-apiserver stores for a Deployment.
const (
	KeyDeployment = "/registry/deployments/default/web"
	KeyReplicaSet = "/registry/replicasets/default/web-7d4b9c8f6d"
)

// Quorum is the majority of n voters: floor(n/2)+1 (etcd FAQ).
func Quorum(n int) int { return n/2 + 1 }

// Tolerance is how many of n voters may fail with writes still committing.
func Tolerance(n int) int { return n - Quorum(n) }

// Resolve fills in the default fault and checks the scenario.
func (s Scenario) Resolve() (Scenario, error) {
	if s.Nodes < 1 {
		return s, errors.New("a cluster needs at least one member")
	}
	f := &s.Fault
	switch f.Kind {
	case "":
		f.Default = true
		if s.Nodes == 1 {
			f.Kind = FaultNone
		} else {
			f.Kind, f.Groups = FaultPartition, []int{s.Nodes / 2, s.Nodes - s.Nodes/2}
		}
	case FaultCrash:
		if f.Crash < 0 || f.Crash >= s.Nodes {
			return s, fmt.Errorf("crash %d of %d members: at least one must stay up", f.Crash, s.Nodes)
		}
	case FaultPartition:
		sum := 0
		for _, g := range f.Groups {
			if g < 1 {
				return s, errors.New("a partition group needs at least one member")
			}
			sum += g
		}
		if len(f.Groups) < 2 || sum != s.Nodes {
			return s, fmt.Errorf("partition %v does not split %d members", f.Groups, s.Nodes)
		}
	}
	return s, nil
}

// Run plays the scenario on the real Raft library.
func Run(s Scenario) (*Story, error) {
	s, err := s.Resolve()
	if err != nil {
		return nil, err
	}
	c, err := newCluster(Config{Nodes: s.Nodes, CheckQuorum: s.CheckQuorum, PreVote: s.PreVote})
	if err != nil {
		return nil, err
	}
	story := &Story{Nodes: s.Nodes, Quorum: Quorum(s.Nodes), CheckQuorum: s.CheckQuorum, PreVote: s.PreVote, Fault: s.Fault}

	c.setPhase(PhaseElect)
	c.add(Event{Kind: KindBoot, Nodes: s.Nodes})
	c.campaign(1)
	c.setPhase(PhaseWrite)
	c.propose(1, "create", KeyDeployment)
	final := true
	if s.Fault.Kind != FaultNone {
		story.FaultQuorum = c.fault(s.Fault)
		// Nothing to heal after --fail 0: the fault phase's table is final.
		final = s.Fault.Kind == FaultPartition || s.Fault.Crash > 0
		if final {
			c.heal()
		}
	}
	for _, w := range c.writes {
		if !w.Committed && w.Index > 0 {
			c.add(Event{Kind: KindLost, Write: w})
		}
	}
	if final {
		c.add(Event{Kind: KindState, States: c.states()})
	}
	story.Writes, story.Events, story.Ticks = c.writes, c.events, c.tick
	return story, nil
}

func (c *cluster) setPhase(p Phase) {
	c.phase = p
	c.add(Event{Kind: KindPhase, Phase: p})
}

// fault applies f, lets 2 election timeouts pass (a leader without a
// majority steps down within 1-2 of them), holds elections where no leader
// is left and writes on every side. It reports whether a write committed.
func (c *cluster) fault(f Fault) bool {
	c.setPhase(PhaseFault)
	old := c.member(1)
	switch f.Kind {
	case FaultCrash:
		var ids []uint64
		for i := 0; i < f.Crash; i++ {
			id := uint64(c.cfg.Nodes - i + 1) // the leader, then N, N-1, ...
			if i == 0 {
				id = 1
			}
			c.member(id).down = true
			ids = append(ids, id)
		}
		c.queue = nil
		if len(ids) > 0 {
			c.add(Event{Kind: KindCrash, Members: ids})
		}
	case FaultPartition:
		var groups [][]uint64
		id := uint64(1)
		for g, size := range f.Groups {
			var ids []uint64
			for i := 0; i < size; i++ {
				c.member(id).group = g
				ids = append(ids, id)
				id++
			}
			groups = append(groups, ids)
		}
		c.partitioned = true
		c.add(Event{Kind: KindPartition, Groups: groups})
	}
	start, committed := c.tick, false
	if !old.down {
		// The API server keeps talking to the member it is connected to.
		w := c.propose(old.id, "update", KeyDeployment)
		committed = w.Committed
	}
	// A side that lost its leader elects one when a follower's timer fires
	// (one election timeout after the last heartbeat); a leader cut off
	// from its majority steps down within 1–2 election timeouts
	// (CheckQuorum, raft.go tickHeartbeat), and its side campaigns one
	// timeout after that.
	campaigned := map[int]bool{}
	elect := func() {
		for g := 0; g < c.groups(); g++ {
			if c.leaderOf(g) == nil && !campaigned[g] {
				if id := c.firstLive(g); id != 0 {
					campaigned[g] = true
					c.campaign(id)
				}
			}
		}
	}
	elect()
	if rest := start + 2*ElectionTick - c.tick; rest > 0 {
		c.run(rest)
	}
	elect()
	for g := 0; g < c.groups(); g++ {
		if !old.down && old.group == g {
			continue
		}
		id := c.firstLive(g)
		if l := c.leaderOf(g); l != nil {
			id = l.id
		}
		if id != 0 && c.propose(id, "create", KeyReplicaSet).Committed {
			committed = true
		}
	}
	c.add(Event{Kind: KindState, States: c.states()})
	return committed
}

func (c *cluster) groups() int {
	n := 0
	for _, m := range c.members {
		n = max(n, m.group+1)
	}
	return n
}

func (c *cluster) firstLive(g int) uint64 {
	for _, m := range c.members {
		if !m.down && m.group == g {
			return m.id
		}
	}
	return 0
}

// heal reconnects the network and restarts crashed members on their own
// storage, then lets heartbeats catch everyone up; if no leader is left,
// the member with the most up-to-date log campaigns (its timer "fires
// first"; any other would be refused by the log check).
func (c *cluster) heal() {
	c.setPhase(PhaseHeal)
	var restarted []uint64
	c.partitioned = false
	for _, m := range c.members {
		m.group = 0
		if m.down {
			if err := c.start(m); err != nil {
				panic(err) // same config that started it before
			}
			restarted = append(restarted, m.id)
		}
	}
	c.add(Event{Kind: KindHeal, Members: restarted})
	// A member is behind when it missed entries others applied.
	var top uint64
	behind := map[uint64]bool{}
	for _, m := range c.members {
		top = max(top, m.applied)
	}
	for _, m := range c.members {
		behind[m.id] = m.applied < top
	}
	c.run(2)
	if c.leaderOf(0) == nil {
		c.campaign(c.mostUpToDate())
	}
	c.run(2)
	var commit uint64
	if l := c.leaderOf(0); l != nil {
		commit = l.rn.BasicStatus().Commit
	}
	for _, m := range c.members {
		if behind[m.id] && m.applied == commit {
			c.add(Event{Kind: KindCatchUp, Node: m.id, Index: commit})
		}
	}
}

func (c *cluster) mostUpToDate() uint64 {
	best, bestTerm, bestIndex := uint64(0), uint64(0), uint64(0)
	for _, m := range c.members {
		last, _ := m.st.LastIndex()
		term, _ := m.st.Term(last)
		if best == 0 || term > bestTerm || term == bestTerm && last > bestIndex {
			best, bestTerm, bestIndex = m.id, term, last
		}
	}
	return best
}
