package watchload

import (
	"math/rand/v2"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
)

// The constants of the model, each from its upstream default or stated as
// an assumption.
const (
	// ClientQPS and ClientBurst are client-go's defaults for a rest.Config
	// whose QPS and Burst are left at zero (rest/config.go DefaultQPS 5.0,
	// DefaultBurst 10): a token bucket per client.
	ClientQPS   = 5.0
	ClientBurst = 10
	// ControllerManagerQPS and ControllerManagerBurst are what
	// kube-controller-manager sets for its own clients instead
	// (--kube-api-qps 20, --kube-api-burst 30:
	// pkg/controller/apis/config/v1alpha1/defaults.go).
	ControllerManagerQPS   = 20.0
	ControllerManagerBurst = 30
	// ServeRate is an assumption: the bytes per second at which one LIST
	// response is encoded and sent, as if it had a core to itself.
	ServeRate = 100e6
	// MinWatchTimeout: a Reflector asks for a watch timeout drawn from
	// [5m, 10m) (client-go tools/cache/reflector.go defaultMinWatchTimeout).
	MinWatchTimeout = 5 * time.Minute
	// BookmarkEvery: the watch cache sends a bookmark to each watcher that
	// allows them about once a minute (apiserver storage/cacher
	// defaultBookmarkFrequency).
	BookmarkEvery = time.Minute
	// NodeStatusReport is the kubelet's nodeStatusReportFrequency default:
	// it re-posts an unchanged node status every 5 minutes.
	NodeStatusReport = 5 * time.Minute
	// MinResyncPeriod is kube-controller-manager's --min-resync-period:
	// informers resync from their own cache every 12 to 24 hours, with no
	// request to the API server.
	MinResyncPeriod = 12 * time.Hour
	// StartWindow: every informer starts at a random moment in the first
	// second (as after a rollout); the loops are already running, each at a
	// random point of its loop.
	StartWindow = time.Second
)

// Bounds of a run the model accepts.
const (
	MaxControllers  = 10000
	MaxPods         = 1000000
	MaxNodes        = 10000
	MaxPodsPerNode  = 110 // the kubelet's default maxPods
	MinPollInterval = 10 * time.Millisecond
	MaxPollInterval = time.Hour
	MinDuration     = time.Second
	MaxDuration     = time.Hour
	// MaxLoops bounds controllers × duration / poll interval, the number of
	// polling loops the engine has to play.
	MaxLoops = 2000000
)

// Config is one run.
type Config struct {
	Controllers  int           `json:"controllers"`
	Pods         int           `json:"pods"`
	Nodes        int           `json:"nodes"`
	PollInterval time.Duration `json:"pollInterval"`
	Duration     time.Duration `json:"duration"`
	Seed         int64         `json:"seed"`
}

// Design is what one design cost the API server during the run.
type Design struct {
	Requests  int `json:"requests"`
	PodLists  int `json:"podLists"`
	NodeLists int `json:"nodeLists"`
	Watches   int `json:"watches"`
	// Events counts watch events delivered (one per watcher), Bookmarks
	// the bookmark events among them.
	Events    int `json:"events"`
	Bookmarks int `json:"bookmarks"`
	// StreamingLists counts the WATCHes with sendInitialEvents=true, and
	// InitialEvents the ADDED events they sent (both within Events and
	// Watches).
	StreamingLists int `json:"streamingLists,omitempty"`
	InitialEvents  int `json:"initialEvents,omitempty"`
	// Loops counts completed polling loops (polling only).
	Loops int `json:"loops"`
	// Encoded is what the API server serialised: every LIST anew, a watch
	// event once for all its watchers. Sent is what went on the wire.
	Encoded int64 `json:"bytesEncoded"`
	Sent    int64 `json:"bytesSent"`
	// Throttled counts requests that waited for the client-side token
	// bucket, ThrottleWait their total wait.
	Throttled    int           `json:"throttled"`
	ThrottleWait time.Duration `json:"throttleWait"`
	// PeakLists and PeakBytes: LISTs in flight at once at the peak and the
	// response bytes the server held then; MeanBytes is the time average.
	PeakLists int   `json:"peakLists"` // LISTs, or streaming lists, being served
	PeakBytes int64 `json:"peakBytes"`
	MeanBytes int64 `json:"meanBytes"`
	// Notice* say how long after the pod change each controller saw it.
	NoticeMin  time.Duration `json:"noticeMin"`
	NoticeMean time.Duration `json:"noticeMean"`
	NoticeMax  time.Duration `json:"noticeMax"`
	// Timeline splits requests and bytes sent into equal slices of the run.
	Timeline []Slice `json:"timeline"`
}

// Slice is one part of the timeline.
type Slice struct {
	From     time.Duration `json:"from"`
	Requests int           `json:"requests"`
	Sent     int64         `json:"bytesSent"`
}

// Result is a whole run.
type Result struct {
	Config   Config        `json:"config"`
	Sizes    Sizes         `json:"sizes"`
	ChangeAt time.Duration `json:"changeAt"`
	// ListTime is how long one pod LIST takes to serve.
	ListTime     time.Duration `json:"podListTime"`
	NodeListTime time.Duration `json:"nodeListTime"`
	WatchLatency time.Duration `json:"watchLatency"`
	Polling      Design        `json:"polling"`
	// Informer is the informers on LIST then WATCH (client-go's fallback,
	// the default before v1.35); Streaming the same informers on v1.37's
	// default, the streaming list (WatchListClient).
	Informer  Design `json:"informer"`
	Streaming Design `json:"streaming"`
}

// Slices is the number of timeline slices.
const Slices = 6

// Run plays both designs on the same cluster and returns what they cost.
func Run(cfg Config) (*Result, error) {
	eng := engine.New(cfg.Seed)
	sizes, err := measure(eng.Rand(), cfg.Pods, cfg.Nodes)
	if err != nil {
		return nil, err
	}
	r := &Result{Config: cfg, Sizes: sizes, WatchLatency: apiserver.WatchLatency}
	r.ListTime, r.NodeListTime = ServeTime(sizes.PodList), ServeTime(sizes.NodeList)
	// The pod changes once, near the middle of the run.
	jitter := min(time.Second, cfg.Duration/4)
	r.ChangeAt = (cfg.Duration/2 + time.Duration(eng.Rand().Int64N(int64(jitter)))).Truncate(time.Millisecond)
	r.Polling = runPolling(cfg, sizes, r.ChangeAt)
	r.Informer = runInformers(cfg, sizes, r.ChangeAt, false)
	r.Streaming = runInformers(cfg, sizes, r.ChangeAt, true)
	return r, nil
}

// LoopTime is one polling loop without throttling: the poll interval plus
// a pod LIST and a node LIST.
func (r *Result) LoopTime() time.Duration {
	return r.Config.PollInterval + r.ListTime + r.NodeListTime
}

// ExpectedNotice is the mean time a polling controller takes to see a
// change when nothing throttles it: the change lands at a uniformly random
// point of a loop, so the next pod LIST starts half a loop later on
// average, and its answer arrives one LIST time after that.
func (r *Result) ExpectedNotice() time.Duration { return r.LoopTime()/2 + r.ListTime }

// ServeTime is how long the API server takes to serve a response of size
// bytes: the simulator's request latency plus the size at ServeRate.
func ServeTime(size int64) time.Duration {
	return apiserver.RequestLatency + time.Duration(float64(size)/ServeRate*float64(time.Second))
}

// bucket is client-go's token bucket (flowcontrol.NewTokenBucketRateLimiter,
// golang.org/x/time/rate underneath): it starts full, refills at qps, holds
// at most burst, and a request that finds it empty waits for its token.
type bucket struct {
	tokens, qps, burst float64
	last               time.Duration
}

func newBucket() *bucket { return &bucket{tokens: ClientBurst, qps: ClientQPS, burst: ClientBurst} }

// take reserves a token at now and returns how long to wait for it.
func (b *bucket) take(now time.Duration) time.Duration {
	if now > b.last {
		b.tokens = min(b.burst, b.tokens+b.qps*(now-b.last).Seconds())
		b.last = now
	}
	b.tokens--
	if b.tokens >= 0 {
		return 0
	}
	return time.Duration(-b.tokens / b.qps * float64(time.Second)).Round(time.Microsecond)
}

// meter accounts one design's requests and bytes; only what starts before
// the end of the run counts.
type meter struct {
	d        *Design
	end      time.Duration
	slice    time.Duration
	inflight int64
	lists    int
	last     time.Duration
	area     float64
	notices  []time.Duration
}

func newMeter(cfg Config) *meter {
	d := &Design{Timeline: make([]Slice, Slices)}
	m := &meter{d: d, end: cfg.Duration, slice: cfg.Duration / Slices}
	for i := range d.Timeline {
		d.Timeline[i].From = time.Duration(i) * m.slice
	}
	return m
}

func (m *meter) counts(now time.Duration) bool { return now < m.end }

func (m *meter) at(now time.Duration) *Slice {
	i := min(int(now/m.slice), Slices-1)
	return &m.d.Timeline[i]
}

// request counts a request sent at now after waiting wait for a token.
func (m *meter) request(now, wait time.Duration) {
	if !m.counts(now) {
		return
	}
	m.d.Requests++
	m.at(now).Requests++
	if wait > 0 {
		m.d.Throttled++
		m.d.ThrottleWait += wait
	}
}

// send counts size bytes sent to each of copies clients at now. The
// server serialises them once when they are one shared event (a LIST is
// serialised for each client: call send once per LIST).
func (m *meter) send(now time.Duration, size int64, copies int) {
	if !m.counts(now) || copies == 0 {
		return
	}
	m.d.Sent += size * int64(copies)
	m.at(now).Sent += size * int64(copies)
	m.d.Encoded += size
}

// hold and release track LIST responses the server holds in memory.
func (m *meter) hold(now time.Duration, size int64) {
	m.integrate(now)
	m.inflight += size
	m.lists++
	if m.counts(now) && m.inflight > m.d.PeakBytes {
		m.d.PeakBytes, m.d.PeakLists = m.inflight, m.lists
	}
}

func (m *meter) release(now time.Duration, size int64) {
	m.integrate(now)
	m.inflight -= size
	m.lists--
}

func (m *meter) integrate(now time.Duration) {
	now = min(now, m.end)
	if now > m.last {
		m.area += float64(m.inflight) * float64(now-m.last)
		m.last = now
	}
}

func (m *meter) notice(after time.Duration) { m.notices = append(m.notices, after) }

// finish closes the accounts.
func (m *meter) finish() Design {
	m.integrate(m.end)
	m.d.MeanBytes = int64(m.area / float64(m.end))
	var sum time.Duration
	for i, n := range m.notices {
		if i == 0 || n < m.d.NoticeMin {
			m.d.NoticeMin = n
		}
		m.d.NoticeMax = max(m.d.NoticeMax, n)
		sum += n
	}
	if len(m.notices) > 0 {
		m.d.NoticeMean = (sum / time.Duration(len(m.notices))).Round(time.Millisecond / 10)
	}
	return *m.d
}

// starts draws each controller's start time in [0, window).
func starts(rng *rand.Rand, n int, window time.Duration) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = time.Duration(rng.Int64N(int64(window))).Truncate(time.Millisecond)
	}
	return out
}
