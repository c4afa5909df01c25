package quorumtext

import (
	"testing"

	_ "github.com/k8sexplain/k8sexplain/internal/golden" // -update is a flag of every test binary
	"github.com/k8sexplain/k8sexplain/internal/provenance"
)

// Every sentence that states a fact names its source (sources.go).
func TestEverySentenceHasASource(t *testing.T) {
	c := Provenance()
	if len(c.Texts) < 20 {
		t.Fatalf("only %d sentences found", len(c.Texts))
	}
	for _, p := range provenance.Problems(c.Package, c.Texts, c.Sources) {
		t.Error(p)
	}
}
