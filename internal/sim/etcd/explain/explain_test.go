package explain

import (
	"encoding/json"
	"strings"
	"testing"

	_ "github.com/k8sexplain/k8sexplain/internal/golden"
	"github.com/k8sexplain/k8sexplain/internal/sim/etcd"
)

func story(t *testing.T, sc etcd.Scenario) *etcd.Story {
	t.Helper()
	s, err := etcd.Run(sc)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestBuild(t *testing.T) {
	s := story(t, etcd.Scenario{Nodes: 3, CheckQuorum: true, PreVote: true,
		Fault: etcd.Fault{Kind: etcd.FaultPartition, Groups: []int{1, 2}, Isolate: "leader"}})
	d := Build(s, "en", false)
	if !strings.Contains(d.Title, "3") {
		t.Errorf("title %q does not name the 3 members", d.Title)
	}
	// kube-apiserver and one participant per member.
	if d.Sequence == nil || len(d.Sequence.Participants) != 4 {
		t.Fatalf("sequence %+v: want kube-apiserver and etcd-1..3", d.Sequence)
	}
	data := d.Data.(quorumJSON)
	if len(data.Sizes) != 7 || data.Sizes[2] != (quorumSize{3, 2, 1}) {
		t.Errorf("sizes %v: want 1 to 7 members, 3 → majority 2, tolerance 1", data.Sizes)
	}
	for _, e := range data.Story.Events {
		if e.Kind == etcd.KindMessage {
			t.Fatal("Raft messages in the data without -v")
		}
	}
	verbose := Build(s, "en", true).Data.(quorumJSON)
	if len(verbose.Story.Events) <= len(data.Story.Events) {
		t.Errorf("-v: %d events, want more than the %d without it (the Raft messages)", len(verbose.Story.Events), len(data.Story.Events))
	}
	if ru := Build(s, "ru", false); ru.Title == d.Title {
		t.Errorf("--lang ru title %q is the English one", ru.Title)
	}
}

func TestBuildNineMembersExtendTheTable(t *testing.T) {
	s := story(t, etcd.Scenario{Nodes: 9, CheckQuorum: true, PreVote: true})
	if n := len(Build(s, "en", false).Data.(quorumJSON).Sizes); n != 9 {
		t.Errorf("%d sizes for 9 members, want 1 to 9", n)
	}
}

// The HTML figure draws each member as the simulation's state says: a
// live member of an unpartitioned cluster (group 0) is never drawn down,
// a crashed one always is.
func TestSidesFigureFollowsTheStates(t *testing.T) {
	s := story(t, etcd.Scenario{Nodes: 5, CheckQuorum: true, PreVote: true, Fault: etcd.Fault{Kind: etcd.FaultCrash, Crash: 2}})
	rows := 0
	for _, e := range s.Events {
		if e.Kind != etcd.KindState {
			continue
		}
		rows++
		row := sidesFigure(For("en"), e.States).Sides.Rows[0]
		drawn := map[string]string{}
		for _, g := range row.Groups {
			for _, m := range g {
				drawn[strings.Fields(m.Name)[0]] = m.Role
			}
		}
		for _, m := range row.Down {
			drawn[strings.Fields(m.Name)[0]] = "down (crossed out)"
		}
		for _, st := range e.States {
			want := st.Role
			if want == "down" {
				want = "down (crossed out)"
			}
			if got := drawn[member(st.ID)]; got != want {
				t.Errorf("state at tick %d: %s drawn as %q, the simulation says %q", e.Tick, member(st.ID), got, st.Role)
			}
		}
	}
	if rows == 0 {
		t.Fatal("no state snapshots in the story")
	}
}

// Texts that depend on the fault: an even default split has no smaller
// side; a lost single member leaves nobody to answer reads; in kubeadm's
// stacked topology an API server never switches to another etcd member.
func TestFaultDependentTexts(t *testing.T) {
	text := func(sc etcd.Scenario) string {
		b, err := json.Marshal(Build(story(t, sc), "en", false).Blocks)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	two := text(etcd.Scenario{Nodes: 2, CheckQuorum: true, PreVote: true})
	if strings.Contains(two, "smaller side") || !strings.Contains(two, "two equal halves") {
		t.Errorf("2 members, default split: want \"two equal halves\", no \"smaller side\"")
	}
	one := text(etcd.Scenario{Nodes: 1, CheckQuorum: true, PreVote: true})
	if strings.Contains(one, "Only serializable reads answer") || !strings.Contains(one, "nothing answers etcd reads") {
		t.Errorf("1 member: the text must say nothing answers reads")
	}
	three := text(etcd.Scenario{Nodes: 3, CheckQuorum: true, PreVote: true, Fault: etcd.Fault{Kind: etcd.FaultCrash, Crash: 1}})
	if strings.Contains(three, "switches to another endpoint") || !strings.Contains(three, "127.0.0.1:2379") {
		t.Errorf("3 members, 1 crashed: the stacked API server talks only to its local member")
	}
}
