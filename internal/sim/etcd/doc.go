// Package etcd runs a small etcd cluster's consensus on the real Raft library
// (go.etcd.io/raft/v3): N raft.RawNode members driven from one goroutine over
// an in-memory network that can crash members, partition them and heal.
//
// What it models: leader election with PreVote and CheckQuorum as etcd
// configures them (HeartbeatTick 1, ElectionTick 10, one tick = 100 ms),
// votes granted and refused, log replication, commits, a leader stepping down
// when it loses its majority, and catch-up after healing. Each member persists
// HardState and entries to its own raft.MemoryStorage before its messages go
// out, applies committed entries and calls Advance, as etcd's raft loop does
// (etcd server/etcdserver/raft.go).
//
// What it leaves out: the MVCC store, leases, snapshots and membership
// changes, disk and network latency. Messages are delivered in FIFO order,
// one at a time.
//
// Determinism: the library draws randomized election timeouts from
// crypto/rand, so no follower's timer is ever allowed to fire. Leaders get
// Tick (heartbeats and CheckQuorum are not random), everyone else gets
// TickQuiesced, and elections start with an explicit Campaign after
// ForgetLeader on the members whose timers we declare expired.
//
// The package never formats prose: a run returns a Story, an ordered list of
// Events with structured fields; the command renders it from a catalogue.
package etcd
