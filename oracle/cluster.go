package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// cluster is one real control plane on 127.0.0.1: etcd, kube-apiserver,
// kube-controller-manager, kube-scheduler and kwok, each a child process
// whose PID we keep, so that stop ends exactly what start began.
type cluster struct {
	bin, dir   string
	pki        *pki
	server     string
	admin      string // admin kubeconfig
	auditPath  string
	procs      []*exec.Cmd
	kwokStages string
	mu         sync.Mutex
	exited     map[string]bool // components that ended on their own
	// apiOnly runs etcd and kube-apiserver only: enough for the corpus's
	// server-side dry run.
	apiOnly bool
	// realNode: no kwok and no fake nodes; the real node (node.go) is the
	// only one, and ensureNodes leaves it alone.
	realNode bool
	// env, when set, is the environment of the processes start begins.
	env []string
	// afterSteps, when set, runs after a scenario's last step settled and
	// before its namespace is deleted (the node's iptables-save, CRI calls).
	afterSteps func(ctx context.Context, ns string) error
}

// ensureServiceAccount creates the default ServiceAccount of ns unless it
// exists (kube-controller-manager does that in a full cluster).
func (c *cluster) ensureServiceAccount(ctx context.Context, ns string) error {
	if _, err := c.kubectl(ctx, nil, "get", "serviceaccount", "default", "-n", ns, "-o", "name"); err == nil {
		return nil
	}
	_, err := c.kubectl(ctx, nil, "create", "serviceaccount", "default", "-n", ns)
	return err
}

// auditPolicy logs every write with its request and response bodies and
// nothing that only reads.
const auditPolicy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
- level: None
  verbs: ["get", "list", "watch"]
- level: RequestResponse
`

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func ports(n int) ([]int, error) {
	var out []int
	for range n {
		p, err := freePort()
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// start runs bin/name with args, its output in dir/name.log, in its own
// process group so a terminal's Ctrl-C reaches only the recorder, which then
// stops the children itself.
func (c *cluster) start(name string, args ...string) error {
	logf, err := os.Create(filepath.Join(c.dir, name+".log"))
	if err != nil {
		return err
	}
	cmd := exec.Command(filepath.Join(c.bin, name), args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Env = c.env
	// Pdeathsig: should the recorder itself be killed outright, the kernel
	// still ends its children
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return fmt.Errorf("start %s: %w", name, err)
	}
	c.procs = append(c.procs, cmd)
	c.mu.Lock()
	if c.exited == nil {
		c.exited = map[string]bool{}
	}
	c.mu.Unlock()
	go func() {
		cmd.Wait()
		logf.Close()
		c.mu.Lock()
		c.exited[name] = true
		c.mu.Unlock()
	}()
	logv("started %s (pid %d)", name, cmd.Process.Pid)
	return nil
}

// stop ends every process start began, newest first, by PID: SIGTERM, then
// SIGKILL after 10 s.
func (c *cluster) stop() {
	for i := len(c.procs) - 1; i >= 0; i-- {
		p := c.procs[i].Process
		_ = p.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() {
			for {
				if err := p.Signal(syscall.Signal(0)); err != nil {
					close(done)
					return
				}
				time.Sleep(100 * time.Millisecond)
			}
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = p.Kill()
		}
		logv("stopped pid %d", p.Pid)
	}
	c.procs = nil
}

func (c *cluster) up(ctx context.Context) error {
	pt, err := ports(6)
	if err != nil {
		return err
	}
	etcdClient, etcdPeer, apiPort, kcmPort, schedPort, kwokPort := pt[0], pt[1], pt[2], pt[3], pt[4], pt[5]
	if c.pki, err = newPKI(c.dir); err != nil {
		return err
	}
	lo := []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("10.96.0.1")}
	if err := c.pki.issue("apiserver", "kube-apiserver", nil, lo, []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local"}); err != nil {
		return err
	}
	// identities as kubeadm makes them; kwok is one process faking every
	// kubelet, so it gets one admin identity (see the known differences)
	users := map[string][2]string{
		"admin":                   {"kubernetes-admin", "system:masters"},
		"kube-controller-manager": {"system:kube-controller-manager", ""},
		"kube-scheduler":          {"system:kube-scheduler", ""},
		"kwok":                    {"kwok-controller", "system:masters"},
	}
	c.server = fmt.Sprintf("https://127.0.0.1:%d", apiPort)
	kc := map[string]string{}
	for name, u := range users {
		var orgs []string
		if u[1] != "" {
			orgs = []string{u[1]}
		}
		if err := c.pki.issue(name, u[0], orgs, nil, nil); err != nil {
			return err
		}
		if kc[name], err = c.pki.kubeconfig(name, c.server); err != nil {
			return err
		}
	}
	c.admin = kc["admin"]
	policy := filepath.Join(c.dir, "audit-policy.yaml")
	if err := os.WriteFile(policy, []byte(auditPolicy), 0o600); err != nil {
		return err
	}
	c.auditPath = filepath.Join(c.dir, "audit.log")
	p := c.pki.path

	etcdURL := fmt.Sprintf("http://127.0.0.1:%d", etcdClient)
	peerURL := fmt.Sprintf("http://127.0.0.1:%d", etcdPeer)
	if err := c.start("etcd", "--name=oracle", "--data-dir="+filepath.Join(c.dir, "etcd"),
		"--listen-client-urls="+etcdURL, "--advertise-client-urls="+etcdURL,
		"--listen-peer-urls="+peerURL, "--initial-advertise-peer-urls="+peerURL,
		"--initial-cluster=oracle="+peerURL, "--unsafe-no-fsync=true", "--log-level=warn"); err != nil {
		return err
	}
	if err := c.start("kube-apiserver",
		"--etcd-servers="+etcdURL,
		"--bind-address=127.0.0.1", "--advertise-address=127.0.0.1", fmt.Sprintf("--secure-port=%d", apiPort),
		"--cert-dir="+filepath.Join(c.dir, "apiserver-certs"),
		"--tls-cert-file="+p("apiserver.crt"), "--tls-private-key-file="+p("apiserver.key"),
		"--client-ca-file="+p("ca.crt"),
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file="+p("sa.pub"), "--service-account-signing-key-file="+p("sa.key"),
		"--service-cluster-ip-range=10.96.0.0/12",
		"--authorization-mode=Node,RBAC",
		// a loopback advertise address is refused by the endpoint reconciler
		// of the kubernetes Service; nothing here needs its endpoints
		"--endpoint-reconciler-type=none",
		"--enable-admission-plugins=NodeRestriction",
		"--allow-privileged=true",
		"--audit-policy-file="+policy, "--audit-log-path="+c.auditPath, "--audit-log-format=json",
		"--audit-log-mode=blocking", "--profiling=false"); err != nil {
		return err
	}
	if err := c.waitReady(ctx, 120*time.Second); err != nil {
		return err
	}
	if c.apiOnly {
		// no controller-manager creates ServiceAccounts; pods need "default"
		return c.ensureServiceAccount(ctx, "default")
	}
	kcm := kc["kube-controller-manager"]
	if err := c.start("kube-controller-manager",
		"--kubeconfig="+kcm, "--authentication-kubeconfig="+kcm, "--authorization-kubeconfig="+kcm,
		"--bind-address=127.0.0.1", fmt.Sprintf("--secure-port=%d", kcmPort),
		"--leader-elect=false", "--use-service-account-credentials=true",
		"--service-account-private-key-file="+p("sa.key"), "--root-ca-file="+p("ca.crt"),
		"--cluster-name=kubernetes", "--cluster-cidr=10.244.0.0/16", "--allocate-node-cidrs=false",
		"--service-cluster-ip-range=10.96.0.0/12", "--profiling=false"); err != nil {
		return err
	}
	sch := kc["kube-scheduler"]
	if err := c.start("kube-scheduler",
		"--kubeconfig="+sch, "--authentication-kubeconfig="+sch, "--authorization-kubeconfig="+sch,
		"--bind-address=127.0.0.1", fmt.Sprintf("--secure-port=%d", schedPort),
		"--leader-elect=false", "--profiling=false"); err != nil {
		return err
	}
	if c.realNode {
		return c.waitFor(ctx, 120*time.Second, "the default ServiceAccount", func() bool {
			_, err := c.kubectl(ctx, nil, "get", "serviceaccount", "default", "-n", "default", "-o", "name")
			return err == nil
		})
	}
	if err := c.start("kwok", "--kubeconfig="+kc["kwok"], "--config="+c.kwokStages,
		"--manage-all-nodes=true", "--cidr=10.244.0.0/16", "--node-ip=127.0.0.1",
		fmt.Sprintf("--server-address=127.0.0.1:%d", kwokPort)); err != nil {
		return err
	}
	// the default ServiceAccount must exist before pods can be created
	return c.waitFor(ctx, 120*time.Second, "the default ServiceAccount", func() bool {
		_, err := c.kubectl(ctx, nil, "get", "serviceaccount", "default", "-n", "default", "-o", "name")
		return err == nil
	})
}

func (c *cluster) waitReady(ctx context.Context, d time.Duration) error {
	return c.waitFor(ctx, d, "kube-apiserver /readyz", func() bool {
		out, err := c.kubectl(ctx, nil, "get", "--raw", "/readyz")
		return err == nil && strings.TrimSpace(string(out)) == "ok"
	})
}

func (c *cluster) waitFor(ctx context.Context, d time.Duration, what string, ok func() bool) error {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		c.mu.Lock()
		for name := range c.exited {
			c.mu.Unlock()
			return fmt.Errorf("%s exited while waiting for %s: see %s", name, what, filepath.Join(c.dir, name+".log"))
		}
		c.mu.Unlock()
		if ok() {
			return nil
		}
		time.Sleep(300 * time.Millisecond)
	}
	return fmt.Errorf("timed out after %s waiting for %s (logs in %s)", d, what, c.dir)
}

// kubectl runs the real kubectl as the admin; stdin may be nil.
func (c *cluster) kubectl(ctx context.Context, stdin []byte, args ...string) ([]byte, error) {
	out, errb, err := c.kubectlErr(ctx, stdin, args...)
	if err != nil {
		return out, fmt.Errorf("kubectl %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(errb)))
	}
	return out, nil
}

func (c *cluster) kubectlErr(ctx context.Context, stdin []byte, args ...string) (stdout, stderr []byte, err error) {
	cmd := exec.CommandContext(ctx, filepath.Join(c.bin, "kubectl"), append([]string{"--kubeconfig=" + c.admin}, args...)...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	cmd.Env = append(os.Environ(), "KUBECACHEDIR="+filepath.Join(c.dir, "kubectl-cache"))
	err = cmd.Run()
	return o.Bytes(), e.Bytes(), err
}

// nodeSpec is one fake node, shaped like the simulator's default cluster
// (internal/sim/sim.go DefaultNodes).
type nodeSpec struct {
	Name   string
	Labels map[string]string
	Taints []map[string]string
	CIDR   string
	CPU    string
	Memory string
}

func defaultNodes() []nodeSpec {
	mk := func(name string, idx int) nodeSpec {
		return nodeSpec{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name, "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64"},
			CIDR: fmt.Sprintf("10.244.%d.0/24", idx), CPU: "4", Memory: "8Gi"}
	}
	cp := mk("control-plane", 0)
	cp.Labels["node-role.kubernetes.io/control-plane"] = ""
	cp.Taints = []map[string]string{{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}}
	return []nodeSpec{cp, mk("node-a", 1), mk("node-b", 2), mk("node-c", 3)}
}

func (c *cluster) createNodes(ctx context.Context, nodes []nodeSpec) error {
	for _, n := range nodes {
		labels := map[string]string{}
		for k, v := range n.Labels {
			labels[k] = v
		}
		res := map[string]string{"cpu": n.CPU, "memory": n.Memory, "pods": "110", "ephemeral-storage": "100Gi"}
		obj := map[string]any{
			"apiVersion": "v1", "kind": "Node",
			"metadata": map[string]any{"name": n.Name, "labels": labels,
				"annotations": map[string]string{"kwok.x-k8s.io/node": "fake", "node.alpha.kubernetes.io/ttl": "0"}},
			"spec":   map[string]any{"podCIDR": n.CIDR, "podCIDRs": []string{n.CIDR}, "taints": n.Taints},
			"status": map[string]any{"capacity": res, "allocatable": res},
		}
		b, _ := json.Marshal(obj)
		if _, err := c.kubectl(ctx, b, "create", "-f", "-"); err != nil {
			return err
		}
	}
	return c.waitFor(ctx, 60*time.Second, "the nodes to be Ready", func() bool {
		out, err := c.kubectl(ctx, nil, "get", "nodes", "-o", `jsonpath={range .items[*]}{.status.conditions[?(@.type=="Ready")].status}{"\n"}{end}`)
		if err != nil {
			return false
		}
		lines := strings.Fields(string(out))
		if len(lines) < len(nodes) {
			return false
		}
		for _, l := range lines {
			if l != "True" {
				return false
			}
		}
		return true
	})
}
