// Package trace is the model of what the simulator did and how it reads:
// a Step is one thing one component did at one virtual instant (structured
// fields, no prose); the catalogue turns a step kind into an English or a
// Russian sentence and explanation. Package trace/explain turns a Trace into
// a report.Doc, and package render prints that as text, Markdown, a Mermaid
// sequenceDiagram, JSON (schema in docs/trace-schema.md) or HTML.
//
// The package imports no simulator code: the simulator records steps and
// never formats them.
package trace

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/clip"
	"github.com/k8sexplain/k8sexplain/internal/l10n"
)

// Phase is one of the eight chapters of the "what happens after kubectl
// apply" story.
type Phase int

// The phases, in story order.
const (
	PhaseKubectl    Phase = 1 // kubectl validates and sends the request
	PhaseAPIServer  Phase = 2 // authentication, RBAC, admission
	PhaseStore      Phase = 3 // etcd write and 201 Created
	PhaseController Phase = 4 // controllers react through watch
	PhaseScheduler  Phase = 5 // filter, score, bind
	PhaseKubelet    Phase = 6 // kubelet sees its pod, calls the CRI
	PhaseRuntime    Phase = 7 // namespaces, cgroups, the process
	PhaseReady      Phase = 8 // status, probes, Ready, endpoints, kube-proxy
)

// Phases lists every phase in order.
var Phases = []Phase{PhaseKubectl, PhaseAPIServer, PhaseStore, PhaseController, PhaseScheduler, PhaseKubelet, PhaseRuntime, PhaseReady}

// Field is one structured value of a step; the catalogue refers to it as {Key}.
type Field struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	// arg is the typed value behind Value (a time.Duration, a Phrase),
	// which the catalogue writes the way the output language does ("4 мс");
	// Value is the English form, for JSON and the field lists.
	arg any
}

// Kind is a step's kind: its catalogue key, "<component>.<what>"
// ("etcd.put", "kubeproxy.sync") or a bare word ("event"). The catalogue
// test holds every kind recorded to a text in each language.
type Kind string

// The kinds that code reads back, not only records: the renderers draw
// them as arrows (explain's sequence), the story and task checks look for
// them. Other kinds are written where they are recorded, as literals.
const (
	KindEtcdPut           Kind = "etcd.put"
	KindAPIServerResponse Kind = "apiserver.response"
	KindAPIServerUpdated  Kind = "apiserver.updated"
	KindWatchEvent        Kind = "watch.event"
	KindWatchShared       Kind = "watch.shared"
	KindControllerObserve Kind = "controller.observe"
	KindSchedulerQueue    Kind = "scheduler.queue"
	KindKubeletAdmit      Kind = "kubelet.admit"
	KindKubeletRunning    Kind = "kubelet.running"
	KindDNSRecord         Kind = "dns.record"
	KindDeploymentNewRS   Kind = "deployment.newrs"
	KindDeploymentStatus  Kind = "deployment.status"
	KindReplicaSetDiff    Kind = "replicaset.diff"
	KindEvent             Kind = "event"
	KindEventPatch        Kind = "event.patch"
	KindKubectlError      Kind = "kubectl.error"
	KindDrainFailed       Kind = "drain.failed"
	KindEvictionRefused   Kind = "eviction.refused"
)

// Component is the kind's component, the part before its first dot
// ("kubeproxy" for "kubeproxy.sync"), or the whole kind without one.
func (k Kind) Component() string {
	c, _, _ := strings.Cut(string(k), ".")
	return c
}

// Step is one thing a component did.
type Step struct {
	At      time.Duration `json:"-"`
	Phase   Phase         `json:"phase"`
	Actor   string        `json:"actor"`            // e.g. kube-apiserver, kubelet/node-a
	To      string        `json:"to,omitempty"`     // the component it talked to, if any
	Kind    Kind          `json:"kind"`             // catalogue key
	Object  string        `json:"object,omitempty"` // resource/namespace/name
	Verbose bool          `json:"verbose,omitempty"`
	Fields  []Field       `json:"fields,omitempty"`
	// Placement is the scheduler's filter or score result (scheduler
	// steps only).
	Placement *Placement `json:"placement,omitempty"`
	// Seq is how many steps the recorder kept before this one: it orders
	// the step against the cluster's state changes (StateLog).
	Seq int `json:"-"`
}

// Get returns the value of field k, or "".
func (s *Step) Get(k string) string {
	for _, f := range s.Fields {
		if f.Key == k {
			return f.Value
		}
	}
	return ""
}

// EventTarget is how `kubectl get events` names an Event's object in its
// OBJECT column: the involved object's kind in lower case, a slash, its
// name (kubectl pkg/printers/internalversion/printers.go printEvent). An
// event step carries it as its "about" field, so every Event line says
// which object it is about ("Node is not ready" is about one pod).
func EventTarget(kind, name string) string {
	if name == "" {
		return strings.ToLower(kind)
	}
	return strings.ToLower(kind) + "/" + name
}

// F builds a field list from alternating keys and values.
func F(kv ...any) []Field {
	fs := make([]Field, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		f := Field{Key: fmt.Sprint(kv[i]), Value: fmt.Sprint(kv[i+1])}
		switch v := kv[i+1].(type) {
		case time.Duration, l10n.Localized:
			f.arg = v
		}
		fs = append(fs, f)
	}
	return fs
}

// Summary is what the run adds up to.
type Summary struct {
	AllReady      bool
	ReadyAt       time.Duration // when the last pod became Ready (if AllReady)
	End           time.Duration // virtual time of the last event
	Pods          int
	ReadyPods     int
	PendingPods   []PendingPod
	Requests      map[string]int // API requests by component
	WatchEvents   int
	FirstRevision int64
	LastRevision  int64
	Events        int // engine events processed (a watch fan-out to all its watchers is one)
	StepsDropped  int // steps beyond the recorder's limit (counted, not kept)
	Unmodeled     []string
	Scale         *Scale // nil for small runs
}

// PendingPod is a pod left unscheduled, with the scheduler's message.
type PendingPod struct {
	Name    string
	Message string
}

// Trace is a whole run.
type Trace struct {
	Command string // the command line, for the title
	Steps   []Step
	Summary Summary
	Failed  string // set when the apply stopped on an error (the one-line message)
	// Story names the scenario ("apply", "rollout", "delete", "crash",
	// "node-failure", "drain", "preempt"); every story but apply reads as one timeline.
	Story string
	// Start is the virtual time the story begins (after the cluster settled);
	// times are printed relative to it.
	Start time.Duration
	// Tables are the story's result tables; titles and headers are
	// catalogue keys of the words table.
	Tables []KeyedTable
	// Latencies are the simulator's fixed control-plane latencies, stated
	// once in the trace's header (nil: none to state).
	Latencies *Latencies
	// State is the log of the cluster's object changes (nil unless the
	// run recorded it): what the HTML player and --at show.
	State *StateLog
	// Source is "cluster" for a trace observed on a real cluster (trace
	// apply --kubeconfig, package live); "" for the simulation.
	Source string
	// Cluster names the cluster a "cluster" trace was observed on.
	Cluster *ClusterInfo
}

// ClusterInfo is the cluster a trace was observed on: what the first line
// of the trace names.
type ClusterInfo struct {
	Server, Context, Version, Namespace string
	DryRun                              bool
}

// Latencies are the fixed virtual latencies of the simulated control plane.
type Latencies struct {
	Request, Commit, Watch time.Duration
}

// KeyedTable is a result table whose title and headers are translated.
type KeyedTable struct {
	Title string
	// Subject replaces {subject} in the translated title (a pod's name).
	Subject string
	// Left keeps every column left-aligned (text columns, as kubectl prints).
	Left bool
	// Durations marks the columns whose cells are Go durations ("10s"),
	// written the way the output language writes them.
	Durations []bool
	// Decimals marks the columns whose cells are decimals written with a
	// point ("0.16"), given the language's decimal mark.
	Decimals []bool
	Header   []string
	Rows     [][]string
}

// Recorder collects steps up to a limit; beyond it steps are only counted,
// so a 150,000-pod run keeps bounded memory. A negative limit keeps none
// (a --summary run counts its steps and builds none).
type Recorder struct {
	Steps   []Step
	Limit   int
	Dropped int
	now     func() time.Duration
	seq     int // steps kept so far, never reset
}

// NewRecorder returns a recorder that stamps steps with now().
func NewRecorder(now func() time.Duration, limit int) *Recorder {
	return &Recorder{now: now, Limit: limit}
}

// Add records a step at the current virtual time.
func (r *Recorder) Add(s Step) {
	if r.Full() {
		return
	}
	s.At = r.now()
	s.Seq = r.seq
	r.seq++
	clipStep(&s)
	r.Steps = append(r.Steps, s)
}

// Longest object reference and field value a step keeps: a reference is
// resource/namespace/name (at most about 330 bytes for valid names), a
// value may be a list of defaulted fields or an API error.
const (
	maxObjectBytes = 512
	maxFieldBytes  = 4096
)

// clipStep keeps output bounded by input: user-supplied values (names,
// images, messages quoting them) are shortened with their length.
func clipStep(s *Step) {
	s.Object = clip.String(s.Object, maxObjectBytes)
	s.To = clip.String(s.To, maxObjectBytes)
	for i := range s.Fields {
		if v := s.Fields[i].Value; len(v) > clip.MaxValue {
			s.Fields[i].Value = clip.String(clip.Message(v), maxFieldBytes)
		}
	}
}

// Seq is how many steps were kept so far (Reset does not restart it).
func (r *Recorder) Seq() int { return r.seq }

// Reset forgets the steps so far (a story starts after the cluster settled).
func (r *Recorder) Reset() {
	r.Steps = nil
	r.Dropped = 0
}

// Full reports whether the recorder keeps no more steps; it counts the
// step the caller is about to skip, so hot paths can avoid building it.
func (r *Recorder) Full() bool {
	if r.Keeping() {
		return false
	}
	if r != nil {
		r.Dropped++
	}
	return true
}

// Skip counts n steps the caller skips without building them, each as
// Full would have counted it; it counts nothing while steps are kept (the
// caller must not skip those). For a path that knows how many steps it
// would have offered (an Event no step can show, apiserver/eventcount.go).
func (r *Recorder) Skip(n int) {
	if r != nil && !r.Keeping() {
		r.Dropped += n
	}
}

// Keeping reports whether a step added now would be kept, without counting
// anything: for a caller that decides how much detail to gather before it
// knows whether it will record a step.
func (r *Recorder) Keeping() bool {
	return r != nil && !(r.Limit < 0 || (r.Limit > 0 && len(r.Steps) >= r.Limit))
}

// ByPhase returns the steps grouped by phase, each group in time order.
func ByPhase(steps []Step, verbose bool) map[Phase][]Step {
	out := map[Phase][]Step{}
	for _, s := range steps {
		if s.Verbose && !verbose {
			continue
		}
		out[s.Phase] = append(out[s.Phase], s)
	}
	for _, ss := range out {
		sort.SliceStable(ss, func(i, j int) bool { return ss[i].At < ss[j].At })
	}
	return out
}

// Clock formats a virtual time as mm:ss.mmm.
func Clock(d time.Duration) string {
	ms := d.Milliseconds()
	return fmt.Sprintf("%02d:%02d.%03d", ms/60000, (ms/1000)%60, ms%1000)
}

// fill writes tmpl, a catalogue message, with the step's fields for its
// placeholders (l10n.Catalog's syntax): {object} and {actor} are the step's
// own, a missing field is empty, a typed field (a duration) is written in
// lang's style.
func fill(lang, tmpl string, s *Step) string {
	return l10n.Format(lang, tmpl, func(name string) (any, bool) {
		switch name {
		case "object":
			return s.Object, true
		case "actor":
			return s.Actor, true
		}
		for _, f := range s.Fields {
			if f.Key == name {
				if f.arg != nil && f.Value == fmt.Sprint(f.arg) {
					return f.arg, true
				}
				return f.Value, true
			}
		}
		return "", true
	})
}

// Scale is what a large run teaches about scale: where the API traffic
// went, what the watch fan-out cost, how fast the scheduler placed pods,
// and how EndpointSlice churn reached kube-proxy. The simulator fills it
// for clusters larger than its kube-proxy sample, or when asked (--summary).
type Scale struct {
	Nodes, Pods int
	// WatchEvents are deliveries by watching component.
	WatchEvents map[string]int
	// BytesEncoded is the protobuf size of the objects written (each
	// encoded once); BytesSent that size times the watchers it reached.
	BytesEncoded, BytesSent int64
	// Scheduled pods, between the first and the last bind (virtual time).
	Scheduled             int
	FirstBind, LastBind   time.Duration
	SliceWrites, Slices   int
	BatchPeriod           time.Duration // --endpoint-updates-batch-period
	MaxEndpointsPerSlice  int
	ProxiesSimulated      int
	ProxiesCounted        int
	ProxySyncs            int // rule rewrites on the first worker's kube-proxy
	ProxyEndpointsWritten int // endpoints in those rewrites, summed
	ProxyLargestSync      int // endpoints in the largest one
	// EventsCreated, EventsPatched and EventsDropped are what the core/v1
	// event recorders did with the events recorded: POST, PATCH of the
	// count, or dropped by the spam filter.
	EventsCreated, EventsPatched, EventsDropped int
	// StepsRecorded says how the steps were kept: "all", or the limit and
	// how many were counted without being kept.
	StepLimit, StepsKept, StepsCounted int
}
