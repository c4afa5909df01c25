package live

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	k8stesting "k8s.io/client-go/testing"
)

// fakeCluster is client-go's fake dynamic client with what a real API
// server adds: server-side apply (with a few of the API server's
// defaults), generateName for namespaces, resourceVersions; its discovery
// and /version answer like a v1.37 server's.
type fakeCluster struct {
	dyn      *dynamicfake.FakeDynamicClient
	client   *Client
	rv       atomic.Int64
	watches  atomic.Int32
	mu       sync.Mutex
	applied  []string // namespace/name of every apply
	deleted  []string // what was deleted
	refuse   map[string]error
	dryRuns  int
	nsExists bool
}

var listKinds = map[schema.GroupVersionResource]string{
	{Group: "apps", Version: "v1", Resource: "deployments"}:                       "DeploymentList",
	{Group: "apps", Version: "v1", Resource: "replicasets"}:                       "ReplicaSetList",
	{Version: "v1", Resource: "pods"}:                                             "PodList",
	{Version: "v1", Resource: "services"}:                                         "ServiceList",
	{Version: "v1", Resource: "events"}:                                           "EventList",
	{Version: "v1", Resource: "namespaces"}:                                       "NamespaceList",
	{Version: "v1", Resource: "nodes"}:                                            "NodeList",
	{Version: "v1", Resource: "limitranges"}:                                      "LimitRangeList",
	{Version: "v1", Resource: "resourcequotas"}:                                   "ResourceQuotaList",
	{Group: "discovery.k8s.io", Version: "v1", Resource: "endpointslices"}:        "EndpointSliceList",
	{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterroles"}: "ClusterRoleList",
}

var discovery = map[string]string{
	"/version": `{"major":"1","minor":"37","gitVersion":"v1.37.2"}`,
	"/api/v1": `{"kind":"APIResourceList","groupVersion":"v1","resources":[{"name":"pods","namespaced":true,"kind":"Pod"},{"name":"pods/status","namespaced":true,"kind":"Pod"},
		{"name":"services","namespaced":true,"kind":"Service"},{"name":"namespaces","namespaced":false,"kind":"Namespace"},{"name":"nodes","namespaced":false,"kind":"Node"},
		{"name":"limitranges","namespaced":true,"kind":"LimitRange"},{"name":"resourcequotas","namespaced":true,"kind":"ResourceQuota"},{"name":"events","namespaced":true,"kind":"Event"}]}`,
	"/apis/apps/v1":                      `{"kind":"APIResourceList","groupVersion":"apps/v1","resources":[{"name":"deployments","namespaced":true,"kind":"Deployment"},{"name":"replicasets","namespaced":true,"kind":"ReplicaSet"}]}`,
	"/apis/rbac.authorization.k8s.io/v1": `{"kind":"APIResourceList","groupVersion":"rbac.authorization.k8s.io/v1","resources":[{"name":"clusterroles","namespaced":false,"kind":"ClusterRole"}]}`,
}

func newFakeCluster(t *testing.T, objects ...runtime.Object) *fakeCluster {
	f := &fakeCluster{refuse: map[string]error{}}
	f.dyn = dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), listKinds, objects...)
	tracker := f.dyn.Tracker()
	f.dyn.PrependWatchReactor("*", func(k8stesting.Action) (bool, watch.Interface, error) {
		f.watches.Add(1)
		return false, nil, nil
	})
	f.dyn.PrependReactor("create", "namespaces", func(a k8stesting.Action) (bool, runtime.Object, error) {
		u := a.(k8stesting.CreateAction).GetObject().(*unstructured.Unstructured).DeepCopy()
		if u.GetName() == "" {
			u.SetName(u.GetGenerateName() + "t3st1")
		}
		u.SetResourceVersion(fmt.Sprint(f.rv.Add(1)))
		// The service account controller's default ServiceAccount.
		sa := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ServiceAccount", "metadata": map[string]any{"name": "default", "namespace": u.GetName()}}}
		if err := tracker.Create(schema.GroupVersionResource{Version: "v1", Resource: "serviceaccounts"}, sa, u.GetName()); err != nil {
			return true, nil, err
		}
		return true, u, tracker.Create(a.GetResource(), u, "")
	})
	f.dyn.PrependReactor("delete", "*", func(a k8stesting.Action) (bool, runtime.Object, error) {
		d := a.(k8stesting.DeleteAction)
		f.mu.Lock()
		f.deleted = append(f.deleted, d.GetResource().Resource+"/"+d.GetName())
		f.mu.Unlock()
		return false, nil, nil
	})
	f.dyn.PrependReactor("patch", "*", func(a k8stesting.Action) (bool, runtime.Object, error) {
		pa := a.(k8stesting.PatchActionImpl)
		if pa.GetPatchType() != types.ApplyPatchType {
			return false, nil, nil
		}
		if err := f.refuse[pa.GetName()]; err != nil {
			return true, nil, err
		}
		u := &unstructured.Unstructured{}
		if err := json.Unmarshal(pa.GetPatch(), &u.Object); err != nil {
			return true, nil, err
		}
		// A few of the API server's defaults (pkg/apis/apps/v1/defaults.go).
		if u.GetKind() == "Deployment" {
			if _, ok, _ := unstructured.NestedFieldNoCopy(u.Object, "spec", "strategy", "type"); !ok {
				_ = unstructured.SetNestedField(u.Object, "RollingUpdate", "spec", "strategy", "type")
				_ = unstructured.SetNestedField(u.Object, "25%", "spec", "strategy", "rollingUpdate", "maxSurge")
			}
			_ = unstructured.SetNestedField(u.Object, int64(10), "spec", "revisionHistoryLimit")
		}
		if u.GetKind() == "Service" {
			_ = unstructured.SetNestedField(u.Object, "10.96.12.34", "spec", "clusterIP")
			_ = unstructured.SetNestedField(u.Object, "SingleStack", "spec", "ipFamilyPolicy")
			_ = unstructured.SetNestedStringSlice(u.Object, []string{"IPv4"}, "spec", "ipFamilies")
		}
		if len(pa.GetPatchOptions().DryRun) > 0 {
			f.mu.Lock()
			f.dryRuns++
			f.mu.Unlock()
			return true, u, nil
		}
		u.SetNamespace(pa.GetNamespace())
		u.SetResourceVersion(fmt.Sprint(f.rv.Add(1)))
		u.SetGeneration(1)
		f.mu.Lock()
		f.applied = append(f.applied, pa.GetNamespace()+"/"+pa.GetName())
		f.mu.Unlock()
		if _, err := tracker.Get(pa.GetResource(), pa.GetNamespace(), pa.GetName()); err == nil {
			u.SetGeneration(2) // applied over an existing object: 200
			return true, u, tracker.Update(pa.GetResource(), u, pa.GetNamespace())
		}
		return true, u, tracker.Create(pa.GetResource(), u, pa.GetNamespace())
	})
	f.client = &Client{Dyn: f.dyn, Codes: &StatusCodes{}, Server: "https://fake:6443", Context: "fake",
		Get: func(_ context.Context, path string) ([]byte, error) {
			if b, ok := discovery[path]; ok {
				return []byte(b), nil
			}
			return nil, apierrors.NewNotFound(schema.GroupResource{}, path)
		}}
	return f
}

// play writes the replay into the tracker once the Deployment is applied
// and the five watches are open, the times scaled down by speed.
func (f *fakeCluster) play(t *testing.T, ctx context.Context, speed int, stopAt int) {
	tracker := f.dyn.Tracker()
	for ctx.Err() == nil {
		f.mu.Lock()
		n := len(f.applied)
		f.mu.Unlock()
		if n > 0 && f.watches.Load() >= 5 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if ctx.Err() != nil {
		return
	}
	f.mu.Lock()
	ns := strings.Split(f.applied[0], "/")[0]
	f.mu.Unlock()
	ws := replayApp(t, ns, time.Now())
	start := time.Now()
	for i, w := range ws {
		if ctx.Err() != nil || (stopAt > 0 && i == stopAt) {
			return
		}
		time.Sleep(time.Until(start.Add(w.at / time.Duration(speed))))
		m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(w.obj)
		if err != nil {
			t.Error(err)
			return
		}
		u := &unstructured.Unstructured{Object: m}
		gvr := map[string]schema.GroupVersionResource{}
		for r := range listKinds {
			gvr[strings.TrimSuffix(listKinds[r], "List")] = r
		}
		kind := strings.TrimPrefix(fmt.Sprintf("%T", w.obj), "*v1.")
		u.SetAPIVersion(map[string]string{"Deployment": "apps/v1", "ReplicaSet": "apps/v1", "EndpointSlice": "discovery.k8s.io/v1"}[kind])
		if u.GetAPIVersion() == "" {
			u.SetAPIVersion("v1")
		}
		u.SetKind(kind)
		u.SetResourceVersion(fmt.Sprint(f.rv.Add(1)))
		if _, err := tracker.Get(gvr[kind], ns, u.GetName()); err == nil {
			err = tracker.Update(gvr[kind], u, ns)
		} else {
			err = tracker.Create(gvr[kind], u, ns)
		}
		if err != nil {
			t.Errorf("replay %s %s: %v", kind, u.GetName(), err)
		}
	}
}

func appObjects(t *testing.T) []manifest.Object {
	objs, err := manifest.Load([]string{"../../examples/app.yaml"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

// The whole run against client-go's fake client: a fresh namespace, the
// apply's responses, the informers' view of the recorded apply, and the
// namespace deleted at the end.
func TestRunTracesReplayedApply(t *testing.T) {
	f := newFakeCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	go f.play(t, ctx, 20, 0)
	var log bytes.Buffer
	res, err := Run(ctx, f.client, Options{Files: []string{"examples/app.yaml"}, Objects: appObjects(t), Log: &log, Settle: 50 * time.Millisecond, Poll: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	tr := res.Trace
	if res.Version != "v1.37.2" || tr.Source != "cluster" || tr.Cluster.Namespace != "k8sexplain-t3st1" || res.TimedOut || tr.Failed != "" {
		t.Fatalf("result: version %s, source %s, cluster %+v, timed out %v, failed %q", res.Version, tr.Source, tr.Cluster, res.TimedOut, tr.Failed)
	}
	if !strings.HasPrefix(log.String(), "k8sexplain: writing to https://fake:6443 (context fake, Kubernetes v1.37.2)\nk8sexplain: namespace k8sexplain-t3st1\n") {
		t.Errorf("first line: %q", log.String())
	}
	if strings.Join(f.applied, " ") != "k8sexplain-t3st1/web k8sexplain-t3st1/web" {
		t.Errorf("applied %v", f.applied)
	}
	if strings.Join(f.deleted, " ") != "namespaces/k8sexplain-t3st1" {
		t.Errorf("deleted %v, want only the namespace", f.deleted)
	}
	byKind := map[trace.Kind][]trace.Step{}
	for _, s := range tr.Steps {
		byKind[s.Kind] = append(byKind[s.Kind], s)
	}
	if s := byKind["live.apply"]; len(s) != 2 || !strings.HasPrefix(s[0].Get("path"), "/apis/apps/v1/namespaces/k8sexplain-t3st1/deployments/web?fieldManager=k8sexplain") {
		t.Errorf("live.apply: %+v", s)
	}
	if s := byKind["apiserver.response"]; len(s) != 2 || s[0].Get("status") != "201 Created" || s[0].Get("rv") == "" {
		t.Errorf("responses: %+v", s)
	}
	if s := byKind["apiserver.defaulted"]; len(s) == 0 || !strings.Contains(s[0].Get("fields"), "spec.strategy.type=RollingUpdate") || !strings.Contains(s[0].Get("fields"), "spec.revisionHistoryLimit=10") {
		t.Errorf("defaulted: %+v", s)
	}
	if s := byKind["apiserver.clusterip"]; len(s) != 1 || s[0].Get("ip") != "10.96.12.34" {
		t.Errorf("clusterip: %+v", s)
	}
	for kind, n := range map[trace.Kind]int{"deployment.newrs": 1, "live.podcreated": 3, "scheduler.bind": 3, "kubelet.admit": 3, "runtime.start": 3, "kubelet.probe": 3, "live.namespace": 1} {
		if len(byKind[kind]) != n {
			t.Errorf("%s: %d steps, want %d", kind, len(byKind[kind]), n)
		}
	}
	if !tr.Summary.AllReady || tr.Summary.Pods != 3 {
		t.Errorf("summary %+v", tr.Summary)
	}
}

// Ctrl-C (the context cancelled) in the middle of the apply still deletes
// the namespace, and says the trace stopped.
func TestRunInterruptedCleansUp(t *testing.T) {
	f := newFakeCluster(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		f.play(t, ctx, 20, 12) // the pods exist, none runs yet
		time.Sleep(20 * time.Millisecond)
		cancel()
	}()
	res, err := Run(ctx, f.client, Options{Files: []string{"examples/app.yaml"}, Objects: appObjects(t), Poll: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Trace.Failed, "interrupted") || strings.Join(f.deleted, " ") != "namespaces/k8sexplain-t3st1" {
		t.Errorf("failed %q, deleted %v", res.Trace.Failed, f.deleted)
	}
}

// --timeout ends a wait that would not end, with what was Ready.
func TestRunTimeout(t *testing.T) {
	f := newFakeCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	go f.play(t, ctx, 20, 12)
	res, err := Run(ctx, f.client, Options{Files: []string{"examples/app.yaml"}, Objects: appObjects(t), Timeout: 300 * time.Millisecond, Poll: 5 * time.Millisecond, Keep: true})
	if err != nil {
		t.Fatal(err)
	}
	if !res.TimedOut || !strings.Contains(res.Trace.Failed, "0 of 3 pods Ready") || len(f.deleted) != 0 {
		t.Errorf("timed out %v, failed %q, deleted %v (--keep)", res.TimedOut, res.Trace.Failed, f.deleted)
	}
}

// --dry-run=server stores nothing and creates no namespace.
func TestRunDryRun(t *testing.T) {
	f := newFakeCluster(t)
	res, err := Run(context.Background(), f.client, Options{Files: []string{"examples/app.yaml"}, Objects: appObjects(t), DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if f.dryRuns != 2 || len(f.applied) != 0 || len(f.deleted) != 0 || f.watches.Load() != 0 {
		t.Errorf("dry runs %d, applied %v, deleted %v, watches %d", f.dryRuns, f.applied, f.deleted, f.watches.Load())
	}
	var ks []string
	for _, s := range res.Trace.Steps {
		ks = append(ks, string(s.Kind))
	}
	if got := strings.Join(ks, " "); !strings.Contains(got, "live.apply apiserver.defaulted live.dryrun") || strings.Contains(got, "live.namespace") {
		t.Errorf("steps: %s", got)
	}
	path := ""
	for _, s := range res.Trace.Steps {
		if s.Kind == "live.apply" {
			path = s.Get("path")
		}
	}
	if !res.Trace.Cluster.DryRun || !strings.Contains(path, "dryRun=All") {
		t.Errorf("cluster %+v, path %s", res.Trace.Cluster, path)
	}
}

// The refusals: a cluster-scoped kind without --allow-cluster-scoped, an
// existing namespace that holds an object of the same name without
// --force, a namespace that does not exist; the object the API server
// refuses is in the trace and fails the run as bad input.
func TestRunRefusals(t *testing.T) {
	cr, err := manifest.Parse("cr.yaml", []byte("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: reader}\nrules: []\n"))
	if err != nil {
		t.Fatal(err)
	}
	f := newFakeCluster(t)
	_, err = Run(context.Background(), f.client, Options{Files: []string{"cr.yaml"}, Objects: cr})
	if exitcode.Code(err) != exitcode.Input || !strings.Contains(err.Error(), "cr.yaml:1: ClusterRole reader is cluster-scoped") {
		t.Errorf("cluster-scoped: %v", err)
	}
	if len(f.deleted) != 0 || f.rv.Load() != 0 {
		t.Errorf("refused before anything was written: deleted %v", f.deleted)
	}

	team := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "team"}}}
	web := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "web", "namespace": "team"}}}
	old := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": "old-pod", "namespace": "team"},
		"status": map[string]any{"phase": "Pending"}}}
	f = newFakeCluster(t, team, web, old)
	_, err = Run(context.Background(), f.client, Options{Files: []string{"examples/app.yaml"}, Objects: appObjects(t), Namespace: "team"})
	if exitcode.Code(err) != exitcode.Input || !strings.Contains(err.Error(), "--namespace team already has deployment web: pass --force") {
		t.Errorf("existing object: %v", err)
	}
	// --force applies over it, and the cleanup deletes only what the trace
	// created (the Service), not the Deployment that was there before.
	res, err := Run(context.Background(), f.client, Options{Files: []string{"examples/app.yaml"}, Objects: appObjects(t), Namespace: "team", Force: true,
		Timeout: 100 * time.Millisecond, Poll: 5 * time.Millisecond})
	if err != nil || !res.TimedOut || strings.Join(f.deleted, " ") != "services/web" {
		t.Errorf("--force: %v, deleted %v", err, f.deleted)
	}
	for _, s := range res.Trace.Steps {
		if strings.Contains(s.Object, "old-pod") || strings.Contains(s.Get("pod"), "old-pod") {
			t.Errorf("a pod that was there before the apply is in the trace: %+v", s)
		}
	}
	if res.Trace.Summary.Pods != 0 {
		t.Errorf("pods counted: %d, want 0 (old-pod was there before)", res.Trace.Summary.Pods)
	}
	_, err = Run(context.Background(), f.client, Options{Files: []string{"examples/app.yaml"}, Objects: appObjects(t), Namespace: "nope"})
	if exitcode.Code(err) != exitcode.Input || !strings.Contains(err.Error(), "--namespace nope: no such namespace") {
		t.Errorf("missing namespace: %v", err)
	}

	f = newFakeCluster(t)
	f.refuse["web"] = apierrors.NewInvalid(schema.GroupKind{Group: "apps", Kind: "Deployment"}, "web", nil)
	res, err = Run(context.Background(), f.client, Options{Files: []string{"examples/app.yaml"}, Objects: appObjects(t)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Trace.Failed, "deployment.apps/web") || strings.Join(f.deleted, " ") != "namespaces/k8sexplain-t3st1" {
		t.Errorf("failed %q, deleted %v", res.Trace.Failed, f.deleted)
	}
	found := false
	for _, s := range res.Trace.Steps {
		found = found || (s.Kind == "apiserver.reject" && strings.HasPrefix(s.Get("status"), "422"))
	}
	if !found {
		t.Errorf("no apiserver.reject 422 step: %+v", res.Trace.Steps)
	}
}

// A Namespace of the manifests that its own objects live in is mapped onto
// the trace's namespace (examples/quota.yaml: team-a).
func TestRunMapsManifestNamespace(t *testing.T) {
	objs, err := manifest.Load([]string{"../../examples/quota.yaml"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := newFakeCluster(t)
	res, err := Run(context.Background(), f.client, Options{Files: []string{"examples/quota.yaml"}, Objects: objs, Timeout: 100 * time.Millisecond, Poll: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(f.applied, " ") != "k8sexplain-t3st1/defaults k8sexplain-t3st1/compute k8sexplain-t3st1/web" {
		t.Errorf("applied %v", f.applied)
	}
	found := false
	for _, s := range res.Trace.Steps {
		found = found || (s.Kind == "live.namespacemap" && s.Get("name") == "team-a")
	}
	if !found {
		t.Error("no live.namespacemap step")
	}
	_ = metav1.Now
}

// Ctrl-C during the apply: the rest is not sent, the namespace is deleted,
// the trace so far says it was interrupted.
func TestRunInterruptedDuringApply(t *testing.T) {
	f := newFakeCluster(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f.dyn.PrependReactor("patch", "*", func(k8stesting.Action) (bool, runtime.Object, error) {
		cancel()
		return false, nil, nil
	})
	res, err := Run(ctx, f.client, Options{Files: []string{"examples/app.yaml"}, Objects: appObjects(t)})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.applied) != 1 || !strings.Contains(res.Trace.Failed, "interrupted") || strings.Join(f.deleted, " ") != "namespaces/k8sexplain-t3st1" {
		t.Errorf("applied %v, failed %q, deleted %v", f.applied, res.Trace.Failed, f.deleted)
	}
}
