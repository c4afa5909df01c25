package trace

import (
	"regexp"
	"sort"
	"testing"
	"time"

	_ "github.com/k8sexplain/k8sexplain/internal/golden"
)

var placeholder = regexp.MustCompile(`\{[a-zA-Z]+\}`)

// Every step kind has an English and a Russian text with the same
// placeholders, and the same kinds carry an explanation.
func TestCatalogueParity(t *testing.T) {
	for kind, en := range catalogueEN {
		ru, ok := catalogueRU[kind]
		if !ok {
			t.Errorf("%s: no Russian text", kind)
			continue
		}
		if a, b := keys(en.Msg), keys(ru.Msg); a != b {
			t.Errorf("%s: placeholders differ: en %s, ru %s", kind, a, b)
		}
		if (en.Explain == "") != (ru.Explain == "") {
			t.Errorf("%s: explanation present in one language only", kind)
		}
	}
	for kind := range catalogueRU {
		if _, ok := catalogueEN[kind]; !ok {
			t.Errorf("%s: Russian text without English", kind)
		}
	}
}

func keys(s string) string {
	ks := placeholder.FindAllString(s, -1)
	sort.Strings(ks)
	out := ""
	for _, k := range ks {
		out += k
	}
	return out
}

func TestFillAndClock(t *testing.T) {
	s := &Step{Kind: "etcd.put", Fields: F("key", "/registry/pods/default/x", "rev", 12)}
	if got := Text("en", s); got != "etcd: PUT /registry/pods/default/x at revision 12" {
		t.Fatalf("Text: %q", got)
	}
	if got := Clock(61*time.Second + 5*time.Millisecond); got != "01:01.005" {
		t.Fatalf("Clock: %q", got)
	}
}

func TestRecorderLimit(t *testing.T) {
	r := NewRecorder(func() time.Duration { return time.Second }, 2)
	for i := 0; i < 5; i++ {
		r.Add(Step{Kind: "x"})
	}
	if len(r.Steps) != 2 || r.Dropped != 3 || r.Steps[0].At != time.Second {
		t.Fatalf("steps %d dropped %d", len(r.Steps), r.Dropped)
	}
}
