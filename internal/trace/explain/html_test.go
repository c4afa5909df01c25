package explain

import (
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/report"
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
