package live

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/render"
	"github.com/k8sexplain/k8sexplain/internal/trace/explain"
)

// TestSideBySidePage renders the recorded apply, replayed, with --compare
// as an HTML page: the page the README's screenshot shows. With
// K8SEXPLAIN_LIVE_PAGE=FILE it is written there (then: chromium --headless
// --screenshot, see README).
func TestSideBySidePage(t *testing.T) {
	path := os.Getenv("K8SEXPLAIN_LIVE_PAGE")
	speed := 20
	if path != "" {
		speed = 1 // the recording's own pace
	}
	f := newFakeCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	go f.play(t, ctx, speed, 0)
	res, err := Run(ctx, f.client, Options{Files: []string{"examples/app.yaml"}, Objects: appObjects(t), Settle: 50 * time.Millisecond, Poll: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	tr := res.Trace
	tr.Command = "k8sexplain trace apply examples/app.yaml --kubeconfig ~/.kube/config --compare on https://127.0.0.1:6443 (context kind-kind, Kubernetes v1.37.2)"
	tr.Cluster.Server, tr.Cluster.Context = "https://127.0.0.1:6443", "kind-kind"
	tr.Tables = Compare(tr, simulated(t, recordedNodes()))
	var b bytes.Buffer
	if err := render.Render(&b, explain.Doc(tr, explain.Options{Lang: "en"}), render.Options{Format: render.HTML, Lang: "en"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"The cluster against the simulation", "ReplicaSet name (pod-template-hash)", "Notes on the differences", "kind-kind"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("page has no %q", want)
		}
	}
	if path != "" {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
