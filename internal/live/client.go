package live

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
)

// Client is what the trace needs of a cluster: the dynamic client for
// objects, GETs of discovery paths, and the status code of each response
// (client-go's dynamic client returns the object, not the code).
type Client struct {
	Dyn dynamic.Interface
	// Get returns the body of a GET of path (/version, /apis/apps/v1).
	Get func(ctx context.Context, path string) ([]byte, error)
	// Codes holds the status code of the last response per method and path.
	Codes *StatusCodes
	// Server and Context name the cluster.
	Server, Context string
}

// StatusCodes records the status code of responses by "METHOD path".
type StatusCodes struct {
	mu    sync.Mutex
	codes map[string]int
}

// Set records code for method and path.
func (s *StatusCodes) Set(method, path string, code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.codes == nil {
		s.codes = map[string]int{}
	}
	s.codes[method+" "+path] = code
}

// Of returns the code recorded for method and path (0: none).
func (s *StatusCodes) Of(method, path string) int {
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.codes[method+" "+path]
}

type recordCodes struct {
	next  http.RoundTripper
	codes *StatusCodes
}

func (r *recordCodes) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.next.RoundTrip(req)
	if err == nil {
		r.codes.Set(req.Method, req.URL.Path, resp.StatusCode)
	}
	return resp, err
}

// NewClient connects the clients to the target (nothing is sent yet).
func NewClient(t *Target) (*Client, error) {
	codes := &StatusCodes{}
	cfg := rest.CopyConfig(t.Config)
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper { return &recordCodes{next: rt, codes: codes} })
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, exitcode.Inputf("kubeconfig %s, context %s: %v", t.Source, t.Context, err)
	}
	dyn, err := dynamic.NewForConfigAndClient(cfg, hc)
	if err != nil {
		return nil, exitcode.Inputf("kubeconfig %s, context %s: %v", t.Source, t.Context, err)
	}
	base := strings.TrimSuffix(cfg.Host, "/")
	if !strings.Contains(base, "://") {
		base = "https://" + base
	}
	get := func(ctx context.Context, path string) ([]byte, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+path, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Accept", "application/json")
		resp, err := hc.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusOK {
			return nil, statusError(resp.StatusCode, body, "get", path)
		}
		return body, nil
	}
	return &Client{Dyn: dyn, Get: get, Codes: codes, Server: t.Server, Context: t.Context}, nil
}

// statusError turns a non-200 answer into the API error it carries (a
// metav1.Status), or one with the code alone.
func statusError(code int, body []byte, verb, path string) error {
	var st metav1.Status
	if json.Unmarshal(body, &st) == nil && st.Kind == "Status" {
		st.Code = int32(code)
		return &apierrors.StatusError{ErrStatus: st}
	}
	return apierrors.NewGenericServerResponse(code, verb, schema.GroupResource{}, path, strings.TrimSpace(string(body)), 0, false)
}

// ServerVersion asks the server its version (GET /version).
func (c *Client) ServerVersion(ctx context.Context) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, ConnectTimeout)
	defer cancel()
	body, err := c.Get(ctx, "/version")
	if err != nil {
		return "", c.clusterError(err, "get", "/version")
	}
	var v version.Info
	if err := json.Unmarshal(body, &v); err != nil || v.GitVersion == "" {
		return "", exitcode.Environmentf("%s: GET /version answered no gitVersion: is this a Kubernetes API server?", c.Server)
	}
	return v.GitVersion, nil
}

// clusterError is err as the one line the user reads, with exit 4 for
// what the environment caused: a server that cannot be reached, or that
// refuses who we are (401) or what we asked (403, except quota).
func (c *Client) clusterError(err error, verb, what string) error {
	var ne net.Error
	var ue *url.Error
	switch {
	case apierrors.IsUnauthorized(err):
		return exitcode.Environmentf("%s refused the credentials of context %s (401 Unauthorized) for %s %s: %s", c.Server, c.Context, verb, what, err.Error())
	case apierrors.IsForbidden(err) && !isQuota(err):
		return exitcode.Environmentf("%s: %s %s refused (403 Forbidden): %s", c.Server, verb, what, err.Error())
	case errors.As(err, &ne) || errors.As(err, &ue) || errors.Is(err, context.DeadlineExceeded):
		return exitcode.Environmentf("cannot reach the API server %s (context %s) within %s: %v", c.Server, c.Context, ConnectTimeout, rootCause(err))
	}
	return err
}

// isQuota reports whether a 403 is ResourceQuota admission refusing the
// object (the input's fault, shown in the trace) rather than RBAC.
func isQuota(err error) bool {
	return strings.Contains(err.Error(), "exceeded quota") || strings.Contains(err.Error(), "must specify limits") || strings.Contains(err.Error(), "must specify requests")
}

func rootCause(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}

// resources maps each group/version's kinds to their resource and scope,
// read once from discovery.
type resources struct {
	c    *Client
	byGV map[string]*metav1.APIResourceList
}

// lookup returns the resource of kind in apiVersion and whether it is
// namespaced.
func (r *resources) lookup(ctx context.Context, apiVersion, kind string) (schema.GroupVersionResource, bool, error) {
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return schema.GroupVersionResource{}, false, exitcode.Inputf("apiVersion %q: %v", apiVersion, err)
	}
	list, ok := r.byGV[apiVersion]
	if !ok {
		path := "/apis/" + apiVersion
		if gv.Group == "" {
			path = "/api/" + apiVersion
		}
		body, err := r.c.Get(ctx, path)
		if apierrors.IsNotFound(err) {
			return schema.GroupVersionResource{}, false, exitcode.Inputf("apiVersion %s: the server %s does not serve it", apiVersion, r.c.Server)
		}
		if err != nil {
			return schema.GroupVersionResource{}, false, r.c.clusterError(err, "get", path)
		}
		list = &metav1.APIResourceList{}
		if err := json.Unmarshal(body, list); err != nil {
			return schema.GroupVersionResource{}, false, fmt.Errorf("discovery %s: %w", path, err)
		}
		if r.byGV == nil {
			r.byGV = map[string]*metav1.APIResourceList{}
		}
		r.byGV[apiVersion] = list
	}
	for _, res := range list.APIResources {
		if res.Kind == kind && !strings.Contains(res.Name, "/") {
			return gv.WithResource(res.Name), res.Namespaced, nil
		}
	}
	return schema.GroupVersionResource{}, false, exitcode.Inputf("kind %s of %s: the server %s has no such resource", kind, apiVersion, r.c.Server)
}
