package l10n

import (
	"strings"
	"testing"
	"time"
)

func TestFormatTypedArguments(t *testing.T) {
	c := NewCatalog(map[string]string{
		"wait":   "waited {1} for {2:# pod|# pods}, {3} of them ready ({4}%)",
		"named":  "{who} kept {n:# member|# members}; {rate} req/s",
		"json":   `body {"a": 1} and {not a placeholder} stay; {1}`,
		"quoted": "answer {1}",
	}, map[string]string{
		"wait":   "ждали {1} {2:# пода|# подов|# подов}, из них готовы {3} ({4} %)",
		"named":  "{who} сохранил {n:# члена|# членов|# членов}; {rate} запр./с",
		"json":   `тело {"a": 1} и {not a placeholder} остаются; {1}`,
		"quoted": "ответ {1}",
	})
	for _, tc := range []struct {
		lang, key string
		args      []any
		want      string
	}{
		{"en", "wait", []any{150 * time.Second, 21, Num(12500), 1.5}, "waited 2m30s for 21 pods, 12,500 of them ready (1.5%)"},
		{"ru", "wait", []any{150 * time.Second, 21, Num(12500), 1.5}, "ждали 2 мин 30 с 21 пода, из них готовы 12\u00a0500 (1,5 %)"},
		{"ru", "wait", []any{30 * time.Second, 5, Num(4687), Dec{2.50, 2}}, "ждали 30 с 5 подов, из них готовы 4\u00a0687 (2,5 %)"},
		{"en", "named", []any{Vars{"who": "etcd-1", "n": 1, "rate": Fix{2, 1}}}, "etcd-1 kept 1 member; 2.0 req/s"},
		{"ru", "named", []any{Vars{"who": "etcd-1", "n": "3", "rate": Fix{2, 1}}}, "etcd-1 сохранил 3 членов; 2,0 запр./с"},
		{"en", "json", []any{8080}, `body {"a": 1} and {not a placeholder} stay; 8080`},
		{"en", "quoted", []any{Quoted(`a"b`)}, `answer "a\"b"`},
		{"en", "wait", nil, "waited {1?} for {2?}, {3?} of them ready ({4?}%)"},
		{"de", "quoted", []any{"x"}, "answer x"},
		{"ru", "missing", nil, "!missing"},
	} {
		if got := c.T(tc.lang, tc.key, tc.args...); got != tc.want {
			t.Errorf("%s %s: got %q, want %q", tc.lang, tc.key, got, tc.want)
		}
	}
	if got := c.In("ru").T("quoted", "да"); got != "ответ да" {
		t.Errorf("In: %q", got)
	}
}

// Check finds a missing key, differing placeholders and a wrong number of
// plural forms; a sound catalogue passes.
func TestCheck(t *testing.T) {
	good := NewCatalog(map[string]string{"a": "{1:# pod|# pods} on {node} {1:is|are}"}, map[string]string{"a": "{node}: {1:# под|# пода|# подов}"})
	if errs := good.Check(); len(errs) != 0 {
		t.Fatalf("sound catalogue: %v", errs)
	}
	bad := NewCatalog(
		map[string]string{"a": "{1} and {2}", "b": "{n:pod|pods}", "c": "only English"},
		map[string]string{"a": "{1}", "b": "{n:под|подов}", "d": "только русский"})
	var all []string
	for _, e := range bad.Check() {
		all = append(all, e.Error())
	}
	got := strings.Join(all, "\n")
	for _, want := range []string{"a: placeholders differ", "b: {n} has 2 plural forms in ru", "c: no ru text", "d: ru text without English"} {
		if !strings.Contains(got, want) {
			t.Errorf("Check misses %q; got:\n%s", want, got)
		}
	}
}

// Int groups digits as CLDR does in both languages, from four digits on.
func TestIntGroupsAsCLDR(t *testing.T) {
	for _, tc := range []struct {
		lang string
		n    int64
		want string
	}{{"en", 999, "999"}, {"en", 4687, "4,687"}, {"en", -150000, "-150,000"}, {"ru", 4687, "4\u00a0687"}, {"ru", 1_000_001, "1\u00a0000\u00a0001"}} {
		if got := Int(tc.lang, tc.n); got != tc.want {
			t.Errorf("Int(%s, %d) = %q, want %q", tc.lang, tc.n, got, tc.want)
		}
	}
}
