package watchload

import (
	"encoding/json"
	"reflect"
	"runtime"
	"testing"
	"time"

	_ "github.com/k8sexplain/k8sexplain/internal/golden" // -update is a flag of every test binary
	"github.com/k8sexplain/k8sexplain/internal/sim/apiserver"
	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
)

var defaults = Config{Controllers: 50, Pods: 10000, Nodes: 500, PollInterval: time.Second, Duration: time.Minute, Seed: 1}

func run(t *testing.T, cfg Config) *Result {
	t.Helper()
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The numbers the default run prints: issue 7 §5. If one moves, read the
// golden files again and say why in the commit.
func TestDefaultRun(t *testing.T) {
	start := time.Now()
	r := run(t, defaults)
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("the default run took %v; it must answer well under a second", el)
	}
	p, i := r.Polling, r.Informer
	perSec := func(n int) float64 { return float64(n) / r.Config.Duration.Seconds() }
	if p.Requests != 4670 || i.Requests != 200 {
		t.Errorf("requests: polling %d, informers %d; want 4670 and 200", p.Requests, i.Requests)
	}
	if got := perSec(p.Requests); got < 77.7 || got > 77.9 {
		t.Errorf("polling requests per second %.2f, want 77.8", got)
	}
	if got := perSec(i.Requests); got < 3.3 || got > 3.4 {
		t.Errorf("informer requests per second %.2f, want 3.3", got)
	}
	// A LIST of 10,000 pods is tens of megabytes of JSON.
	if r.Sizes.PodList < 10e6 || r.Sizes.PodList > 100e6 {
		t.Errorf("PodList of 10,000 pods is %d bytes, want tens of MB", r.Sizes.PodList)
	}
	if r.Sizes.PodList != 26834085 || r.Sizes.Pod != 2682 { // podCIDRs from node-ipam (-80 bytes); the upstream pod-template-hash is 10 characters (-40,000)
		t.Errorf("sizes %+v moved", r.Sizes)
	}
	// Each informer LISTs pods and nodes once; the loops LIST about once per loop.
	if i.PodLists != 50 || i.NodeLists != 50 || i.Watches != 100 {
		t.Errorf("informers: %d pod LISTs, %d node LISTs, %d WATCHes; want 50, 50, 100", i.PodLists, i.NodeLists, i.Watches)
	}
	loops := float64(r.Config.Controllers) * r.Config.Duration.Seconds() / r.LoopTime().Seconds()
	if got := float64(p.PodLists); got < loops*0.98 || got > loops*1.02 {
		t.Errorf("polling made %v pod LISTs, want about %.0f (controllers × duration / loop)", got, loops)
	}
	if p.Throttled != 0 {
		t.Errorf("at a 1 s interval the loops send 1.6 requests/s each and must not be throttled; %d were", p.Throttled)
	}
	if p.Encoded < 40*i.Encoded {
		t.Errorf("polling serialised %d bytes, informers %d: want at least 40 times as much", p.Encoded, i.Encoded)
	}
}

// The informer design makes O(1) LISTs: a run four times as long adds no
// LIST (the watches time out after 5 to 10 minutes and are re-opened without
// one), while the loops' LISTs grow with the run.
func TestInformerListsAreConstant(t *testing.T) {
	base := defaults
	base.Controllers, base.Pods, base.Nodes = 5, 1000, 20
	short := run(t, base)
	long := base
	long.Duration = 20 * time.Minute
	lr := run(t, long)
	if short.Informer.PodLists != 5 || lr.Informer.PodLists != 5 || lr.Informer.NodeLists != 5 {
		t.Errorf("informer LISTs: %d in 1 min, %d pod + %d node in 20 min; want 5 each", short.Informer.PodLists,
			lr.Informer.PodLists, lr.Informer.NodeLists)
	}
	if lr.Informer.Watches <= short.Informer.Watches {
		t.Errorf("20 min: %d WATCHes; the 5–10 min timeouts must re-open watches", lr.Informer.Watches)
	}
	if lr.Informer.Bookmarks == 0 {
		t.Errorf("20 min: no bookmarks; the watch cache sends one about every minute")
	}
	if ratio := float64(lr.Polling.PodLists) / float64(short.Polling.PodLists); ratio < 19 || ratio > 21 {
		t.Errorf("polling LISTs grew %.1f times for a 20 times longer run", ratio)
	}
}

// Informers notice a change within the watch latency; the loops take half a
// loop plus a LIST on average (about half the poll interval), never more
// than a loop plus a LIST.
func TestNoticeLatency(t *testing.T) {
	for _, iv := range []time.Duration{time.Second, 5 * time.Second} {
		cfg := defaults
		cfg.PollInterval = iv
		r := run(t, cfg)
		if r.Informer.NoticeMax > apiserver.WatchLatency {
			t.Errorf("%v: informers noticed after up to %v, want ≤ %v", iv, r.Informer.NoticeMax, apiserver.WatchLatency)
		}
		want := r.ExpectedNotice()
		if got := r.Polling.NoticeMean; got < want*80/100 || got > want*120/100 {
			t.Errorf("%v: polling noticed after %v on average, want about %v (loop/2 + LIST)", iv, got, want)
		}
		if got := r.Polling.NoticeMean - r.ListTime; got < iv/2*80/100 {
			t.Errorf("%v: mean wait for the next LIST %v, want at least about interval/2", iv, got)
		}
		if r.Polling.NoticeMax > r.LoopTime()+r.ListTime {
			t.Errorf("%v: a loop noticed after %v, more than a loop and a LIST", iv, r.Polling.NoticeMax)
		}
	}
}

// A small cluster polled every 100 ms is throttled by client-go's 5 QPS.
func TestThrottled(t *testing.T) {
	r := run(t, Config{Controllers: 10, Pods: 1000, Nodes: 20, PollInterval: 100 * time.Millisecond, Duration: time.Minute, Seed: 1})
	p := r.Polling
	if p.Throttled == 0 {
		t.Fatal("no request waited for the limiter")
	}
	limit := (ClientQPS*r.Config.Duration.Seconds() + ClientBurst) * float64(r.Config.Controllers)
	if float64(p.Requests) > limit+float64(r.Config.Controllers) {
		t.Errorf("%d requests, more than the token buckets allow (%.0f)", p.Requests, limit)
	}
	if r.Informer.Throttled != 0 {
		t.Errorf("informers throttled %d times; their 4 requests fit in the burst", r.Informer.Throttled)
	}
}

func TestBucket(t *testing.T) {
	b := newBucket()
	for i := 0; i < ClientBurst; i++ {
		if w := b.take(0); w != 0 {
			t.Fatalf("request %d of the burst waited %v", i+1, w)
		}
	}
	if w := b.take(0); w != 200*time.Millisecond {
		t.Errorf("the 11th request at once waits %v, want 200ms (1/QPS)", w)
	}
	if w := b.take(time.Second); w != 0 {
		t.Errorf("after a second (5 new tokens, one owed) a request waited %v", w)
	}
}

// The memoised sizes equal marshalling every object.
func TestSizesExact(t *testing.T) {
	const pods, nodes = 700, 30
	s, err := measure(engine.New(3).Rand(), pods, nodes)
	if err != nil {
		t.Fatal(err)
	}
	o, err := newObjects(engine.New(4).Rand(), nodes)
	if err != nil {
		t.Fatal(err)
	}
	var podTotal, nodeTotal int64
	for i := 0; i < pods; i++ {
		b, _ := json.Marshal(o.pod(i, int64(1000+i)))
		podTotal += int64(len(b))
	}
	for j := 0; j < nodes; j++ {
		b, _ := json.Marshal(o.node(j, int64(1000+pods+j)))
		nodeTotal += int64(len(b))
	}
	if s.Pod != podTotal/pods || s.Node != nodeTotal/nodes {
		t.Errorf("memoised mean sizes %d, %d; marshalled %d, %d", s.Pod, s.Node, podTotal/pods, nodeTotal/nodes)
	}
	items := make([]json.RawMessage, 0, pods)
	for i := 0; i < pods; i++ {
		b, _ := json.Marshal(o.pod(i, int64(1000+i)))
		items = append(items, b)
	}
	list, _ := json.Marshal(map[string]any{"kind": "PodList", "apiVersion": "v1", "metadata": map[string]string{"resourceVersion": "1730"}, "items": items})
	if int64(len(list)) != s.PodList {
		t.Errorf("PodList %d bytes, marshalled %d", s.PodList, len(list))
	}
}

func TestDeterministic(t *testing.T) {
	a, b := run(t, defaults), run(t, defaults)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two runs of the same config differ")
	}
}

// The controllers are engine procs: loops and watches stop at the end of
// the run (and Close ends any a deadline cut short), so a run leaves no
// goroutine behind.
func TestRunLeavesNoGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	run(t, Config{Controllers: 40, Pods: 1000, Nodes: 20, PollInterval: time.Second, Duration: 2 * time.Minute, Seed: 1})
	for i := 0; runtime.NumGoroutine() > before && i < 100; i++ {
		time.Sleep(time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Fatalf("%d goroutines after the run, %d before", n, before)
	}
}

// v1.37's default path, played beside the fallback: each Reflector's first
// request is one WATCH with sendInitialEvents=true that streams every
// object as an ADDED event and ends with the k8s.io/initial-events-end
// bookmark, then goes on as the watch — no LIST, one request fewer per
// resource, and no list response held, so the start-up peak is a few
// events, not 20 lists.
func TestStreamingList(t *testing.T) {
	r := run(t, defaults)
	i, s := r.Informer, r.Streaming
	c := defaults.Controllers
	if s.PodLists != 0 || s.NodeLists != 0 || s.StreamingLists != 2*c {
		t.Errorf("streaming: LISTs %d/%d, streaming lists %d; want 0/0 and %d", s.PodLists, s.NodeLists, s.StreamingLists, 2*c)
	}
	if s.Requests != i.Requests-2*c || s.Watches != i.Watches {
		t.Errorf("streaming: %d requests, %d watches; LIST+WATCH %d and %d: want %d fewer requests, the same watches",
			s.Requests, s.Watches, i.Requests, i.Watches, 2*c)
	}
	if s.InitialEvents != c*(defaults.Pods+defaults.Nodes) {
		t.Errorf("initial ADDED events %d, want %d", s.InitialEvents, c*(defaults.Pods+defaults.Nodes))
	}
	if s.PeakBytes*100 > i.PeakBytes || s.PeakBytes == 0 {
		t.Errorf("streaming peak %d B against LIST+WATCH %d B: want a few events, not lists", s.PeakBytes, i.PeakBytes)
	}
	if s.NoticeMean != i.NoticeMean {
		t.Errorf("a MODIFIED event reaches both the same way: %v against %v", s.NoticeMean, i.NoticeMean)
	}
	if r.Sizes.InitialEventsEnd <= r.Sizes.Bookmark || r.Sizes.PodStream <= r.Sizes.PodList {
		t.Errorf("sizes: end bookmark %d (plain %d), pod stream %d (list %d)", r.Sizes.InitialEventsEnd, r.Sizes.Bookmark, r.Sizes.PodStream, r.Sizes.PodList)
	}
}
