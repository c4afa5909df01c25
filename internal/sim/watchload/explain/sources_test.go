package explain

import (
	"strings"
	"testing"
)

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
