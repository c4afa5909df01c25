package trace

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

func TestFillPluralForms(t *testing.T) {
	for _, tc := range []struct {
		lang, tmpl string
		n          string
		want       string
	}{
		{"en", "with {r:# replica|# replicas}", "1", "with 1 replica"},
		{"en", "with {r:# replica|# replicas}", "2", "with 2 replicas"},
		{"ru", "с {r:# репликой|# репликами|# репликами}", "1", "с 1 репликой"},
		{"ru", "{r:# под|# пода|# подов}", "2", "2 пода"},
		{"ru", "{r:# под|# пода|# подов}", "5", "5 подов"},
		{"ru", "{r:# под|# пода|# подов}", "21", "21 под"},
		{"en", "{r:# pod|# pods}", "many", "many"},
	} {
		s := &Step{Fields: F("r", tc.n)}
		if got := fill(tc.lang, tc.tmpl, s); got != tc.want {
			t.Errorf("%s %q n=%s: %q, want %q", tc.lang, tc.tmpl, tc.n, got, tc.want)
		}
	}
}
