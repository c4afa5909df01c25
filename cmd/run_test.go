package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/golden"
	"github.com/k8sexplain/k8sexplain/internal/iostreams"
	"github.com/k8sexplain/k8sexplain/internal/render"
	"github.com/k8sexplain/k8sexplain/questions"
)

// The run functions take their options and nothing else: these tests call
// them with test streams and no cobra, and compare with the golden files
// the whole command line writes.

// testCommon are test streams (not terminals, empty environment) and
// settings.
func testCommon(g Globals) (Common, *bytes.Buffer, *bytes.Buffer) {
	s, _, out, errOut := iostreams.Test()
	return Common{IO: s, Settings: g, Clock: time.Now}, out, errOut
}

// assertGolden compares got with golden/<name> without rewriting it:
// these tests read the files the command-line tests own.
func assertGolden(t *testing.T, name, got string) {
	t.Helper()
	want, err := os.ReadFile(filepath.Join(golden.Dir(), filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != got {
		t.Errorf("differs from golden/%s (- golden, + got):\n%s", name, golden.Diff(string(want), got))
	}
}

func TestQuorumRun(t *testing.T) {
	c, out, errOut := testCommon(Globals{Lang: "ru", Format: render.Text, Seed: 1})
	o := &QuorumOptions{Common: c, Nodes: 3, Isolate: "leader", CheckQuorum: true, PreVote: true}
	if err := quorumRun(o); err != nil {
		t.Fatal(err)
	}
	assertGolden(t, "quorum/nodes3-isolate-leader-ru.txt", out.String())
	if errOut.Len() > 0 {
		t.Errorf("stderr: %q", errOut)
	}
}

func TestQuorumRunRejects(t *testing.T) {
	for _, tt := range []struct {
		name string
		o    QuorumOptions
		want string
	}{
		{"too many members", QuorumOptions{Nodes: 10}, "invalid --nodes 10: want 1 to 9 members"},
		{"two faults", QuorumOptions{Nodes: 3, FailSet: true, Isolate: "leader"}, "use only one of --fail, --partition and --isolate"},
		// --fail 0 was given: a fault of its own, checked against --nodes
		{"fail everyone", QuorumOptions{Nodes: 3, FailSet: true, Fail: 3}, "invalid --fail 3: want 0 to 2 for 3 members"},
		{"partition sum", QuorumOptions{Nodes: 3, Partition: "2,2"}, "groups add up to 4, but --nodes is 3"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, out, _ := testCommon(Globals{Lang: "en", Format: render.Text})
			o := tt.o
			o.Common = c
			err := quorumRun(&o)
			if err == nil || exitcode.Code(err) != exitcode.Input || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v (exit %d); want exit 1 with %q", err, exitcode.Code(err), tt.want)
			}
			if out.Len() > 0 {
				t.Errorf("stdout on an error: %q", out)
			}
		})
	}
}

func TestDNATRun(t *testing.T) {
	c, out, _ := testCommon(Globals{Lang: "en", Format: render.Text, Seed: 1})
	o := &DNATOptions{Common: c, Service: "default/web", Port: "http:80/TCP", ClusterIP: "10.96.47.112", ClusterCIDR: "10.244.0.0/16",
		SessionAffinity: "None", Form: "save", Mode: "iptables", Type: "ClusterIP", ExternalTrafficPolicy: "Cluster",
		InternalTrafficPolicy: "Cluster", NFAcct: true, Changed: map[string]bool{"form": true}}
	if err := dnatRun(o); err != nil {
		t.Fatal(err)
	}
	assertGolden(t, "dnat/save.txt", out.String())

	// Which flags were given is part of the input: --form with another mode.
	c, out, _ = testCommon(Globals{Lang: "en", Format: render.Text, Seed: 1})
	o.Common, o.Mode = c, "nftables"
	if err := dnatRun(o); err == nil || !strings.Contains(err.Error(), "--form applies to --mode iptables only") || out.Len() > 0 {
		t.Errorf("--form with --mode nftables: err %v, stdout %d bytes; want the input error and no output", err, out.Len())
	}
}

func TestTraceWatchRun(t *testing.T) {
	c, out, _ := testCommon(Globals{Lang: "en", Format: render.Mermaid, Seed: 1})
	o := &TraceWatchOptions{Common: c, Controllers: 50, Pods: 10000, Nodes: 500, PollInterval: time.Second, Duration: time.Minute}
	if err := traceWatchRun(o); err != nil {
		t.Fatal(err)
	}
	assertGolden(t, "trace-watch/default.mmd", out.String())
}

func TestQuizListRun(t *testing.T) {
	quizBank = os.DirFS(filepath.Join("..", "internal", "quiz", "testdata"))
	t.Cleanup(func() { quizBank = questions.FS })
	c, out, _ := testCommon(Globals{Lang: "ru", Format: render.Markdown, Seed: 1})
	o := &QuizListOptions{QuizScope: QuizScope{Common: c, Topics: []string{"etcd", "shutdown"}, Now: "2026-03-02T09:00:00Z"}, Choices: true}
	if err := quizListRun(o); err != nil {
		t.Fatal(err)
	}
	assertGolden(t, "quiz/list-etcd-choices-ru.md", out.String())

	o.Topics = []string{"nope"}
	if err := quizListRun(o); err == nil || !strings.Contains(err.Error(), `unknown --topic "nope"`) {
		t.Errorf("unknown topic: err %v", err)
	}
}

func TestVersionRun(t *testing.T) {
	c, out, _ := testCommon(Globals{})
	if err := versionRun(&VersionOptions{Common: c}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "k8sexplain ") || strings.Count(out.String(), "\n") != 1 {
		t.Errorf("version: %q", out)
	}
}
