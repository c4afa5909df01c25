package trace

import "testing"

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
