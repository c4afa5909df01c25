package etcd

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// The space story: the backend quota, the NOSPACE alarm, compaction,
// defragmentation and `etcdctl alarm disarm` (quorum --quota-backend-bytes),
// with every replicated request (Put, DeleteRange, Alarm, Compaction) a
// proposal the real Raft library commits, as etcd sends them
// (server/etcdserver/v3_server.go: raftRequest; Alarm and Compaction are
// InternalRaftRequests too). Defragment is per member and not replicated
// (api/v3rpc/maintenance.go).
//
// What it models of the MVCC store: every Put and DeleteRange adds a
// revision; a revision occupies what etcd's quota charges for it (kvOverhead
// 256 + key + value, server/storage/quota.go: costPut); the backend file
// grows to the bytes in use rounded up to 4 KiB pages and never shrinks
// until a defragmentation rewrites it (bbolt reuses freed pages inside the
// file). Compaction at R removes every revision below R except each live
// key's newest one (mvcc/kvstore_compaction.go, key_index.go compact).
// Left out: bbolt's page layout, branch pages and freelist, the lease and
// auth buckets, the time a defragmentation takes.

// etcd v3.6 facts the story uses.
const (
	// DefaultQuotaBytes is etcd's --quota-backend-bytes when 0 is given
	// (server/storage/quota.go, 2 GiB); MaxQuotaBytes its suggested
	// maximum (8 GiB).
	DefaultQuotaBytes = int64(2 << 30)
	MaxQuotaBytes     = int64(8 << 30)
	// MinSpaceQuota is the smallest quota the story plays: room for the
	// Event and about 16 ConfigMap writes of 4 KiB pages.
	MinSpaceQuota = 64 << 10
	// KVOverhead is the quota's charge for a key's metadata (kvOverhead).
	KVOverhead = 256
	// PageBytes is the backend's page size (bbolt on 4 KiB pages).
	PageBytes = 4096
	// ErrNoSpace is the client's error (api/v3rpc/rpctypes ErrGRPCNoSpace).
	ErrNoSpace = "etcdserver: mvcc: database space exceeded"
	// ErrFutureRev and ErrCompacted answer a compaction at a revision
	// above the current one, or at or below the last compaction
	// (rpctypes ErrGRPCFutureRev, ErrGRPCCompacted).
	ErrFutureRev = "etcdserver: mvcc: required revision is a future revision"
	ErrCompacted = "etcdserver: mvcc: required revision has been compacted"
	// ConfigMapMaxBytes is Kubernetes' limit on a ConfigMap's data
	// (pkg/apis/core/validation ValidateConfigMap, 1 MiB): the fill writes
	// ConfigMaps of at most that size.
	ConfigMapMaxBytes = 1 << 20
	// KeyBig is the ConfigMap a runaway controller rewrites; KeyEvent an
	// Event about it, which the story deletes while the alarm is raised.
	KeyBig   = "/registry/configmaps/default/big"
	KeyEvent = "/registry/events/default/big.187a3c9e5b2f1d40"
	// EventBytes is the size of the Event's value.
	EventBytes = 400
)

// SpaceScenario is one run of the space story.
type SpaceScenario struct {
	Nodes int
	// QuotaBytes is --quota-backend-bytes: 0 is etcd's default (2 GiB).
	QuotaBytes int64
	// Compact is the revision `etcdctl compact` is given; 0: the current
	// revision (`etcdctl endpoint status`), the usual recipe.
	Compact int64
	// Defrag: `etcdctl defrag` each member (followers first, the leader
	// last) before the alarm is disarmed.
	Defrag bool
}

// SpaceStep kinds, in story order.
const (
	SpaceFill     = "fill"    // Count Puts of ValueBytes committed, revisions From..Rev; Size per member
	SpaceRefused  = "refused" // a Put refused (Stage: quota, the member's check before Raft; applier, the capped applier after the commit)
	SpaceAlarm    = "alarm"   // an Alarm request committed at Index: Activate (NOSPACE raised) or not (disarmed)
	SpaceDelete   = "delete"  // a DeleteRange committed at Index, revision Rev (never refused for space)
	SpaceCompact  = "compact" // Compaction at Rev committed at Index; InUse before and after, Size unchanged
	SpaceCompactE = "compact-error"
	SpaceDefrag   = "defrag" // Node's backend rewritten: Size before and after
	SpacePut      = "put"    // a Put committed and applied at Index, revision Rev
	SpaceState    = "state"  // Backends: every member's backend
)

// SpaceStep is one step of the space story. Only the fields its Kind uses are set.
type SpaceStep struct {
	Kind     string    `json:"kind"`
	Phase    string    `json:"phase,omitempty"`
	Key      string    `json:"key,omitempty"`
	Node     uint64    `json:"node,omitempty"`
	Index    uint64    `json:"index,omitempty"`
	Rev      int64     `json:"revision,omitempty"`
	From     int64     `json:"fromRevision,omitempty"`
	Count    int       `json:"count,omitempty"`
	Stage    string    `json:"stage,omitempty"`
	Error    string    `json:"error,omitempty"`
	Activate bool      `json:"activate,omitempty"`
	Size     int64     `json:"size,omitempty"`
	Before   int64     `json:"before,omitempty"`
	After    int64     `json:"after,omitempty"`
	Backends []Backend `json:"backends,omitempty"`
}

// Backend is one member's store seen from outside, as `etcdctl endpoint
// status` shows it (DB SIZE, DB SIZE IN USE, RAFT INDEX, REVISION) plus its
// alarm.
type Backend struct {
	ID        uint64 `json:"id"`
	Role      string `json:"role"`
	Size      int64  `json:"dbSize"`
	InUse     int64  `json:"dbSizeInUse"`
	Revision  int64  `json:"revision"`
	Compacted int64  `json:"compactRevision"`
	Index     uint64 `json:"raftIndex"`
	NoSpace   bool   `json:"alarmNoSpace"`
}

// SpaceStory is what happened.
type SpaceStory struct {
	Nodes      int         `json:"nodes"`
	QuotaBytes int64       `json:"quotaBackendBytes"`
	ValueBytes int         `json:"valueBytes"`
	Cost       int         `json:"costPerPut"`
	Defrag     bool        `json:"defrag"`
	Compact    int64       `json:"compactRevision"`
	Steps      []SpaceStep `json:"steps"`
	// Recovered: the last Put committed and was applied.
	Recovered bool `json:"recovered"`
}

// Space phases.
const (
	SpacePhaseFill    = "fill"
	SpacePhaseNoSpace = "nospace"
	SpacePhaseRecover = "recover"
)

// mvcc is one member's store: the revisions kept and the backend file.
type mvcc struct {
	revs      []revision
	rev       int64 // the current revision (1: the empty store)
	compacted int64
	size      int64 // the file
	inUse     int64
	noSpace   bool
}

type revision struct {
	key     string
	rev     int64
	bytes   int64
	deleted bool // a tombstone
}

func pages(n int64) int64 { return (n + PageBytes - 1) / PageBytes * PageBytes }

func (s *mvcc) grow() { s.size = max(s.size, pages(s.inUse)) }

func (s *mvcc) put(key string, value int) {
	s.rev++
	b := int64(KVOverhead + len(key) + value)
	s.revs = append(s.revs, revision{key: key, rev: s.rev, bytes: b})
	s.inUse += b
	s.grow()
}

func (s *mvcc) del(key string) {
	s.rev++
	b := int64(KVOverhead + len(key))
	s.revs = append(s.revs, revision{key: key, rev: s.rev, bytes: b, deleted: true})
	s.inUse += b
	s.grow()
}

// compact keeps, below at, only each key's newest revision, and drops it
// too when it is a tombstone (key_index.go compact; kvstore_compaction.go).
func (s *mvcc) compact(at int64) {
	newest := map[string]int64{}
	for _, r := range s.revs {
		if r.rev <= at {
			newest[r.key] = r.rev
		}
	}
	kept := s.revs[:0]
	s.inUse = 0
	for _, r := range s.revs {
		if r.rev < at && r.rev != newest[r.key] || r.rev <= at && r.rev == newest[r.key] && r.deleted {
			continue
		}
		kept = append(kept, r)
		s.inUse += r.bytes
	}
	s.revs, s.compacted = kept, at
}

// available is the quota check (BackendQuota.Available): the file's size
// plus the request's charge must stay below the quota.
func (s *mvcc) available(cost int, quota int64) bool { return s.size+int64(cost) < quota }

// spaceCluster is the Raft cluster with a store per member.
type spaceCluster struct {
	*cluster
	stores []*mvcc
	quota  int64
	// refused is set by apply when the capped applier refused a Put
	refused     bool
	inUseBefore int64
	steps       []SpaceStep
	phase       string
}

// RunSpace plays the space story.
func RunSpace(s SpaceScenario) (*SpaceStory, error) {
	if s.Nodes < 1 {
		return nil, errors.New("a cluster needs at least one member")
	}
	if s.QuotaBytes < 0 {
		return nil, errors.New("a negative quota disables it: nothing fills up")
	}
	quota := s.QuotaBytes
	if quota == 0 {
		quota = DefaultQuotaBytes
	}
	// About 16 writes fill the quota, each a ConfigMap of at most 1 MiB.
	value := int(min(quota/16, ConfigMapMaxBytes))
	if quota < MinSpaceQuota {
		return nil, fmt.Errorf("quota %d bytes is too small for the story: want at least %d (64 KiB)", quota, MinSpaceQuota)
	}
	c, err := newCluster(Config{Nodes: s.Nodes, CheckQuorum: true, PreVote: true})
	if err != nil {
		return nil, err
	}
	sc := &spaceCluster{cluster: c, quota: quota}
	for range c.members {
		sc.stores = append(sc.stores, &mvcc{rev: 1})
	}
	c.applyHook = sc.applyEntry
	story := &SpaceStory{Nodes: s.Nodes, QuotaBytes: quota, ValueBytes: value, Cost: KVOverhead + len(KeyBig) + value, Defrag: s.Defrag}
	c.campaign(1)

	// Fill: an Event is written, then the runaway controller rewrites
	// the ConfigMap until etcd-1's quota check refuses a Put.
	sc.phase = SpacePhaseFill
	sc.tryPut(KeyEvent, EventBytes, true)
	fill := SpaceStep{Kind: SpaceFill, Phase: sc.phase, Key: KeyBig, From: sc.stores[0].rev + 1}
	at := len(sc.steps)
	limit := int(quota/int64(story.Cost)) + 2
	for i := 0; i < limit && sc.tryPut(KeyBig, value, false); i++ {
		fill.Count++
	}
	fill.Rev = sc.stores[0].rev
	fill.Size = sc.stores[0].size
	// the refusal follows the fill it ended
	sc.steps = append(sc.steps[:at], append([]SpaceStep{fill}, sc.steps[at:]...)...)
	sc.state()

	// No space: deletes still work; Puts are refused.
	sc.phase = SpacePhaseNoSpace
	sc.tryPut(KeyBig, value, true)
	sc.replicate("delete " + KeyEvent)
	sc.state()

	sc.recover(s, story, value)
	story.Steps = sc.steps
	return story, nil
}

// recover is the operator's way out: compact, defragment (followers
// first, the leader last), disarm the alarm, write again.
func (sc *spaceCluster) recover(s SpaceScenario, story *SpaceStory, value int) {
	sc.phase = SpacePhaseRecover
	rev := s.Compact
	if rev == 0 {
		rev = sc.stores[0].rev
	}
	story.Compact = rev
	switch l := sc.stores[0]; {
	case rev > l.rev:
		sc.add(SpaceStep{Kind: SpaceCompactE, Rev: rev, Error: ErrFutureRev})
	case rev <= l.compacted:
		sc.add(SpaceStep{Kind: SpaceCompactE, Rev: rev, Error: ErrCompacted})
	default:
		sc.replicate(fmt.Sprintf("compact %d", rev))
	}
	if s.Defrag {
		// followers first, the leader last: a defragmenting member blocks
		for _, id := range append(sc.followers(), 1) {
			st := sc.stores[id-1]
			before := st.size
			st.size = pages(st.inUse)
			sc.add(SpaceStep{Kind: SpaceDefrag, Node: id, Before: before, After: st.size})
		}
		sc.tryPut(KeyBig, value, true) // the alarm is still raised
	}
	sc.replicate("alarm deactivate NOSPACE 1")
	story.Recovered = sc.tryPut(KeyBig, value, true)
	sc.state()
}

func (sc *spaceCluster) add(st SpaceStep) {
	st.Phase = sc.phase
	sc.steps = append(sc.steps, st)
}

func (sc *spaceCluster) followers() []uint64 {
	var out []uint64
	for _, m := range sc.members {
		if m.id != 1 {
			out = append(out, m.id)
		}
	}
	return out
}

// tryPut is the kube-apiserver's Put of the ConfigMap through etcd-1:
// etcd-1's quota check first (api/v3rpc/quota.go: a refusal there also
// proposes the NOSPACE alarm), then Raft, then every member's applier,
// which refuses a Put while the alarm is raised (apply/apply.go:
// applierV3Capped). show records a committed Put as a step of its own.
func (sc *spaceCluster) tryPut(key string, value int, show bool) bool {
	l := sc.stores[0]
	cost := KVOverhead + len(key) + value
	if !l.available(cost, sc.quota) {
		sc.add(SpaceStep{Kind: SpaceRefused, Node: 1, Key: key, Stage: "quota", Error: ErrNoSpace, Size: l.size, After: l.size + int64(cost)})
		if !l.noSpace {
			sc.replicate("alarm activate NOSPACE 1")
		}
		return false
	}
	sc.refused = false
	idx := sc.replicateQuiet(fmt.Sprintf("put %s %d", key, value))
	if sc.refused {
		sc.add(SpaceStep{Kind: SpaceRefused, Node: 1, Key: key, Index: idx, Stage: "applier", Error: ErrNoSpace})
		return false
	}
	if show {
		sc.add(SpaceStep{Kind: SpacePut, Node: 1, Key: key, Index: idx, Rev: l.rev, Size: l.size})
	}
	return true
}

// replicate proposes data through etcd-1 and records what committed.
func (sc *spaceCluster) replicate(data string) {
	idx := sc.replicateQuiet(data)
	l := sc.stores[0]
	f := strings.Fields(data)
	switch f[0] {
	case "delete":
		sc.add(SpaceStep{Kind: SpaceDelete, Node: 1, Key: f[1], Index: idx, Rev: l.rev})
	case "alarm":
		sc.add(SpaceStep{Kind: SpaceAlarm, Node: 1, Index: idx, Activate: f[1] == "activate"})
	case "compact":
		sc.add(SpaceStep{Kind: SpaceCompact, Node: 1, Index: idx, Rev: l.compacted, Before: sc.inUseBefore, After: l.inUse, Size: l.size})
	}
}

// replicateQuiet proposes data through etcd-1 and lets the cluster settle;
// it returns the entry's index.
func (sc *spaceCluster) replicateQuiet(data string) uint64 {
	m := sc.member(1)
	sc.inUseBefore = sc.stores[0].inUse
	if err := m.rn.Propose([]byte(data)); err != nil {
		panic(err) // etcd-1 leads a healthy cluster throughout
	}
	last, _ := m.st.LastIndex()
	sc.drain(m)
	sc.settle()
	return last + 1
}

// applyEntry is every member's applier for the story's requests.
func (sc *spaceCluster) applyEntry(m *member, data []byte) {
	st := sc.stores[m.id-1]
	f := strings.Fields(string(data))
	switch f[0] {
	case "put":
		if st.noSpace {
			sc.refused = true // applierV3Capped: ErrNoSpace
			return
		}
		n, _ := strconv.Atoi(f[2])
		st.put(f[1], n)
	case "delete":
		st.del(f[1])
	case "alarm":
		st.noSpace = f[1] == "activate"
	case "compact":
		n, _ := strconv.ParseInt(f[1], 10, 64)
		st.compact(n)
	}
}

func (sc *spaceCluster) state() {
	var bs []Backend
	for i, m := range sc.members {
		st := sc.stores[i]
		bs = append(bs, Backend{ID: m.id, Role: roleName(m.role), Size: st.size, InUse: st.inUse, Revision: st.rev,
			Compacted: st.compacted, Index: m.applied, NoSpace: st.noSpace})
	}
	sc.add(SpaceStep{Kind: SpaceState, Backends: bs})
}
