package explain

import (
	"strings"

	"github.com/k8sexplain/k8sexplain/internal/provenance"
)

// quorumSources says where each sentence of `quorum` that states a fact comes
// from (package provenance): by key or by section (provenance.BySection). The
// Raft sentences were read against go.etcd.io/raft/v3 v3.6.0 (go.mod), the
// etcd ones against etcd v3.6's code and docs, the Kubernetes ones against
// v1.37.
func quorumSources() map[string]provenance.Source {
	raft := func(refs ...string) provenance.Source { return provenance.Of("raft v3.6.0", refs...) }
	etcd := func(refs ...string) provenance.Source { return provenance.Of("etcd v3.6", refs...) }
	k := func(refs ...string) provenance.Source { return provenance.K8s("v1.37", refs...) }
	raftgo := "etcd-io/raft raft.go"
	return map[string]provenance.Source{
		"settings":      raft(raftgo + " (Config: CheckQuorum, PreVote, ElectionTick, HeartbeatTick)").Plus(etcd("etcd-io/etcd server/etcdserver/raft.go (HeartbeatTick 1, ElectionTick 10, CheckQuorum, PreVote)", "etcd-io/etcd server/embed/config.go (--heartbeat-interval 100 ms)")),
		"settings.nocq": raft(raftgo + " (CheckQuorum: stepLeader, MsgCheckQuorum)").Plus(etcd("etcd-io/etcd server/etcdserver/raft.go (CheckQuorum: true)")),
		"settings.nopv": raft(raftgo+" (PreVote: campaign with campaignPreElection)", "etcd-io/raft README.md (Pre-Vote)"),
		"table.":        etcd("etcd-io/website content/en/docs/v3.6/faq.md (cluster size, odd number of members)", "etcd-io/website content/en/docs/v3.6/op-guide/runtime-configuration.md (remove, then add)"),
		"round.":        raft(raftgo + " (poll, tallyVotes, becomeLeader)"),
		"leader":        raft(raftgo + " (becomeLeader appends an empty entry)"),
		"stepdown.":     raft(raftgo + " (Step: higher term, MsgCheckQuorum, becomeFollower)"),
		"lost":          raft(raftgo+" (handleAppendEntries: conflicting entries truncated)", "etcd-io/raft log.go (maybeAppend)"),
		"k8s.":          k("cmd/kubeadm/app/phases/etcd/local.go (stacked etcd)", "cmd/kubeadm/app/phases/controlplane/manifests.go (--etcd-servers=https://127.0.0.1:2379)", "staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go").Plus(etcd("etcd-io/etcd server/etcdserver/v3_server.go (linearizable reads need the leader's ReadIndex)", "etcd-io/website content/en/docs/v3.6/op-guide/failures.md")),
		"k8s.lost.pods": k("pkg/kubelet/kubelet.go (runs what it has)", "pkg/proxy/iptables/proxier.go (rules stay)"),
		"lesson.":       raft(raftgo, "etcd-io/raft README.md").Plus(etcd("etcd-io/website content/en/docs/v3.6/learning/api_guarantees.md")),
		"lesson.late":   etcd("etcd-io/etcd server/etcdserver/v3_server.go (ErrTimeout: the proposal may still commit)").Plus(k("staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go (preconditions)")),
		"pending":       etcd("etcd-io/etcd server/etcdserver/errors.go (etcdserver: request timed out)"),
		"refused":       raft(raftgo + " (stepFollower: ErrProposalDropped without a leader)"),
		"heal.restart":  raft("etcd-io/raft storage.go (HardState, entries persisted)"),
		"commit":        raft(raftgo + " (maybeCommit: a majority's match index)"),
		"commit.late":   raft(raftgo + " (maybeCommit)"),
		"campaign.pre":  raft(raftgo+" (campaignPreElection; randomized election timeout [ElectionTick, 2·ElectionTick))", "etcd-io/raft README.md"),
		"campaign":      raft(raftgo + " (randomized election timeout [ElectionTick, 2·ElectionTick))"),
		"vote.no.lease": raft(raftgo + " (Step: in-lease vote requests ignored under CheckQuorum)"),
		"space.":        etcd("etcd-io/etcd server/storage/quota.go (DefaultQuotaBytes 2 GiB, MaxQuotaBytes 8 GiB, kvOverhead 256, costPut, Available: Size()+cost < quota)", "etcd-io/etcd server/etcdserver/api/v3rpc/quota.go (quotaAlarmer.check raises NOSPACE, ErrGRPCNoSpace)", "etcd-io/etcd server/etcdserver/apply (applierV3Capped: Put, Txn with puts, LeaseGrant refused while NOSPACE is raised)", "etcd-io/etcd server/etcdserver/v3_server.go (Alarm, Compact go through Raft)", "etcd-io/etcd etcdctl/ctlv3/command/defrag_command.go, compaction_command.go, alarm_command.go", "etcd-io/website content/en/docs/v3.6/op-guide/maintenance.md (space quota, history compaction, defragmentation)").Plus(k("staging/src/k8s.io/apiserver/pkg/storage/storagebackend/config.go (DefaultCompactInterval 5 min, --etcd-compaction-interval)", "pkg/apis/core/validation ValidateConfigMap (1 MiB)", "staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go (a graceful delete updates deletionTimestamp; a delete at once is a Txn with a DeleteRange)")),
	}
}

// explanations are the English texts that state something (a sentence,
// eight words at least); labels, headings and the step lines are not.
func explanations() map[string]string {
	out := map[string]string{}
	for k, v := range en() {
		v = strings.TrimSpace(v)
		if strings.HasSuffix(v, ".") && len(strings.Fields(v)) >= 8 {
			out[k] = v
		}
	}
	return out
}

// Provenance is the quorum catalogue's explanations and their sources, for
// docs/PROVENANCE.md.
func Provenance() provenance.Catalogue {
	texts := explanations()
	src := provenance.BySection(texts, quorumSources())
	return provenance.Catalogue{Name: "quorum: the story and its lessons", Package: "internal/sim/etcd/explain", Texts: texts, Sources: src,
		Note: "Sources are assigned by section (a key prefix): every sentence of a section names the files that section paraphrases; the sentences were not each read again against them in this pass."}
}
