package apiserver

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// aggregate returns the message the recorder would write for the event of
// key with msg and whether it is an aggregate one.
func (c *Client) aggregate(agg aggregateKey, msg string) (string, bool) {
	if c.aggregated(agg.hash(), msg) {
		return CombinedPrefix + msg, true
	}
	return msg, false
}

// The recorder aggregates from the 10th distinct message on, and forgets
// the least recently used of its 4096 records (events_cache.go): a pod
// pushed out of the cache starts counting again.
func TestAggregateLRU(t *testing.T) {
	s, err := New(engine.New(1), nil, "10.96.0.0/12")
	if err != nil {
		t.Fatal(err)
	}
	c := s.NewClient("kubelet/node-a", Identity{User: "system:node:node-a"}, 0)
	pod := func(i int) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: fmt.Sprint("p", i), UID: types.UID(fmt.Sprint("u", i))}}
	}
	report := func(i, n int) string {
		var msg string
		for j := 0; j < n; j++ {
			msg, _ = c.aggregate(keyOf(pod(i), "Warning", "Failed"), fmt.Sprint("message ", j))
		}
		return msg
	}
	if got := report(0, 10); !strings.HasPrefix(got, "(combined from similar events): ") {
		t.Fatalf("10th distinct message: %q", got)
	}
	for i := 1; i <= correlatorCacheSize; i++ {
		report(i, 1)
	}
	if c.corr.similar.size() != correlatorCacheSize || c.corr.similar.len() != correlatorCacheSize {
		t.Fatalf("cache holds %d records (%d in order), want %d", c.corr.similar.size(), c.corr.similar.len(), correlatorCacheSize)
	}
	if got, _ := c.aggregate(keyOf(pod(0), "Warning", "Failed"), "message 11"); strings.HasPrefix(got, "(combined") {
		t.Fatalf("pod 0 was evicted and counts again from 1: %q", got)
	}
	// Pod 2 was used most recently before pod 0 came back, pod 1 least:
	// pod 1 is the one evicted now.
	if c.corr.similar.has(aggregateKey{"u1", "Warning", "Failed"}.hash()) {
		t.Fatal("pod 1 should have been evicted")
	}
}

// EventAggregate inserts the message into the record's set first and
// compares after: the 10th distinct message within 10 minutes is already
// combined, the 9th is not; a message seen before stays as it is.
func TestAggregateThreshold(t *testing.T) {
	s, err := New(engine.New(1), nil, "10.96.0.0/12")
	if err != nil {
		t.Fatal(err)
	}
	c := s.NewClient("replicaset-controller", Identity{User: "system:serviceaccount:kube-system:replicaset-controller"}, 0)
	rs := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web", UID: "u"}}
	for i := 1; i <= 9; i++ {
		if got, _ := c.aggregate(keyOf(rs, "Normal", "SuccessfulCreate"), fmt.Sprint("Created pod: p", i)); strings.HasPrefix(got, "(combined") {
			t.Fatalf("message %d combined: %q", i, got)
		}
	}
	if got, _ := c.aggregate(keyOf(rs, "Normal", "SuccessfulCreate"), "Created pod: p1"); got != "Created pod: p1" {
		t.Fatalf("a message seen before: %q", got)
	}
	if got, _ := c.aggregate(keyOf(rs, "Normal", "SuccessfulCreate"), "Created pod: p10"); got != "(combined from similar events): Created pod: p10" {
		t.Fatalf("10th distinct message: %q", got)
	}
}

// recorderRig is an API server with the default namespace and a kubelet's
// client that records events; writes are logged.
func recorderRig(t *testing.T) (*Server, *Client, *engine.Engine, *trace.Recorder) {
	t.Helper()
	eng := engine.New(1)
	rec := trace.NewRecorder(eng.Now, 0)
	s, err := New(eng, rec, "10.96.0.0/12")
	if err != nil {
		t.Fatal(err)
	}
	s.Seed(&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "default"}})
	s.LogWrites = true
	c := s.NewClient("kubelet/node-a", Identity{User: "system:node:node-a", Groups: []string{"system:nodes"}}, trace.PhaseKubelet)
	return s, c, eng, rec
}

func testPod(i int) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: fmt.Sprint("p", i), UID: types.UID(fmt.Sprint("u", i))}}
}

// eventWrites lists the event writes answered: "create 201 count=1 msg".
func eventWrites(s *Server) []string {
	var out []string
	for _, w := range s.Writes {
		if w.Resource != "events" {
			continue
		}
		ev, _ := w.Object.(*corev1.Event)
		if ev == nil {
			out = append(out, fmt.Sprintf("%s %d %s", w.Verb, w.Code, w.Failure))
			continue
		}
		out = append(out, fmt.Sprintf("%s %d %s count=%d %s", w.Verb, w.Code, ev.Name, ev.Count, ev.Message))
	}
	return out
}

// An identical event (same object, type, reason and message) is a PATCH
// of the Event written first: count 2, the same name, the same user
// (eventLogger.eventObserve, event.go recordEvent).
func TestEventIdenticalPatchesCount(t *testing.T) {
	s, c, eng, rec := recorderRig(t)
	c.Event(trace.PhaseKubelet, testPod(1), "Warning", "BackOff", "Back-off restarting failed container")
	eng.Run(time.Minute)
	eng.RunUntil(eng.Now() + 10*time.Second)
	c.Event(trace.PhaseKubelet, testPod(1), "Warning", "BackOff", "Back-off restarting failed container")
	eng.Run(time.Hour)
	got := eventWrites(s)
	if len(got) != 2 || !strings.HasPrefix(got[0], "create 201 p1.") || !strings.HasPrefix(got[1], "patch 200 p1.") {
		t.Fatalf("writes: %q", got)
	}
	name := strings.Fields(got[0])[2]
	if got[1] != "patch 200 "+name+" count=2 Back-off restarting failed container" {
		t.Fatalf("patch: %q, want the Event %s with count 2", got[1], name)
	}
	if w := s.Writes[len(s.Writes)-1]; w.User != "system:node:node-a" {
		t.Fatalf("patched by %q", w.User)
	}
	if s.EventsCreated != 1 || s.EventsPatched != 1 || s.EventsDropped != 0 {
		t.Fatalf("counters: %d created, %d patched, %d dropped", s.EventsCreated, s.EventsPatched, s.EventsDropped)
	}
	var patch *trace.Step
	for i := range rec.Steps {
		if rec.Steps[i].Kind == "event.patch" {
			patch = &rec.Steps[i]
		}
	}
	if patch == nil || patch.Get("count") != "2" {
		t.Fatalf("event.patch step: %+v", patch)
	}
	// The request is a strategic merge patch of count, lastTimestamp and
	// message, as eventObserve computes it.
	var body string
	for _, st := range rec.Steps {
		if st.Kind == "apiserver.request" && st.Get("verb") == "PATCH" {
			body = st.Get("path")
		}
	}
	if body != "/api/v1/namespaces/default/events/"+name {
		t.Fatalf("PATCH path %q", body)
	}
	for _, st := range rec.Steps {
		if st.Kind == "apiserver.patch" {
			body = st.Get("body")
		}
	}
	if !strings.HasPrefix(body, `{"count":2,"lastTimestamp":"2026-01-01T09:00:10Z","message":"Back-off restarting failed container"}`) ||
		!strings.HasSuffix(body, "(application/strategic-merge-patch+json)") {
		t.Fatalf("PATCH body %q", body)
	}
}

// From the 10th distinct message on, the combined events all write one
// aggregate Event: created once, then patched with count+1 and the newest
// message (EventAggregate returns the aggregation key as the logger's key).
func TestEventCombinedPatchesOneAggregate(t *testing.T) {
	s, c, eng, _ := recorderRig(t)
	for i := 1; i <= 14; i++ {
		c.Event(trace.PhaseController, testPod(1), "Warning", "FailedCreate", fmt.Sprint("Error creating: attempt ", i))
		eng.Run(time.Hour)
	}
	got := eventWrites(s)
	if len(got) != 14 {
		t.Fatalf("%d writes, want 14: %q", len(got), got)
	}
	for i := 0; i < 9; i++ {
		if !strings.HasPrefix(got[i], "create 201 ") || !strings.HasSuffix(got[i], fmt.Sprint("count=1 Error creating: attempt ", i+1)) {
			t.Fatalf("write %d: %q", i+1, got[i])
		}
	}
	if !strings.HasSuffix(got[9], "count=1 (combined from similar events): Error creating: attempt 10") || !strings.HasPrefix(got[9], "create 201 ") {
		t.Fatalf("write 10: %q", got[9])
	}
	agg := strings.Fields(got[9])[2]
	for i := 10; i < 14; i++ {
		want := fmt.Sprintf("patch 200 %s count=%d (combined from similar events): Error creating: attempt %d", agg, i-8, i+1)
		if got[i] != want {
			t.Fatalf("write %d: %q, want %q", i+1, got[i], want)
		}
	}
}

// The spam filter: 25 events about one object from one source, then one
// per 5 minutes (defaultSpamBurst, defaultSpamQPS). Dropped events are not
// sent, but the logger has counted them: the next PATCH says so.
func TestEventSpamFilter(t *testing.T) {
	s, c, eng, rec := recorderRig(t)
	for i := 0; i < 30; i++ {
		c.Event(trace.PhaseKubelet, testPod(1), "Warning", "BackOff", "Back-off restarting failed container")
		eng.Run(time.Hour)
	}
	got := eventWrites(s)
	if len(got) != 25 || s.EventsDropped != 5 || s.EventsCreated != 1 || s.EventsPatched != 24 {
		t.Fatalf("%d writes (%d created, %d patched), %d dropped; want 25 sent, 5 dropped", len(got), s.EventsCreated, s.EventsPatched, s.EventsDropped)
	}
	var spam []trace.Step
	for _, st := range rec.Steps {
		if st.Kind == "event.spam" {
			spam = append(spam, st)
		}
	}
	if len(spam) != 5 || spam[0].Actor != "kubelet/node-a" || spam[0].Get("reason") != "BackOff" {
		t.Fatalf("spam steps: %d, first %+v", len(spam), spam)
	}
	// Another object from the same source has a bucket of its own.
	c.Event(trace.PhaseKubelet, testPod(2), "Warning", "BackOff", "Back-off restarting failed container")
	eng.Run(time.Hour)
	if s.EventsDropped != 5 || s.EventsCreated != 2 {
		t.Fatalf("pod 2: %d created, %d dropped", s.EventsCreated, s.EventsDropped)
	}
	// Not quite 5 minutes after the burst: still nothing for pod 1.
	start := eng.Now()
	eng.RunUntil(start + 4*time.Minute)
	c.Event(trace.PhaseKubelet, testPod(1), "Warning", "BackOff", "Back-off restarting failed container")
	eng.Run(time.Hour)
	if s.EventsDropped != 6 {
		t.Fatalf("after 4 minutes: %d dropped, want 6", s.EventsDropped)
	}
	// 5 virtual minutes after the burst a token is back: one more PATCH,
	// whose count includes the 6 dropped (25 + 6 + 1).
	eng.RunUntil(start + 5*time.Minute)
	c.Event(trace.PhaseKubelet, testPod(1), "Warning", "BackOff", "Back-off restarting failed container")
	eng.Run(time.Hour)
	got = eventWrites(s)
	if last := got[len(got)-1]; !strings.HasPrefix(last, "patch 200 p1.") || !strings.Contains(last, " count=32 ") {
		t.Fatalf("after 5 minutes: %q", last)
	}
	c.Event(trace.PhaseKubelet, testPod(1), "Warning", "BackOff", "Back-off restarting failed container")
	eng.Run(eng.Now()) // the sink writes it at the same virtual instant
	if s.EventsDropped != 7 {
		t.Fatalf("right after: %d dropped, want 7", s.EventsDropped)
	}
}

// An event whose first occurrence the spam filter dropped has no Event to
// PATCH: the next one that gets through is created, with the count the
// logger kept (upstream: the PATCH to the name it never created answers
// NotFound and recordEvent creates it, event.go).
func TestEventDroppedFirstIsCreatedLater(t *testing.T) {
	s, c, eng, _ := recorderRig(t)
	for i := 0; i < 25; i++ {
		c.Event(trace.PhaseKubelet, testPod(1), "Warning", "BackOff", "Back-off restarting failed container")
	}
	eng.Run(time.Hour)
	c.Event(trace.PhaseKubelet, testPod(1), "Warning", "Unhealthy", "Liveness probe failed")
	eng.Run(time.Hour)
	if s.EventsDropped != 1 {
		t.Fatalf("%d dropped, want the Unhealthy one", s.EventsDropped)
	}
	eng.RunUntil(eng.Now() + 5*time.Minute)
	c.Event(trace.PhaseKubelet, testPod(1), "Warning", "Unhealthy", "Liveness probe failed")
	eng.Run(time.Hour)
	got := eventWrites(s)
	if last := got[len(got)-1]; !strings.HasPrefix(last, "create 201 p1.") || !strings.HasSuffix(last, " count=2 Liveness probe failed") {
		t.Fatalf("last write %q, want a create with count 2", last)
	}
}

// client-go's recorders name an Event <object>.<hex of UnixNano> from
// their clock (tools/record/event.go makeEvent, tools/events
// event_recorder.go generateEvent), here the virtual one; two events at the
// same instant are a nanosecond apart.
func TestEventNamesFromTheClock(t *testing.T) {
	s, c, eng, _ := recorderRig(t)
	eng.RunUntil(1500 * time.Millisecond)
	c.Event(trace.PhaseKubelet, testPod(1), "Normal", "Pulling", "Pulling image")
	c.Event(trace.PhaseKubelet, testPod(2), "Normal", "Pulling", "Pulling image")
	c.EventV1(trace.PhaseKubelet, testPod(3), "Normal", "Scheduled", "Binding", "assigned")
	eng.Run(time.Minute)
	at := Epoch.Add(1500 * time.Millisecond).UnixNano()
	want := []string{fmt.Sprintf("p1.%x", at), fmt.Sprintf("p2.%x", at+1), fmt.Sprintf("p3.%x", at+2)}
	var got []string
	for _, w := range s.Writes {
		if w.Verb == "create" && (w.Resource == "events" || w.Resource == "events.events.k8s.io") {
			got = append(got, Meta(w.Object).GetName())
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("event names %q, want %q", got, want)
	}
}

// A PATCH recorded before its Event's create answered still names that
// Event when the logger forgot the entry meanwhile (4096 other events).
func TestEventWaitingPatchOutlivesEviction(t *testing.T) {
	s, c, eng, _ := recorderRig(t)
	c.Event(trace.PhaseKubelet, testPod(0), "Warning", "BackOff", "Back-off restarting failed container")
	c.Event(trace.PhaseKubelet, testPod(0), "Warning", "BackOff", "Back-off restarting failed container")
	for i := 1; i <= correlatorCacheSize; i++ {
		c.Event(trace.PhaseKubelet, testPod(i), "Normal", "Pulling", "Pulling image")
	}
	eng.Run(time.Hour)
	got := eventWrites(s)
	if len(got) != correlatorCacheSize+2 || !strings.HasPrefix(got[0], "create 201 p0.") {
		t.Fatalf("%d writes, first %q", len(got), got[0])
	}
	name := strings.Fields(got[0])[2]
	want := "patch 200 " + name + " count=2 Back-off restarting failed container"
	if !slices.Contains(got, want) {
		t.Fatalf("no %q among the writes", want)
	}
}
