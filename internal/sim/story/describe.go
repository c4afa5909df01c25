package story

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/trace"
	"k8s.io/apimachinery/pkg/util/duration"
)

// DescribeEvents is the Events section `kubectl describe pod` would print
// for pod ("namespace/name") at the end of the trace: one row per Event
// object — the recorder's correlator PATCHes repeats into the Event written
// first (an "event.patch" step, with the count it sent), shown as
// "AGE (xN over FIRST)"; events its spam filter dropped were never sent —
// oldest first, with Age as kubectl prints it (duration.HumanDuration) and
// From the component (source.component, or reportingController for
// events.k8s.io/v1). An event about one container starts with its field
// path, "spec.containers{web}: Container created", as kubectl describe
// prints it since v1.35 (k8s.io/kubectl pkg/describe/describe.go
// DescribeEvents, kubernetes PR #133627).
func DescribeEvents(tr *trace.Trace, pod string) trace.KeyedTable {
	t := trace.KeyedTable{Title: "describe.title", Subject: pod, Left: true,
		Header: []string{"describe.type", "describe.reason", "describe.age", "describe.from", "describe.message"}}
	type row struct {
		typ, reason, from, msg string
		first, last            time.Duration
		count                  int
	}
	var rows []*row
	index := map[string]*row{}
	for _, s := range tr.Steps {
		if (s.Kind != trace.KindEvent && s.Kind != trace.KindEventPatch) || s.Object != "pods/"+pod {
			continue
		}
		from, _, _ := strings.Cut(s.Actor, "/")
		// The correlator's key: the whole event, or for a combined one
		// source, object, type and reason (events_cache.go).
		msgKey := s.Get("message")
		if strings.HasPrefix(msgKey, "(combined from similar events): ") {
			msgKey = "(combined)"
		}
		key := strings.Join([]string{s.Get("type"), s.Get("reason"), from, s.Get("fieldpath"), msgKey}, "\x00")
		if r := index[key]; r != nil && s.Kind == trace.KindEventPatch {
			r.count, _ = strconv.Atoi(s.Get("count"))
			r.last = s.At
			r.msg = describeMessage(&s)
			continue
		}
		r := &row{typ: s.Get("type"), reason: s.Get("reason"), from: from, msg: describeMessage(&s), first: s.At, last: s.At, count: 1}
		index[key] = r
		rows = append(rows, r)
	}
	now := tr.Start + tr.Summary.End
	for _, r := range rows {
		age := duration.HumanDuration(now - r.first)
		if r.count > 1 {
			age = fmt.Sprintf("%s (x%d over %s)", duration.HumanDuration(now-r.last), r.count, duration.HumanDuration(now-r.first))
		}
		t.Rows = append(t.Rows, []string{r.typ, r.reason, age, r.from, r.msg})
	}
	return t
}

// describeMessage is an event's message as describe prints it: after its
// involvedObject.fieldPath when it has one.
func describeMessage(s *trace.Step) string {
	if fp := s.Get("fieldpath"); fp != "" {
		return fp + ": " + s.Get("message")
	}
	return s.Get("message")
}
