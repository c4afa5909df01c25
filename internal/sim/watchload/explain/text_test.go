package explain

import (
	"sort"
	"testing"
	"time"

	_ "github.com/k8sexplain/k8sexplain/internal/golden" // -update is a flag of every test binary
)

// Both catalogues have the same keys, and each key the same number of verbs.
func TestCataloguesComplete(t *testing.T) {
	en, ru := Keys("en"), Keys("ru")
	sort.Strings(en)
	sort.Strings(ru)
	has := map[string]bool{}
	for _, k := range ru {
		has[k] = true
	}
	for _, k := range en {
		if !has[k] {
			t.Errorf("ru lacks %q", k)
		}
		delete(has, k)
	}
	for k := range has {
		t.Errorf("ru has %q, en does not", k)
	}
	verbs := func(s string) int {
		n := 0
		for i := 0; i+1 < len(s); i++ {
			if s[i] == '%' && s[i+1] != '%' {
				n++
			}
		}
		return n
	}
	for _, k := range en {
		if a, b := verbs(For("en").msgs[k]), verbs(For("ru").msgs[k]); a != b {
			t.Errorf("%s: %d verbs in en, %d in ru", k, a, b)
		}
	}
}

func TestFormats(t *testing.T) {
	en, ru := For("en"), For("ru")
	for _, tc := range []struct{ got, want string }{
		{en.Int(10000), "10,000"},
		{en.Int(4687), "4,687"},
		{ru.Int(10000), "10\u00a0000"},
		{ru.Int(4687), "4687"}, // Russian leaves four digits whole
		{en.Bytes(2686), "2,686 B"},
		{en.Bytes(26874165), "26.9 MB"},
		{ru.Bytes(26874165), "26,9 МБ"},
		{en.Bytes(65742795690), "65.7 GB"},
		{en.Dur(0), "0 s"},
		{en.Dur(time.Millisecond), "1 ms"},
		{en.Dur(1500 * time.Microsecond), "1.5 ms"},
		{en.Dur(269741650 * time.Nanosecond), "270 ms"},
		{en.Dur(1282 * time.Millisecond), "1.282 s"},
		{ru.Dur(30027 * time.Millisecond), "30,027 с"},
		{en.Dur(time.Minute), "1 min"},
		{en.N(1, "n.controller"), "1 controller"},
		{en.N(50, "n.controller"), "50 controllers"},
		{ru.N(1, "n.controller"), "1 контроллер"},
		{ru.N(22, "n.pod"), "22 пода"},
		{ru.N(11, "n.node"), "11 нод"},
		{ru.N(10000, "n.pod"), "10\u00a0000 подов"},
		{ru.N(501, "n.node"), "501 нода"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
