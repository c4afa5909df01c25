package main

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The real node (issue 24): kubelet, containerd, runc, the CNI bridge and
// kube-proxy in iptables mode, beside the real control plane. The recorder
// re-runs itself in a network and a mount namespace it creates, so the node's
// interfaces, iptables rules and mounts never touch the host's: the control
// plane listens on that namespace's loopback, the node's InternalIP sits on
// a bridge inside it, and pod traffic never leaves it. Every process stays
// in a cgroup the parent creates (in each cgroup v1 hierarchy), so the
// parent can end what is left (containers, shims) by PID and remove the
// cgroups after the child returns, also after a failure or Ctrl-C.

const (
	nodeNSEnv     = "K8SEXPLAIN_ORACLE_NODE_NS"     // set in the re-run child: the namespaces exist
	nodeCgroupEnv = "K8SEXPLAIN_ORACLE_NODE_CGROUP" // the cgroup (relative path) the child and its node live in
	// nodeName and nodeIP are the simulator's first worker
	// (internal/sim/sim.go DefaultNodes, nodeAddress).
	nodeName     = "node-a"
	nodeIP       = "10.0.0.11"
	nodePodCIDR  = "10.244.1.0/24"
	nodeBridge   = "oracle0"
	registryAddr = "127.0.0.1:5000"
)

// nodeRuntimeBinaries are what the node itself needs from build.sh.
const nodeRuntimeBinaries = "kubelet containerd ctr containerd-shim-runc-v2 runc registry"

// cgroupV1Controllers are the hierarchies of this machine's cgroup v1 that
// the kubelet and runc use (hugetlb is not mounted here; runc and the
// kubelet skip it).
var cgroupV1Controllers = []string{"cpu", "cpuacct", "cpuset", "memory", "devices", "freezer", "blkio", "pids", "systemd"}

// runNodeParent creates the cgroup, re-runs the recorder inside new network
// and mount namespaces within it, waits for it, and removes whatever the
// child left: every process still in the cgroup tree (by PID) and the
// cgroups themselves.
func runNodeParent(args []string) error {
	cg := fmt.Sprintf("k8sexplain-oracle-%d", os.Getpid())
	// the child mounts a tmpfs on each fixed path; a mount point missing on
	// the host is made for it and removed again here
	var made []string
	for _, p := range fixedPaths {
		if _, err := os.Stat(p); os.IsNotExist(err) {
			made = append(made, p)
		}
	}
	defer func() {
		for _, p := range made {
			os.Remove(p) // only if empty: never anything of the host's
		}
	}()
	if err := makeCgroups(cg); err != nil {
		return err
	}
	defer func() {
		if err := removeCgroups(cg); err != nil {
			fmt.Fprintln(os.Stderr, "oracle: cleanup:", err)
		}
	}()
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(self, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), nodeNSEnv+"=1", nodeCgroupEnv+"="+cg)
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNET | syscall.CLONE_NEWNS, Pdeathsig: syscall.SIGKILL}
	// Ctrl-C reaches the child (same process group); the parent waits for
	// it to stop its components and then cleans up.
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("re-run in new network and mount namespaces: %w", err)
	}
	if err := joinCgroups(cg, cmd.Process.Pid); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return err
	}
	go func() {
		for s := range sig {
			cmd.Process.Signal(s)
		}
	}()
	return cmd.Wait()
}

func cgroupDir(ctrl, cg string) string { return filepath.Join("/sys/fs/cgroup", ctrl, cg) }

func makeCgroups(cg string) error {
	for _, c := range cgroupV1Controllers {
		d := cgroupDir(c, cg)
		if err := os.Mkdir(d, 0o755); err != nil {
			return fmt.Errorf("cgroup: %w", err)
		}
		if c == "cpuset" { // a new cpuset has no CPUs or memory nodes until given its parent's
			for _, f := range []string{"cpuset.cpus", "cpuset.mems"} {
				b, err := os.ReadFile(filepath.Join("/sys/fs/cgroup/cpuset", f))
				if err != nil {
					return err
				}
				if err := os.WriteFile(filepath.Join(d, f), b, 0o644); err != nil {
					return fmt.Errorf("cgroup %s: %w", f, err)
				}
			}
		}
	}
	return nil
}

func joinCgroups(cg string, pid int) error {
	for _, c := range cgroupV1Controllers {
		if err := os.WriteFile(filepath.Join(cgroupDir(c, cg), "cgroup.procs"), []byte(strconv.Itoa(pid)), 0o644); err != nil {
			return fmt.Errorf("join cgroup %s: %w", c, err)
		}
	}
	return nil
}

// removeCgroups kills every process left in the tree (SIGKILL by PID, as
// cgroup.procs lists them), then removes the cgroups deepest first.
func removeCgroups(cg string) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		var dirs []string
		alive := 0
		for _, c := range cgroupV1Controllers {
			filepath.WalkDir(cgroupDir(c, cg), func(p string, d os.DirEntry, err error) error {
				if err == nil && d.IsDir() {
					dirs = append(dirs, p)
				}
				return nil
			})
		}
		for _, d := range dirs {
			b, _ := os.ReadFile(filepath.Join(d, "cgroup.procs"))
			for _, f := range strings.Fields(string(b)) {
				if pid, err := strconv.Atoi(f); err == nil && pid > 1 && pid != os.Getpid() {
					syscall.Kill(pid, syscall.SIGKILL)
					alive++
				}
			}
		}
		sort.Slice(dirs, func(i, j int) bool { return len(dirs[i]) > len(dirs[j]) })
		var left []string
		for _, d := range dirs {
			if err := syscall.Rmdir(d); err != nil && !os.IsNotExist(err) {
				left = append(left, d)
			}
		}
		if len(left) == 0 {
			if alive > 0 {
				logv("cleanup: killed %d leftover processes", alive)
			}
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("cgroups not removed: %s", strings.Join(left, ", "))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// fixedPaths are where containerd's shim and runc, the CNI plugins and the
// kubelet write whatever their config says: a tmpfs each in the child.
var fixedPaths = []string{"/run/containerd", "/var/lib/cni", "/run/netns", "/var/log/containers"}

// kernelTunables are the sysctls the kubelet sets
// (pkg/kubelet/cm/container_manager_linux.go setupKernelTunables, v1.37):
// they are not per network namespace, so inside the mount namespace each
// is covered by a copy the kubelet may rewrite.
var kernelTunables = []string{"vm/overcommit_memory", "vm/panic_on_oom", "kernel/panic", "kernel/panic_on_oops", "kernel/keys/root_maxkeys", "kernel/keys/root_maxbytes"}

// setupNodeNamespaces runs in the child: private mounts, tmpfs over the
// runtime's fixed paths, the sysctl copies, loopback up and the node's
// bridge with its InternalIP.
func setupNodeNamespaces(dir string) error {
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("mount --make-rprivate /: %w", err)
	}
	// fixed paths of containerd's shim and runc, the CNI plugins' and the
	// kubelet's: a tmpfs each, gone with the namespace
	for _, p := range fixedPaths {
		if _, err := os.Stat(p); os.IsNotExist(err) {
			// the mount point must exist on the host (runNodeParent
			// removes it again)
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
		}
		if err := syscall.Mount("tmpfs", p, "tmpfs", 0, "mode=755"); err != nil {
			return fmt.Errorf("mount tmpfs %s: %w", p, err)
		}
	}
	sys := filepath.Join(dir, "sysctl")
	for _, t := range kernelTunables {
		b, err := os.ReadFile("/proc/sys/" + t)
		if err != nil {
			return err
		}
		cp := filepath.Join(sys, strings.ReplaceAll(t, "/", "_"))
		os.MkdirAll(sys, 0o755)
		if err := os.WriteFile(cp, b, 0o644); err != nil {
			return err
		}
		if err := syscall.Mount(cp, "/proc/sys/"+t, "", syscall.MS_BIND, ""); err != nil {
			return fmt.Errorf("bind %s over /proc/sys/%s: %w", cp, t, err)
		}
	}
	for _, a := range [][]string{
		{"link", "set", "lo", "up"},
		{"link", "add", nodeBridge, "type", "bridge"},
		{"addr", "add", nodeIP + "/24", "dev", nodeBridge},
		{"link", "set", nodeBridge, "up"},
		{"route", "add", "default", "dev", nodeBridge},
	} {
		if out, err := exec.Command("ip", a...).CombinedOutput(); err != nil {
			return fmt.Errorf("ip %s: %v: %s", strings.Join(a, " "), err, strings.TrimSpace(string(out)))
		}
	}
	return nil
}

// node is the real node's processes, started through the cluster so that
// stop ends them by PID with the rest.
type node struct {
	c   *cluster
	dir string
	cg  string
	// standalone: no API server; the kubelet runs static pods (-node-smoke)
	standalone bool
	// timings of the bring-up (README's Fidelity figures)
	Took map[string]time.Duration
}

func (n *node) path(p ...string) string { return filepath.Join(append([]string{n.dir}, p...)...) }

func writeFile(path, s string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(s), 0o644)
}

// up starts the registry (and pushes the images), containerd, the kubelet
// and kube-proxy, and waits until the node is Ready.
func (n *node) up(ctx context.Context, cache string) error {
	n.Took = map[string]time.Duration{}
	t0 := time.Now()
	c := n.c
	if err := writeFile(n.path("registry", "config.yml"), fmt.Sprintf(`version: 0.1
log:
  level: warn
storage:
  filesystem:
    rootdirectory: %s
http:
  addr: %s
`, n.path("registry", "data"), registryAddr)); err != nil {
		return err
	}
	if err := c.start("registry", "serve", n.path("registry", "config.yml")); err != nil {
		return err
	}
	if err := c.waitFor(ctx, 60*time.Second, "the registry", func() bool {
		conn, err := net.DialTimeout("tcp", registryAddr, time.Second)
		if err == nil {
			conn.Close()
		}
		return err == nil
	}); err != nil {
		return err
	}
	if _, err := prepareImages(ctx, cache, registryAddr); err != nil {
		return err
	}
	n.Took["images"] = time.Since(t0)

	// containerd: the CRI plugin with runc, overlayfs, the CNI bridge and
	// the registry mirror for the names the examples use
	cd := n.path("containerd")
	for _, host := range []string{"docker.io", "registry.k8s.io"} {
		upstream := "https://registry-1.docker.io"
		if host != "docker.io" {
			upstream = "https://" + host
		}
		if err := writeFile(filepath.Join(cd, "certs.d", host, "hosts.toml"), fmt.Sprintf(`server = %q

[host."http://%s"]
  capabilities = ["pull", "resolve"]
`, upstream, registryAddr)); err != nil {
			return err
		}
	}
	if err := writeFile(n.path("cni", "net.d", "10-oracle.conflist"), fmt.Sprintf(`{
  "cniVersion": "1.0.0",
  "name": "oracle",
  "plugins": [
    {"type": "bridge", "bridge": "cni0", "isGateway": true, "ipMasq": false, "hairpinMode": true,
     "ipam": {"type": "host-local", "ranges": [[{"subnet": %q}]], "routes": [{"dst": "0.0.0.0/0"}], "dataDir": %q}},
    {"type": "portmap", "capabilities": {"portMappings": true}}
  ]
}
`, nodePodCIDR, n.path("cni", "ipam"))); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(cd, "config.toml"), fmt.Sprintf(`version = 3
root = %q
state = %q

[grpc]
  address = %q

[plugins.'io.containerd.internal.v1.opt']
  path = %q

# NRI would make its socket under the host's /var/run/nri
[plugins.'io.containerd.nri.v1.nri']
  disable = true

[plugins.'io.containerd.cri.v1.images']
  snapshotter = "overlayfs"
  [plugins.'io.containerd.cri.v1.images'.pinned_images]
    sandbox = %q
  [plugins.'io.containerd.cri.v1.images'.registry]
    config_path = %q

# This machine gives root no CAP_SYS_RESOURCE, so a process may raise its
# oom_score_adj but not lower it below 0: runc's init failed writing the
# sandbox's -998 ("failed to update /proc/self/oom_score_adj: Permission
# denied"). containerd's own switch for that case clamps every score to
# [containerd's score, 1000] (internal/cri/config RestrictOOMScoreAdj).
[plugins.'io.containerd.cri.v1.runtime']
  restrict_oom_score_adj = true
  netns_mounts_under_state_dir = true
  enable_cdi = false
  [plugins.'io.containerd.cri.v1.runtime'.containerd]
    default_runtime_name = "runc"
    [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc.options]
        BinaryName = %q
        SystemdCgroup = false
  [plugins.'io.containerd.cri.v1.runtime'.cni]
    bin_dirs = ["/usr/lib/cni"]
    conf_dir = %q
`, filepath.Join(cd, "root"), filepath.Join(cd, "state"), n.sock(), filepath.Join(cd, "opt"), pauseImage,
		filepath.Join(cd, "certs.d"), filepath.Join(c.bin, "runc"), n.path("cni", "net.d"))); err != nil {
		return err
	}
	t1 := time.Now()
	c.env = append(os.Environ(), "PATH="+c.bin+":"+os.Getenv("PATH"))
	if err := c.start("containerd", "--config", filepath.Join(cd, "config.toml"), "--log-level", "info"); err != nil {
		return err
	}
	if err := c.waitFor(ctx, 60*time.Second, "containerd's socket", func() bool {
		_, err := os.Stat(n.sock())
		return err == nil
	}); err != nil {
		return err
	}
	n.Took["containerd"] = time.Since(t1)
	if n.standalone {
		return n.startKubelet(ctx, "")
	}

	// the kubelet, as system:node:node-a (Node authorizer, NodeRestriction)
	if err := c.pki.issue("kubelet", "system:node:"+nodeName, []string{"system:nodes"}, nil, nil); err != nil {
		return err
	}
	kkc, err := c.pki.kubeconfig("kubelet", c.server)
	if err != nil {
		return err
	}
	t2 := time.Now()
	if err := n.startKubelet(ctx, kkc); err != nil {
		return err
	}
	if err := c.waitFor(ctx, 180*time.Second, "the real node to be Ready", func() bool {
		out, err := c.kubectl(ctx, nil, "get", "node", nodeName, "-o", `jsonpath={.status.conditions[?(@.type=="Ready")].status}`)
		return err == nil && strings.TrimSpace(string(out)) == "True"
	}); err != nil {
		return err
	}
	n.Took["kubelet"] = time.Since(t2)
	return n.startKubeProxy(ctx, t0)
}

// startKubelet writes the kubelet's config and starts it: with the
// kubeconfig kkc, or standalone ("": static pods from n.path("manifests"),
// no API server; the -node-smoke check).
func (n *node) startKubelet(ctx context.Context, kkc string) error {
	c := n.c
	if err := writeFile(n.path("resolv.conf"), "nameserver 10.96.0.10\n"); err != nil {
		return err
	}
	clientCA, static := "", ""
	if c.pki != nil {
		clientCA = fmt.Sprintf("\n  x509: {clientCAFile: %q}", c.pki.path("ca.crt"))
	}
	if kkc == "" {
		static = "staticPodPath: " + n.path("manifests") + "\n"
	}
	if err := writeFile(n.path("kubelet", "config.yaml"), fmt.Sprintf(`apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: false}%s
authorization: {mode: AlwaysAllow}
# this machine mounts cgroup v1 (cgroup2 only beside it, without controllers)
cgroupDriver: cgroupfs
cgroupRoot: /%s
failCgroupV1: false
failSwapOn: false
containerRuntimeEndpoint: unix://%s
clusterDNS: [10.96.0.10]
clusterDomain: cluster.local
resolvConf: %q
podLogsDir: %q
healthzBindAddress: 127.0.0.1
healthzPort: 10248
readOnlyPort: 0
evictionHard: {memory.available: "100Mi"}
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
%s`, clientCA, n.cg, n.sock(), n.path("resolv.conf"), n.path("pod-logs"), static)); err != nil {
		return err
	}
	args := []string{"--config=" + n.path("kubelet", "config.yaml"),
		"--root-dir=" + n.path("kubelet", "root"), "--cert-dir=" + n.path("kubelet", "pki"),
		"--hostname-override=" + nodeName, "--node-ip=" + nodeIP, "--v=2"}
	if kkc != "" {
		args = append(args, "--kubeconfig="+kkc)
	}
	return c.start("kubelet", args...)
}

// startKubeProxy starts kube-proxy and waits for its first sync.
func (n *node) startKubeProxy(ctx context.Context, t0 time.Time) error {
	c := n.c
	// kube-proxy in iptables mode, as system:kube-proxy (system:node-proxier)
	if err := c.pki.issue("kube-proxy", "system:kube-proxy", nil, nil, nil); err != nil {
		return err
	}
	pkc, err := c.pki.kubeconfig("kube-proxy", c.server)
	if err != nil {
		return err
	}
	if err := writeFile(n.path("kube-proxy", "config.yaml"), fmt.Sprintf(`apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection: {kubeconfig: %q}
mode: iptables
hostnameOverride: %s
clusterCIDR: 10.244.0.0/16
bindAddress: 0.0.0.0
healthzBindAddress: 127.0.0.1:10256
metricsBindAddress: 127.0.0.1:10249
# conntrack's table size and timeouts are not per network namespace:
# left as the host has them
conntrack: {maxPerCore: 0, min: 0, tcpEstablishedTimeout: 0s, tcpCloseWaitTimeout: 0s}
`, pkc, nodeName)); err != nil {
		return err
	}
	if err := c.start("kube-proxy", "--config="+n.path("kube-proxy", "config.yaml"), "--v=2"); err != nil {
		return err
	}
	if err := c.waitFor(ctx, 60*time.Second, "kube-proxy's first sync", func() bool {
		out, err := exec.Command("iptables-save", "-t", "nat").Output()
		return err == nil && strings.Contains(string(out), ":KUBE-SERVICES")
	}); err != nil {
		return err
	}
	n.Took["node"] = time.Since(t0)
	logv("real node %s up in %s (images %s, containerd %s, kubelet to Ready %s)", nodeName,
		n.Took["node"].Round(time.Millisecond), n.Took["images"].Round(time.Millisecond),
		n.Took["containerd"].Round(time.Millisecond), n.Took["kubelet"].Round(time.Millisecond))
	return nil
}

func (n *node) sock() string { return n.path("containerd", "containerd.sock") }

// criCalls reads containerd's log from offset and returns the CRI calls it
// logged, in order, as "Method container-or-image" (containerd's CRI
// plugin logs each call at info: internal/cri/server/*.go, v2.2).
func criCalls(logPath string, off *int64) ([]string, error) {
	f, err := os.Open(logPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if _, err := f.Seek(*off, 0); err != nil {
		return nil, err
	}
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	var n int64
	for sc.Scan() {
		line := sc.Text()
		n += int64(len(line)) + 1
		if c, ok := criCall(line); ok {
			out = append(out, c)
		}
	}
	*off += n
	return out, sc.Err()
}
