//go:build unix

package quiz

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/k8sexplain/k8sexplain/internal/exitcode"
)

// The machine at fault is an environment error (exit 4), never exit 3, and
// the store opens its files without following symlinks and only if regular
// (issue 29).
func TestStoreEnvironmentErrors(t *testing.T) {
	base := t.TempDir()
	mk := func(name string, setup func(dir string)) string {
		dir := filepath.Join(base, name)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		setup(dir)
		return dir
	}
	target := filepath.Join(base, "target.jsonl")
	os.WriteFile(target, nil, 0o600)
	for _, tc := range []struct {
		name, dir, want string
	}{
		{"a name over 255 bytes", filepath.Join(base, strings.Repeat("a", 300)), "file name too long"},
		{"a symlink loop for the lock", mk("lockloop", func(d string) { os.Symlink(LockFile, filepath.Join(d, LockFile)) }), "is a symbolic link"},
		{"a dangling symlink for the log", mk("logdang", func(d string) { os.Symlink("/nonexistent/x", filepath.Join(d, LogFile)) }), "is a symbolic link"},
		{"the log pointing at /dev/zero", mk("zero", func(d string) { os.Symlink("/dev/zero", filepath.Join(d, LogFile)) }), "is a symbolic link"},
		{"the log a symlink to a file", mk("sym", func(d string) { os.Symlink(target, filepath.Join(d, LogFile)) }), "is a symbolic link"},
		{"the log a FIFO", mk("fifo", func(d string) { syscall.Mkfifo(filepath.Join(d, LogFile), 0o600) }), "is not a regular file"},
	} {
		s := &Store{Dir: tc.dir}
		_, err := s.Record(review("a", 1, t0))
		if err == nil || exitcode.Code(err) != exitcode.Environment || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v (exit %d), want exit 4 with %q", tc.name, err, exitcode.Code(err), tc.want)
		}
	}
	if data, _ := os.ReadFile(target); len(data) != 0 {
		t.Errorf("the quiz appended through the symlink to its target: %q", data)
	}
	// A FIFO where the derived state.json goes is moved aside, not waited on.
	dir := mk("statefifo", func(d string) { syscall.Mkfifo(filepath.Join(d, StateFile), 0o600) })
	if _, err := (&Store{Dir: dir}).Record(review("a", 1, t0)); err != nil {
		t.Fatalf("a FIFO state.json: %v", err)
	}
}
