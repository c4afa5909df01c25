package explain

import (
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/provenance"
)

// Every sentence that states a fact names its source (sources.go).
func TestEverySentenceHasASource(t *testing.T) {
	c := Provenance()
	if len(c.Texts) < 25 {
		t.Fatalf("only %d sentences found", len(c.Texts))
	}
	for _, p := range provenance.Problems(c.Package, c.Texts, c.Sources) {
		t.Error(p)
	}
}

// v1.37 informers start with a streaming list; the report says which path
// it simulates and what the default changes (issue 23).
func TestWatchListIsNamed(t *testing.T) {
	for _, lang := range []string{"en", "ru"} {
		c := For(lang)
		for key, want := range map[string][]string{
			"designs.streaming": {"sendInitialEvents=true", "WatchListClient", "v1.35", "k8s.io/initial-events-end", "LIST"},
			"designs.informer":  {"v1.35"},
			"memory.informer":   {"LIST+WATCH"},
			"sources.reflector": {"sendInitialEvents=true"},
		} {
			got := c.F(key)
			for _, w := range want {
				if !strings.Contains(got, w) {
					t.Errorf("%s %s lacks %q: %s", lang, key, w, got)
				}
			}
		}
	}
}
