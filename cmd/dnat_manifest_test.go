package cmd

import (
	"strings"
	"testing"
)

func TestDNATFromManifest(t *testing.T) {
	inRoot(t)
	out := runGolden(t, "dnat/manifest-app.txt", "dnat", "-f", "examples/app.yaml")
	// The Service's ClusterIP and chain are the ones the simulated apply
	// allocated and its kube-proxy wrote: the two commands agree.
	trace, _, _ := run(t, "", "trace", "apply", "examples/app.yaml")
	for _, want := range []string{"KUBE-SVC-CDGGSHYLG3RE2FKL", "10.105.13.105"} {
		if !strings.Contains(out, want) || !strings.Contains(trace, want) {
			t.Errorf("dnat -f and trace apply should both show %s", want)
		}
	}
	runGolden(t, "dnat/manifest-app.ru.md", "--lang", "ru", "--format", "markdown", "dnat", "-f", "examples/app.yaml")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"dnat", "-f", "examples/unschedulable.yaml"}, "no Service in the manifest"},
		{[]string{"dnat", "-f", "examples/app.yaml", "--service", "default/api"}, "--service default/api is not in the manifest (it has default/web)"},
		{[]string{"dnat", "-f", "examples/app.yaml", "--endpoints", "10.0.0.1:80"}, "--endpoints cannot be combined with -f"},
		{[]string{"dnat", "-f", "examples/app.yaml", "--port", "443"}, "--port 443: Service default/web has no such port"},
		{[]string{"dnat", "-f", "examples/missing.yaml"}, "no such file"},
	} {
		_, errOut, code := run(t, "", tc.args...)
		if code != 1 || !strings.Contains(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 1 and one line with %q", tc.args, code, errOut, tc.want)
		}
	}
}
