package trace

import (
	"sort"
	"time"
)

// The cluster's state at a step: the simulator records every committed
// change of the objects `kubectl get` would list (a row of its columns,
// not the object), in commit order, each stamped with the number of steps
// recorded before it. Replaying the changes up to a step gives the cluster
// as it was at that step; the player of --format html and `trace apply
// --at` both read it.

// StateKind is one kind the state view lists, with kubectl get's columns.
type StateKind struct {
	Kind string
	// Title is the table's title; "" for Kind + "s" (Pods).
	Title string
	// Header is kubectl get's column header for the kind (-o wide's IP
	// and NODE for pods); "AGE" is filled in by the printer from the
	// object's creation time.
	Header []string
}

// StateKinds are the kinds shown, in the order they are printed. Headers:
// kubectl's printers (kubernetes pkg/printers/internalversion/printers.go,
// v1.37: podColumnDefinitions, deploymentColumnDefinitions,
// replicaSetColumnDefinitions, statefulSetColumnDefinitions, persistentVolumeClaimColumnDefinitions,
// serviceColumnDefinitions,
// endpointSliceColumnDefinitions, nodeColumnDefinitions).
//
// KubeProxy is no kind kubectl lists: it is what each simulated
// kube-proxy has programmed for a service port (internal/sim/
// stateview_proxy.go), one row a node and port, with no NAME or AGE.
var StateKinds = []StateKind{
	{"Deployment", "", []string{"NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"}},
	{"ReplicaSet", "", []string{"NAME", "DESIRED", "CURRENT", "READY", "AGE"}},
	{"StatefulSet", "", []string{"NAME", "READY", "AGE"}},
	{"Pod", "", []string{"NAME", "READY", "STATUS", "RESTARTS", "AGE", "IP", "NODE"}},
	{"PersistentVolumeClaim", "", []string{"NAME", "STATUS", "VOLUME", "CAPACITY", "ACCESS MODES", "STORAGECLASS", "VOLUMEATTRIBUTESCLASS", "AGE"}},
	{"Service", "", []string{"NAME", "TYPE", "CLUSTER-IP", "EXTERNAL-IP", "PORT(S)", "AGE"}},
	{"EndpointSlice", "", []string{"NAME", "ADDRESSTYPE", "PORTS", "ENDPOINTS", "AGE"}},
	{"KubeProxy", "kube-proxy (iptables)", []string{"NODE", "SERVICE", "CHAIN", "KUBE-SEP"}},
	{"Node", "", []string{"NAME", "STATUS", "ROLES", "AGE", "VERSION"}},
}

// TableTitle is the kind's table title.
func (k StateKind) TableTitle() string {
	if k.Title != "" {
		return k.Title
	}
	return k.Kind + "s"
}

// ObjectChange is one committed change of a listed object.
type ObjectChange struct {
	// Seq is how many steps had been recorded when the change was
	// committed: it belongs to the step with Seq-1 and shows from there on.
	Seq     int
	At      time.Duration
	Kind    string
	Name    string // namespace/name, or name for a cluster-scoped object
	Deleted bool
	// Cols are the row's cells in the kind's Header order, NAME and AGE
	// left empty (the printer fills them).
	Cols    []string
	Created time.Duration // virtual creation time (for AGE)
	// Restarted is a pod's last container restart (the finishedAt kubectl
	// reads for RESTARTS' "(5s ago)"), virtual time; 0 for none.
	Restarted time.Duration
}

// StateLog is the changes of one run, bounded: past Limit changes more are
// only counted, and the state after the last kept change is what a later
// step shows (the player says so).
type StateLog struct {
	Changes []ObjectChange
	Limit   int
	Dropped int
}

// DefaultStateLimit bounds the changes a run keeps: a 1,000-pod apply
// commits about 4,100 (docs/trace-schema.md, "State"), so this keeps every
// change of runs up to about 5,000 pods, about 2 MB in a page.
const DefaultStateLimit = 20000

// Add keeps c, or counts it past the limit.
func (l *StateLog) Add(c ObjectChange) {
	if l.Limit > 0 && len(l.Changes) >= l.Limit {
		l.Dropped++
		return
	}
	l.Changes = append(l.Changes, c)
}

// ObjectRow is one object as the state at some moment holds it.
type ObjectRow struct {
	Kind, Name string
	Cols       []string
	Created    time.Duration
	Restarted  time.Duration
	// Changed says the row changed in the window asked for (a step's own
	// changes); Gone says the object was deleted in it.
	Changed, Gone bool
}

// Upto replays the first n changes and returns the objects that exist
// after them, by kind (StateKinds order) and name; rows changed by changes
// from index from on are marked Changed, and objects deleted by them are
// kept once more with Gone set.
func (l *StateLog) Upto(n, from int) []ObjectRow {
	if n > len(l.Changes) {
		n = len(l.Changes)
	}
	type key struct{ kind, name string }
	rows := map[key]*ObjectRow{}
	for i, c := range l.Changes[:n] {
		k := key{c.Kind, c.Name}
		if c.Deleted {
			if i >= from {
				if r := rows[k]; r != nil {
					r.Gone, r.Changed = true, true
					continue
				}
			}
			delete(rows, k)
			continue
		}
		rows[k] = &ObjectRow{Kind: c.Kind, Name: c.Name, Cols: c.Cols, Created: c.Created, Restarted: c.Restarted, Changed: i >= from}
	}
	order := map[string]int{}
	for i, k := range StateKinds {
		order[k.Kind] = i
	}
	out := make([]ObjectRow, 0, len(rows))
	for _, r := range rows {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Kind != out[j].Kind {
			return order[out[i].Kind] < order[out[j].Kind]
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// UptoSeq is how many changes were committed before step seq+1 was
// recorded: the state a step shows includes what happened until the next
// step.
func (l *StateLog) UptoSeq(seq int) int {
	return sort.Search(len(l.Changes), func(i int) bool { return l.Changes[i].Seq > seq+1 })
}

// UptoTime is how many changes were committed at or before t.
func (l *StateLog) UptoTime(t time.Duration) int {
	return sort.Search(len(l.Changes), func(i int) bool { return l.Changes[i].At > t })
}
