package etcd

import (
	"reflect"
	"testing"
)

func kinds(st *SpaceStory) []string {
	var out []string
	for _, s := range st.Steps {
		k := s.Kind
		if s.Kind == SpaceRefused {
			k += ":" + s.Stage
		}
		if s.Kind == SpaceAlarm && !s.Activate {
			k += ":disarm"
		}
		out = append(out, k)
	}
	return out
}

func lastState(t *testing.T, st *SpaceStory) []Backend {
	t.Helper()
	for i := len(st.Steps) - 1; i >= 0; i-- {
		if st.Steps[i].Kind == SpaceState {
			return st.Steps[i].Backends
		}
	}
	t.Fatal("no state")
	return nil
}

// The quota check refuses a Put before Raft and raises NOSPACE through
// Raft; while the alarm is raised the applier refuses Puts even after a
// defragmentation freed the space; deletes pass; disarming lets the Put in.
func TestSpaceStory(t *testing.T) {
	st, err := RunSpace(SpaceScenario{Nodes: 3, QuotaBytes: 16 << 20, Defrag: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"put", "fill", "refused:quota", "alarm", "state",
		"refused:quota", "delete", "state",
		"compact", "defrag", "defrag", "defrag", "refused:applier", "alarm:disarm", "put", "state"}
	if got := kinds(st); !reflect.DeepEqual(got, want) {
		t.Fatalf("steps %v\nwant  %v", got, want)
	}
	fill := st.Steps[1]
	if fill.Count < 1 || fill.Size+int64(st.Cost) < st.QuotaBytes || fill.Size >= st.QuotaBytes {
		t.Errorf("fill %+v: the next Put must be the first not to fit", fill)
	}
	if !st.Recovered {
		t.Error("the last Put did not commit")
	}
	// every member applied the alarm, the compaction and the defrag
	mid := st.Steps[4].Backends
	for _, b := range mid {
		if !b.NoSpace || b.Size != fill.Size {
			t.Errorf("after the fill: %+v", b)
		}
	}
	end := lastState(t, st)
	for _, b := range end {
		if b.NoSpace || b.Compacted != st.Compact || b.Size >= fill.Size || b.Revision != end[0].Revision {
			t.Errorf("after the recovery: %+v", b)
		}
	}
	c := st.Steps[8]
	if c.After >= c.Before || c.Size < fill.Size {
		t.Errorf("compaction %+v: frees revisions, the file keeps its size", c)
	}
}

// Disarming without a defragmentation: the file is as large as before, so
// the next Put fails the quota check again and raises the alarm again.
func TestSpaceWithoutDefrag(t *testing.T) {
	st, err := RunSpace(SpaceScenario{Nodes: 3, QuotaBytes: 16 << 20})
	if err != nil {
		t.Fatal(err)
	}
	k := kinds(st)
	want := []string{"compact", "alarm:disarm", "refused:quota", "alarm", "state"}
	if got := k[len(k)-len(want):]; !reflect.DeepEqual(got, want) {
		t.Fatalf("recovery %v, want %v", got, want)
	}
	if st.Recovered || !lastState(t, st)[0].NoSpace {
		t.Error("the alarm should be raised again")
	}
}

// etcdctl compact's refusals: a future revision, and one at or below the
// last compaction (none here: a fresh store was never compacted).
func TestSpaceCompactErrors(t *testing.T) {
	st, err := RunSpace(SpaceScenario{Nodes: 1, QuotaBytes: 1 << 20, Compact: 1 << 40, Defrag: true})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range st.Steps {
		if s.Kind == SpaceCompactE && s.Error == ErrFutureRev {
			found = true
		}
	}
	if !found {
		t.Errorf("no future-revision refusal: %v", kinds(st))
	}
	if _, err := RunSpace(SpaceScenario{Nodes: 3, QuotaBytes: 1000}); err == nil {
		t.Error("a quota smaller than one Put should be refused")
	}
}
