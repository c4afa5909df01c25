package golden

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// onePlural is "1" before a plural noun ("want 1 pods"): English output
// takes the singular for one (the catalogues' {n:# pod|# pods}).
var onePlural = regexp.MustCompile(`(?:^|[^\d.,:/-])1 (pods|nodes|replicas|endpoints|containers|members|clients|connections|requests|changes|questions|answers|arrows|rules|votes|times|seconds|minutes|days)\b`)

// No English golden file writes "1" before a plural noun.
func TestEnglishOutputHasPlurals(t *testing.T) {
	checked := 0
	err := filepath.WalkDir(Dir(), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		for _, part := range strings.FieldsFunc(d.Name(), func(r rune) bool { return r == '.' || r == '-' || r == '_' }) {
			if part == "ru" {
				return nil
			}
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		rel, _ := filepath.Rel(Dir(), path)
		for _, line := range strings.Split(string(b), "\n") {
			if m := onePlural.FindString(line); m != "" {
				t.Errorf("%s: %q in %q", rel, strings.TrimSpace(m), strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("checked only %d English golden files", checked)
	}
	if !onePlural.MatchString("replicasets/default/web: want 1 pods, have 0") || onePlural.MatchString("want 1 pod, have 10.0.0.1 pods") {
		t.Error("the pattern does not find what it is for")
	}
}
