package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --endpoints-file gives the same rules as --endpoints with the same list,
// and takes 10,000 endpoints, more than a command line holds.
func TestDNATEndpointsFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "eps.txt")
	os.WriteFile(file, []byte("# three pods\n10.244.1.7:8080@node-a\n\n  10.244.2.7:8080@node-b  \n10.244.3.7\n"), 0o600)
	flag, _, code := run(t, "", "dnat", "--endpoints", "10.244.1.7:8080@node-a,10.244.2.7:8080@node-b,10.244.3.7", "--target-port", "8080")
	if code != 0 {
		t.Fatal(code)
	}
	fromFile, errOut, code := run(t, "", "dnat", "--endpoints-file", file, "--target-port", "8080")
	if code != 0 || fromFile != flag {
		t.Fatalf("--endpoints-file differs from --endpoints (exit %d, %s)", code, errOut)
	}
	stdin, _, code := run(t, "10.244.1.7:8080@node-a\n10.244.2.7:8080@node-b\n10.244.3.7\n", "dnat", "--endpoints-file", "-", "--target-port", "8080")
	if code != 0 || stdin != flag {
		t.Fatalf("--endpoints-file - differs from --endpoints (exit %d)", code)
	}
	var big strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&big, "10.%d.%d.%d:8080\n", 100+i/65536, i/256%256, i%256)
	}
	os.WriteFile(file, []byte(big.String()), 0o600)
	if len(big.String()) < 128<<10 {
		t.Fatalf("10,000 endpoints are %d bytes: no longer past one argument's limit (MAX_ARG_STRLEN 128 KiB)", big.Len())
	}
	out, errOut, code := run(t, "", "dnat", "--endpoints-file", file, "--mode", "nftables")
	if code != 0 || !strings.Contains(out, "10.100.39.15") {
		t.Fatalf("10,000 endpoints: exit %d, %s", code, errOut)
	}
}

// A bad line is one error naming the file and the line.
func TestDNATEndpointsFileErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "eps.txt")
	for _, tc := range []struct {
		content string
		args    []string
		msg     string
	}{
		{"10.244.1.2:80\n# fine\nnope\n", nil, file + `:3: invalid endpoint "nope": want ip:port`},
		{"10.244.1.2:80\n10.244.1.3:0\n", nil, file + `:2: invalid endpoint "10.244.1.3:0": port must be 1 to 65535`},
		{"127.0.0.1:80\n", nil, file + `:1: invalid endpoint "127.0.0.1:80": endpoints[0].addresses[0]: Invalid value: "127.0.0.1": may not be in the loopback range`},
		{"10.244.1.2:80,10.244.1.3:80\n", nil, file + `:1: invalid endpoint "10.244.1.2:80,10.244.1.3:80": one endpoint a line, no commas`},
		{"[fd00::1]:80\n", nil, file + `:1: endpoint "[fd00::1]:80" is IPv6 but the cluster IP 10.96.47.112 is IPv4`},
		{"10.244.1.2:80@Node_A\n", nil, file + `:1: invalid endpoint "10.244.1.2:80@Node_A": node name:`},
		{"10.244.1.2:80\n", []string{"--endpoints", "10.244.1.3:80"}, "--endpoints and --endpoints-file cannot be combined"},
		{"10.244.1.2:80\n", []string{"-f", "examples/app.yaml"}, "--endpoints-file cannot be combined with -f"},
	} {
		os.WriteFile(file, []byte(tc.content), 0o600)
		_, errOut, code := run(t, "", append([]string{"dnat", "--endpoints-file", file}, tc.args...)...)
		if code != 1 || !strings.Contains(errOut, tc.msg) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q (want exit 1 and one line with %q)", tc.content, code, errOut, tc.msg)
		}
	}
	_, errOut, code := run(t, "", "dnat", "--endpoints-file", filepath.Join(dir, "missing.txt"))
	if code != 1 || !strings.Contains(errOut, "--endpoints-file: open ") || !strings.Contains(errOut, "missing.txt") {
		t.Errorf("a missing file: exit %d, %q", code, errOut)
	}
}

// FuzzDNATEndpointsFile runs dnat on a fuzzed --endpoints-file: no panic,
// a failure is one line on stderr, output bounded (checkRun). Seeds: below
// and testdata/fuzz/FuzzDNATEndpointsFile.
func FuzzDNATEndpointsFile(f *testing.F) {
	f.Add("10.244.1.2:8080@node-a\n# comment\n\n[fd00::1]:80\n", false)
	f.Add("10.244.1.2\n10.244.1.2\n10.244.1.3:65535@n.example\n", true)
	f.Add("\x00\xff,,\n@\n[]:\n", false)
	f.Fuzz(func(t *testing.T, content string, nft bool) {
		file := filepath.Join(t.TempDir(), "eps.txt")
		if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		args := []string{"dnat", "--endpoints-file", file}
		if nft {
			args = append(args, "--mode", "nftables")
		}
		out, errOut, code := run(t, "", args...)
		checkRun(t, args, out, errOut, code)
	})
}
