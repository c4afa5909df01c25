package provenance_test

import (
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/golden"
	"github.com/k8sexplain/k8sexplain/internal/k8sversion"
	"github.com/k8sexplain/k8sexplain/internal/provenance"
	etcdexplain "github.com/k8sexplain/k8sexplain/internal/sim/etcd/explain"
	grpcexplain "github.com/k8sexplain/k8sexplain/internal/sim/grpclb/explain"
	dnatexplain "github.com/k8sexplain/k8sexplain/internal/sim/kubeproxy/explain"
	watchexplain "github.com/k8sexplain/k8sexplain/internal/sim/watchload/explain"
	"github.com/k8sexplain/k8sexplain/internal/task"
	"github.com/k8sexplain/k8sexplain/internal/trace"
)

// docs/PROVENANCE.md lists every explanation with its source; it is kept
// current like a golden file (go test ./internal/provenance -update).
func TestListingIsCurrent(t *testing.T) {
	got := provenance.Listing(k8sversion.MinorString, []provenance.Catalogue{trace.Provenance(), watchexplain.Provenance(), dnatexplain.Provenance(), etcdexplain.Provenance(), grpcexplain.Provenance(), task.Provenance()})
	golden.Assert(t, "../docs/PROVENANCE.md", []byte(got))
}

// Every explanation of every catalogue names the upstream file or pull
// request it paraphrases and the release it was read against (its
// package's sources.go), and no source is left for a text that is gone.
// The minimum counts catch a catalogue that stopped listing its texts.
func TestEveryExplanationHasASource(t *testing.T) {
	for _, tc := range []struct {
		c   provenance.Catalogue
		min int
	}{
		{trace.Provenance(), 80}, {watchexplain.Provenance(), 25}, {dnatexplain.Provenance(), 80},
		{etcdexplain.Provenance(), 20}, {grpcexplain.Provenance(), 40}, {task.Provenance(), 15},
	} {
		if len(tc.c.Texts) < tc.min {
			t.Errorf("%s: only %d texts found", tc.c.Package, len(tc.c.Texts))
		}
		for _, p := range provenance.Problems(tc.c.Package, tc.c.Texts, tc.c.Sources) {
			t.Error(p)
		}
	}
}
