package explain

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/trace"
)

// A run too big for Mermaid even after folding ends with a note that says
// how many arrows were left out, and stays under the limit.
func TestMermaidSequenceStaysUnderTheLimit(t *testing.T) {
	tr := &trace.Trace{Story: "rollout"}
	for i := 0; i < 3000; i++ {
		// 3000 kinds: nothing folds, so the diagram must be cut.
		tr.Steps = append(tr.Steps, trace.Step{At: time.Duration(i) * time.Millisecond, Actor: "kubectl", To: "kube-apiserver", Kind: trace.Kind(fmt.Sprintf("k%d", i))})
	}
	for _, lang := range []string{"en", "ru"} {
		s := Doc(tr, Options{Lang: lang}).Sequence
		if n := mermaidLen(s); n > MermaidMaxText {
			t.Fatalf("%s: %d characters", lang, n)
		}
		last := s.Messages[len(s.Messages)-1].Text
		if !strings.Contains(last, "50") || !strings.Contains(last, "html") {
			t.Errorf("%s: no closing note, last message %q", lang, last)
		}
	}
	// -v steps fold into one counted arrow per kind.
	tr = &trace.Trace{Story: "rollout"}
	for i := 0; i < 500; i++ {
		tr.Steps = append(tr.Steps, trace.Step{At: time.Duration(i) * time.Millisecond, Actor: "replicaset-controller", Kind: "watch.event", Verbose: true})
	}
	s := Doc(tr, Options{Lang: "en", Verbose: true}).Sequence
	if len(s.Messages) != 2 || s.Messages[1].Count != 500 || !strings.Contains(s.Messages[1].Text, "watch.event ×500") {
		t.Errorf("folded: %+v", s.Messages)
	}
}
