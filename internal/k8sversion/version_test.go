package k8sversion

import (
	"os"
	"regexp"
	"strconv"
	"testing"
)

// The modelled version is tied to go.mod: bumping k8s.io/api without
// reviewing the version-dependent facts fails here.
func TestVersionFollowsGoMod(t *testing.T) {
	data, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*k8s\.io/api v0\.(\d+)\.(\d+)\s*$`).FindSubmatch(data)
	if m == nil {
		t.Fatal("go.mod has no k8s.io/api requirement")
	}
	got := string(m[1]) + "." + string(m[2])
	want := strconv.Itoa(Minor) + "." + strconv.Itoa(Patch)
	if got != want {
		t.Fatalf("go.mod has k8s.io/api v0.%s but the simulator models v1.%s: review every version-dependent fact, then update k8sversion", got, want)
	}
	minor := "v" + strconv.Itoa(Major) + "." + strconv.Itoa(Minor)
	if MinorString != minor || Version != minor+"."+strconv.Itoa(Patch) {
		t.Fatalf("Version %q and MinorString %q do not spell %d.%d.%d", Version, MinorString, Major, Minor, Patch)
	}
	if Version != "v1.37.2" || MinorString != "v1.37" || !AtLeast(37) || AtLeast(38) {
		t.Fatalf("Version %q, MinorString %q", Version, MinorString)
	}
}

func TestSameMinor(t *testing.T) {
	for v, want := range map[string]bool{"v1.37.2": true, "v1.37.0-gke.100": true, "v1.37.1+k3s1": true, MinorString: true,
		"v1.36.4": false, "v1.370.0": false, "v1.3": false, "": false} {
		if SameMinor(v) != want {
			t.Errorf("SameMinor(%q) = %v", v, !want)
		}
	}
}
