package apiserver

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/sim/engine"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// callRig is an API server with the default namespace and an admin client.
func callRig(t *testing.T) (*Server, *Client, *engine.Engine, *trace.Recorder) {
	t.Helper()
	eng := engine.New(1)
	rec := trace.NewRecorder(eng.Now, 0)
	s, err := New(eng, rec, "10.96.0.0/12")
	if err != nil {
		t.Fatal(err)
	}
	s.Seed(&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "default"}})
	c := s.NewClient("admin", Identity{User: "kubernetes-admin", Groups: []string{"kubeadm:cluster-admins", "system:authenticated"}}, trace.PhaseController)
	return s, c, eng, rec
}

func configMap(rv string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "a", ResourceVersion: rv}, Data: map[string]string{"k": rv}}
}

// outcome is one answer: "200 rv=N" or the failure's code and reason.
func outcome(obj runtime.Object, err *Status) string {
	if err != nil {
		return fmt.Sprintf("%d %s", err.Code, err.Reason)
	}
	return "ok rv=" + Meta(obj).GetResourceVersion()
}

// history is every step with its virtual time.
func history(rec *trace.Recorder) []string {
	var out []string
	for _, s := range rec.Steps {
		out = append(out, fmt.Sprintf("%v %s %s %s %v", s.At, s.Actor, s.Kind, s.Object, s.Fields))
	}
	return out
}

// TestCallsMatchCallbacks runs the same requests through the callback
// client and through Calls inside a proc: the same answers, and the same
// steps at the same virtual times (each request leaves in the same engine
// event, and the proc resumes in the event that carries the answer).
func TestCallsMatchCallbacks(t *testing.T) {
	// create, get, get a missing one, update with the created version,
	// update again with that (now stale) version: 409.
	var viaCallbacks []string
	_, c1, eng1, rec1 := callRig(t)
	res := ResourceOf(&corev1.ConfigMap{})
	c1.Create(configMap(""), func(obj runtime.Object, err *Status) {
		viaCallbacks = append(viaCallbacks, outcome(obj, err))
		rv := Meta(obj).GetResourceVersion()
		c1.Get(res, "default", "a", func(obj runtime.Object, err *Status) {
			viaCallbacks = append(viaCallbacks, outcome(obj, err))
			c1.Get(res, "default", "missing", func(obj runtime.Object, err *Status) {
				viaCallbacks = append(viaCallbacks, outcome(obj, err))
				c1.Update(configMap(rv), func(obj runtime.Object, err *Status) {
					viaCallbacks = append(viaCallbacks, outcome(obj, err))
					c1.Update(configMap(rv), func(obj runtime.Object, err *Status) {
						viaCallbacks = append(viaCallbacks, outcome(obj, err))
					})
				})
			})
		})
	})
	eng1.Run(time.Hour)

	var viaCalls []string
	_, c2, eng2, rec2 := callRig(t)
	eng2.Go(func(p *engine.Proc) {
		api := c2.In(p)
		obj, err := api.Create(configMap(""))
		viaCalls = append(viaCalls, outcome(obj, err))
		rv := Meta(obj).GetResourceVersion()
		viaCalls = append(viaCalls, outcome(api.Get(res, "default", "a")))
		viaCalls = append(viaCalls, outcome(api.Get(res, "default", "missing")))
		viaCalls = append(viaCalls, outcome(api.Update(configMap(rv))))
		viaCalls = append(viaCalls, outcome(api.Update(configMap(rv))))
	})
	eng2.Run(time.Hour)

	if want := []string{"ok rv=2", "ok rv=2", "404 NotFound", "ok rv=3", "409 Conflict"}; !slices.Equal(viaCallbacks, want) {
		t.Fatalf("callbacks answered %q, want %q", viaCallbacks, want)
	}
	if !slices.Equal(viaCalls, viaCallbacks) {
		t.Fatalf("Calls answered %q, callbacks %q", viaCalls, viaCallbacks)
	}
	h1, h2 := history(rec1), history(rec2)
	if !slices.Equal(h1, h2) {
		t.Fatalf("histories differ:\ncallbacks:\n%s\nCalls:\n%s", strings.Join(h1, "\n"), strings.Join(h2, "\n"))
	}
	if eng1.Processed() != eng2.Processed() || eng1.Now() != eng2.Now() {
		t.Fatalf("engine events %d/%d, end %v/%v", eng1.Processed(), eng2.Processed(), eng1.Now(), eng2.Now())
	}
}

// TestOutbox: a held request is not sent until Send, arrives
// RequestLatency after it, and Fail answers it without sending.
func TestOutbox(t *testing.T) {
	s, c, eng, _ := callRig(t)
	ob := c.Hold()
	var got []string
	for _, name := range []string{"a", "b"} {
		cm := configMap("")
		cm.Name = name
		c.Create(cm, func(obj runtime.Object, err *Status) { got = append(got, name+" "+outcome(obj, err)) })
	}
	eng.Run(time.Hour)
	reqs := ob.Requests()
	if len(reqs) != 2 || reqs[0].Verb != "POST" || reqs[0].Path != "/api/v1/namespaces/default/configmaps" || reqs[1].Name != "b" || len(got) != 0 {
		t.Fatalf("held %+v, answered %q", reqs, got)
	}
	if s.Get(ResourceOf(&corev1.ConfigMap{}), "default", "a") != nil {
		t.Fatal("a held create reached the store")
	}
	ob.Fail(1, &Status{Code: http.StatusServiceUnavailable, Reason: "ServiceUnavailable"})
	sent := eng.Now()
	ob.Send(0)
	eng.Run(time.Hour)
	if !slices.Equal(got, []string{"b 503 ServiceUnavailable", "a ok rv=2"}) || ob.Len() != 0 {
		t.Fatalf("answers %q, %d still held", got, ob.Len())
	}
	// create: request, commit, answer.
	if want := sent + 2*RequestLatency + StoreLatency; eng.Now() != want {
		t.Fatalf("answered at %v, want %v", eng.Now(), want)
	}
	ob.Release()
	c.Create(configMap(""), nil)
	if ob.Len() != 0 {
		t.Fatal("a released client still holds its requests")
	}
}
