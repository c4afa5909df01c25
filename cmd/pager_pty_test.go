//go:build linux

package cmd

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/iostreams"
	"github.com/k8sexplain/k8sexplain/internal/ptytest"
)

// On a terminal the output goes through K8SEXPLAIN_PAGER; the pager here
// marks every line, so the test sees it was used.
func TestPagerOnATerminal(t *testing.T) {
	inRoot(t)
	c := ptytest.Console(t)
	defer c.Close()
	pager := filepath.Join(t.TempDir(), "pager")
	if err := os.WriteFile(pager, []byte("#!/bin/sh\nsed 's/^/PAGED: /'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	io, _, _, errOut := iostreams.Test()
	io.Out, io.OutTTY = c.Tty(), true
	io.Getenv = func(k string) string {
		if k == "K8SEXPLAIN_PAGER" {
			return pager
		}
		return ""
	}
	done := make(chan int, 1)
	go func() {
		done <- Execute(io, []string{"--color", "never", "trace", "apply", "--summary", "examples/app.yaml"})
	}()
	if _, err := c.ExpectString("PAGED: Summary"); err != nil {
		t.Fatalf("no paged output: %v (stderr %q)", err, errOut.String())
	}
	if code := <-done; code != 0 {
		t.Fatalf("exit %d", code)
	}
	if io.Out != c.Tty() {
		t.Error("stdout not restored after the pager quit")
	}
}
