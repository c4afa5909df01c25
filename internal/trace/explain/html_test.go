package explain

import (
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/k8sexplain/k8sexplain/internal/trace"
)

func TestChartOfNumericTablesOnly(t *testing.T) {
	rs := &report.Table{Header: []string{"sync", "old", "new"}, Rows: [][]string{{"1", "3", "1"}, {"2", "2", "2"}, {"3", "0", "3"}}}
	f := chartOf(rs)
	if f == nil || len(f.Chart.Series) != 2 || f.Chart.Series[1].Name != "new" || f.Chart.Series[0].Values[2] != 0 || len(f.Chart.X) != 3 {
		t.Fatalf("chart of the rollout table: %+v", f)
	}
	if chartOf(&report.Table{Header: []string{"restart", "delay"}, Rows: [][]string{{"1", "10s"}, {"2", "20s"}}}) != nil {
		t.Error("a table with text cells is no chart")
	}
}

// The player's steps follow the page's steps; each names the changes
// that have happened by it (its own Seq), and the changes of the step
// shown just before it in time, whatever the page order.
func TestPlayerStepsReplayTheStateLog(t *testing.T) {
	tr := &trace.Trace{Story: "apply", State: &trace.StateLog{Changes: []trace.ObjectChange{
		{Seq: 0, Kind: "Node", Name: "node-a", Cols: []string{"", "Ready", "<none>", "", "v1.37.2"}},
		{Seq: 1, Kind: "Deployment", Name: "default/web", Cols: []string{"", "0/1", "0", "0", ""}},
		{Seq: 3, Kind: "Pod", Name: "default/web-1", Cols: []string{"", "0/1", "Pending", "0", "", "<none>", "<none>"}},
	}}}
	shown := []trace.Step{{Seq: 2, Kind: "b"}, {Seq: 0, Kind: "a"}} // page order differs from time order
	p := player(tr, shown)
	if len(p.Steps) != 2 || len(p.Changes) != 3 || p.Kinds[p.Changes[2].K].Kind != "Pod" {
		t.Fatalf("player: %+v", p)
	}
	// Seq 2 sees the changes committed before step 3: all three; the step
	// before it in time is Seq 0, which saw the first two.
	if p.Steps[0].N != 3 || p.Steps[0].P != 2 {
		t.Errorf("step s1 (seq 2): n=%d p=%d, want 3 and 2", p.Steps[0].N, p.Steps[0].P)
	}
	if p.Steps[1].N != 2 || p.Steps[1].P > p.Steps[1].N {
		t.Errorf("step s2 (seq 0): n=%d p=%d, want n=2, p<=n", p.Steps[1].N, p.Steps[1].P)
	}
}
