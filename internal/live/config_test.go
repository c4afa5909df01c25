package live

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

func kubeconfig(t *testing.T, dir, name string, servers ...string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: Config\ncurrent-context: ctx0\nusers:\n- name: u\n  user: {token: t0ken}\nclusters:\n")
	for i, s := range servers {
		fmt.Fprintf(&b, "- name: c%d\n  cluster: {server: %q}\n", i, s)
	}
	b.WriteString("contexts:\n")
	for i := range servers {
		fmt.Fprintf(&b, "- name: ctx%d\n  context: {cluster: c%d, user: u}\n", i, i)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// kubectl's precedence: --kubeconfig, then $KUBECONFIG, then
// ~/.kube/config; --context picks another context.
func TestLoadConfigPrecedence(t *testing.T) {
	dir := t.TempDir()
	flag := kubeconfig(t, dir, "flag.yaml", "https://flag:6443", "https://other:6443")
	env := kubeconfig(t, dir, "env.yaml", "https://env:6443")
	home := kubeconfig(t, dir, "home.yaml", "https://home:6443")
	old := clientcmd.RecommendedHomeFile
	clientcmd.RecommendedHomeFile = home
	t.Cleanup(func() { clientcmd.RecommendedHomeFile = old })

	t.Setenv("KUBECONFIG", env)
	for _, c := range []struct{ path, context, server string }{
		{flag, "", "https://flag:6443"},
		{flag, "ctx1", "https://other:6443"},
		{"", "", "https://env:6443"},
	} {
		tg, err := LoadConfig(c.path, c.context)
		if err != nil || tg.Server != c.server {
			t.Errorf("LoadConfig(%q, %q) = %v, %v; want %s", c.path, c.context, tg, err, c.server)
		}
	}
	t.Setenv("KUBECONFIG", "")
	if tg, err := LoadConfig("", ""); err != nil || tg.Server != "https://home:6443" || tg.Context != "ctx0" {
		t.Errorf("~/.kube/config: %v, %v", tg, err)
	}
	for _, c := range []struct{ path, context, want string }{
		{filepath.Join(dir, "missing.yaml"), "", "missing.yaml: no such file"},
		{flag, "nope", `context "nope" does not exist`},
	} {
		_, err := LoadConfig(c.path, c.context)
		if exitcode.Code(err) != exitcode.Input || !strings.Contains(err.Error(), c.want) {
			t.Errorf("LoadConfig(%q, %q): %v, want exit 1 and %q", c.path, c.context, err, c.want)
		}
	}
}

func clientFor(t *testing.T, server string) *Client {
	t.Helper()
	cfg := &rest.Config{Host: server}
	prepare(cfg)
	c, err := NewClient(&Target{Config: cfg, Server: server, Context: "test", Source: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A server nobody listens on: one line, exit 4, at once.
func TestUnreachableServer(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	start := time.Now()
	_, err = Run(context.Background(), clientFor(t, "http://"+addr), Options{Objects: appObjects(t)})
	if exitcode.Code(err) != exitcode.Environment || !strings.Contains(err.Error(), "cannot reach the API server http://"+addr) || strings.Contains(err.Error(), "\n") {
		t.Errorf("err = %v (exit %d)", err, exitcode.Code(err))
	}
	if d := time.Since(start); d > ConnectTimeout {
		t.Errorf("took %s, more than the connect timeout", d)
	}
}

// apiServer answers like a kube-apiserver that knows the discovery paths
// and refuses what refuse says, with the API server's Status body.
func apiServer(t *testing.T, refuse map[string]string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if body, ok := refuse[r.Method+" "+r.URL.Path]; ok {
			code := 403
			if strings.Contains(body, "Unauthorized") {
				code = 401
			}
			w.WriteHeader(code)
			fmt.Fprint(w, body)
			return
		}
		if b, ok := discovery[r.URL.Path]; ok {
			fmt.Fprint(w, b)
			return
		}
		if b, ok := teamNamespace[r.URL.Path]; ok && r.Method == http.MethodGet {
			fmt.Fprint(w, b)
			return
		}
		w.WriteHeader(404)
		fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}`)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// teamNamespace is an existing, empty namespace "team".
var teamNamespace = map[string]string{
	"/api/v1/namespaces/team":                                  `{"kind":"Namespace","apiVersion":"v1","metadata":{"name":"team"}}`,
	"/apis/apps/v1/namespaces/team/deployments":                `{"kind":"DeploymentList","apiVersion":"apps/v1","metadata":{},"items":[]}`,
	"/apis/apps/v1/namespaces/team/replicasets":                `{"kind":"ReplicaSetList","apiVersion":"apps/v1","metadata":{},"items":[]}`,
	"/api/v1/namespaces/team/pods":                             `{"kind":"PodList","apiVersion":"v1","metadata":{},"items":[]}`,
	"/apis/discovery.k8s.io/v1/namespaces/team/endpointslices": `{"kind":"EndpointSliceList","apiVersion":"discovery.k8s.io/v1","metadata":{},"items":[]}`,
}

// RBAC refusing the namespace, and credentials refused: the server's
// message and what was refused, exit 4.
func TestRefusedByServer(t *testing.T) {
	forbidden := `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"namespaces is forbidden: User \"dev\" cannot create resource \"namespaces\" in API group \"\" at the cluster scope","reason":"Forbidden","details":{"kind":"namespaces"},"code":403}`
	srv := apiServer(t, map[string]string{"POST /api/v1/namespaces": forbidden})
	_, err := Run(context.Background(), clientFor(t, srv.URL), Options{Objects: appObjects(t)})
	if exitcode.Code(err) != exitcode.Environment || !strings.Contains(err.Error(), "create namespaces refused (403 Forbidden)") ||
		!strings.Contains(err.Error(), `User "dev" cannot create resource "namespaces"`) || !strings.Contains(err.Error(), "with --namespace NAME") {
		t.Errorf("403: %v (exit %d)", err, exitcode.Code(err))
	}
	// A user who may write but not watch events: refused before the apply.
	noEvents := `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"events is forbidden: User \"dev\" cannot list resource \"events\" in API group \"\" in the namespace \"team\"","reason":"Forbidden","code":403}`
	srv = apiServer(t, map[string]string{"GET /api/v1/namespaces/team/events": noEvents})
	_, err = Run(context.Background(), clientFor(t, srv.URL), Options{Objects: appObjects(t), Namespace: "team", Force: true})
	if exitcode.Code(err) != exitcode.Environment || !strings.Contains(err.Error(), "list events in namespace team refused (403 Forbidden)") {
		t.Errorf("events: %v (exit %d)", err, exitcode.Code(err))
	}
	unauth := `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}`
	srv = apiServer(t, map[string]string{"GET /version": unauth})
	_, err = Run(context.Background(), clientFor(t, srv.URL), Options{Objects: appObjects(t)})
	if exitcode.Code(err) != exitcode.Environment || !strings.Contains(err.Error(), "refused the credentials of context test (401 Unauthorized) for get /version") {
		t.Errorf("401: %v (exit %d)", err, exitcode.Code(err))
	}
}

// --dry-run=server through client-go's real HTTP stack: each object is one
// server-side apply PATCH with dryRun=All, nothing else is written, and the
// defaults in the answer are the trace's.
func TestDryRunOverHTTP(t *testing.T) {
	var writes []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if b, ok := discovery[r.URL.Path]; ok {
			fmt.Fprint(w, b)
			return
		}
		if r.Method == http.MethodGet {
			w.WriteHeader(404)
			fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}`)
			return
		}
		q := r.URL.Query()
		writes = append(writes, r.Method+" "+r.URL.Path+" "+r.Header.Get("Content-Type")+" "+q.Get("dryRun")+" "+q.Get("fieldManager")+" "+q.Get("force"))
		var obj map[string]any
		if err := json.NewDecoder(r.Body).Decode(&obj); err != nil {
			t.Errorf("body: %v", err)
		}
		spec, _ := obj["spec"].(map[string]any)
		if spec == nil {
			spec = map[string]any{}
			obj["spec"] = spec
		}
		// What the API server adds (pkg/apis/apps/v1/defaults.go, core/v1).
		spec["progressDeadlineSeconds"] = 600
		if obj["kind"] == "Service" {
			spec["sessionAffinity"] = "None"
		}
		w.WriteHeader(201)
		_ = json.NewEncoder(w).Encode(obj)
	}))
	defer srv.Close()
	var log strings.Builder
	res, err := Run(context.Background(), clientFor(t, srv.URL), Options{Files: []string{"examples/app.yaml"}, Objects: appObjects(t), DryRun: true, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"PATCH /apis/apps/v1/namespaces/default/deployments/web application/apply-patch+yaml All k8sexplain true",
		"PATCH /api/v1/namespaces/default/services/web application/apply-patch+yaml All k8sexplain true",
	}
	if strings.Join(writes, "\n") != strings.Join(want, "\n") {
		t.Errorf("writes:\n%s\nwant:\n%s", strings.Join(writes, "\n"), strings.Join(want, "\n"))
	}
	var defaulted []string
	dry := 0
	for _, s := range res.Trace.Steps {
		switch s.Kind {
		case "apiserver.defaulted":
			defaulted = append(defaulted, s.Get("fields"))
		case "live.dryrun":
			dry++
		}
	}
	if dry != 2 || len(defaulted) != 2 || !strings.Contains(defaulted[0], "spec.progressDeadlineSeconds=600") || !strings.Contains(defaulted[1], "spec.sessionAffinity=None") {
		t.Errorf("dry runs %d, defaulted %q", dry, defaulted)
	}
	if !strings.HasPrefix(log.String(), "k8sexplain: server dry run on "+srv.URL+" (context test, Kubernetes v1.37.2)\n") {
		t.Errorf("first line: %q", log.String())
	}
}
