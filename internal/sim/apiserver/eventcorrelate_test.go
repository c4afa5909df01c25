package apiserver

import (
	"fmt"
	"strings"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

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
			msg = c.aggregate(pod(i), "Warning", "Failed", fmt.Sprint("message ", j))
		}
		return msg
	}
	if got := report(0, 10); !strings.HasPrefix(got, "(combined from similar events): ") {
		t.Fatalf("10th distinct message: %q", got)
	}
	for i := 1; i <= aggregateCacheSize; i++ {
		report(i, 1)
	}
	if len(c.similar.byKey) != aggregateCacheSize || c.similar.len() != aggregateCacheSize {
		t.Fatalf("cache holds %d records (%d in order), want %d", len(c.similar.byKey), c.similar.len(), aggregateCacheSize)
	}
	if got := c.aggregate(pod(0), "Warning", "Failed", "message 11"); strings.HasPrefix(got, "(combined") {
		t.Fatalf("pod 0 was evicted and counts again from 1: %q", got)
	}
	// Pod 2 was used most recently before pod 0 came back, pod 1 least:
	// pod 1 is the one evicted now.
	if c.similar.byKey[aggregateKey{"u1", "Warning", "Failed"}] != nil {
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
		if got := c.aggregate(rs, "Normal", "SuccessfulCreate", fmt.Sprint("Created pod: p", i)); strings.HasPrefix(got, "(combined") {
			t.Fatalf("message %d combined: %q", i, got)
		}
	}
	if got := c.aggregate(rs, "Normal", "SuccessfulCreate", "Created pod: p1"); got != "Created pod: p1" {
		t.Fatalf("a message seen before: %q", got)
	}
	if got := c.aggregate(rs, "Normal", "SuccessfulCreate", "Created pod: p10"); got != "(combined from similar events): Created pod: p10" {
		t.Fatalf("10th distinct message: %q", got)
	}
}
