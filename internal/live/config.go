// Package live traces an apply on a real cluster: it applies the
// manifests server-side into a namespace of its own, watches what the
// cluster does through client-go informers, and records it as the steps of
// the simulated trace (package trace), so that the same renderers and the
// same explanations show it. Compare puts it side by side with the
// simulation of the same manifests.
//
// Only this package and the command that calls it import client-go, and
// only the parts that register nothing at start-up (rest, dynamic,
// clientcmd, tools/cache; not the typed clientset and its scheme), so the
// other commands start as fast as before.
package live

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// ConnectTimeout bounds reaching the API server: an unreachable server is
// reported within it.
const ConnectTimeout = 10 * time.Second

// Target is the cluster a kubeconfig selects.
type Target struct {
	Config  *rest.Config
	Server  string
	Context string
	// Namespace is the context's namespace ("" when it sets none).
	Namespace string
	// Source is the kubeconfig file (or files) it came from.
	Source string
}

// LoadConfig reads the kubeconfig with kubectl's precedence: path when it
// is not empty, else the files of $KUBECONFIG, else ~/.kube/config
// (clientcmd's loading rules, k8s.io/client-go v0.37 tools/clientcmd
// loader.go); context names a context instead of the current one.
func LoadConfig(path, context string) (*Target, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	source := "~/.kube/config"
	if env := os.Getenv(clientcmd.RecommendedConfigPathEnvVar); env != "" {
		source = "$KUBECONFIG (" + env + ")"
	}
	if path != "" {
		if _, err := os.Stat(path); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, exitcode.Inputf("--kubeconfig %s: no such file", path)
			}
			return nil, exitcode.Inputf("--kubeconfig %s: %v", path, err)
		}
		rules.ExplicitPath, source = path, path
	}
	cc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{CurrentContext: context})
	raw, err := cc.RawConfig()
	if err != nil {
		return nil, exitcode.Inputf("kubeconfig %s: %v", source, err)
	}
	name := raw.CurrentContext
	if context != "" {
		name = context
	}
	if name == "" {
		return nil, exitcode.Inputf("kubeconfig %s: no current context and no --context (kubectl config use-context NAME)", source)
	}
	if _, ok := raw.Contexts[name]; !ok {
		return nil, exitcode.Inputf("kubeconfig %s: context %q does not exist", source, name)
	}
	cfg, err := cc.ClientConfig()
	if err != nil {
		return nil, exitcode.Inputf("kubeconfig %s, context %s: %v", source, name, err)
	}
	ns, _, err := cc.Namespace()
	if err != nil {
		ns = ""
	}
	if ctx := raw.Contexts[name]; ctx != nil && ctx.Namespace == "" {
		ns = ""
	}
	prepare(cfg)
	return &Target{Config: cfg, Server: cfg.Host, Context: name, Namespace: ns, Source: source}, nil
}

// prepare bounds connecting (not the whole request: a watch lasts as long
// as the trace) and names k8sexplain as the client.
func prepare(cfg *rest.Config) {
	cfg.UserAgent = "k8sexplain"
	if cfg.Dial == nil {
		d := &net.Dialer{Timeout: ConnectTimeout, KeepAlive: 30 * time.Second}
		cfg.Dial = d.DialContext
	}
	cfg.QPS, cfg.Burst = 50, 100
}

// describe is "https://127.0.0.1:6443 (context kind-kind)".
func (t *Target) describe() string { return fmt.Sprintf("%s (context %s)", t.Server, t.Context) }
