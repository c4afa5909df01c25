package live

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"github.com/k8sexplain/k8sexplain/internal/manifest"
	"github.com/k8sexplain/k8sexplain/internal/trace"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
)

// Options are the inputs of a trace of a real apply.
type Options struct {
	Files   []string
	Objects []manifest.Object
	// Namespace is an existing namespace to apply into ("": a fresh
	// k8sexplain-<random> one, deleted at the end).
	Namespace string
	// Keep keeps what was created; Force applies over objects of the same
	// names in Namespace; AllowClusterScoped applies cluster-scoped kinds.
	Keep, Force, AllowClusterScoped bool
	// DryRun sends every object with dryRun=All and watches nothing.
	DryRun bool
	// ListNodes reads the cluster's nodes into Result.Nodes (for --compare).
	ListNodes bool
	// Timeout ends the wait for Ready pods (default 2 minutes).
	Timeout time.Duration
	// Settle is how long the trace keeps watching after the apply came to
	// rest, for the last EndpointSlice and status writes (default 1 s).
	Settle time.Duration
	// Poll is how often it checks whether the apply came to rest.
	Poll time.Duration
	// Now is the clock (time.Now).
	Now func() time.Time
	// Log gets the lines a person at the terminal reads while it runs:
	// the cluster it writes to, warnings, the cleanup (stderr).
	Log io.Writer
	// Command is the command line, the trace's title.
	Command string
}

// FieldManager is the name k8sexplain's server-side apply writes under.
const FieldManager = "k8sexplain"

// Result is a finished trace of a real apply.
type Result struct {
	Trace *trace.Trace
	// Version is the server's gitVersion.
	Version string
	// Nodes are the cluster's nodes (for --compare); nil on a dry run.
	Nodes []corev1.Node
	// TimedOut is set when the wait ended by --timeout.
	TimedOut bool
}

var (
	nsGVR    = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	nodesGVR = schema.GroupVersionResource{Version: "v1", Resource: "nodes"}
	watched  = []struct {
		gvr  schema.GroupVersionResource
		kind string
	}{
		{schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}, "Deployment"},
		{schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "replicasets"}, "ReplicaSet"},
		{schema.GroupVersionResource{Version: "v1", Resource: "pods"}, "Pod"},
		{schema.GroupVersionResource{Group: "discovery.k8s.io", Version: "v1", Resource: "endpointslices"}, "EndpointSlice"},
		{schema.GroupVersionResource{Version: "v1", Resource: "events"}, "Event"},
	}
)

// prepared is one object ready to send.
type prepared struct {
	obj       *unstructured.Unstructured
	gvr       schema.GroupVersionResource
	src       manifest.Object
	namespace string // "" for a cluster-scoped one
}

// Run applies o.Objects to the cluster c and traces what it does, until
// every pod is Ready, the cluster reports why one will not be, o.Timeout,
// or ctx is cancelled (Ctrl-C). Whatever it created is deleted before it
// returns, unless o.Keep — also when it fails or is interrupted.
func Run(ctx context.Context, c *Client, o Options) (res *Result, err error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	if o.Timeout == 0 {
		o.Timeout = 2 * time.Minute
	}
	if o.Settle == 0 {
		o.Settle = time.Second
	}
	if o.Poll == 0 {
		o.Poll = 100 * time.Millisecond
	}
	if o.Command == "" {
		o.Command = "k8sexplain trace apply " + strings.Join(o.Files, " ") + " --kubeconfig"
	}
	// client-go logs retries and watch restarts through klog to stderr; the
	// trace says what matters itself.
	quietKlog()
	ver, err := c.ServerVersion(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil, errInterrupted
		}
		return nil, err
	}
	res = &Result{Version: ver}
	res.Trace = &trace.Trace{}
	s := &session{c: c, o: o, res: res}
	defer func() {
		if err != nil && ctx.Err() != nil {
			// Ctrl-C while a request was on its way: not the cluster's fault.
			res, err = nil, errInterrupted
		}
		if cerr := s.cleanup(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	return s.run(ctx)
}

// quietKlog sends client-go's klog output nowhere, once (klog's logger is
// a global that running reflectors read).
var quietKlog = sync.OnceFunc(func() { klog.SetSlogLogger(slog.New(slog.DiscardHandler)) })

// errInterrupted ends a run that Ctrl-C stopped before there was a trace
// to show (exit 130); what it created is deleted all the same.
var errInterrupted = &exitcode.Error{Code: exitcode.Interrupted, Err: errors.New("interrupted: what the trace created is deleted")}

type session struct {
	c        *Client
	o        Options
	res      *Result
	obs      *Observer
	ns       string
	freshNS  bool
	created  []prepared // objects to delete (cluster-scoped ones, or all in an existing namespace)
	requests int
}

func (s *session) run(ctx context.Context) (*Result, error) {
	o, c := s.o, s.c
	if o.ListNodes && !o.DryRun {
		// Nodes, for the side by side: what the simulator is given. A
		// user who may not list nodes (RBAC in a shared cluster) gets the
		// simulator's default nodes instead (Result.Nodes stays nil).
		if list, err := c.Dyn.Resource(nodesGVR).List(ctx, metav1.ListOptions{}); err == nil {
			for _, u := range list.Items {
				var n corev1.Node
				if runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &n) == nil {
					s.res.Nodes = append(s.res.Nodes, n)
				}
			}
		}
	}
	verb := "writing to"
	if o.DryRun {
		verb = "server dry run on"
	}
	// The first line, before anything is written: which cluster.
	fmt.Fprintf(o.Log, "k8sexplain: %s %s (context %s, Kubernetes %s)\n", verb, c.Server, c.Context, s.res.Version)
	objs, nsMapped, err := s.prepare(ctx)
	if err != nil {
		return nil, err
	}
	start := o.Now()
	s.obs = NewObserver(start)
	s.obs.Add(start, trace.Step{Phase: trace.PhaseKubectl, Actor: "kubectl", Kind: "kubectl.read",
		Fields: trace.F("count", len(o.Objects), "files", strings.Join(o.Files, ", "))})
	for _, p := range objs {
		s.obs.Add(start, trace.Step{Phase: trace.PhaseKubectl, Actor: "kubectl", Kind: "live.validate",
			Fields: trace.F("apiVersion", p.src.APIVersion, "kind", p.src.Kind, "name", p.src.Name, "where", fmt.Sprintf("%s:%d", p.src.Pos.File, p.src.Pos.Line))})
	}
	if err := s.namespace(ctx, nsMapped); err != nil {
		return nil, err
	}
	info := &trace.ClusterInfo{Server: c.Server, Context: c.Context, Version: s.res.Version, Namespace: s.ns, DryRun: o.DryRun}
	fmt.Fprintf(o.Log, "k8sexplain: namespace %s\n", s.ns)
	var stop context.CancelFunc = func() {}
	if !o.DryRun {
		if stop, err = s.watch(ctx); err != nil {
			return nil, err
		}
	}
	defer stop()
	failed := ""
	for _, p := range objs {
		if ctx.Err() != nil {
			break
		}
		msg, err := s.apply(ctx, p)
		if err != nil && ctx.Err() != nil {
			break // interrupted: the trace so far is shown
		}
		if err != nil {
			return nil, err
		}
		if msg != "" && failed == "" {
			failed = msg
		}
	}
	if !o.DryRun && failed == "" && ctx.Err() == nil {
		s.res.TimedOut = s.wait(ctx)
	}
	stop()
	tr := s.obs.Trace(o.Command, s.requests)
	tr.Cluster, tr.Failed = info, failed
	switch {
	case ctx.Err() != nil:
		tr.Failed = "interrupted: the trace stops here"
	case s.res.TimedOut:
		tr.Failed = fmt.Sprintf("--timeout %s: %d of %d pods Ready", o.Timeout, tr.Summary.ReadyPods, tr.Summary.Pods)
	}
	s.res.Trace = tr
	return s.res, nil
}

// prepare turns the manifests into the objects to send: namespaced ones
// into the trace's namespace, a Namespace of the manifests that their
// objects live in mapped onto it, cluster-scoped ones refused unless
// allowed.
func (s *session) prepare(ctx context.Context) ([]prepared, []string, error) {
	r := &resources{c: s.c}
	used := map[string]bool{}
	for _, m := range s.o.Objects {
		if m.Namespace != "" {
			used[m.Namespace] = true
		}
	}
	var out []prepared
	var mapped []string
	for _, m := range s.o.Objects {
		where := fmt.Sprintf("%s:%d", m.Pos.File, m.Pos.Line)
		if m.Kind == "Namespace" && m.APIVersion == "v1" && used[m.Name] {
			mapped = append(mapped, m.Name)
			continue
		}
		if m.Name == "" {
			return nil, nil, exitcode.Inputf("%s: %s with generateName: server-side apply needs metadata.name", where, m.Kind)
		}
		gvr, namespaced, err := r.lookup(ctx, m.APIVersion, m.Kind)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", where, err)
		}
		if !namespaced && !s.o.AllowClusterScoped {
			return nil, nil, exitcode.Inputf("%s: %s %s is cluster-scoped: k8sexplain writes only into its own namespace unless --allow-cluster-scoped (then it is deleted at the end unless --keep)", where, m.Kind, m.Name)
		}
		u, err := toUnstructured(m)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", where, err)
		}
		p := prepared{obj: u, gvr: gvr, src: m}
		if namespaced {
			p.namespace = "-" // set when the namespace is known
		}
		out = append(out, p)
	}
	return out, mapped, nil
}

// toUnstructured is the object as the user wrote it, for the apply body:
// no status, no server-set metadata.
func toUnstructured(m manifest.Object) (*unstructured.Unstructured, error) {
	var content map[string]any
	if u, ok := m.Obj.(*unstructured.Unstructured); ok {
		content = runtime.DeepCopyJSON(u.Object)
	} else {
		var err error
		if content, err = runtime.DefaultUnstructuredConverter.ToUnstructured(m.Obj); err != nil {
			return nil, err
		}
	}
	u := &unstructured.Unstructured{Object: content}
	u.SetAPIVersion(m.APIVersion)
	u.SetKind(m.Kind)
	delete(u.Object, "status")
	if md, ok := u.Object["metadata"].(map[string]any); ok {
		delete(md, "creationTimestamp")
	}
	return u, nil
}

// namespace creates the trace's namespace, or checks the one named.
func (s *session) namespace(ctx context.Context, mapped []string) error {
	c, o := s.c, s.o
	at := o.Now()
	switch {
	case o.Namespace != "":
		s.ns = o.Namespace
		if _, err := c.Dyn.Resource(nsGVR).Get(ctx, s.ns, metav1.GetOptions{}); err != nil {
			if apierrors.IsNotFound(err) {
				return exitcode.Inputf("--namespace %s: no such namespace on %s", s.ns, c.Server)
			}
			return c.clusterError(err, "get", "namespaces/"+s.ns)
		}
	case o.DryRun:
		// A dry run changes nothing, not even a namespace: it runs in the
		// context's namespace.
		s.ns = "default"
	default:
		ns := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace",
			"metadata": map[string]any{"generateName": "k8sexplain-", "labels": map[string]any{"app.kubernetes.io/managed-by": "k8sexplain"}}}}
		s.requests++
		got, err := c.Dyn.Resource(nsGVR).Create(ctx, ns, metav1.CreateOptions{FieldManager: FieldManager})
		if err != nil {
			err = c.clusterError(err, "create", "namespaces")
			if strings.Contains(err.Error(), "403 Forbidden") {
				err = exitcode.Environmentf("%v; with --namespace NAME k8sexplain writes into a namespace you may write to instead", err)
			}
			return err
		}
		s.ns, s.freshNS = got.GetName(), true
		s.obs.Add(at, trace.Step{Phase: trace.PhaseKubectl, Actor: "kubectl", Kind: "live.namespace", Fields: trace.F("namespace", s.ns)})
		s.waitServiceAccount(ctx)
	}
	for _, name := range mapped {
		s.obs.Add(at, trace.Step{Phase: trace.PhaseKubectl, Actor: "kubectl", Kind: "live.namespacemap", Fields: trace.F("name", name, "namespace", s.ns)})
	}
	if o.Namespace == "" || o.Force || o.DryRun {
		return nil
	}
	// An existing namespace: refuse to apply over objects of the same names.
	r := &resources{c: c}
	for _, m := range o.Objects {
		if m.Name == "" || (m.Kind == "Namespace" && m.APIVersion == "v1") {
			continue
		}
		gvr, namespaced, err := r.lookup(ctx, m.APIVersion, m.Kind)
		if err != nil || !namespaced {
			continue
		}
		_, err = c.Dyn.Resource(gvr).Namespace(s.ns).Get(ctx, m.Name, metav1.GetOptions{})
		if err == nil {
			return exitcode.Inputf("--namespace %s already has %s %s: pass --force to apply over it, or leave out --namespace", s.ns, strings.ToLower(m.Kind), m.Name)
		}
		if !apierrors.IsNotFound(err) {
			return c.clusterError(err, "get", gvr.Resource+"/"+m.Name)
		}
	}
	return nil
}

// waitServiceAccount waits (at most ConnectTimeout) for the service
// account controller to create the new namespace's default ServiceAccount:
// until it exists, admission refuses pods (ServiceAccount admission
// plugin), and a FailedCreate of that kind would read as a refusal that
// will not resolve.
func (s *session) waitServiceAccount(ctx context.Context) {
	sa := schema.GroupVersionResource{Version: "v1", Resource: "serviceaccounts"}
	deadline := s.o.Now().Add(ConnectTimeout)
	for ctx.Err() == nil && s.o.Now().Before(deadline) {
		if _, err := s.c.Dyn.Resource(sa).Namespace(s.ns).Get(ctx, "default", metav1.GetOptions{}); err == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// apply sends one object with server-side apply and records the request,
// what the server defaulted, and its answer. It returns the API server's
// message when it refused the object (the input's fault: the trace shows
// it and the run stops), or an error that ends the run.
func (s *session) apply(ctx context.Context, p prepared) (string, error) {
	c, o := s.c, s.o
	u := p.obj.DeepCopy()
	if p.namespace != "" {
		p.namespace = s.ns
		u.SetNamespace(s.ns)
	}
	body, err := json.Marshal(u.Object)
	if err != nil {
		return "", err
	}
	path := apiPath(p.gvr, p.namespace, u.GetName())
	q := "?fieldManager=" + FieldManager + "&fieldValidation=Strict&force=true"
	if o.DryRun {
		q += "&dryRun=All"
	}
	s.obs.Add(o.Now(), trace.Step{Phase: trace.PhaseKubectl, Actor: "kubectl", Kind: "live.apply", To: "kube-apiserver",
		Object: objectRef(p.gvr.Resource, p.namespace, u.GetName()), Fields: trace.F("kind", u.GetKind(), "path", path+q)})
	force := true
	opts := metav1.PatchOptions{FieldManager: FieldManager, Force: &force, FieldValidation: "Strict"}
	if o.DryRun {
		opts.DryRun = []string{metav1.DryRunAll}
	}
	s.requests++
	var got *unstructured.Unstructured
	if p.namespace != "" {
		got, err = c.Dyn.Resource(p.gvr).Namespace(p.namespace).Patch(ctx, u.GetName(), types.ApplyPatchType, body, opts)
	} else {
		got, err = c.Dyn.Resource(p.gvr).Patch(ctx, u.GetName(), types.ApplyPatchType, body, opts)
	}
	at := o.Now()
	ref := strings.ToLower(u.GetKind())
	if g := p.gvr.Group; g != "" {
		ref += "." + g
	}
	ref += "/" + u.GetName()
	if err != nil {
		if e := c.clusterError(err, "patch", p.gvr.Resource); exitcode.Code(e) == exitcode.Environment || ctx.Err() != nil {
			return "", e
		}
		var se apierrors.APIStatus
		code := 0
		if errors.As(err, &se) {
			code = int(se.Status().Code)
		}
		status := fmt.Sprintf("%d %s", code, http.StatusText(code))
		s.obs.Add(at, trace.Step{Phase: trace.PhaseAPIServer, Actor: "kube-apiserver", Kind: "apiserver.reject",
			Object: objectRef(p.gvr.Resource, p.namespace, u.GetName()), Fields: trace.F("message", err.Error(), "status", status)})
		return fmt.Sprintf("%s: %s", ref, err.Error()), nil
	}
	obj := objectRef(p.gvr.Resource, p.namespace, u.GetName())
	if d := defaulted(u.Object, got.Object, u.GetKind() == "Service" && p.gvr.Group == ""); len(d) > 0 {
		s.obs.Add(at, trace.Step{Phase: trace.PhaseAPIServer, Actor: "kube-apiserver", Kind: "apiserver.defaulted", Object: obj,
			Fields: trace.F("fields", strings.Join(d, ", "))})
	}
	if u.GetKind() == "Service" && p.gvr.Group == "" {
		ip, _, _ := unstructured.NestedString(got.Object, "spec", "clusterIP")
		if ip != "" && ip != "None" {
			policy, _, _ := unstructured.NestedString(got.Object, "spec", "ipFamilyPolicy")
			fams, _, _ := unstructured.NestedStringSlice(got.Object, "spec", "ipFamilies")
			// The Service registry's allocator claims the address with an
			// IPAddress object named after it (pkg/registry/core/service/ipallocator, v1.33+).
			s.obs.Add(at, trace.Step{Phase: trace.PhaseAPIServer, Actor: "kube-apiserver", Kind: "apiserver.clusterip", Object: obj,
				Fields: trace.F("families", strings.Join(fams, ", "), "ip", ip, "key", "/registry/ipaddresses/"+ip, "policy", policy)})
		}
	}
	if o.DryRun {
		s.obs.Add(at, trace.Step{Phase: trace.PhaseStore, Actor: "kubectl", Kind: "live.dryrun", Object: obj, Fields: trace.F("ref", ref)})
		return "", nil
	}
	code := c.Codes.Of(http.MethodPatch, path)
	if code == 0 {
		code = http.StatusCreated // a fake client records no code; the object did not exist
		if got.GetGeneration() > 1 {
			code = http.StatusOK
		}
	}
	if code == http.StatusCreated && (p.namespace == "" || !s.freshNS) {
		// Deleting the fresh namespace deletes what is in it; anything
		// else this apply created is deleted one by one. An object that
		// was there before (200: --force over it) stays.
		s.created = append(s.created, p)
	}
	s.obs.Add(at, trace.Step{Phase: trace.PhaseStore, Actor: "kube-apiserver", Kind: "apiserver.response", To: "kubectl", Object: obj,
		Fields: trace.F("kind", u.GetKind(), "rv", got.GetResourceVersion(), "status", fmt.Sprintf("%d %s", code, http.StatusText(code)))})
	s.obs.Add(at, trace.Step{Phase: trace.PhaseStore, Actor: "kubectl", Kind: "live.applied", Object: obj, Fields: trace.F("ref", ref)})
	return "", nil
}

// objectRef is a step's object: resource/namespace/name, or
// resource/name for a cluster-scoped one (as the simulated trace writes it).
func objectRef(resource, namespace, name string) string {
	if namespace == "" {
		return resource + "/" + name
	}
	return resource + "/" + namespace + "/" + name
}

// apiPath is the object's path on the API server.
func apiPath(gvr schema.GroupVersionResource, namespace, name string) string {
	p := "/apis/" + gvr.Group + "/" + gvr.Version
	if gvr.Group == "" {
		p = "/api/" + gvr.Version
	}
	if namespace != "" {
		p += "/namespaces/" + namespace
	}
	return p + "/" + gvr.Resource + "/" + name
}

// allocated are a Service's fields the Service registry sets after
// admission, not defaulting (the apiserver.clusterip step shows them).
var allocated = map[string]bool{"spec.clusterIP": true, "spec.clusterIPs": true, "spec.ipFamilies": true, "spec.ipFamilyPolicy": true}

// defaulted lists the fields of spec (and of the pod template's spec) that
// the returned object has and the sent one has not: what the API server
// filled in, as path=value.
func defaulted(sent, got map[string]any, service bool) []string {
	var out []string
	var walk func(path string, s, g any)
	walk = func(path string, s, g any) {
		if service && allocated[strings.TrimPrefix(path, ".")] {
			return
		}
		switch gv := g.(type) {
		case map[string]any:
			sm, _ := s.(map[string]any)
			if len(gv) == 0 && s == nil {
				out = append(out, strings.TrimPrefix(path, ".")+"={}")
			}
			for _, k := range sortedKeys(gv) {
				var sv any
				if sm != nil {
					sv = sm[k]
				}
				walk(path+"."+k, sv, gv[k])
			}
		case []any:
			sl, _ := s.([]any)
			for i, v := range gv {
				var sv any
				if i < len(sl) {
					sv = sl[i]
				}
				walk(fmt.Sprintf("%s[%d]", path, i), sv, v)
			}
		default:
			if s == nil && g != nil {
				v, _ := json.Marshal(g)
				out = append(out, strings.TrimPrefix(path, ".")+"="+strings.Trim(string(v), `"`))
			}
		}
	}
	gs, _ := got["spec"].(map[string]any)
	ss, _ := sent["spec"].(map[string]any)
	walk(".spec", ss, gs)
	return out
}

// watch starts the informers on the trace's namespace and waits for their
// first LIST; the returned func stops them.
func (s *session) watch(ctx context.Context) (context.CancelFunc, error) {
	wctx, cancel := context.WithCancel(ctx)
	var synced []cache.InformerSynced
	for _, w := range watched {
		ri := s.c.Dyn.Resource(w.gvr).Namespace(s.ns)
		// A watch RBAC refuses would only retry until the sync timeout:
		// one LIST first says so at once, with the server's words.
		if _, err := ri.List(ctx, metav1.ListOptions{Limit: 1}); err != nil {
			cancel()
			return nil, s.c.clusterError(err, "list", w.gvr.Resource+" in namespace "+s.ns)
		}
		lw := &cache.ListWatch{
			ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
				return ri.List(ctx, opts)
			},
			WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
				return ri.Watch(ctx, opts)
			},
		}
		// As dynamicinformer does: a client that says it cannot stream the
		// initial list (WatchList) gets LIST then WATCH.
		inf := cache.NewSharedIndexInformer(cache.ToListWatcherWithWatchListSemantics(lw, s.c.Dyn), &unstructured.Unstructured{}, 0, cache.Indexers{})
		kind, resource := w.kind, w.gvr.Resource
		// What the namespace held before the apply (--namespace) is in
		// the informer's initial list: it is not part of the story, now or
		// when it changes later.
		before := map[string]bool{}
		var mu sync.Mutex
		on := func(obj any, initial bool) {
			u, ok := obj.(*unstructured.Unstructured)
			if !ok {
				return
			}
			mu.Lock()
			if initial {
				before[u.GetName()] = true
			}
			skip := before[u.GetName()]
			mu.Unlock()
			if !skip {
				s.deliver(kind, u)
			}
		}
		if _, err := inf.AddEventHandler(cache.ResourceEventHandlerDetailedFuncs{
			AddFunc:    on,
			UpdateFunc: func(_, obj any) { on(obj, false) },
			DeleteFunc: func(obj any) {
				if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
					obj = d.Obj
				}
				u, ok := obj.(*unstructured.Unstructured)
				mu.Lock()
				skip := !ok || before[u.GetName()]
				mu.Unlock()
				if !skip && kind != "Event" {
					s.obs.Gone(s.o.Now(), resource, u.GetNamespace(), u.GetName())
				}
			},
		}); err != nil {
			cancel()
			return nil, err
		}
		go inf.RunWithContext(wctx)
		synced = append(synced, inf.HasSynced)
	}
	sctx, scancel := context.WithTimeout(wctx, ConnectTimeout*3)
	defer scancel()
	if !cache.WaitForCacheSync(sctx.Done(), synced...) {
		cancel()
		if ctx.Err() != nil {
			return func() {}, nil
		}
		return nil, exitcode.Environmentf("%s: the watches on namespace %s did not start within %s (list/watch of deployments, replicasets, pods, endpointslices, events refused?)", s.c.Server, s.ns, ConnectTimeout*3)
	}
	return cancel, nil
}

// deliver hands an informer's object to the observer, typed.
func (s *session) deliver(kind string, u *unstructured.Unstructured) {
	at := s.o.Now()
	conv := runtime.DefaultUnstructuredConverter
	switch kind {
	case "Deployment":
		var d appsv1.Deployment
		if conv.FromUnstructured(u.Object, &d) == nil {
			s.obs.Deployment(at, &d)
		}
	case "ReplicaSet":
		var rs appsv1.ReplicaSet
		if conv.FromUnstructured(u.Object, &rs) == nil {
			s.obs.ReplicaSet(at, &rs)
		}
	case "Pod":
		var p corev1.Pod
		if conv.FromUnstructured(u.Object, &p) == nil {
			s.obs.Pod(at, &p)
		}
	case "EndpointSlice":
		var es discoveryv1.EndpointSlice
		if conv.FromUnstructured(u.Object, &es) == nil {
			s.obs.EndpointSlice(at, &es)
		}
	case "Event":
		var e corev1.Event
		if conv.FromUnstructured(u.Object, &e) == nil {
			s.obs.Event(at, &e)
		}
	}
}

// wait watches until the apply came to rest and then o.Settle longer, or
// until o.Timeout (it returns true) or ctx ends.
func (s *session) wait(ctx context.Context) bool {
	deadline := time.NewTimer(s.o.Timeout)
	defer deadline.Stop()
	tick := time.NewTicker(s.o.Poll)
	defer tick.Stop()
	var restAt time.Time
	for {
		select {
		case <-ctx.Done():
			return false
		case <-deadline.C:
			return true
		case <-tick.C:
		}
		settled, _ := s.obs.Settled()
		switch {
		case !settled:
			restAt = time.Time{}
		case restAt.IsZero():
			restAt = s.o.Now()
		case s.o.Now().Sub(restAt) >= s.o.Settle:
			return false
		}
	}
}

// cleanup deletes what the trace created, unless --keep: the fresh
// namespace (the namespace controller deletes everything in it), or the
// objects applied into an existing one, and cluster-scoped objects. It
// runs on a context of its own so that Ctrl-C still cleans up.
func (s *session) cleanup() error {
	if s.o.Keep || s.o.DryRun {
		if s.freshNS {
			fmt.Fprintf(s.o.Log, "k8sexplain: kept namespace %s (kubectl delete namespace %s)\n", s.ns, s.ns)
		}
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), ConnectTimeout*3)
	defer cancel()
	var errs []string
	bg := metav1.DeletePropagationBackground
	for i := len(s.created) - 1; i >= 0; i-- {
		p := s.created[i]
		ri := s.c.Dyn.Resource(p.gvr)
		var err error
		if p.namespace != "" {
			err = ri.Namespace(s.ns).Delete(ctx, p.obj.GetName(), metav1.DeleteOptions{PropagationPolicy: &bg})
		} else {
			err = ri.Delete(ctx, p.obj.GetName(), metav1.DeleteOptions{PropagationPolicy: &bg})
		}
		if err != nil && !apierrors.IsNotFound(err) {
			errs = append(errs, err.Error())
		}
	}
	if s.freshNS {
		err := s.c.Dyn.Resource(nsGVR).Delete(ctx, s.ns, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			errs = append(errs, err.Error())
		} else {
			fmt.Fprintf(s.o.Log, "k8sexplain: deleted namespace %s\n", s.ns)
		}
	}
	if len(errs) > 0 {
		return exitcode.Environmentf("cleanup on %s: %s (delete by hand: kubectl delete namespace %s)", s.c.Server, strings.Join(errs, "; "), s.ns)
	}
	return nil
}
