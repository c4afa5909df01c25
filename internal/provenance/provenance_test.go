package provenance

import (
	"strings"
	"testing"
)

func TestProblems(t *testing.T) {
	texts := map[string]string{"a": "A sentence.", "b": "Another.", "c": "A third."}
	sources := map[string]Source{
		"a": K8s("v1.37", "pkg/kubelet/kubelet.go"),
		"c": {Refs: []string{"x"}},
		"d": Of("runc v1.3.3", "opencontainers/runc#4785"),
	}
	got := strings.Join(Problems("cat", texts, sources), "\n")
	for _, want := range []string{"explanation b has no source", "source of c names no upstream file or no version", "source for d, which has no explanation"} {
		if !strings.Contains(got, want) {
			t.Errorf("problems %q lack %q", got, want)
		}
	}
	if strings.Contains(got, " a ") {
		t.Errorf("a has a source: %q", got)
	}
}

func TestK8sRefs(t *testing.T) {
	s := K8s("v1.37", "pkg/proxy/iptables/proxier.go", "#134043", "KEP-3157", "kubernetes/website content/en/x.md")
	want := []string{"kubernetes/kubernetes pkg/proxy/iptables/proxier.go", "kubernetes/kubernetes#134043", "KEP-3157", "kubernetes/website content/en/x.md"}
	if strings.Join(s.Refs, "|") != strings.Join(want, "|") {
		t.Fatalf("refs %q", s.Refs)
	}
	both := s.Plus(Of("runc v1.3.3", "opencontainers/runc#4785"))
	if !both.IsKubernetes() || !both.CheckedAt("v1.37") || both.CheckedAt("v1.38") || Of("runc v1.3.3").IsKubernetes() {
		t.Fatalf("checked %q", both.Checked)
	}
}

// The listing names an entry checked at an older minor under "To re-check".
func TestListingRecheck(t *testing.T) {
	cats := []Catalogue{{Name: "n", Package: "p", Texts: map[string]string{"x": "X.", "y": "Y."},
		Sources: map[string]Source{"x": K8s("v1.37", "pkg/a.go"), "y": K8s("v1.36", "pkg/b.go")}}}
	got := Listing("v1.37", cats)
	if !strings.Contains(got, "- p `y` (checked at v1.36)") || strings.Contains(got, "- p `x`") {
		t.Fatalf("listing:\n%s", got)
	}
}

// A text takes its own key's source, else the longest section (a key ending
// in ".") that prefixes it, else none.
func TestBySection(t *testing.T) {
	a, b, c := Of("v1", "a.go"), Of("v1", "b.go"), Of("v1", "c.go")
	all := map[string]Source{"read.": a, "read.np.": b, "read.np.lo": c}
	texts := map[string]string{"read.x": "", "read.np.nolo": "", "read.np.lo": "", "other": ""}
	got := BySection(texts, all)
	for key, want := range map[string]string{"read.x": "a.go", "read.np.nolo": "b.go", "read.np.lo": "c.go"} {
		if s, ok := got[key]; !ok || s.Refs[0] != want {
			t.Errorf("%s: %+v, want %s", key, s, want)
		}
	}
	if _, ok := got["other"]; ok || len(got) != 3 {
		t.Errorf("got %v: want no source for a key outside every section", got)
	}
}
