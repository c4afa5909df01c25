package readcap

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(p, []byte(strings.Repeat("x", 2048)), 0o600)
	if _, err := ReadFile(p, 4096, "a config file"); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(p, 1024, "a config file")
	if !errors.Is(err, ErrTooLarge) || err.Error() != p+": larger than 1 KiB, the limit for a config file" {
		t.Errorf("err %v", err)
	}
	if _, err := ReadFile("/dev/zero", 1<<20, "a config file"); err == nil || err.Error() != "/dev/zero: larger than 1 MiB, the limit for a config file" {
		t.Errorf("/dev/zero: %v", err)
	}
}

func TestLines(t *testing.T) {
	in := "short\n" + strings.Repeat("y", 100) + "\nnext\n"
	r := bufio.NewReader(Lines(strings.NewReader(in), "standard input", 50, "an answer line"))
	if s, err := r.ReadString('\n'); s != "short\n" || err != nil {
		t.Fatalf("%q %v", s, err)
	}
	s, err := r.ReadString('\n')
	if !errors.Is(err, ErrTooLarge) || len(s) > 50 || err.Error() != "standard input: larger than 50 bytes, the limit for an answer line" {
		t.Errorf("long line: %d bytes, %v", len(s), err)
	}
	// an endless line stops at the limit, not at the end of memory
	r = bufio.NewReader(Lines(io.LimitReader(zeros{}, 1<<30), "-", 1<<16, "a line"))
	if _, err := r.ReadString('\n'); !errors.Is(err, ErrTooLarge) {
		t.Errorf("endless line: %v", err)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'z'
	}
	return len(p), nil
}
