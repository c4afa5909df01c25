package cmd

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The flags of a trace on a real cluster: refused without --kubeconfig,
// checked before anything is sent; an unreachable server is one line and
// exit 4.
func TestTraceApplyKubeconfigFlags(t *testing.T) {
	inRoot(t)
	dir := t.TempDir()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	kc := filepath.Join(dir, "config")
	cfg := "apiVersion: v1\nkind: Config\ncurrent-context: dead\nclusters:\n- name: dead\n  cluster: {server: \"https://" + addr + "\"}\n" +
		"contexts:\n- name: dead\n  context: {cluster: dead, user: u}\nusers:\n- name: u\n  user: {token: x}\n"
	if err := os.WriteFile(kc, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--compare"}, 1, "--compare: only with --kubeconfig"},
		{[]string{"--namespace", "x", "--keep"}, 1, "--namespace, --keep: only with --kubeconfig"},
		{[]string{"--kubeconfig", kc, "--dry-run", "client"}, 1, `--dry-run "client": want none or server`},
		{[]string{"--kubeconfig", kc, "--dry-run", "server", "--compare"}, 1, "--compare with --dry-run=server"},
		{[]string{"--kubeconfig", kc, "--force"}, 1, "--force: only with --namespace"},
		{[]string{"--kubeconfig", kc, "--timeout", "0s"}, 1, "--timeout 0s: want more than 0 and at most 1h0m0s"},
		{[]string{"--kubeconfig", kc, "--timeout", "2h"}, 1, "--timeout 2h0m0s: want more than 0 and at most 1h0m0s"},
		{[]string{"--kubeconfig", filepath.Join(dir, "nope")}, 1, "nope: no such file"},
		{[]string{"--kubeconfig", kc, "--context", "other"}, 1, `context "other" does not exist`},
		{[]string{"--kubeconfig", kc}, 4, "cannot reach the API server https://" + addr + " (context dead)"},
	} {
		args := append([]string{"trace", "apply", "examples/app.yaml"}, tc.args...)
		out, errOut, code := run(t, "", args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) || out != "" || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and %q on one line", tc.args, code, out, errOut, tc.code, tc.want)
		}
	}
}
