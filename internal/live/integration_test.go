package live

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/k8sexplain/k8sexplain/internal/manifest"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// oracleBinaries are what the oracle's control plane runs
// (oracle/build.sh puts them in its cache).
var oracleBinaries = []string{"etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok"}

// oracleCache is oracle/build.sh's bin directory for the k8s.io/api
// version of go.mod (v0.X.Y → v1.X.Y).
func oracleCache(t *testing.T) string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ver := ""
	for sc := bufio.NewScanner(f); sc.Scan(); {
		if fs := strings.Fields(sc.Text()); len(fs) == 2 && fs[0] == "k8s.io/api" {
			ver = "v1." + strings.TrimPrefix(fs[1], "v0.")
		}
	}
	root := os.Getenv("K8SEXPLAIN_ORACLE_CACHE")
	if root == "" {
		dir := os.Getenv("XDG_CACHE_HOME")
		if dir == "" {
			home, _ := os.UserHomeDir()
			dir = filepath.Join(home, ".cache")
		}
		root = filepath.Join(dir, "k8sexplain-oracle")
	}
	return filepath.Join(root, ver, "bin")
}

// liveKubeconfig is the kubeconfig of a cluster to test against:
// $K8SEXPLAIN_LIVE_KUBECONFIG (any cluster: kind, minikube, k3d), else
// the oracle's control plane brought up from its cached binaries
// (`go run ./oracle -no-build -serve`), stopped when the test ends. With
// neither, the test is skipped and says how to run it.
func liveKubeconfig(t *testing.T) string {
	if kc := os.Getenv("K8SEXPLAIN_LIVE_KUBECONFIG"); kc != "" {
		return kc
	}
	bin := oracleCache(t)
	var missing []string
	for _, b := range oracleBinaries {
		if _, err := os.Stat(filepath.Join(bin, b)); err != nil {
			missing = append(missing, b)
		}
	}
	if len(missing) > 0 {
		t.Skipf("no cluster: K8SEXPLAIN_LIVE_KUBECONFIG is not set and the oracle's binaries are not in %s (missing %s). "+
			"Build them once with oracle/build.sh (15-40 minutes on 2 cores), then run oracle/live-test.sh; or point K8SEXPLAIN_LIVE_KUBECONFIG at a kind cluster's kubeconfig",
			bin, strings.Join(missing, ", "))
	}
	if testing.Short() {
		t.Skip("-short: not bringing up the oracle's control plane")
	}
	kc := filepath.Join(t.TempDir(), "admin.kubeconfig")
	cmd := exec.Command("go", "run", ".", "-no-build", "-serve", kc)
	cmd.Dir = filepath.Join("..", "..", "oracle")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // go run's child too
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) // the group this test started, by its id
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	})
	deadline := time.Now().Add(3 * time.Minute)
	for {
		if _, err := os.Stat(kc); err == nil {
			return kc
		}
		if time.Now().After(deadline) {
			t.Fatal("the oracle's control plane did not come up within 3 minutes")
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// TestLiveCluster traces examples/app.yaml and examples/quota.yaml on a
// real control plane: the names (pod-template-hash), the phases, and the
// namespace deleted at the end.
func TestLiveCluster(t *testing.T) {
	kc := liveKubeconfig(t)
	target, err := LoadConfig(kc, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file, rs string
		ready    int
	}{
		{"examples/app.yaml", "web-6c64cbcbb9", 3},
		{"examples/quota.yaml", "web-5c8597c5fb", 2},
	} {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			objs, err := manifest.Load([]string{filepath.Join("..", "..", c.file)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			client, err := NewClient(target)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			res, err := Run(ctx, client, Options{Files: []string{c.file}, Objects: objs, Timeout: 3 * time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			tr := res.Trace
			t.Logf("%s: %d steps, %d of %d pods Ready, failed %q", c.file, len(tr.Steps), tr.Summary.ReadyPods, tr.Summary.Pods, tr.Failed)
			phases := map[int]bool{}
			rs := ""
			for _, s := range tr.Steps {
				phases[int(s.Phase)] = true
				if s.Kind == "deployment.newrs" {
					rs = s.Get("rs")
				}
			}
			if rs != c.rs {
				t.Errorf("ReplicaSet %q, want %q (upstream's pod-template-hash)", rs, c.rs)
			}
			for _, ph := range []int{1, 2, 3, 4, 5, 8} {
				if !phases[ph] {
					t.Errorf("no step in phase %d", ph)
				}
			}
			if tr.Summary.ReadyPods < c.ready && !res.TimedOut {
				t.Errorf("%d pods Ready, want %d", tr.Summary.ReadyPods, c.ready)
			}
			ns, err := client.Dyn.Resource(nsGVR).Get(context.Background(), tr.Cluster.Namespace, metav1.GetOptions{})
			if err == nil && ns.GetDeletionTimestamp() == nil {
				t.Errorf("namespace %s still there and not terminating", tr.Cluster.Namespace)
			} else if err != nil && !apierrors.IsNotFound(err) {
				t.Error(err)
			}
		})
	}
}
