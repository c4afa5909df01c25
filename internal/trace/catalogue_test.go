package trace

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	_ "github.com/k8sexplain/k8sexplain/internal/golden"
)

// Every key has an English and a Russian text with the same placeholders
// (an explanation is a key of its own, explain.<kind>, so it too exists in
// both languages or in neither), and plural placeholders give CLDR's
// number of forms.
func TestCatalogueParity(t *testing.T) {
	for _, err := range catalogue.Check() {
		t.Error(err)
	}
}

// stepKinds finds the step kinds the simulator's source records: Kind:
// "x.y" literals, the kind argument of its step helpers, and the CRI calls
// (criStep("PullImage") records cri.PullImage).
var stepKinds = []*regexp.Regexp{
	regexp.MustCompile(`Kind:\s*"([a-z][a-z-]*\.[A-Za-z.]+)"`),
	regexp.MustCompile(`[sS]tep\([^"()]*"([a-z][a-z-]*\.[A-Za-z.]+)"`),
	regexp.MustCompile(`criStep\("([A-Za-z]+)"`),
	regexp.MustCompile(`Kind\("([a-z][a-z-]*\.[A-Za-z.]+)"\)`),
}

// Every Kind constant names a kind the catalogue has.
func TestKindConstantsHaveText(t *testing.T) {
	src, err := os.ReadFile("step.go")
	if err != nil {
		t.Fatal(err)
	}
	consts := regexp.MustCompile(`(?m)^\s*Kind\w+\s+Kind\s*=\s*"([^"]+)"`).FindAllStringSubmatch(string(src), -1)
	if len(consts) < 10 {
		t.Fatalf("found %d Kind constants in step.go; the pattern no longer matches", len(consts))
	}
	for _, m := range consts {
		if !Has(Kind(m[1])) {
			t.Errorf("Kind constant %q has no catalogue text", m[1])
		}
	}
}

// Every step kind the simulator can emit has a text: the kinds are read
// from the simulator's source, so a new kind without a catalogue entry
// fails here, not as a bare key in a user's trace.
func TestEverySimulatorStepKindHasText(t *testing.T) {
	found := map[string]string{}
	err := filepath.WalkDir(filepath.Join("..", "sim"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, re := range stepKinds {
			for _, m := range re.FindAllStringSubmatch(string(src), -1) {
				kind := m[1]
				if i == 2 {
					kind = "cri." + kind
				}
				found[kind] = path
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) < 50 {
		t.Fatalf("found only %d step kinds in the simulator's source; the patterns no longer match it", len(found))
	}
	for kind, path := range found {
		if !Has(Kind(kind)) {
			t.Errorf("%s (recorded in %s) has no catalogue text", kind, path)
		}
	}
}

func TestFillAndClock(t *testing.T) {
	s := &Step{Kind: "etcd.put", Fields: F("key", "/registry/pods/default/x", "rev", 12)}
	if got := Text("en", s); got != "etcd: PUT /registry/pods/default/x at revision 12" {
		t.Fatalf("Text: %q", got)
	}
	if got := Clock(61*time.Second + 5*time.Millisecond); got != "01:01.005" {
		t.Fatalf("Clock: %q", got)
	}
}

func TestRecorderLimit(t *testing.T) {
	r := NewRecorder(func() time.Duration { return time.Second }, 2)
	for i := 0; i < 5; i++ {
		r.Add(Step{Kind: "x"})
	}
	if len(r.Steps) != 2 || r.Dropped != 3 || r.Steps[0].At != time.Second {
		t.Fatalf("steps %d dropped %d", len(r.Steps), r.Dropped)
	}
}
