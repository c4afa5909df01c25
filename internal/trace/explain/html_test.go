package explain

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/render"
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
	// The autoscaler's syncs: time on the axis; replicas and desired are
	// integers on every row, the utilization is blank on a failed sync.
	hpa := &report.Table{Header: []string{"sync", "load", "replicas", "utilization", "desired"}, Rows: [][]string{
		{"15s", "40%", "3", "", "3"}, {"30s", "120%", "3", "120%", "7"}, {"45s", "120%", "7", "52%", "7"}}}
	f = chartOf(hpa)
	if f == nil || len(f.Chart.Series) != 2 || f.Chart.Series[0].Name != "replicas" || f.Chart.Series[1].Name != "desired" ||
		f.Chart.Series[1].Values[1] != 7 || f.Chart.X[2] != "45s" {
		t.Fatalf("chart of the autoscaler's table: %+v", f)
	}
}

// --at prints RESTARTS as printPod does: the count and, after a restart,
// how long ago the last one finished at the moment shown.
func TestStateAtRestartsAgo(t *testing.T) {
	tr := &trace.Trace{Story: "crash", Start: time.Second, State: &trace.StateLog{Changes: []trace.ObjectChange{
		{Seq: 0, At: 2 * time.Second, Kind: "Pod", Name: "default/web-1", Cols: []string{"", "1/1", "Running", "0", "", "10.244.1.2", "node-a"}},
		{Seq: 0, At: 30 * time.Second, Kind: "Pod", Name: "default/web-1", Cols: []string{"", "0/1", "CrashLoopBackOff", "2", "", "10.244.1.2", "node-a"},
			Restarted: 25 * time.Second},
	}}}
	d, err := StateAt(tr, Options{Lang: "en"}, "00:34.000")
	if err != nil {
		t.Fatal(err)
	}
	var cell string
	for _, b := range d.Blocks {
		if b.Table != nil && len(b.Table.Rows) > 0 && len(b.Table.Rows[0]) > 4 {
			cell = b.Table.Rows[0][4]
		}
	}
	if cell != "2 (10s ago)" {
		t.Errorf("RESTARTS at 00:34.000 (35 s on the run's clock): %q, want \"2 (10s ago)\"", cell)
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

// A page of a 30,000-pod trace stays under 16 MB: the shape measured on
// `trace apply --nodes 1000 -o html` of 30,000 replicas (9,698 steps shown,
// 616 of them scheduler cycles scoring 420 nodes each; 40 MB before the
// cap, 29 MB of it score tables). Step tables past render.MaxPageTableRows
// rows are left out with a note that says the limit.
func TestThirtyThousandPodPageIsCapped(t *testing.T) {
	const limit = 16 << 20
	plugins := []string{"TaintToleration", "NodeAffinity", "NodeResourcesFit", "PodTopologySpread", "InterPodAffinity", "NodeResourcesBalancedAllocation", "ImageLocality"}
	tr := &trace.Trace{Command: "k8sexplain trace apply --nodes 1000 app.yaml"}
	for i := range 9698 {
		s := trace.Step{At: time.Duration(i) * time.Millisecond, Phase: trace.PhaseKubelet, Actor: fmt.Sprintf("kubelet/node-%04d", i%1000),
			Kind: "kubelet.running", Object: fmt.Sprintf("pods/default/web-6fcbdccd87-%05d", i), Fields: trace.F("pod", fmt.Sprintf("web-6fcbdccd87-%05d", i))}
		if i%16 == 0 && i/16 < 616 {
			p := &trace.Placement{Node: "node-0001"}
			for n := range 420 {
				ns := trace.NodeScore{Node: fmt.Sprintf("node-%04d", n), Total: int64(300 + n%50)}
				for j, pl := range plugins {
					ns.Plugins = append(ns.Plugins, trace.PluginScore{Plugin: pl, Normalized: int64(50 + (n+j)%50), Weight: int64(1 + j%3)})
				}
				p.Scores = append(p.Scores, ns)
			}
			s.Phase, s.Actor, s.Kind, s.Placement = trace.PhaseScheduler, "default-scheduler", "scheduler.score", p
		}
		tr.Steps = append(tr.Steps, s)
	}
	for _, lang := range []string{"en"} {
		var b strings.Builder
		if err := render.Render(&b, Doc(tr, Options{Lang: lang}), render.Options{Format: render.HTML, Lang: lang}); err != nil {
			t.Fatal(err)
		}
		page := b.String()
		if len(page) > limit {
			t.Errorf("%s: the page is %.1f MB, over %d MB", lang, float64(len(page))/(1<<20), limit>>20)
		}
		if rows := strings.Count(page, "<tr"); rows > render.MaxPageTableRows+616 { // + a header row per table
			t.Errorf("%s: %d table rows embedded, limit %d", lang, rows, render.MaxPageTableRows)
		}
		if !strings.Contains(page, "10,000") && !strings.Contains(page, "10\u00a0000") {
			t.Errorf("%s: the page does not say the limit", lang)
		}
	}
}
