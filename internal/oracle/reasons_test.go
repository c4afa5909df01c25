package oracle

import (
	"regexp"
	"testing"
)

// upstreamRef is how a reason names its upstream source: a Go or YAML file,
// a pull request, a KEP, a package path; or it points at the entry it is
// the other half of.
var upstreamRef = regexp.MustCompile(`\.go\b|\.ya?ml\b|#\d+|KEP-\d+|\bpkg/|staging/|sigs\.k8s\.io/kwok|k8s\.io/kubectl|same gap|other half|side of the|the same kwok`)

// Every reason in docs/FIDELITY.md names the upstream file that shows the
// difference (issue 23 §2), so a reader can check it.
func TestReasonsNameTheirSource(t *testing.T) {
	tab := loadTable(t)
	for _, k := range tab.Differences {
		if !upstreamRef.MatchString(k.Reason) {
			t.Errorf("%s %s %q: the reason names no upstream file: %s", k.Check, k.Scenario, k.Match, k.Reason)
		}
	}
	for _, u := range tab.Unseen {
		if !upstreamRef.MatchString(u.Reason) {
			t.Errorf("unseen %q: the reason names no upstream file: %s", u.What, u.Reason)
		}
	}
	if len(tab.Unseen) == 0 {
		t.Error("no unseen differences: the trace-level ones (watch list, readiness story) belong there")
	}
}
