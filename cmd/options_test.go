package cmd

import (
	"bytes"
	"io"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/k8sexplain/k8sexplain/internal/iostreams"
	"github.com/k8sexplain/k8sexplain/internal/render"
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
	cmd.SetArgs(append([]string{}, args...)) // nil would make cobra read os.Args
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
var wantSettings = Globals{Lang: "en", Format: render.Text, Seed: 1}

// flagCase is a command line and the options it gives, as changes to the
// options of no flags.
type flagCase[O any] struct {
	name string
	args []string
	want func(o *O)
}

// testFlags parses every case with newCmd and compares the options with
// def changed by the case's want; common checks the shared part (and
// clears it, with whatever else a case does not compare).
func testFlags[O any](t *testing.T, newCmd func(*Factory, func(*O) error) *cobra.Command, def O, common func(*testing.T, *O), cases []flagCase[O], opts ...cmp.Option) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			got := parseInto(t, newCmd, tt.args...)
			common(t, got)
			want := def
			tt.want(&want)
			if d := cmp.Diff(&want, got, opts...); d != "" {
				t.Errorf("%v: options (-want +got):\n%s", tt.args, d)
			}
		})
	}
}

// checkCommon checks the shared part and clears it, so that a test compares
// only the command's own options.
func checkCommon(t *testing.T, c *Common) {
	t.Helper()
	if c.IO == nil || c.Settings != wantSettings || c.Clock == nil {
		t.Errorf("Common: IO %v, settings %+v, clock %v; want the factory's streams and clock and %+v", c.IO, c.Settings, c.Clock != nil, wantSettings)
	}
	*c = Common{}
}

func TestNewCmdQuorum(t *testing.T) {
	testFlags(t, NewCmdQuorum, QuorumOptions{Nodes: 3, CheckQuorum: true, PreVote: true, Defrag: true},
		func(t *testing.T, o *QuorumOptions) { checkCommon(t, &o.Common) },
		[]flagCase[QuorumOptions]{
			{"defaults", nil, func(o *QuorumOptions) {}},
			{"fail 0 is given", []string{"--nodes", "5", "--fail", "0"}, func(o *QuorumOptions) { o.Nodes, o.FailSet = 5, true }},
			{"space story", []string{"--quota-backend-bytes", "0", "--compact", "7", "--defrag=false"}, func(o *QuorumOptions) {
				o.Space, o.Compact, o.Defrag, o.SpaceOnly = true, 7, false, "compact"
			}},
			{"partition", []string{"--nodes", "4", "--partition", "2,2"}, func(o *QuorumOptions) { o.Nodes, o.Partition = 4, "2,2" }},
			{"isolate without pre-vote", []string{"--isolate", "leader", "--pre-vote=false", "--check-quorum=false"}, func(o *QuorumOptions) {
				o.Isolate, o.PreVote, o.CheckQuorum = "leader", false, false
			}},
		})
}

func TestNewCmdTraceApply(t *testing.T) {
	testFlags(t, NewCmdTraceApply, TraceApplyOptions{Nodes: 3, Limit: 50000, NodeCIDRMaskSize: 24, Live: LiveOptions{DryRun: "none", Timeout: 2 * time.Minute},
		Webhook: WebhookOptions{FailurePolicy: "Fail", TimeoutSeconds: 10}},
		func(t *testing.T, o *TraceApplyOptions) { checkCommon(t, &o.Common) },
		[]flagCase[TraceApplyOptions]{
			{"built-in example", nil, func(o *TraceApplyOptions) {}},
			// -f files first, then the arguments, as the run reads them
			{"files and arguments", []string{"b.yaml", "-f", "a.yaml", "-"}, func(o *TraceApplyOptions) { o.Files = []string{"a.yaml", "b.yaml", "-"} }},
			{"cluster shape", []string{"--nodes", "5", "--cluster", "nodes.yaml", "--cluster-cidr", "10.0.0.0/8", "--node-cidr-mask-size", "20"}, func(o *TraceApplyOptions) {
				o.Nodes, o.Cluster, o.ClusterCIDR, o.NodeCIDRMaskSize = 5, "nodes.yaml", "10.0.0.0/8", 20
			}},
			{"summary and limits", []string{"--summary", "--max-steps", "10", "--endpoint-updates-batch-period", "1s"}, func(o *TraceApplyOptions) {
				o.Summary, o.Limit, o.BatchPeriod = true, 10, time.Second
			}},
			{"scheduler config", []string{"--scheduler-config", "sched.yaml"}, func(o *TraceApplyOptions) { o.SchedulerConfig = "sched.yaml" }},
			{"a webhook that does not answer", []string{"--webhook", "validating", "--failure-policy", "Ignore", "--webhook-timeout-seconds", "3"}, func(o *TraceApplyOptions) {
				o.Webhook = WebhookOptions{Type: "validating", FailurePolicy: "Ignore", TimeoutSeconds: 3}
			}},
			{"a real cluster", []string{"--kubeconfig", "kc", "--context", "c", "-n", "ns", "--force", "--keep", "--allow-cluster-scoped", "--dry-run", "server", "--timeout", "30s", "--compare"}, func(o *TraceApplyOptions) {
				o.Live = LiveOptions{On: true, Kubeconfig: "kc", Context: "c", Namespace: "ns", Force: true, Keep: true, AllowClusterScoped: true, DryRun: "server", Timeout: 30 * time.Second, Compare: true,
					Changed: []string{"--context", "--namespace", "--keep", "--force", "--allow-cluster-scoped", "--dry-run", "--timeout", "--compare"}}
			}},
			{"--kubeconfig= : $KUBECONFIG, then ~/.kube/config", []string{"--kubeconfig="}, func(o *TraceApplyOptions) { o.Live.On = true }},
		})
}

// storyDefault is what the story flags hold when none is given.
var storyDefault = StoryOptions{Nodes: 3, NodeCIDRMaskSize: 24}

var allowStory = cmp.AllowUnexported(StoryOptions{})

func TestNewCmdTraceStories(t *testing.T) {
	testFlags(t, NewCmdTraceRollout, TraceRolloutOptions{StoryOptions: StoryOptions{Nodes: 3, NodeCIDRMaskSize: 24, rollout: true}, Partition: -1},
		func(t *testing.T, o *TraceRolloutOptions) { checkCommon(t, &o.Common) },
		[]flagCase[TraceRolloutOptions]{
			{"rollout", []string{"--set-image", "web=nginx:1.28", "--broken-image", "--deployment", "web", "-f", "app.yaml", "--nodes", "4", "--scheduler-config", "sched.yaml"}, func(o *TraceRolloutOptions) {
				o.Image, o.Deployment, o.Broken, o.Files, o.Nodes, o.SchedulerConfig = "web=nginx:1.28", "web", true, []string{"app.yaml"}, 4, "sched.yaml"
			}},
			// Manifests as arguments too, after those of -f, as trace apply takes them.
			{"files as arguments", []string{"more.yaml", "--image", "web=nginx:1.28", "-f", "app.yaml"}, func(o *TraceRolloutOptions) {
				o.Image, o.Files = "web=nginx:1.28", []string{"app.yaml", "more.yaml"}
			}},
		}, allowStory)
	testFlags(t, NewCmdTraceDelete, TraceDeleteOptions{StoryOptions: storyDefault, App: "handles-sigterm"},
		func(t *testing.T, o *TraceDeleteOptions) { checkCommon(t, &o.Common) },
		[]flagCase[TraceDeleteOptions]{
			{"delete the first pod", []string{"pod"}, func(o *TraceDeleteOptions) {}},
			{"delete names the pod", []string{"pod", "web-1", "--app", "slow-drain", "--prestop-sleep", "5s", "--scheduler-config", "sched.yaml"}, func(o *TraceDeleteOptions) {
				o.Pod, o.App, o.PreStop, o.SchedulerConfig = "web-1", "slow-drain", 5*time.Second, "sched.yaml"
			}},
			// An argument that is - or an existing file is a manifest; the other is the pod.
			{"name and files", []string{"pod", "-", "web-1", "options_test.go"}, func(o *TraceDeleteOptions) {
				o.Pod, o.Files, o.argFiles = "web-1", []string{"-", "options_test.go"}, []string{"-", "options_test.go"}
			}},
			{"files only", []string{"pod", "options_test.go", "-f", "app.yaml"}, func(o *TraceDeleteOptions) {
				o.Files, o.argFiles = []string{"app.yaml", "options_test.go"}, []string{"options_test.go"}
			}},
		}, allowStory, cmp.AllowUnexported(TraceDeleteOptions{}))
	testFlags(t, NewCmdTraceNodeFailure, TraceNodeFailureOptions{StoryOptions: storyDefault, Node: "node-b", BarePod: true},
		func(t *testing.T, o *TraceNodeFailureOptions) { checkCommon(t, &o.Common) },
		[]flagCase[TraceNodeFailureOptions]{
			{"node-failure", []string{"--node", "node-c", "--bare-pod=false", "--scheduler-config", "sched.yaml"}, func(o *TraceNodeFailureOptions) {
				o.Node, o.BarePod, o.SchedulerConfig = "node-c", false, "sched.yaml"
			}},
			{"files as arguments", []string{"app.yaml", "--node", "node-a"}, func(o *TraceNodeFailureOptions) {
				o.Node, o.Files = "node-a", []string{"app.yaml"}
			}},
		}, allowStory)
	testFlags(t, NewCmdTraceCrash, TraceCrashOptions{StoryOptions: storyDefault, Reason: "panic", Times: 4},
		func(t *testing.T, o *TraceCrashOptions) { checkCommon(t, &o.Common) },
		[]flagCase[TraceCrashOptions]{
			{"crash", []string{"--reason", "oom", "--times", "6", "--pod", "web-1", "--cluster-cidr", "10.1.0.0/16", "--scheduler-config", "sched.yaml"}, func(o *TraceCrashOptions) {
				o.Reason, o.Times, o.Pod, o.ClusterCIDR, o.SchedulerConfig = "oom", 6, "web-1", "10.1.0.0/16", "sched.yaml"
			}},
			{"files as arguments", []string{"app.yaml", "db.yaml"}, func(o *TraceCrashOptions) {
				o.Files = []string{"app.yaml", "db.yaml"}
			}},
		}, allowStory)
	testFlags(t, NewCmdTraceAutoscale, TraceAutoscaleOptions{StoryOptions: storyDefault, Min: 1, Max: 10, TargetCPU: 50, CPU: defaultLoad, Every: time.Minute},
		func(t *testing.T, o *TraceAutoscaleOptions) { checkCommon(t, &o.Common) },
		[]flagCase[TraceAutoscaleOptions]{
			{"autoscale", []string{"app.yaml", "hpa.yaml", "--min", "2", "--max", "8", "--target-cpu", "60", "--cpu", "20%,150%", "--every", "2m", "--deployment", "web"}, func(o *TraceAutoscaleOptions) {
				o.Files, o.Min, o.Max, o.TargetCPU, o.CPU, o.Every, o.Deployment, o.hpaFlags = []string{"app.yaml", "hpa.yaml"}, 2, 8, 60, "20%,150%", 2*time.Minute, "web", true
			}},
			{"load file", []string{"-f", "app.yaml", "--load-file", "load.txt"}, func(o *TraceAutoscaleOptions) {
				o.Files, o.LoadFile = []string{"app.yaml"}, "load.txt"
			}},
		}, allowStory, cmp.AllowUnexported(TraceAutoscaleOptions{}))
	testFlags(t, NewCmdTraceWatch, TraceWatchOptions{Controllers: 50, Pods: 10000, Nodes: 500, PollInterval: time.Second, Duration: time.Minute},
		func(t *testing.T, o *TraceWatchOptions) { checkCommon(t, &o.Common) },
		[]flagCase[TraceWatchOptions]{
			{"watch", []string{"--controllers", "10", "--poll-interval", "100ms"}, func(o *TraceWatchOptions) { o.Controllers, o.PollInterval = 10, 100*time.Millisecond }},
		})
}

func TestNewCmdDNAT(t *testing.T) {
	def := DNATOptions{Service: "default/web", Port: "http:80/TCP", ClusterIP: "10.96.47.112", ClusterCIDR: "10.244.0.0/16",
		SessionAffinity: "None", Form: "restore", Mode: "iptables", Type: "ClusterIP", ExternalTrafficPolicy: "Cluster",
		InternalTrafficPolicy: "Cluster", NFAcct: true, Changed: map[string]bool{}}
	testFlags(t, NewCmdDNAT, def, func(t *testing.T, o *DNATOptions) { checkCommon(t, &o.Common) },
		[]flagCase[DNATOptions]{
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
		})
}

func TestNewCmdGRPCSkew(t *testing.T) {
	def := GRPCSkewOptions{Clients: 1, Pods: 3, RPCs: 3000, Duration: 5 * time.Minute, Proxy: "none", Changed: map[string]bool{}}
	common := func(t *testing.T, o *GRPCSkewOptions) {
		checkCommon(t, &o.Common)
		if o.Context == nil {
			t.Error("no Context for --live")
		}
		o.Context = nil
	}
	testFlags(t, NewCmdGRPCSkew, def, common, []flagCase[GRPCSkewOptions]{
		{"defaults", nil, func(o *GRPCSkewOptions) {}},
		{"simulated fixes", []string{"--scale-up", "3", "--max-connection-age", "30s", "--proxy", "envoy", "--kill-pod"}, func(o *GRPCSkewOptions) {
			o.ScaleUp, o.MaxConnectionAge, o.Proxy, o.KillPod = 3, 30*time.Second, "envoy", true
			o.Changed = map[string]bool{"scale-up": true, "max-connection-age": true, "proxy": true, "kill-pod": true}
		}},
		{"live", []string{"--live", "--clients", "3", "--live-deadline", "2s"}, func(o *GRPCSkewOptions) {
			o.Live, o.Clients, o.LiveDeadline = true, 3, 2*time.Second
			o.Changed = map[string]bool{"live": true, "clients": true, "live-deadline": true}
		}},
	})
}

func TestNewCmdQuiz(t *testing.T) {
	// --topic and --difficulty are quiz's persistent flags: the scope.
	scope := []string{"--topic", "etcd,dns", "--difficulty", "senior"}
	def := QuizOptions{QuizScope: QuizScope{Topics: []string{"etcd", "dns"}, Difficulty: "senior"}, Count: 10}
	testFlags(t, NewCmdQuiz, def, func(t *testing.T, o *QuizOptions) { checkCommon(t, &o.Common) },
		[]flagCase[QuizOptions]{
			{"session", append([]string{"--count", "5", "--exam", "--time-limit", "30m"}, scope...), func(o *QuizOptions) {
				o.Count, o.Exam, o.TimeLimit = 5, true, 30*time.Minute
			}},
			{"drill", []string{"--topic", "etcd", "--topic", "dns", "--difficulty", "senior", "--weakest", "--type", "text,numeric", "--id", "a,b"}, func(o *QuizOptions) {
				o.Weakest, o.Types, o.IDs = true, []string{"text", "numeric"}, []string{"a", "b"}
			}},
			{"review is due only", append([]string{"review", "--count", "20"}, scope...), func(o *QuizOptions) { o.Count, o.DueOnly = 20, true }},
			{"answers", append([]string{"--answers", "a.yaml", "--record"}, scope...), func(o *QuizOptions) { o.Answers, o.Record = "a.yaml", true }},
		})
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

// The factory's clock reaches the options: a test can fix the quiz's "now"
// without --now.
func TestFactoryClockReachesOptions(t *testing.T) {
	f, _, _ := testFactory()
	fixed := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	f.Clock = func() time.Time { return fixed }
	var got *QuizStatsOptions
	cmd := NewCmdQuizStats(f, &QuizScope{}, func(o *QuizStatsOptions) error { got = o; return nil })
	cmd.SetArgs([]string{})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if now := got.Clock(); !now.Equal(fixed) {
		t.Errorf("Clock() = %v, want the factory's %v", now, fixed)
	}
}
