package cmd

import (
	"bytes"
	"io"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/k8sexplain/k8sexplain/internal/iostreams"
	"github.com/k8sexplain/k8sexplain/internal/report"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// testFactory is a Factory with test streams and the default global
// settings, as the root's PersistentPreRunE would leave them: commands built
// from it run without the root.
func testFactory() (*Factory, *bytes.Buffer, *bytes.Buffer) {
	s, _, out, errOut := iostreams.Test()
	s.Getenv = testGetenv
	globals := pflag.NewFlagSet("globals", pflag.ContinueOnError)
	globals.String("lang", "en", "")
	globals.String("format", "text", "")
	globals.String("color", "never", "")
	globals.Int64("seed", 1, "")
	globals.Bool("verbose", false, "")
	v := newConfig()
	if err := v.BindPFlags(globals); err != nil {
		panic(err)
	}
	return &Factory{IO: s, Config: v}, out, errOut
}

// parseInto builds a command with a runF that keeps its options, runs it
// with args and returns the options, without running the command itself.
func parseInto[O any](t *testing.T, newCmd func(*Factory, func(*O) error) *cobra.Command, args ...string) *O {
	t.Helper()
	f, _, _ := testFactory()
	var got *O
	cmd := newCmd(f, func(o *O) error { got = o; return nil })
	cmd.SetArgs(args)
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	if err := cmd.Execute(); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	if got == nil {
		t.Fatalf("%v: runF was not called", args)
	}
	return got
}

// wantSettings are the settings testFactory gives.
var wantSettings = Globals{Lang: "en", Format: report.Text, Seed: 1}

// checkCommon checks the shared part and clears it, so that a test compares
// only the command's own options.
func checkCommon(t *testing.T, c *Common) {
	t.Helper()
	if c.IO == nil || c.Settings != wantSettings {
		t.Errorf("Common: IO %v, settings %+v; want the factory's streams and %+v", c.IO, c.Settings, wantSettings)
	}
	*c = Common{}
}

func TestNewCmdQuorum(t *testing.T) {
	def := QuorumOptions{Nodes: 3, CheckQuorum: true, PreVote: true}
	for _, tt := range []struct {
		name string
		args []string
		want func(o *QuorumOptions)
	}{
		{"defaults", nil, func(o *QuorumOptions) {}},
		{"fail 0 is given", []string{"--nodes", "5", "--fail", "0"}, func(o *QuorumOptions) { o.Nodes, o.FailSet = 5, true }},
		{"partition", []string{"--nodes", "4", "--partition", "2,2"}, func(o *QuorumOptions) { o.Nodes, o.Partition = 4, "2,2" }},
		{"isolate without pre-vote", []string{"--isolate", "leader", "--pre-vote=false", "--check-quorum=false"}, func(o *QuorumOptions) {
			o.Isolate, o.PreVote, o.CheckQuorum = "leader", false, false
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := parseInto(t, NewCmdQuorum, tt.args...)
			checkCommon(t, &got.Common)
			want := def
			tt.want(&want)
			if d := cmp.Diff(&want, got); d != "" {
				t.Errorf("options (-want +got):\n%s", d)
			}
		})
	}
}

func TestNewCmdTraceApply(t *testing.T) {
	def := TraceApplyOptions{Nodes: 3, Limit: 50000, NodeCIDRMaskSize: 24}
	for _, tt := range []struct {
		name string
		args []string
		want func(o *TraceApplyOptions)
	}{
		{"built-in example", nil, func(o *TraceApplyOptions) {}},
		// -f files first, then the arguments, as the run reads them
		{"files and arguments", []string{"b.yaml", "-f", "a.yaml", "-"}, func(o *TraceApplyOptions) { o.Files = []string{"a.yaml", "b.yaml", "-"} }},
		{"cluster shape", []string{"--nodes", "5", "--cluster", "nodes.yaml", "--cluster-cidr", "10.0.0.0/8", "--node-cidr-mask-size", "20"}, func(o *TraceApplyOptions) {
			o.Nodes, o.Cluster, o.ClusterCIDR, o.NodeCIDRMaskSize = 5, "nodes.yaml", "10.0.0.0/8", 20
		}},
		{"summary and limits", []string{"--summary", "--max-steps", "10", "--endpoint-updates-batch-period", "1s"}, func(o *TraceApplyOptions) {
			o.Summary, o.Limit, o.BatchPeriod = true, 10, time.Second
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := parseInto(t, NewCmdTraceApply, tt.args...)
			checkCommon(t, &got.Common)
			want := def
			tt.want(&want)
			if d := cmp.Diff(&want, got); d != "" {
				t.Errorf("options (-want +got):\n%s", d)
			}
		})
	}
}

// storyDefault is what the story flags hold when none is given.
var storyDefault = StoryOptions{Nodes: 3, NodeCIDRMaskSize: 24}

var allowStory = cmp.AllowUnexported(StoryOptions{})

func TestNewCmdTraceStories(t *testing.T) {
	t.Run("rollout", func(t *testing.T) {
		got := parseInto(t, NewCmdTraceRollout, "--set-image", "web=nginx:1.28", "--broken-image", "--deployment", "web", "-f", "app.yaml", "--nodes", "4")
		checkCommon(t, &got.Common)
		want := &TraceRolloutOptions{StoryOptions: storyDefault, Image: "web=nginx:1.28", Deployment: "web", Broken: true}
		want.rollout, want.Files, want.Nodes = true, []string{"app.yaml"}, 4
		if d := cmp.Diff(want, got, allowStory); d != "" {
			t.Errorf("options (-want +got):\n%s", d)
		}
	})
	t.Run("delete names the pod", func(t *testing.T) {
		got := parseInto(t, NewCmdTraceDelete, "pod", "web-1", "--app", "slow-drain", "--prestop-sleep", "5s")
		checkCommon(t, &got.Common)
		want := &TraceDeleteOptions{StoryOptions: storyDefault, Pod: "web-1", App: "slow-drain", PreStop: 5 * time.Second}
		if d := cmp.Diff(want, got, allowStory); d != "" {
			t.Errorf("options (-want +got):\n%s", d)
		}
	})
	t.Run("delete the first pod", func(t *testing.T) {
		got := parseInto(t, NewCmdTraceDelete, "pod")
		if got.Pod != "" || got.App != "handles-sigterm" {
			t.Errorf("pod %q app %q; want the first pod and handles-sigterm", got.Pod, got.App)
		}
	})
	t.Run("node-failure", func(t *testing.T) {
		got := parseInto(t, NewCmdTraceNodeFailure, "--node", "node-c", "--bare-pod=false")
		checkCommon(t, &got.Common)
		want := &TraceNodeFailureOptions{StoryOptions: storyDefault, Node: "node-c"}
		if d := cmp.Diff(want, got, allowStory); d != "" {
			t.Errorf("options (-want +got):\n%s", d)
		}
	})
	t.Run("crash", func(t *testing.T) {
		got := parseInto(t, NewCmdTraceCrash, "--reason", "oom", "--times", "6", "--pod", "web-1", "--cluster-cidr", "10.1.0.0/16")
		checkCommon(t, &got.Common)
		want := &TraceCrashOptions{StoryOptions: storyDefault, Pod: "web-1", Reason: "oom", Times: 6}
		want.ClusterCIDR = "10.1.0.0/16"
		if d := cmp.Diff(want, got, allowStory); d != "" {
			t.Errorf("options (-want +got):\n%s", d)
		}
	})
	t.Run("watch", func(t *testing.T) {
		got := parseInto(t, NewCmdTraceWatch, "--controllers", "10", "--poll-interval", "100ms")
		checkCommon(t, &got.Common)
		want := &TraceWatchOptions{Controllers: 10, Pods: 10000, Nodes: 500, PollInterval: 100 * time.Millisecond, Duration: time.Minute}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("options (-want +got):\n%s", d)
		}
	})
}

func TestNewCmdDNAT(t *testing.T) {
	def := DNATOptions{Service: "default/web", Port: "http:80/TCP", ClusterIP: "10.96.47.112", ClusterCIDR: "10.244.0.0/16",
		SessionAffinity: "None", Form: "restore", Mode: "iptables", Type: "ClusterIP", ExternalTrafficPolicy: "Cluster",
		InternalTrafficPolicy: "Cluster", NFAcct: true, Changed: map[string]bool{}}
	for _, tt := range []struct {
		name string
		args []string
		want func(o *DNATOptions)
	}{
		{"the example", nil, func(o *DNATOptions) {}},
		// An empty --endpoints is given (no endpoints), unlike no flag (the example's).
		{"empty endpoints are given", []string{"--endpoints", ""}, func(o *DNATOptions) { o.Changed = map[string]bool{"endpoints": true} }},
		{"load balancer", []string{"--type", "LoadBalancer", "--load-balancer-source-ranges", "203.0.113.0/25,198.51.100.0/24", "--external-traffic-policy", "Local", "--nfacct=false"}, func(o *DNATOptions) {
			o.Type, o.SourceRanges, o.ExternalTrafficPolicy, o.NFAcct = "LoadBalancer", []string{"203.0.113.0/25", "198.51.100.0/24"}, "Local", false
			o.Changed = map[string]bool{"type": true, "load-balancer-source-ranges": true, "external-traffic-policy": true, "nfacct": true}
		}},
		{"from a manifest", []string{"-f", "app.yaml", "--service", "web", "--mode", "nftables"}, func(o *DNATOptions) {
			o.Files, o.Service, o.Mode = []string{"app.yaml"}, "web", "nftables"
			o.Changed = map[string]bool{"filename": true, "service": true, "mode": true}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := parseInto(t, NewCmdDNAT, tt.args...)
			checkCommon(t, &got.Common)
			want := def
			tt.want(&want)
			if d := cmp.Diff(&want, got); d != "" {
				t.Errorf("options (-want +got):\n%s", d)
			}
		})
	}
}

func TestNewCmdGRPCSkew(t *testing.T) {
	def := GRPCSkewOptions{Clients: 1, Pods: 3, RPCs: 3000, Duration: 5 * time.Minute, Proxy: "none", Changed: map[string]bool{}}
	for _, tt := range []struct {
		name string
		args []string
		want func(o *GRPCSkewOptions)
	}{
		{"defaults", nil, func(o *GRPCSkewOptions) {}},
		{"simulated fixes", []string{"--scale-up", "3", "--max-connection-age", "30s", "--proxy", "envoy", "--kill-pod"}, func(o *GRPCSkewOptions) {
			o.ScaleUp, o.MaxConnectionAge, o.Proxy, o.KillPod = 3, 30*time.Second, "envoy", true
			o.Changed = map[string]bool{"scale-up": true, "max-connection-age": true, "proxy": true, "kill-pod": true}
		}},
		{"live", []string{"--live", "--clients", "3", "--live-deadline", "2s"}, func(o *GRPCSkewOptions) {
			o.Live, o.Clients, o.LiveDeadline = true, 3, 2*time.Second
			o.Changed = map[string]bool{"live": true, "clients": true, "live-deadline": true}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := parseInto(t, NewCmdGRPCSkew, tt.args...)
			checkCommon(t, &got.Common)
			if got.Context == nil {
				t.Error("no Context for --live")
			}
			got.Context = nil
			want := def
			tt.want(&want)
			if d := cmp.Diff(&want, got); d != "" {
				t.Errorf("options (-want +got):\n%s", d)
			}
		})
	}
}

func TestNewCmdQuiz(t *testing.T) {
	scope := QuizScope{StateDir: "", Topics: []string{"etcd", "dns"}, Difficulty: "senior"}
	for _, tt := range []struct {
		name string
		args []string
		want QuizOptions
	}{
		{"session", []string{"--topic", "etcd,dns", "--difficulty", "senior", "--count", "5", "--exam", "--time-limit", "30m"},
			QuizOptions{QuizScope: scope, Count: 5, Exam: true, TimeLimit: 30 * time.Minute}},
		{"drill", []string{"--topic", "etcd", "--topic", "dns", "--difficulty", "senior", "--weakest", "--type", "text,numeric", "--id", "a,b"},
			QuizOptions{QuizScope: scope, Count: 10, Weakest: true, Types: []string{"text", "numeric"}, IDs: []string{"a", "b"}}},
		{"review is due only", []string{"review", "--topic", "etcd,dns", "--difficulty", "senior", "--count", "20"},
			QuizOptions{QuizScope: scope, Count: 20, DueOnly: true}},
		{"answers", []string{"--answers", "a.yaml", "--record", "--topic", "etcd,dns", "--difficulty", "senior"},
			QuizOptions{QuizScope: scope, Count: 10, Answers: "a.yaml", Record: true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := parseInto(t, NewCmdQuiz, tt.args...)
			checkCommon(t, &got.Common)
			if d := cmp.Diff(&tt.want, got); d != "" {
				t.Errorf("options (-want +got):\n%s", d)
			}
		})
	}
}

func TestNewCmdQuizStatsAndList(t *testing.T) {
	// The persistent flags live on quiz; the subcommands read them from the
	// shared scope.
	shared := &QuizScope{Topics: []string{"etcd"}}
	stats := parseInto(t, func(f *Factory, runF func(*QuizStatsOptions) error) *cobra.Command {
		return NewCmdQuizStats(f, shared, runF)
	}, "--reset", "--yes")
	checkCommon(t, &stats.Common)
	if d := cmp.Diff(&QuizStatsOptions{QuizScope: *shared, Reset: true, Yes: true}, stats); d != "" {
		t.Errorf("stats options (-want +got):\n%s", d)
	}
	list := parseInto(t, func(f *Factory, runF func(*QuizListOptions) error) *cobra.Command {
		return NewCmdQuizList(f, shared, runF)
	}, "--choices")
	checkCommon(t, &list.Common)
	if d := cmp.Diff(&QuizListOptions{QuizScope: *shared, Choices: true}, list); d != "" {
		t.Errorf("list options (-want +got):\n%s", d)
	}
}

func TestNewCmdVersion(t *testing.T) {
	got := parseInto(t, NewCmdVersion)
	if got.IO == nil {
		t.Error("version: no streams")
	}
}
