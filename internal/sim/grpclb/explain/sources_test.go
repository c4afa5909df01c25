package explain

import (
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/provenance"
)

// Every sentence that states a fact names its source (sources.go).
func TestEverySentenceHasASource(t *testing.T) {
	c := Provenance()
	if len(c.Texts) < 40 {
		t.Fatalf("only %d sentences found", len(c.Texts))
	}
	for _, p := range provenance.Problems(c.Package, c.Texts, c.Sources) {
		t.Error(p)
	}
}
