package cmd

import (
	"strconv"
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/sim/etcd"
	"github.com/k8sexplain/k8sexplain/internal/sim/etcd/explain"
	"github.com/spf13/cobra"
)

// maxNodes bounds --nodes: etcd advises 7 at most; 9 shows why.
const maxNodes = 9

// QuorumOptions are the inputs of `quorum`.
type QuorumOptions struct {
	Common
	Nodes       int
	Fail        int
	Partition   string
	Isolate     string
	CheckQuorum bool
	PreVote     bool
	// FailSet: --fail was given (--fail 0 is a fault of its own).
	FailSet bool
	// QuotaBackendBytes, Compact and Defrag play the space story
	// (etcd.RunSpace) instead of the quorum one, when Space is set
	// (--quota-backend-bytes was given; 0 is etcd's default, 2 GiB).
	QuotaBackendBytes int64
	Compact           int64
	Defrag            bool
	Space             bool
	// SpaceOnly names a space flag given without --quota-backend-bytes.
	SpaceOnly string
}

// quorumShort is the summary root --help lists.
const quorumShort = "Watch etcd quorum and split brain, decided by the real etcd Raft library"

// NewCmdQuorum is `quorum`; runF, when not nil, gets the options instead of quorumRun.
func NewCmdQuorum(f *Factory, runF func(*QuorumOptions) error) *cobra.Command {
	o := &QuorumOptions{}
	cmd := &cobra.Command{
		Use:   "quorum",
		Short: quorumShort,
		Long: `quorum shows why a control plane runs 3 or 5 etcd members and why 2 is the worst choice.

It prints the quorum table (majority floor(N/2)+1, failures tolerated), then plays a story on N
members of go.etcd.io/raft/v3 configured as etcd runs them (CheckQuorum, PreVote, HeartbeatTick 1,
ElectionTick 10, one tick = 100 ms): a leader is elected, a Kubernetes object is written, a fault
hits, writes are attempted on every side, the network heals and the members catch up. Elections,
votes and commits are decided by the library; the run is deterministic.

Without a fault flag the network splits into two halves with the leader on the smaller side
(a single member gets no fault). Finally it says what the Kubernetes cluster can and cannot do.

With --quota-backend-bytes it plays etcd's space story instead: a controller rewrites a ConfigMap
until the quota check refuses a Put with "etcdserver: mvcc: database space exceeded" and the
NOSPACE alarm is raised through Raft; a delete still passes; then etcdctl compact (--compact,
default the current revision), etcdctl defrag on each member (--defrag) and etcdctl alarm disarm.`,
		Example: `  k8sexplain quorum --nodes 2                      # the split-brain example: nobody can win
  k8sexplain quorum --nodes 3 --isolate leader     # the leader lands in the minority and steps down
  k8sexplain quorum --nodes 5 --fail 2             # still writes; --fail 3 stops them
  k8sexplain quorum --nodes 4 --partition 2,2      # even sizes add no tolerance
  k8sexplain quorum --nodes 3 --isolate follower --pre-vote=false -v
  k8sexplain quorum --nodes 3 --format mermaid     # sequenceDiagram of the election and the refused write
  k8sexplain quorum --quota-backend-bytes 16777216 # fill the quota: NOSPACE, compact, defrag, alarm disarm
  k8sexplain quorum --quota-backend-bytes 16777216 --defrag=false  # disarm without defrag: NOSPACE again`,
		Args: noArgs,
		RunE: runE(f, o, runF, quorumRun, func(cmd *cobra.Command, _ []string) {
			o.FailSet = cmd.Flags().Changed("fail")
			o.Space = cmd.Flags().Changed("quota-backend-bytes")
			for _, n := range []string{"compact", "defrag"} {
				if cmd.Flags().Changed(n) && o.SpaceOnly == "" {
					o.SpaceOnly = n
				}
			}
		}),
	}
	fl := cmd.Flags()
	fl.IntVar(&o.Nodes, "nodes", 3, "number of etcd members (1 to 9)")
	fl.IntVar(&o.Fail, "fail", 0, "crash K members: the leader first, then the highest-numbered followers")
	fl.StringVar(&o.Partition, "partition", "", "split the network into groups of sizes A,B[,C], in member order (the leader is etcd-1)")
	fl.StringVar(&o.Isolate, "isolate", "", "cut one member off the network: leader or follower")
	fl.BoolVar(&o.CheckQuorum, "check-quorum", true, "leaders step down without a majority (etcd always enables it)")
	fl.BoolVar(&o.PreVote, "pre-vote", true, "ask for a pre-vote before raising the term (etcd's default)")
	fl.Int64Var(&o.QuotaBackendBytes, "quota-backend-bytes", 0, "play the space story with this backend quota in bytes (0: etcd's default, 2 GiB)")
	fl.Int64Var(&o.Compact, "compact", 0, "with --quota-backend-bytes: the revision etcdctl compact is given (0: the current one)")
	fl.BoolVar(&o.Defrag, "defrag", true, "with --quota-backend-bytes: etcdctl defrag every member before the alarm is disarmed")
	_ = cmd.RegisterFlagCompletionFunc("isolate", fixedCompletion("leader", "follower"))
	return cmd
}

func quorumRun(o *QuorumOptions) error {
	if o.Space || o.SpaceOnly != "" {
		return spaceRun(o)
	}
	s, err := o.scenario()
	if err != nil {
		return err
	}
	story, err := etcd.Run(s)
	if err != nil {
		return exitcode.Inputf("%v", err)
	}
	return o.render(versioned("k8sexplain.quorum/v1", explain.Build(story, o.Settings.Lang, o.Settings.Verbose)))
}

// scenario validates the flags and turns them into an etcd.Scenario.
func (o *QuorumOptions) scenario() (etcd.Scenario, error) {
	s := etcd.Scenario{Nodes: o.Nodes, CheckQuorum: o.CheckQuorum, PreVote: o.PreVote}
	if o.Nodes < 1 || o.Nodes > maxNodes {
		return s, exitcode.Inputf("invalid --nodes %d: want 1 to %d members", o.Nodes, maxNodes)
	}
	set := 0
	for _, b := range []bool{o.FailSet, o.Partition != "", o.Isolate != ""} {
		if b {
			set++
		}
	}
	if set > 1 {
		return s, exitcode.Inputf("use only one of --fail, --partition and --isolate")
	}
	switch {
	case o.FailSet:
		if o.Fail < 0 || o.Fail >= o.Nodes {
			return s, exitcode.Inputf("invalid --fail %d: want 0 to %d for %d members (at least one must stay up)", o.Fail, o.Nodes-1, o.Nodes)
		}
		s.Fault = etcd.Fault{Kind: etcd.FaultCrash, Crash: o.Fail}
	case o.Partition != "":
		groups, err := parseGroups(o.Partition, o.Nodes)
		if err != nil {
			return s, err
		}
		s.Fault = etcd.Fault{Kind: etcd.FaultPartition, Groups: groups}
	case o.Isolate != "":
		if o.Isolate != "leader" && o.Isolate != "follower" {
			return s, exitcode.Inputf("invalid --isolate %q: want leader or follower", o.Isolate)
		}
		if o.Nodes < 2 {
			return s, exitcode.Inputf("invalid --isolate %s: a 1-member cluster has no one to be cut off from", o.Isolate)
		}
		// Members are grouped in ID order and etcd-1 leads: the leader
		// alone first, or the last follower alone last.
		groups := []int{1, o.Nodes - 1}
		if o.Isolate == "follower" {
			groups = []int{o.Nodes - 1, 1}
		}
		s.Fault = etcd.Fault{Kind: etcd.FaultPartition, Groups: groups, Isolate: o.Isolate}
	}
	return s, nil
}

// parseGroups reads "A,B[,C]": 2 or 3 positive sizes adding up to n.
func parseGroups(v string, n int) ([]int, error) {
	parts := strings.Split(v, ",")
	if len(parts) < 2 || len(parts) > 3 {
		return nil, exitcode.Inputf("invalid --partition %q: want 2 or 3 group sizes, like 2,1 or 2,2,1", v)
	}
	var groups []int
	sum := 0
	for _, p := range parts {
		k, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || k < 1 {
			return nil, exitcode.Inputf("invalid --partition %q: %q is not a group size of at least 1", v, p)
		}
		groups = append(groups, k)
		sum += k
	}
	if sum != n {
		return nil, exitcode.Inputf("invalid --partition %q: groups add up to %d, but --nodes is %d", v, sum, n)
	}
	return groups, nil
}

// spaceRun plays the space story (etcd.RunSpace).
func spaceRun(o *QuorumOptions) error {
	s, err := o.spaceScenario()
	if err != nil {
		return err
	}
	story, err := etcd.RunSpace(s)
	if err != nil {
		return exitcode.Inputf("invalid --quota-backend-bytes %d: %v", o.QuotaBackendBytes, err)
	}
	return o.render(versioned("k8sexplain.quorum-space/v1", explain.BuildSpace(story, o.Settings.Lang)))
}

// spaceScenario validates the space flags.
func (o *QuorumOptions) spaceScenario() (etcd.SpaceScenario, error) {
	s := etcd.SpaceScenario{Nodes: o.Nodes, QuotaBytes: o.QuotaBackendBytes, Compact: o.Compact, Defrag: o.Defrag}
	switch {
	case !o.Space:
		return s, exitcode.Inputf("--%s only applies with --quota-backend-bytes", o.SpaceOnly)
	case o.Nodes < 1 || o.Nodes > maxNodes:
		return s, exitcode.Inputf("invalid --nodes %d: want 1 to %d members", o.Nodes, maxNodes)
	case o.FailSet || o.Partition != "" || o.Isolate != "":
		return s, exitcode.Inputf("--quota-backend-bytes plays the space story on a healthy cluster: use it without --fail, --partition and --isolate")
	case o.QuotaBackendBytes < 0:
		return s, exitcode.Inputf("invalid --quota-backend-bytes %d: a negative quota disables it (etcd), so nothing fills up", o.QuotaBackendBytes)
	case o.QuotaBackendBytes > etcd.MaxQuotaBytes:
		return s, exitcode.Inputf("invalid --quota-backend-bytes %d: above etcd's suggested maximum of %d (8 GiB)", o.QuotaBackendBytes, etcd.MaxQuotaBytes)
	case o.Compact < 0:
		return s, exitcode.Inputf("invalid --compact %d: want a revision, or 0 for the current one", o.Compact)
	}
	return s, nil
}
