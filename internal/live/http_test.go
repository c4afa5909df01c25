package live

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
)

// httpCluster is a small API server over HTTP: discovery, namespaces with
// generateName, server-side apply that creates (201) or updates (200),
// LIST, and WATCH with the WatchList protocol client-go's informers use
// against a v1.37 server (sendInitialEvents: the current objects as ADDED,
// then a BOOKMARK annotated k8s.io/initial-events-end). Objects are kept
// per collection path.
type httpCluster struct {
	mu       sync.Mutex
	rv       int
	objs     map[string]map[string]map[string]any // collection path → name → object
	watchers map[string][]chan []byte
	writes   []string
	// streamed counts the watches that asked for the initial events
	// (client-go's WatchList).
	streamed int
}

func newHTTPCluster() *httpCluster {
	return &httpCluster{objs: map[string]map[string]map[string]any{}, watchers: map[string][]chan []byte{}}
}

// put stores obj in collection and tells its watchers.
func (h *httpCluster) put(collection string, obj map[string]any) (created bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.rv++
	md := obj["metadata"].(map[string]any)
	md["resourceVersion"] = fmt.Sprint(h.rv)
	if h.objs[collection] == nil {
		h.objs[collection] = map[string]map[string]any{}
	}
	name := md["name"].(string)
	_, existed := h.objs[collection][name]
	h.objs[collection][name] = obj
	typ := "MODIFIED"
	if !existed {
		typ = "ADDED"
	}
	ev, _ := json.Marshal(map[string]any{"type": typ, "object": obj})
	for _, w := range h.watchers[collection] {
		select {
		case w <- ev:
		default:
		}
	}
	return !existed
}

func (h *httpCluster) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	path := r.URL.Path
	if b, ok := discovery[path]; ok {
		fmt.Fprint(w, b)
		return
	}
	notFound := func() {
		w.WriteHeader(404)
		fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}`)
	}
	i := strings.LastIndex(path, "/")
	collection, name := path[:i], path[i+1:]
	switch r.Method {
	case http.MethodPost:
		var obj map[string]any
		_ = json.NewDecoder(r.Body).Decode(&obj)
		md := obj["metadata"].(map[string]any)
		if md["name"] == nil {
			md["name"] = fmt.Sprint(md["generateName"], "h77p1")
		}
		h.mu.Lock()
		h.writes = append(h.writes, "POST "+path)
		h.mu.Unlock()
		h.put(path, obj)
		// The service account controller's default ServiceAccount.
		h.put(path+"/"+md["name"].(string)+"/serviceaccounts", map[string]any{"kind": "ServiceAccount", "apiVersion": "v1", "metadata": map[string]any{"name": "default"}})
		w.WriteHeader(201)
		_ = json.NewEncoder(w).Encode(obj)
	case http.MethodPatch:
		var obj map[string]any
		_ = json.NewDecoder(r.Body).Decode(&obj)
		if spec, ok := obj["spec"].(map[string]any); ok && obj["kind"] == "Deployment" {
			spec["progressDeadlineSeconds"] = 600
		}
		obj["metadata"].(map[string]any)["namespace"] = strings.Split(path, "/")[len(strings.Split(path, "/"))-3]
		code := 200
		if h.put(collection, obj) {
			code = 201
		}
		h.mu.Lock()
		h.writes = append(h.writes, fmt.Sprintf("PATCH %s %d", path, code))
		h.mu.Unlock()
		w.WriteHeader(code)
		_ = json.NewEncoder(w).Encode(obj)
	case http.MethodDelete:
		h.mu.Lock()
		h.writes = append(h.writes, "DELETE "+path)
		h.mu.Unlock()
		fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Success"}`)
	case http.MethodGet:
		h.mu.Lock()
		if r.URL.Query().Get("watch") == "" {
			if obj, ok := h.objs[collection][name]; ok {
				h.mu.Unlock()
				_ = json.NewEncoder(w).Encode(obj)
				return
			}
			items := []any{}
			for _, o := range h.objs[path] {
				items = append(items, o)
			}
			_, isCollection := listKindOf(path)
			rv := h.rv
			h.mu.Unlock()
			if !isCollection {
				notFound()
				return
			}
			kind, _ := listKindOf(path)
			_ = json.NewEncoder(w).Encode(map[string]any{"kind": kind, "apiVersion": "v1", "metadata": map[string]any{"resourceVersion": fmt.Sprint(rv)}, "items": items})
			return
		}
		ch := make(chan []byte, 256)
		h.watchers[path] = append(h.watchers[path], ch)
		var initial [][]byte
		if r.URL.Query().Get("sendInitialEvents") == "true" {
			h.streamed++
			for _, o := range h.objs[path] {
				ev, _ := json.Marshal(map[string]any{"type": "ADDED", "object": o})
				initial = append(initial, ev)
			}
			ev, _ := json.Marshal(map[string]any{"type": "BOOKMARK", "object": map[string]any{"kind": "Pod", "apiVersion": "v1",
				"metadata": map[string]any{"resourceVersion": fmt.Sprint(h.rv), "annotations": map[string]any{"k8s.io/initial-events-end": "true"}}}})
			initial = append(initial, ev)
		}
		h.mu.Unlock()
		fl := w.(http.Flusher)
		w.WriteHeader(200)
		for _, ev := range initial {
			w.Write(append(ev, '\n'))
		}
		fl.Flush()
		for {
			select {
			case <-r.Context().Done():
				return
			case ev := <-ch:
				w.Write(append(ev, '\n'))
				fl.Flush()
			}
		}
	}
}

// listKindOf is the list kind of a collection path the informers read.
func listKindOf(path string) (string, bool) {
	for _, s := range []struct{ suffix, kind string }{{"/deployments", "DeploymentList"}, {"/replicasets", "ReplicaSetList"},
		{"/pods", "PodList"}, {"/endpointslices", "EndpointSliceList"}, {"/events", "EventList"}} {
		if strings.HasSuffix(path, s.suffix) {
			return s.kind, true
		}
	}
	return "", false
}

// The whole run through client-go's real HTTP stack and informers: the
// status codes of the apply come from the responses, the recorded apply
// arrives over watch streams, and the namespace is deleted at the end.
func TestRunOverHTTP(t *testing.T) {
	h := newHTTPCluster()
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	go func() {
		// The controllers: once the Deployment is stored and the five
		// watches are open, the recorded apply, at 20 times its pace.
		for ctx.Err() == nil {
			h.mu.Lock()
			ready := h.objs["/apis/apps/v1/namespaces/k8sexplain-h77p1/deployments"]["web"] != nil
			n := 0
			for _, ws := range h.watchers {
				n += len(ws)
			}
			h.mu.Unlock()
			if ready && n >= 5 {
				break
			}
			time.Sleep(2 * time.Millisecond)
		}
		start := time.Now()
		for _, w := range replayApp(t, "k8sexplain-h77p1", start) {
			time.Sleep(time.Until(start.Add(w.at / 20)))
			m, _ := runtime.DefaultUnstructuredConverter.ToUnstructured(w.obj)
			kind := strings.TrimPrefix(fmt.Sprintf("%T", w.obj), "*v1.")
			api := map[string]string{"Deployment": "/apis/apps/v1", "ReplicaSet": "/apis/apps/v1", "EndpointSlice": "/apis/discovery.k8s.io/v1"}[kind]
			if api == "" {
				api = "/api/v1"
			}
			m["kind"], m["apiVersion"] = kind, strings.TrimPrefix(strings.TrimPrefix(api, "/apis/"), "/api/")
			h.put(api+"/namespaces/k8sexplain-h77p1/"+strings.ToLower(kind)+"s", m)
		}
	}()
	client := clientFor(t, srv.URL)
	res, err := Run(ctx, client, Options{Files: []string{"examples/app.yaml"}, Objects: appObjects(t), Settle: 50 * time.Millisecond, Poll: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	tr := res.Trace
	if !tr.Summary.AllReady || tr.Summary.Pods != 3 || tr.Failed != "" {
		t.Errorf("summary %+v, failed %q", tr.Summary, tr.Failed)
	}
	var status []string
	kinds := map[string]int{}
	for _, s := range tr.Steps {
		kinds[string(s.Kind)]++
		if s.Kind == "apiserver.response" {
			status = append(status, s.Get("status"))
		}
	}
	if strings.Join(status, ", ") != "201 Created, 201 Created" {
		t.Errorf("responses %q", status)
	}
	for kind, n := range map[string]int{"deployment.newrs": 1, "scheduler.bind": 3, "kubelet.probe": 3, "endpointslice.update": 3} {
		if kinds[kind] != n {
			t.Errorf("%s: %d, want %d", kind, kinds[kind], n)
		}
	}
	if c := client.Codes.Of(http.MethodPatch, "/apis/apps/v1/namespaces/k8sexplain-h77p1/deployments/web"); c != 201 {
		t.Errorf("status code recorded from the response: %d", c)
	}
	h.mu.Lock()
	last, streamed := h.writes[len(h.writes)-1], h.streamed
	h.mu.Unlock()
	if streamed != 5 {
		t.Errorf("%d watches streamed their initial list (WatchList), want 5", streamed)
	}
	if last != "DELETE /api/v1/namespaces/k8sexplain-h77p1" {
		t.Errorf("last write %q, want the namespace's DELETE", last)
	}
}
