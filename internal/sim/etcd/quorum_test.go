package etcd

import (
	"encoding/json"
	"fmt"
	"testing"
)

func mustRun(t testing.TB, s Scenario) *Story {
	t.Helper()
	st, err := Run(s)
	if err != nil {
		t.Fatalf("%+v: %v", s, err)
	}
	return st
}

// faultEvents returns the events of the fault phase.
func faultEvents(s *Story) []Event {
	var out []Event
	in := false
	for _, e := range s.Events {
		if e.Kind == KindPhase {
			in = e.Phase == PhaseFault
		}
		if in {
			out = append(out, e)
		}
	}
	return out
}

var configs = []struct{ cq, pv bool }{{true, true}, {true, false}, {false, true}, {false, false}}

// A write sent during the fault commits exactly when the live voters are a
// majority: floor(N/2)+1 (etcd FAQ, failure tolerance table).
func TestCrashQuorum(t *testing.T) {
	for n := 1; n <= 7; n++ {
		for k := 0; k < n; k++ {
			for _, c := range configs {
				s := mustRun(t, Scenario{Nodes: n, Fault: Fault{Kind: FaultCrash, Crash: k}, CheckQuorum: c.cq, PreVote: c.pv})
				want := n-k >= n/2+1
				if s.FaultQuorum != want {
					t.Errorf("N=%d crash %d cq=%v pv=%v: write committed %v, want %v", n, k, c.cq, c.pv, s.FaultQuorum, want)
				}
				if s.Writes[0].Committed != true || !s.Writes[0].CommittedInPhase {
					t.Errorf("N=%d: first write not committed before the fault", n)
				}
			}
		}
	}
}

// The same holds for every two-way partition: only a side holding a
// majority commits, and never both.
func TestPartitionQuorum(t *testing.T) {
	for n := 2; n <= 7; n++ {
		for a := 1; a < n; a++ {
			for _, c := range configs {
				s := mustRun(t, Scenario{Nodes: n, Fault: Fault{Kind: FaultPartition, Groups: []int{a, n - a}}, CheckQuorum: c.cq, PreVote: c.pv})
				want := max(a, n-a) >= Quorum(n)
				if s.FaultQuorum != want {
					t.Errorf("N=%d partition %d,%d: committed %v, want %v", n, a, n-a, s.FaultQuorum, want)
				}
				commits := 0
				for _, w := range s.Writes[1:] {
					if w.CommittedInPhase {
						commits++
					}
				}
				if commits > 1 {
					t.Errorf("N=%d partition %d,%d: %d sides committed (split brain)", n, a, n-a, commits)
				}
			}
		}
	}
}

// A two-member cluster split in two never elects a leader, whatever the
// settings, and commits nothing.
func TestTwoNodePartitionNeverElects(t *testing.T) {
	for _, c := range configs {
		s := mustRun(t, Scenario{Nodes: 2, Fault: Fault{Kind: FaultPartition, Groups: []int{1, 1}}, CheckQuorum: c.cq, PreVote: c.pv})
		for _, e := range faultEvents(s) {
			if e.Kind == KindLeader || e.Kind == KindCommit {
				t.Errorf("cq=%v pv=%v: %s during the partition: %+v", c.cq, c.pv, e.Kind, e)
			}
		}
	}
}

// With CheckQuorum the isolated old leader steps down; without it, it stays a
// (stale) leader that cannot commit.
func TestIsolatedLeaderStepsDown(t *testing.T) {
	for _, n := range []int{2, 3, 4, 5, 6, 7} {
		for _, c := range configs {
			s := mustRun(t, Scenario{Nodes: n, Fault: Fault{Kind: FaultPartition, Groups: []int{1, n - 1}, Isolate: "leader"}, CheckQuorum: c.cq, PreVote: c.pv})
			stepped := false
			for _, e := range faultEvents(s) {
				if e.Kind == KindStepDown && e.Node == 1 && e.Reason == ReasonCheckQuorum {
					stepped = true
				}
			}
			if stepped != c.cq {
				t.Errorf("N=%d cq=%v pv=%v: stepped down %v", n, c.cq, c.pv, stepped)
			}
			if s.Writes[1].CommittedInPhase {
				t.Errorf("N=%d: the isolated leader committed a write", n)
			}
			// With a majority on the other side, a new leader overwrites
			// the entry; with two members nobody can, and it commits
			// after healing (see TestTimedOutWriteCommitsLater).
			if n > 2 && s.Writes[1].Committed {
				t.Errorf("N=%d: the isolated leader's write survived the heal", n)
			}
		}
	}
}

// A write whose client timed out may still commit after healing: in a 2+2
// split nobody can elect, and the old leader's entry wins the next term.
func TestTimedOutWriteCommitsLater(t *testing.T) {
	s := mustRun(t, Scenario{Nodes: 4, Fault: Fault{Kind: FaultPartition, Groups: []int{2, 2}}, CheckQuorum: true, PreVote: true})
	w := s.Writes[1]
	if w.CommittedInPhase || !w.Committed || !w.Late {
		t.Fatalf("write %+v: want committed late", w)
	}
}

// Without PreVote a rejoining member's inflated term deposes a healthy
// leader; with PreVote it does not (the reason etcd enables it).
func TestPreVoteProtectsLeader(t *testing.T) {
	for _, pv := range []bool{true, false} {
		s := mustRun(t, Scenario{Nodes: 3, Fault: Fault{Kind: FaultPartition, Groups: []int{2, 1}, Isolate: "follower"}, CheckQuorum: true, PreVote: pv})
		deposed := false
		for _, e := range s.Events {
			if e.Kind == KindStepDown && e.Reason == ReasonHigherTerm {
				deposed = true
			}
		}
		if deposed == pv {
			t.Errorf("pre-vote %v: healthy leader deposed %v", pv, deposed)
		}
	}
}

// After healing, one leader, and every member has applied the same index.
func TestHealConverges(t *testing.T) {
	for n := 2; n <= 7; n++ {
		s := mustRun(t, Scenario{Nodes: n, CheckQuorum: true, PreVote: true})
		last := s.Events[len(s.Events)-1]
		for last.Kind != KindState {
			s.Events = s.Events[:len(s.Events)-1]
			last = s.Events[len(s.Events)-1]
		}
		leaders := 0
		for _, m := range last.States {
			if m.Role == "leader" {
				leaders++
			}
			if m.Commit != last.States[0].Commit {
				t.Errorf("N=%d: etcd-%d commit %d, etcd-1 %d", n, m.ID, m.Commit, last.States[0].Commit)
			}
		}
		if leaders != 1 {
			t.Errorf("N=%d: %d leaders after healing", n, leaders)
		}
	}
}

// Same scenario, same story, byte for byte.
func TestDeterministic(t *testing.T) {
	for n := 1; n <= 9; n++ {
		a, _ := json.Marshal(mustRun(t, Scenario{Nodes: n, CheckQuorum: true, PreVote: true}))
		for i := 0; i < 3; i++ {
			b, _ := json.Marshal(mustRun(t, Scenario{Nodes: n, CheckQuorum: true, PreVote: true}))
			if string(a) != string(b) {
				t.Fatalf("N=%d: run %d differs", n, i)
			}
		}
	}
}

func TestResolveRejects(t *testing.T) {
	for _, s := range []Scenario{
		{Nodes: 0},
		{Nodes: 3, Fault: Fault{Kind: FaultCrash, Crash: 3}},
		{Nodes: 3, Fault: Fault{Kind: FaultPartition, Groups: []int{1, 1}}},
		{Nodes: 3, Fault: Fault{Kind: FaultPartition, Groups: []int{3}}},
	} {
		if _, err := Run(s); err == nil {
			t.Errorf("%+v: no error", s)
		}
	}
}

// BenchmarkScenario measures one story per cluster size (default fault).
func BenchmarkScenario(b *testing.B) {
	for _, n := range []int{1, 3, 5, 7, 9} {
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				mustRun(b, Scenario{Nodes: n, CheckQuorum: true, PreVote: true})
			}
		})
	}
}

// Refusal reasons come from the library's own checks: a member whose log
// is behind is refused, and a leader in its lease ignores the request.
func TestRefusalReasons(t *testing.T) {
	c, err := newCluster(Config{Nodes: 3, CheckQuorum: true, PreVote: true})
	if err != nil {
		t.Fatal(err)
	}
	c.campaign(1)
	c.member(3).group = 1 // etcd-3 misses the next write
	c.propose(1, "create", KeyDeployment)
	c.member(3).group = 0
	c.member(3).reset = c.tick - ElectionTick // its timer fires now, before a heartbeat catches it up
	c.campaign(3)
	got := map[uint64]string{}
	for _, e := range c.events {
		if e.Kind == KindVote && e.Peer == 3 {
			got[e.Node] = e.Reason
		}
	}
	if got[1] != ReasonLease || got[2] != ReasonLogBehind {
		t.Fatalf("reasons %v: want etcd-1 %s, etcd-2 %s", got, ReasonLease, ReasonLogBehind)
	}
	if l := c.leaderOf(0); l == nil || l.id != 1 {
		t.Fatalf("leader changed")
	}
}

// Every election timer fires one election timeout (10 ticks, the shortest of
// etcd's randomized 10–19) after the member last heard from a leader,
// campaigned or stepped down, so the printed time agrees with the stated
// range; a leader cut off from its majority steps down within 1–2 election
// timeouts (CheckQuorum).
func TestTimersFireAfterAnElectionTimeout(t *testing.T) {
	s := mustRun(t, Scenario{Nodes: 3, CheckQuorum: true, PreVote: true,
		Fault: Fault{Kind: FaultPartition, Groups: []int{1, 2}, Isolate: "leader"}})
	var split, stepDown int
	campaigns := map[uint64][]int{}
	for _, e := range s.Events {
		switch {
		case e.Kind == KindPartition:
			split = e.Tick
		case e.Kind == KindStepDown && e.Node == 1:
			stepDown = e.Tick
		case e.Kind == KindCampaign && e.PreVote:
			campaigns[e.Node] = append(campaigns[e.Node], e.Tick)
		}
	}
	if got := campaigns[1]; len(got) < 2 || got[0] != ElectionTick {
		t.Fatalf("etcd-1 campaigns at ticks %v: want its first at %d, one timeout after start", got, ElectionTick)
	}
	if d := stepDown - split; d < ElectionTick || d > 2*ElectionTick {
		t.Errorf("etcd-1 steps down %d ticks after the split: want 1–2 election timeouts", d)
	}
	if got := campaigns[2]; len(got) != 1 || got[0] != split+ElectionTick {
		t.Errorf("etcd-2 campaigns at %v: want %d, one timeout after the last heartbeat", got, split+ElectionTick)
	}
	if got := campaigns[1][1]; got != stepDown+ElectionTick {
		t.Errorf("etcd-1 campaigns again at %d: want %d, one timeout after stepping down", got, stepDown+ElectionTick)
	}
}

// A deposed leader's step-down names what reached it: with CheckQuorum and
// PreVote off a follower ignores a stale heartbeat, so the new leader's
// heartbeat deposes the old one; with CheckQuorum on, the member with the
// higher term answers the stale heartbeat (raft.go Step, m.Term < r.Term).
func TestStepDownNamesItsCause(t *testing.T) {
	for _, tc := range []struct {
		name   string
		sc     Scenario
		reason string
		peer   uint64
	}{
		{"no checkquorum, no prevote", Scenario{Nodes: 3, Fault: Fault{Kind: FaultPartition, Groups: []int{1, 2}, Isolate: "leader"}}, ReasonNewLeader, 2},
		{"no checkquorum", Scenario{Nodes: 3, PreVote: true, Fault: Fault{Kind: FaultPartition, Groups: []int{1, 2}, Isolate: "leader"}}, ReasonNewLeader, 2},
		{"no prevote, follower back", Scenario{Nodes: 3, CheckQuorum: true, Fault: Fault{Kind: FaultPartition, Groups: []int{2, 1}, Isolate: "follower"}}, ReasonHigherTerm, 3},
	} {
		s := mustRun(t, tc.sc)
		found := false
		for _, e := range s.Events {
			if e.Kind == KindStepDown && e.Node == 1 {
				found = true
				if e.Reason != tc.reason || e.Peer != tc.peer {
					t.Errorf("%s: etcd-1 steps down for %q from etcd-%d: want %q from etcd-%d", tc.name, e.Reason, e.Peer, tc.reason, tc.peer)
				}
			}
		}
		if !found {
			t.Errorf("%s: etcd-1 never steps down", tc.name)
		}
	}
}
