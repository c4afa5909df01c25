package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// stop ends every process start began, by PID, even one that ignores
// SIGTERM.
func TestStopEndsEveryProcessByPID(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.MkdirAll(bin, 0o755)
	// a component that ignores SIGTERM, and one that does not
	os.WriteFile(filepath.Join(bin, "stubborn"), []byte("#!/bin/sh\ntrap '' TERM\nwhile :; do sleep 0.1; done\n"), 0o755)
	os.WriteFile(filepath.Join(bin, "polite"), []byte("#!/bin/sh\nexec sleep 600\n"), 0o755)
	c := &cluster{bin: bin, dir: dir}
	if err := c.start("polite"); err != nil {
		t.Fatal(err)
	}
	if err := c.start("stubborn"); err != nil {
		t.Fatal(err)
	}
	pids := []int{c.procs[0].Process.Pid, c.procs[1].Process.Pid}
	time.Sleep(200 * time.Millisecond)
	start := time.Now()
	c.stop()
	for _, pid := range pids {
		if err := syscall.Kill(pid, 0); err == nil {
			t.Errorf("pid %d still runs after stop", pid)
		}
	}
	if el := time.Since(start); el > 15*time.Second {
		t.Errorf("stop took %v", el)
	}
	if len(c.procs) != 0 {
		t.Errorf("stop left %d processes listed", len(c.procs))
	}
}

func TestPKIWritesAKubeconfigPerIdentity(t *testing.T) {
	p, err := newPKI(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := p.issue("admin", "kubernetes-admin", []string{"system:masters"}, nil, nil); err != nil {
		t.Fatal(err)
	}
	path, err := p.kubeconfig("admin", "https://127.0.0.1:6443")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	for _, want := range []string{"server: https://127.0.0.1:6443", p.path("admin.crt"), p.path("ca.crt")} {
		if !strings.Contains(string(b), want) {
			t.Errorf("kubeconfig lacks %q:\n%s", want, b)
		}
	}
	for _, f := range []string{"ca.crt", "sa.key", "sa.pub", "admin.crt", "admin.key"} {
		if _, err := os.Stat(p.path(f)); err != nil {
			t.Error(err)
		}
	}
}

// An audit line as kube-apiserver writes it: only completed writes count,
// and a partial last line waits for the next read.
func TestReadAuditKeepsCompletedWrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.log")
	lines := `{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"RequestResponse","auditID":"1","stage":"ResponseComplete","verb":"create","user":{"username":"system:serviceaccount:kube-system:replicaset-controller"},"objectRef":{"resource":"pods","namespace":"ns","apiVersion":"v1"},"responseStatus":{"metadata":{},"code":201}}
{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"RequestResponse","auditID":"2","stage":"ResponseComplete","verb":"create","user":{"username":"system:kube-scheduler"},"objectRef":{"resource":"pods","namespace":"ns","name":"p","subresource":"binding","apiVersion":"v1"},"responseStatus":{"metadata":{},"code":201}}
{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"3","stage":"ResponseStarted","verb":"watch","user":{"username":"x"},"objectRef":{"resource":"pods"}}
{"kind":"Event","stage":"ResponseComplete","verb":"patch"`
	os.WriteFile(path, []byte(lines), 0o644)
	evs, off, err := readAudit(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 2 || writeClass(evs[1]) != "system:kube-scheduler create pods/binding 201" {
		t.Fatalf("got %d events: %+v", len(evs), evs)
	}
	if full, _ := os.ReadFile(path); off != int64(strings.LastIndex(string(full), "\n")+1) {
		t.Errorf("offset %d stops inside a line", off)
	}
}
