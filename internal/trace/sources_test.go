package trace

import (
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/provenance"
)

// Every explanation names the upstream file or pull request it paraphrases
// and the release it was read against (sources.go), and no source is left
// for a kind that lost its explanation.
func TestEveryExplanationHasASource(t *testing.T) {
	c := Provenance()
	if len(c.Texts) < 80 {
		t.Fatalf("only %d explanations found", len(c.Texts))
	}
	for _, p := range provenance.Problems(c.Package, c.Texts, c.Sources) {
		t.Error(p)
	}
}
