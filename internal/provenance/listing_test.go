package provenance_test

import (
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/golden"
	"github.com/k8sexplain/k8sexplain/internal/k8sversion"
	"github.com/k8sexplain/k8sexplain/internal/provenance"
	"github.com/k8sexplain/k8sexplain/internal/quorumtext"
	grpcexplain "github.com/k8sexplain/k8sexplain/internal/sim/grpclb/explain"
	dnatexplain "github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy/explain"
	watchexplain "github.com/k8sexplain/k8sexplain/internal/sim/watchload/explain"
	"github.com/k8sexplain/k8sexplain/internal/trace"
)

// docs/PROVENANCE.md lists every explanation with its source; it is kept
// current like a golden file (go test ./internal/provenance -update).
func TestListingIsCurrent(t *testing.T) {
	got := provenance.Listing(k8sversion.MinorString, []provenance.Catalogue{trace.Provenance(), watchexplain.Provenance(), dnatexplain.Provenance(), quorumtext.Provenance(), grpcexplain.Provenance()})
	golden.Assert(t, "../docs/PROVENANCE.md", []byte(got))
}
